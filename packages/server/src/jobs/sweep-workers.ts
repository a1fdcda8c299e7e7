// Sweep jobs on pg-boss: enqueueing a sweep's chunks, the chunk workers, the dead-letter worker
// and the recovery loop. Any process that runs workers (VYUHA_ROLE worker or all) takes chunks,
// so one sweep's chunks run on every worker process at once, and inside a process a chunk's runs
// are spread over its worker threads (sweep-threads.ts): every core of every worker process.
//
// A sweep is one job per chunk (a range of combination indices, sweep-request.ts's plan); a
// walk-forward is one job: its stitched out-of-sample result needs every window's run, which the
// engine's runWalkForward keeps in memory (windows are independent, but splitting them would mean
// storing each window's equity and stitching again here, outside the engine).
//
// Crash safety, as backtests (backtest-workers.ts): a worker holds a session-level advisory lock
// on the job id (on a connection of its own) while it runs the job. A job whose worker died stays
// `active`; recovery fails it once its lock is free, and pg-boss retries it (rows are written
// idempotently, sweep-run.ts) up to the policy's retryLimit, then dead-letters it, and the
// dead-letter worker ends the sweep in ERROR naming the chunk and the reason. A sweep still
// QUEUED or IN PROGRESS with no live job at all is ended in ERROR by recovery too.
import type PgBoss from 'pg-boss';
import type pg from 'pg';
import { SWEEP_CHUNK_DEAD_LETTER_QUEUE, SWEEP_CHUNK_QUEUE, SWEEP_CHUNK_QUEUE_POLICY, transactionalDb } from './job-queue';
import type { JobLog, JobQueue } from './job-queue';
import { executeSweepJob, failSweep } from './sweep-run';
import { SweepThreads } from './sweep-threads';
import { advisoryLockIsFree, JobsInFlight, startQueueWorkers, UUID, withAdvisoryLock } from './job-runner';
import type { SweepDisposition, SweepJob } from './sweep-run';

const SWEEP_ATTEMPTS = SWEEP_CHUNK_QUEUE_POLICY.retryLimit + 1;

/**
 * Enqueues a sweep's jobs inside the caller's transaction (so a refused or rolled-back start
 * leaves no job behind).
 */
export async function enqueueSweepJobs(queue: JobQueue, request: { client: pg.PoolClient; sweepId: string; ranges: readonly { from: number; to: number }[] }): Promise<void> {
  if (request.ranges.length === 0) return;
  await queue.boss.insert(request.ranges.map((range) => ({ name: SWEEP_CHUNK_QUEUE, data: { sweepId: request.sweepId, from: range.from, to: range.to } })),
    { db: transactionalDb(request.client) });
}

/** Cancels a sweep's jobs not yet finished (a job already running stops at its next write). */
export async function cancelSweepJobs(queue: JobQueue, pool: pg.Pool, sweepId: string): Promise<void> {
  const { rows } = await pool.query<{ id: string }>(
    `SELECT id FROM ${queue.schema}.job WHERE name = $1 AND data->>'sweepId' = $2 AND state < 'active'`, [SWEEP_CHUNK_QUEUE, sweepId]);
  if (rows.length > 0) await queue.boss.cancel(SWEEP_CHUNK_QUEUE, rows.map((row) => row.id));
}

export interface SweepWorkersOptions {
  readonly pool: pg.Pool;
  readonly queue: JobQueue;
  readonly log: JobLog;
  /** Chunks run at once by this process (default 1: each chunk's runs already use every thread). */
  readonly concurrency?: number;
  /**
   * Worker threads a chunk's runs (or a walk-forward's in-sample sweeps) are spread over (default:
   * one per available core; 0: none, the runs go on the event loop's thread). Sweeps of a futures
   * chain or option legs always run on the event loop's thread (sweep-run.ts).
   */
  readonly threads?: number;
  /** On stop, how long running chunks may keep the threads before they are closed (default 10 s, as the queue waits). */
  readonly stopWaitMs?: number;
  /** How often workers poll, seconds (pg-boss minimum 0.5; default 1). */
  readonly pollingIntervalSeconds?: number;
  /** How often recovery runs, ms (default 30 s; 0 = only once at start). */
  readonly recoveryIntervalMs?: number;
  /** A job active or a sweep queued for less than this is never treated as abandoned. Default 30 s. */
  readonly recoveryGraceSeconds?: number;
  /** Called after each job a worker handled (tests, metrics). */
  readonly onJobHandled?: (job: SweepJob, disposition: SweepDisposition | 'locked-elsewhere') => void;
}

export interface SweepWorkers {
  /** Fails abandoned chunk jobs and ends orphaned sweeps now (also run periodically). */
  recover(): Promise<{ failedJobs: number; endedSweeps: number }>;
  stop(): Promise<void>;
}

/** The advisory lock of a chunk job (job-runner.ts), by job id: a sweep's chunks run at once, each under its own. */
const jobLock = (jobId: string): { namespace: string; id: string } => ({ namespace: 'vyuha.sweep-job:', id: jobId });

