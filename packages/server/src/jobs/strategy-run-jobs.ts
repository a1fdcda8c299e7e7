// Strategy-run jobs: the wake-up a deployed strategy's run sends to the workers. The job carries
// only the run id; the run's lease in strategy_runs decides who runs it (job-queue.ts,
// STRATEGY_RUN_QUEUE_POLICY), so a job that is lost, expired or repeated changes nothing a
// runner relies on. Enqueued inside the deploying transaction: a refused or rolled-back deploy
// leaves no job, and a committed one always has its job.
import type pg from 'pg';
import { STRATEGY_RUN_QUEUE, transactionalDb } from './job-queue';
import type { JobQueue } from './job-queue';

/** What a strategy-run job carries. */
export interface StrategyRunJobData {
  readonly runId: string;
}

/**
 * Enqueues the run's wake-up in the caller's transaction; the singleton key is the run id, so a
 * run has at most one waiting job (a second call while one waits adds nothing).
 * @example await enqueueStrategyRun(queue, { client, runId }) // one pgboss.job row: name 'strategy-run', singleton_key runId
 */
export async function enqueueStrategyRun(queue: JobQueue, request: { client: pg.PoolClient; runId: string }): Promise<void> {
  const data: StrategyRunJobData = { runId: request.runId };
  await queue.boss.insert([{ name: STRATEGY_RUN_QUEUE, data, singletonKey: request.runId }], { db: transactionalDb(request.client) });
}
