// Backtest workers on the pg-boss queue, the dead-letter worker, and the recovery loop (the
// queue machinery and the lock are job-runner.ts's, shared with the sweep workers).
//
// One run is executed at most once at a time, whoever holds its job: a worker takes a
// session-level advisory lock on the run (on a connection it keeps for the run) before
// executing, and a worker that cannot get it leaves the run to the holder. PostgreSQL releases
// the lock when the holder's connection ends, including when its process was killed, which is
// how the recovery loop tells a dead worker from a slow one. Results are written at most once
// anyway: the final transaction requires the run to be IN PROGRESS (backtest-results.ts).
//
// Restarts: a job whose worker died stays `active` in pg-boss; recovery fails it (its run's lock
// is free), pg-boss retries it (the run starts again from 0%: runs are deterministic) up to the
// policy's retryLimit, then dead-letters it, and the dead-letter worker ends the run in ERROR
// naming the reason. A run IN PROGRESS with no live job at all (e.g. its job was deleted) is
// ended in ERROR by recovery too.
import type PgBoss from 'pg-boss';
import type pg from 'pg';
import { executeBacktestRun } from './backtest-run';
import type { RunDisposition } from './backtest-run';
import { failBacktestRun } from './backtest-results';
import { BACKTEST_DEAD_LETTER_QUEUE, BACKTEST_QUEUE, BACKTEST_QUEUE_POLICY } from './job-queue';
import type { JobLog, JobQueue } from './job-queue';
import { BacktestThreads } from './backtest-threads';
import { advisoryLockIsFree, JobsInFlight, startQueueWorkers, UUID, withAdvisoryLock } from './job-runner';

/** First attempt plus the policy's retries. */
const BACKTEST_ATTEMPTS = BACKTEST_QUEUE_POLICY.retryLimit + 1;

export interface BacktestWorkersOptions {
  readonly pool: pg.Pool;
  readonly queue: JobQueue;
  readonly log: JobLog;
  /** Runs executed at once by this process (default: one per thread, else 1). */
  readonly concurrency?: number;
  /**
   * Worker threads runs are computed on (default: one per available core; 0: none, each run is
   * computed on the event loop's thread). Option-legs runs are always computed there
   * (backtest-threads.ts).
   */
  readonly threads?: number;
  /** On stop, how long running jobs may keep the threads before they are closed (default 10 s, as the queue waits). */
  readonly stopWaitMs?: number;
  /** How often workers poll for jobs, seconds (pg-boss minimum 0.5; default 1). */
  readonly pollingIntervalSeconds?: number;
  /** How often the recovery loop runs, ms (default 30 s; 0 = only once at start). */
  readonly recoveryIntervalMs?: number;
  /** A job active for less than this is never treated as abandoned (its worker may be taking the lock). Default 30 s. */
  readonly recoveryGraceSeconds?: number;
  readonly now?: () => number;
  readonly onProgress?: (runId: string, percent: number) => void;
  readonly progressIntervalMs?: number;
  /** Called after each run a worker handled (tests, metrics). */
  readonly onRunHandled?: (runId: string, disposition: RunDisposition | 'locked-elsewhere') => void;
}

export interface BacktestWorkers {
  /** Finds abandoned jobs and orphaned runs now (also run periodically). */
  recover(): Promise<{ failedJobs: number; endedRuns: number }>;
  /** Stops polling (running jobs are left to `queue.stop()` to wait for). */
  stop(): Promise<void>;
}

/** The advisory lock of a run (job-runner.ts): held by whoever executes it. */
const runLock = (runId: string): { namespace: string; id: string } => ({ namespace: 'vyuha.backtest-run:', id: runId });

function runIdOf(job: PgBoss.Job<unknown>): string | undefined {
  const data = job.data as { runId?: unknown } | null;
  return typeof data?.runId === 'string' && UUID.test(data.runId) ? data.runId : undefined;
}

