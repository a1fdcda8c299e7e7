// The job queue: pg-boss 10 in the `pgboss` schema of Vyuha's own database. Jobs are rows, so
// they survive restarts and are shared by every process on the database (README.md, VYUHA_ROLE: N API and
// M worker processes); pg-boss hands each job to one worker (SKIP LOCKED), retries failed and
// expired ones, and copies jobs that failed for good to a dead-letter queue.
import PgBoss from 'pg-boss';
import type pg from 'pg';

export type JobLog = (message: string, details?: Record<string, unknown>) => void;

/** The backtest queue and where its jobs go after their last failure. */
export const BACKTEST_QUEUE = 'backtest';
export const BACKTEST_DEAD_LETTER_QUEUE = 'backtest-dead';

/**
 * How backtest jobs are retried. A job whose worker died (process killed, machine lost) stays
 * `active` until `expireInSeconds`; the workers' recovery loop notices sooner (the run's advisory
 * lock is free) and fails it. Either way pg-boss retries it `retryLimit` times, then dead-letters
 * it, and the dead-letter worker ends the run in ERROR with the reason.
 */
export const BACKTEST_QUEUE_POLICY = { retryLimit: 2, retryDelay: 2, retryBackoff: false, expireInSeconds: 30 * 60 } as const;

/** Sweep chunks (a range of combinations) and walk-forwards, and where they go after their last failure (sweep-workers.ts). */
export const SWEEP_CHUNK_QUEUE = 'sweep-chunk';
export const SWEEP_CHUNK_DEAD_LETTER_QUEUE = 'sweep-chunk-dead';

/** As backtests: a chunk whose worker died is failed by recovery (or expires) and retried; rows are written idempotently. */
export const SWEEP_CHUNK_QUEUE_POLICY = { retryLimit: 2, retryDelay: 2, retryBackoff: false, expireInSeconds: 30 * 60 } as const;

/** The queue whose jobs wake a worker to run a deployed strategy (strategy-run-jobs.ts). */
export const STRATEGY_RUN_QUEUE = 'strategy-run';

/**
 * How strategy-run jobs behave. A run lasts hours or days, longer than any pg-boss expiry (under
 * 24 h), so the job only wakes a worker: the run's lease in strategy_runs (lease_owner,
 * heartbeat_at), not the job's state or expiry, decides who runs it, and a dead worker's runs are
 * found by their stale heartbeat. `stately` keeps at most one waiting and one active job per run
 * (the singleton key is the run id); no retries, since a failed wake-up loses nothing the lease
 * scan does not find again.
 */
export const STRATEGY_RUN_QUEUE_POLICY = { policy: 'stately', retryLimit: 0, expireInSeconds: 23 * 60 * 60 } as const;

export interface JobQueueOptions {
  readonly connectionString: string;
  /** Default `pgboss`. */
  readonly schema?: string;
  readonly log?: JobLog;
  /** Connections pg-boss may open (default 4). */
  readonly maxConnections?: number;
  /** pg-boss's own maintenance (expiring jobs, archiving); default true. Tests may turn it off. */
  readonly supervise?: boolean;
}

export interface JobQueue {
  readonly boss: PgBoss;
  readonly schema: string;
  /** Installs or migrates the pgboss schema, starts maintenance and creates Vyuha's queues. */
  start(): Promise<void>;
  /** Stops workers (waiting up to `timeoutMs` for running jobs) and closes pg-boss's pool. */
  stop(options?: { timeoutMs?: number; graceful?: boolean }): Promise<void>;
}

/**
 * A pg-boss queue on Vyuha's database.
 * @example const queue = createJobQueue({ connectionString: url }); await queue.start(); ... await queue.stop();
 */
export function createJobQueue(options: JobQueueOptions): JobQueue {
  const schema = options.schema ?? 'pgboss';
  const boss = new PgBoss({
    connectionString: options.connectionString, schema, max: options.maxConnections ?? 4, application_name: 'vyuha-jobs',
    supervise: options.supervise ?? true,
  });
  // pg-boss emits background errors (maintenance, polling); without a listener they would crash the process.
  boss.on('error', (error) => options.log?.('job queue error', { error: error.message }));
  let started = false;
  return {
    boss,
    schema,
    async start() {
      await boss.start();
      started = true;
      await boss.createQueue(BACKTEST_DEAD_LETTER_QUEUE, { name: BACKTEST_DEAD_LETTER_QUEUE, retryLimit: 3, retryDelay: 5 });
      await boss.createQueue(BACKTEST_QUEUE, { name: BACKTEST_QUEUE, ...BACKTEST_QUEUE_POLICY, deadLetter: BACKTEST_DEAD_LETTER_QUEUE });
      await boss.createQueue(STRATEGY_RUN_QUEUE, { name: STRATEGY_RUN_QUEUE, ...STRATEGY_RUN_QUEUE_POLICY });
      await boss.createQueue(SWEEP_CHUNK_DEAD_LETTER_QUEUE, { name: SWEEP_CHUNK_DEAD_LETTER_QUEUE, retryLimit: 3, retryDelay: 5 });
      await boss.createQueue(SWEEP_CHUNK_QUEUE, { name: SWEEP_CHUNK_QUEUE, ...SWEEP_CHUNK_QUEUE_POLICY, deadLetter: SWEEP_CHUNK_DEAD_LETTER_QUEUE });
    },
    async stop(stopOptions = {}) {
      if (!started) return;
      started = false;
      await boss.stop({ graceful: stopOptions.graceful ?? true, wait: true, timeout: stopOptions.timeoutMs ?? 30_000 });
    },
  };
}

/** pg-boss's `db` option over a client of ours, so jobs are inserted inside our transaction. */
export function transactionalDb(client: pg.PoolClient): PgBoss.Db {
  return { executeSql: async (text, values) => ({ rows: (await client.query(text, values)).rows }) };
}

/**
 * Enqueues one backtest job per run inside the caller's transaction: the job id is the run id,
 * so a run has one job and cancelling it needs nothing else.
 */
export async function enqueueBacktestRuns(queue: JobQueue, request: { client: pg.PoolClient; runIds: readonly string[] }): Promise<void> {
  if (request.runIds.length === 0) return;
  await queue.boss.insert(request.runIds.map((runId) => ({ id: runId, name: BACKTEST_QUEUE, data: { runId } })), { db: transactionalDb(request.client) });
}

/** Cancels a run's job if it has not finished (a job already running notices at its next progress step). */
export async function cancelBacktestJob(queue: JobQueue, runId: string): Promise<void> {
  await queue.boss.cancel(BACKTEST_QUEUE, runId);
}