/** A chunk job: its pg-boss id (its lock) and the sweep range it runs. */
interface ChunkJob {
  readonly jobId: string;
  readonly sweep: SweepJob;
}

function jobOf(job: PgBoss.Job<unknown>): ChunkJob | undefined {
  const data = job.data as { sweepId?: unknown; from?: unknown; to?: unknown } | null;
  if (typeof data?.sweepId !== 'string' || !UUID.test(data.sweepId) || !Number.isSafeInteger(data.from) || !Number.isSafeInteger(data.to)) return undefined;
  return { jobId: job.id, sweep: { sweepId: data.sweepId, from: data.from as number, to: data.to as number } };
}

async function abandonedJobs(options: SweepWorkersOptions): Promise<number> {
  const { pool, queue } = options;
  const { rows } = await pool.query<{ id: string }>(
    `SELECT id FROM ${queue.schema}.job WHERE name = $1 AND state = 'active' AND started_on < now() - $2 * interval '1 second'`,
    [SWEEP_CHUNK_QUEUE, options.recoveryGraceSeconds ?? 30]);
  let failed = 0;
  for (const row of rows) {
    if (!(await advisoryLockIsFree(pool, jobLock(row.id)))) continue;
    await queue.boss.fail(SWEEP_CHUNK_QUEUE, row.id, { message: 'the worker running this sweep chunk stopped (process restart or crash)' });
    failed += 1;
  }
  return failed;
}

async function orphanedSweeps(options: SweepWorkersOptions): Promise<number> {
  const { pool, queue } = options;
  const { rows } = await pool.query<{ sweep_id: string }>(
    `SELECT s.sweep_id FROM sweeps s
     WHERE s.status IN ('QUEUED', 'IN PROGRESS') AND s.created_at < now() - $1 * interval '1 second'
       AND NOT EXISTS (SELECT 1 FROM ${queue.schema}.job j
                       WHERE j.name IN ($2, $3) AND j.data->>'sweepId' = s.sweep_id::text AND j.state < 'completed')`,
    [options.recoveryGraceSeconds ?? 30, SWEEP_CHUNK_QUEUE, SWEEP_CHUNK_DEAD_LETTER_QUEUE]);
  let ended = 0;
  for (const row of rows) {
    if (await failSweep(pool, { sweepId: row.sweep_id, reason: 'the sweep\'s jobs were lost (no queued or running job for it)' })) ended += 1;
  }
  return ended;
}

/**
 * Starts `concurrency` chunk workers, the dead-letter worker and the recovery loop (job-runner.ts).
 * @example const workers = await startSweepWorkers({ pool, queue, log }); ... await workers.stop();
 */
export async function startSweepWorkers(options: SweepWorkersOptions): Promise<SweepWorkers> {
  const { pool, queue, log } = options;
  const threads = options.threads === 0 ? undefined : new SweepThreads(options.threads === undefined ? {} : { threads: options.threads });
  const inFlight = new JobsInFlight();
  const workers = await startQueueWorkers({
    boss: queue.boss,
    queue: SWEEP_CHUNK_QUEUE,
    deadLetterQueue: SWEEP_CHUNK_DEAD_LETTER_QUEUE,
    ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
    ...(options.pollingIntervalSeconds === undefined ? {} : { pollingIntervalSeconds: options.pollingIntervalSeconds }),
    ...(options.recoveryIntervalMs === undefined ? {} : { recoveryIntervalMs: options.recoveryIntervalMs }),
    read: jobOf,
    unreadable: (job) => log('sweep job without a sweep id and range', { jobId: job.id }),
    handle: async ({ jobId, sweep: sweepJob }) => {
      const disposition = await inFlight.track(() => withAdvisoryLock(pool, jobLock(jobId), () => executeSweepJob(pool, sweepJob, threads === undefined ? {} : { threads })));
      log('sweep job handled', { ...sweepJob, disposition });
      options.onJobHandled?.(sweepJob, disposition);
    },
    deadLettered: async ({ sweep: sweepJob }, failure) => {
      const reason = `combinations ${sweepJob.from}..${sweepJob.to - 1} failed after ${SWEEP_ATTEMPTS} attempts: ${failure}`;
      if (await failSweep(pool, { sweepId: sweepJob.sweepId, reason })) log('sweep dead-lettered', { sweepId: sweepJob.sweepId, reason });
    },
    recover: async () => ({ failedJobs: await abandonedJobs(options), endedSweeps: await orphanedSweeps(options) }),
    recoveryFailed: (error) => log('sweep recovery failed', { error: error.message }),
  });
  return {
    recover: workers.recover,
    async stop() {
      await workers.stop();
      // A chunk still running when the wait ends fails; pg-boss runs it again (rows already written are kept).
      await inFlight.settled(options.stopWaitMs ?? 10_000);
      await threads?.close();
    },
  };
}
