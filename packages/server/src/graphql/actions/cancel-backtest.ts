// `cancel_backtest(run_id)`: the spec's run statuses have no CANCELLED, so a cancelled run ends
// in ERROR with `error` saying who cancelled it and when (the web app shows the error cross and
// the reason); its reserved credits are given back (candles = 0). The job is cancelled too; a
// worker already running it stops at its next progress step (the run is no longer IN PROGRESS)
// and writes nothing.
import { formatIstDateTime } from '@vyuha/core';
import type { ActionInvocation } from '../metadata/types';
import { GraphqlFailure } from '../types';
import { cancelBacktestJob } from '../../jobs/job-queue';
import type { BacktestActionContext } from './run-backtest';
import { actorId, BACKTEST_ROLES, isUuid, requireRole, targetUserId } from './session-access';

export interface CancelBacktestOutput {
  readonly run_id: string;
  /** The run's status after the call. */
  readonly status: string;
  /** False when the run had already ended (its status is returned unchanged). */
  readonly cancelled: boolean;
}

/**
 * The `cancel_backtest` handler: own runs only (a manager acting for a user: that user's runs).
 * @example await cancelBacktestAction(context, { args: { run_id }, session }) // { run_id, status: 'ERROR', cancelled: true }
 */
export async function cancelBacktestAction(context: BacktestActionContext, invocation: ActionInvocation): Promise<CancelBacktestOutput> {
  const { session } = invocation;
  requireRole(session, BACKTEST_ROLES, 'cancel_backtest');
  const userId = targetUserId(session);
  const runId = invocation.args.run_id;
  if (!isUuid(runId)) throw new GraphqlFailure('validation-failed', `run_id must be a uuid, got ${JSON.stringify(runId)}`, '$.selectionSet.cancel_backtest.args.run_id');
  const reason = `cancelled by ${actorId(session) === userId ? 'the user' : 'the manager'} at ${formatIstDateTime(context.now())} IST`;
  const { rows } = await context.pool.query<{ status: string; cancelled: boolean }>(
    `WITH target AS (
       SELECT run_id, status FROM strategy_runs WHERE run_id = $1 AND user_id = $2 AND kind = 'BACKTEST' FOR UPDATE
     ), ended AS (
       UPDATE strategy_runs r SET status = 'ERROR', error = $3, candles = 0, finished_at = greatest(now(), r.started_at)
       FROM target WHERE r.run_id = target.run_id AND target.status = 'IN PROGRESS'
       RETURNING r.status
     )
     SELECT coalesce((SELECT status FROM ended), target.status) AS status, EXISTS (SELECT 1 FROM ended) AS cancelled FROM target`,
    [runId, userId, reason]);
  const row = rows[0];
  if (row === undefined) throw new GraphqlFailure('not-found', `no backtest run ${runId} of yours`, '$.selectionSet.cancel_backtest.args.run_id');
  if (row.cancelled) await cancelBacktestJob(context.queue, runId);
  return { run_id: runId, status: row.status, cancelled: row.cancelled };
}
