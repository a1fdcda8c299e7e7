// The sweep actions of the GraphQL schema: estimate_sweep (query), start_sweep and cancel_sweep
// (mutations). A sweep or walk-forward starts from one of the user's backtest runs (same
// algorithm version, instrument, range, interval, investment) with parameter ranges,
// constraints, a sample, a metric and, for a walk-forward, windows (sweep-input.ts). Results are
// read through the `sweeps` and `sweep_results` tables (and their subscriptions).
//
// start_sweep: checks (role, strategy:backtest, the plan, credits), then in ONE transaction the
// sweeps row (credits reserved: `candles` = the estimate) and its chunk jobs; a refusal writes
// nothing. Credits are checked under the same per-user advisory lock as run_backtest, against the
// licences view, which counts backtest runs and sweeps alike.
import type pg from 'pg';
import type { JobQueue } from '../../jobs/job-queue';
import { chunkRanges } from '../../jobs/sweep-request';
import { cancelSweepRow } from '../../jobs/sweep-run';
import { cancelSweepJobs, enqueueSweepJobs } from '../../jobs/sweep-workers';
import type { ActionDeclaration, ActionInvocation } from '../metadata/types';
import { GraphqlFailure } from '../types';
import { formatIstDateTime } from '@vyuha/core';
import { INSUFFICIENT_CREDITS } from './run-backtest';
import { actorId, BACKTEST_ROLES, isUuid, requirePermission, requireRole, targetUserId } from './session-access';
import { planSweep } from './sweep-input';
import type { SweepPlan } from './sweep-input';

export const SWEEP_TYPES = `
"""A parameter's range in a sweep: from, to and step (to - from a whole number of steps). Parameters left out keep the algorithm's own range."""
input sweep_parameter_range {
  name: String!
  from: Float!
  to: Float!
  step: Float!
}

"""A seeded random sample of count distinct combinations instead of all of them (the same seed gives the same sample)."""
input sweep_sample {
  count: Int!
  seed: Int!
}

"""Walk-forward windows in trading days: each in-sample window chooses the parameters the next out-of-sample window runs."""
input sweep_walk_forward {
  inSampleDays: Int!
  outOfSampleDays: Int!
  """Days between window starts (default and minimum: outOfSampleDays)."""
  stepDays: Int
  """In-sample windows all start at the range's first day."""
  anchored: Boolean
}

"""A sweep (kind sweep, the default) or walk-forward (kind walkforward) of one of your backtest runs. metric: netPnl, returnPercent, maxDrawdown, maxDrawdownPercent, sharpe (default), winRate, trades, profitFactor."""
input sweep_input {
  run_id: uuid!
  kind: String
  parameters: [sweep_parameter_range!]
  constraints: [String!]
  sample: sweep_sample
  metric: String
  walkForward: sweep_walk_forward
}

type estimate_sweep_output {
  kind: String!
  """Runs of the sweep (each in-sample sweep of a walk-forward runs all of them)."""
  combinations: Int!
  """Combinations of the ranges before constraints and sampling."""
  grid_combinations: Float!
  """Walk-forward windows on the calendar; null for a sweep."""
  windows: Int
  """Candles of one run over the whole range."""
  candles_per_run: Int!
  chunks: Int!
  """BACKTEST credits (candles) the sweep will reserve."""
  credits: Float!
  """BACKTEST credits left now."""
  remaining_credits: Float!
  """The effective ranges, every declared parameter in declaration order: [{ name, default, from, to, step }]."""
  parameters: jsonb!
  constraints: [String!]!
}

type start_sweep_output {
  sweep_id: uuid!
  combinations: Int!
  chunks: Int!
  """BACKTEST credits (candles) reserved."""
  credits: Float!
}

type cancel_sweep_output {
  sweep_id: uuid!
  status: String!
  cancelled: Boolean!
}
`;

export interface SweepActionsOptions {
  readonly pool: pg.Pool;
  readonly queue: JobQueue;
  /** Wall clock, epoch ms (default Date.now). */
  readonly now?: () => number;
}

interface SweepContext {
  readonly pool: pg.Pool;
  readonly queue: JobQueue;
  readonly now: () => number;
}

async function remainingCredits(db: pg.Pool | pg.PoolClient, userId: string): Promise<number> {
  const { rows } = await db.query<{ total_credits: string; utilized_credits: string }>(
    `SELECT total_credits, utilized_credits FROM licences WHERE user_id = $1 AND licence_type = 'backtest'`, [userId]);
  return Math.max(0, Number(rows[0]?.total_credits ?? 0) - Number(rows[0]?.utilized_credits ?? 0));
}

function creditsMessage(plan: SweepPlan, available: number): string {
  const { request } = plan;
  const how = request.kind === 'walkforward'
    ? `${plan.windows ?? 0} windows, each an in-sample sweep of ${request.combinations} combinations plus an out-of-sample run`
    : `${request.combinations} combinations x ${request.candlesPerRun} candles`;
  return `this ${request.kind === 'walkforward' ? 'walk-forward' : 'sweep'} needs ${request.estimatedCandles} BACKTEST credits (candles: ${how}) and ${available} are available`;
}

function access(invocation: ActionInvocation, action: string): string {
  requireRole(invocation.session, BACKTEST_ROLES, action);
  requirePermission(invocation.session, 'strategy:backtest', action);
  return targetUserId(invocation.session);
}