async function abandonedJobs(options: BacktestWorkersOptions): Promise<number> {
  const { pool, queue } = options;
  const { rows } = await pool.query<{ id: string; run_id: string | null }>(
    `SELECT id, data->>'runId' AS run_id FROM ${queue.schema}.job
     WHERE name = $1 AND state = 'active' AND started_on < now() - $2 * interval '1 second'`,
    [BACKTEST_QUEUE, options.recoveryGraceSeconds ?? 30]);
  let failed = 0;
  for (const row of rows) {
    if (row.run_id !== null && UUID.test(row.run_id) && !(await advisoryLockIsFree(pool, runLock(row.run_id)))) continue;
    await queue.boss.fail(BACKTEST_QUEUE, row.id, { message: 'the worker running this backtest stopped (process restart or crash)' });
    failed += 1;
  }
  return failed;
}

async function orphanedRuns(options: BacktestWorkersOptions): Promise<number> {
  const { pool, queue } = options;
  const { rows } = await pool.query<{ run_id: string }>(
    `SELECT r.run_id FROM strategy_runs r
     WHERE r.kind = 'BACKTEST' AND r.status = 'IN PROGRESS' AND r.started_at < now() - $1 * interval '1 second'
       AND NOT EXISTS (SELECT 1 FROM ${queue.schema}.job j
                       WHERE j.name IN ($2, $3) AND j.data->>'runId' = r.run_id::text AND j.state < 'completed')`,
    [options.recoveryGraceSeconds ?? 30, BACKTEST_QUEUE, BACKTEST_DEAD_LETTER_QUEUE]);
  let ended = 0;
  for (const row of rows) {
    if (!(await advisoryLockIsFree(options.pool, runLock(row.run_id)))) continue;
    if (await failBacktestRun(pool, { runId: row.run_id, reason: 'the backtest job was lost (no queued or running job for this run)' })) ended += 1;
  }
  return ended;
}

/**
 * Starts `concurrency` backtest workers, the dead-letter worker and the recovery loop (job-runner.ts).
 * @example const workers = await startBacktestWorkers({ pool, queue, log, concurrency: 2 }); ... await workers.stop();
 */
export async function startBacktestWorkers(options: BacktestWorkersOptions): Promise<BacktestWorkers> {
  const { pool, queue, log } = options;
  const threads = options.threads === 0 ? undefined : new BacktestThreads(options.threads === undefined ? {} : { threads: options.threads });
  const inFlight = new JobsInFlight();
  const workers = await startQueueWorkers({
    boss: queue.boss,
    queue: BACKTEST_QUEUE,
    deadLetterQueue: BACKTEST_DEAD_LETTER_QUEUE,
    concurrency: options.concurrency ?? threads?.size ?? 1,
    ...(options.pollingIntervalSeconds === undefined ? {} : { pollingIntervalSeconds: options.pollingIntervalSeconds }),
    ...(options.recoveryIntervalMs === undefined ? {} : { recoveryIntervalMs: options.recoveryIntervalMs }),
    read: runIdOf,
    unreadable: (job) => log('backtest job without a run id', { jobId: job.id }),
    handle: async (runId) => {
      const disposition = await inFlight.track(() => withAdvisoryLock(pool, runLock(runId), () => executeBacktestRun({
        pool, runId, ...(options.now === undefined ? {} : { now: options.now }),
        ...(options.onProgress === undefined ? {} : { onProgress: (percent: number) => options.onProgress?.(runId, percent) }),
        ...(options.progressIntervalMs === undefined ? {} : { progressIntervalMs: options.progressIntervalMs }),
        ...(threads === undefined ? {} : { threads }),
      })));
      log('backtest run handled', { runId, disposition });
      options.onRunHandled?.(runId, disposition);
    },
    deadLettered: async (runId, failure) => {
      const reason = `the backtest failed after ${BACKTEST_ATTEMPTS} attempts: ${failure}`;
      if (await failBacktestRun(pool, { runId, reason })) log('backtest run dead-lettered', { runId, reason });
    },
    recover: async () => ({ failedJobs: await abandonedJobs(options), endedRuns: await orphanedRuns(options) }),
    recoveryFailed: (error) => log('backtest recovery failed', { error: error.message }),
  });
  return {
    recover: workers.recover,
    async stop() {
      await workers.stop();
      // A run still computing when the wait ends fails; pg-boss runs it again (runs are deterministic).
      await inFlight.settled(options.stopWaitMs ?? 10_000);
      await threads?.close();
    },
  };
}