/** The estimate_sweep handler: the plan and the credits, nothing written. */
export async function estimateSweepAction(context: SweepContext, invocation: ActionInvocation): Promise<Record<string, unknown>> {
  const userId = access(invocation, 'estimate_sweep');
  const plan = await planSweep(context.pool, { action: 'estimate_sweep', session: invocation.session, userId, input: invocation.args.input });
  const { request } = plan;
  return {
    kind: request.kind, combinations: request.combinations, grid_combinations: plan.gridCombinations, windows: plan.windows,
    candles_per_run: request.candlesPerRun, chunks: plan.chunks, credits: request.estimatedCandles,
    remaining_credits: await remainingCredits(context.pool, userId), parameters: request.parameters, constraints: request.constraints,
  };
}

/** The start_sweep handler: refuses what the credits cannot cover; else the sweep row and its jobs, in one transaction. */
export async function startSweepAction(context: SweepContext, invocation: ActionInvocation): Promise<Record<string, unknown>> {
  const userId = access(invocation, 'start_sweep');
  const plan = await planSweep(context.pool, { action: 'start_sweep', session: invocation.session, userId, input: invocation.args.input });
  const { request } = plan;
  const client = await context.pool.connect();
  try {
    await client.query('BEGIN');
    // The lock run_backtest takes: a user's backtests and sweeps cannot spend the same credits.
    await client.query(`SELECT pg_advisory_xact_lock(hashtextextended('vyuha.backtest-credits:' || $1, 0))`, [userId]);
    const available = await remainingCredits(client, userId);
    if (request.estimatedCandles > available) throw new GraphqlFailure(INSUFFICIENT_CREDITS, creditsMessage(plan, available), '$.selectionSet.start_sweep');
    const { rows } = await client.query<{ sweep_id: string }>(
      `INSERT INTO sweeps (user_id, actor_id, run_id, algorithm_id, algorithm_version, instrument_id, kind, request, metric, combinations, chunks, estimated_candles, candles)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12) RETURNING sweep_id`,
      [userId, request.actorId, plan.runId, request.algorithm.algorithmId, request.algorithm.version, request.instrument.instrumentId, request.kind,
        JSON.stringify(request), request.metric, request.kind === 'walkforward' ? Math.max(1, plan.windows ?? 1) : request.combinations, plan.chunks, request.estimatedCandles]);
    const sweepId = (rows[0] as { sweep_id: string }).sweep_id;
    const ranges = request.kind === 'walkforward' ? [{ from: 0, to: request.combinations }] : chunkRanges(request.combinations, request.chunkSize);
    await enqueueSweepJobs(context.queue, { client, sweepId, ranges });
    await client.query('COMMIT');
    return { sweep_id: sweepId, combinations: request.combinations, chunks: ranges.length, credits: request.estimatedCandles };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** The cancel_sweep handler: own sweeps only (a manager acting for a user: that user's). */
export async function cancelSweepAction(context: SweepContext, invocation: ActionInvocation): Promise<Record<string, unknown>> {
  const { session } = invocation;
  requireRole(session, BACKTEST_ROLES, 'cancel_sweep');
  const userId = targetUserId(session);
  const sweepId = invocation.args.sweep_id;
  if (!isUuid(sweepId)) throw new GraphqlFailure('validation-failed', `sweep_id must be a uuid, got ${JSON.stringify(sweepId)}`, '$.selectionSet.cancel_sweep.args.sweep_id');
  const reason = `cancelled by ${actorId(session) === userId ? 'the user' : 'the manager'} at ${formatIstDateTime(context.now())} IST`;
  const row = await cancelSweepRow(context.pool, { sweepId, userId, reason });
  if (row === undefined) throw new GraphqlFailure('not-found', `no sweep ${sweepId} of yours`, '$.selectionSet.cancel_sweep.args.sweep_id');
  if (row.cancelled) await cancelSweepJobs(context.queue, context.pool, sweepId);
  return { sweep_id: sweepId, status: row.status, cancelled: row.cancelled };
}

/**
 * The action declarations for the metadata (`Metadata.actions`).
 * @example sweepActions({ pool, queue }).map((action) => action.name) // ['estimate_sweep', 'start_sweep', 'cancel_sweep']
 */
export function sweepActions(options: SweepActionsOptions): ActionDeclaration[] {
  const context = { pool: options.pool, queue: options.queue, now: options.now ?? Date.now };
  return [
    {
      name: 'estimate_sweep',
      kind: 'query',
      field: 'estimate_sweep(input: sweep_input!): estimate_sweep_output!',
      types: SWEEP_TYPES,
      description: 'What a sweep or walk-forward of one of your backtest runs would run and cost (combinations, windows, credits), with every bad field named; nothing is written.',
      roles: BACKTEST_ROLES,
      handler: (invocation) => estimateSweepAction(context, invocation),
    },
    {
      name: 'start_sweep',
      kind: 'mutation',
      field: 'start_sweep(input: sweep_input!): start_sweep_output!',
      types: '',
      description: 'Starts a sweep or walk-forward of one of your backtest runs (needs strategy:backtest and enough BACKTEST credits); follow it in sweeps and sweep_results.',
      roles: BACKTEST_ROLES,
      handler: (invocation) => startSweepAction(context, invocation),
    },
    {
      name: 'cancel_sweep',
      kind: 'mutation',
      field: 'cancel_sweep(sweep_id: uuid!): cancel_sweep_output!',
      types: '',
      description: 'Stops a sweep or walk-forward still QUEUED or IN PROGRESS: it ends CANCELLED and keeps charged only the candles of the rows already written.',
      roles: BACKTEST_ROLES,
      handler: (invocation) => cancelSweepAction(context, invocation),
    },
  ];
}
