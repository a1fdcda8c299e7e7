// What the backtest workers (backtest-workers.ts) and the sweep workers (sweep-workers.ts) share:
// a job's advisory lock held on a connection of its own, and the pg-boss workers of a queue and of
// its dead-letter queue with the recovery loop beside them. What a job does, how its data is read,
// what a dead-lettered job ends and what recovery looks for stay with each queue's module.
import type PgBoss from 'pg-boss';
import pg from 'pg';

/** Run, sweep and job ids as pg-boss and the tables store them. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An advisory lock's name: the key is the 64-bit hash of `namespace` followed by `id` (e.g. 'vyuha.backtest-run:' and a run id). */
export interface AdvisoryLockName {
  readonly namespace: string;
  readonly id: string;
}

/**
 * Runs `work` holding the session-level advisory lock `name` on a connection of its own, outside
 * the pool: a job holds its lock for its whole duration while its queries use the pool, so with
 * the lock taken from the pool, `concurrency` jobs could starve the pool and wait on each other
 * forever. PostgreSQL releases the lock when the connection ends, including when the process was
 * killed: that is how recovery tells a dead worker from a slow one.
 */
export async function withAdvisoryLock<T>(pool: pg.Pool, name: AdvisoryLockName, work: () => Promise<T>): Promise<T | 'locked-elsewhere'> {
  const client = new pg.Client(pool.options);
  // A dropped lock connection must not crash the process; each job's final write guards its results.
  client.on('error', () => undefined);
  await client.connect();
  try {
    const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock(hashtextextended($1::text || $2::text, 0)) AS locked', [name.namespace, name.id]);
    if (rows[0]?.locked !== true) return 'locked-elsewhere';
    return await work();
  } finally {
    // Ending the session releases the lock.
    await client.end().catch(() => undefined);
  }
}

/** True when nobody holds the lock (checked by taking and releasing it). */
export async function advisoryLockIsFree(pool: pg.Pool, name: AdvisoryLockName): Promise<boolean> {
  return (await withAdvisoryLock(pool, name, async () => true)) === true;
}

/** The message a failed job's output carries (pg-boss stores a thrown error as { message } or { value: { message } }). */
export function failureMessage(output: unknown): string {
  const record = (output ?? {}) as { message?: unknown; value?: { message?: unknown } };
  const message = typeof record.message === 'string' ? record.message : typeof record.value?.message === 'string' ? record.value.message : undefined;
  return message ?? 'the job failed without a message';
}

export interface QueueWorkersOptions<J, R> {
  readonly boss: PgBoss;
  readonly queue: string;
  /** Where the queue's jobs go after their last failure (the queue's policy). */
  readonly deadLetterQueue: string;
  /** Jobs handled at once by this process (default 1). */
  readonly concurrency?: number;
  /** How often workers poll, seconds (pg-boss minimum 0.5; default 1). */
  readonly pollingIntervalSeconds?: number;
  /** How often recovery runs, ms (default 30 s; 0 = only once at start). */
  readonly recoveryIntervalMs?: number;
  /** The job's data as `handle` takes it; undefined when it cannot be read. */
  readonly read: (job: PgBoss.Job<unknown>) => J | undefined;
  /** A job whose data could not be read (it is skipped). */
  readonly unreadable: (job: PgBoss.Job<unknown>) => void;
  readonly handle: (job: J) => Promise<void>;
  /** A job that failed for good, with the message of its last failure. Unreadable ones are skipped. */
  readonly deadLettered: (job: J, failure: string) => Promise<void>;
  /** Fails abandoned jobs and ends what they left behind; run at start and every `recoveryIntervalMs`. */
  readonly recover: () => Promise<R>;
  /** A recovery pass that threw (the loop goes on). */
  readonly recoveryFailed: (error: Error) => void;
}

export interface QueueWorkers<R> {
  /** Runs recovery now (also run periodically). */
  recover(): Promise<R>;
  /** Stops polling (running jobs are left to `queue.stop()` to wait for) and the recovery loop. */
  stop(): Promise<void>;
}

/**
 * Starts `concurrency` workers on the queue, one on its dead-letter queue, and the recovery loop.
 * @example const workers = await startQueueWorkers({ boss, queue: BACKTEST_QUEUE, deadLetterQueue: BACKTEST_DEAD_LETTER_QUEUE, read, unreadable, handle, deadLettered, recover, recoveryFailed });
 */
export async function startQueueWorkers<J, R>(options: QueueWorkersOptions<J, R>): Promise<QueueWorkers<R>> {
  const { boss } = options;
  const pollingIntervalSeconds = options.pollingIntervalSeconds ?? 1;
  const workerIds: string[] = [];
  for (let worker = 0; worker < Math.max(1, options.concurrency ?? 1); worker += 1) {
    workerIds.push(await boss.work<unknown>(options.queue, { pollingIntervalSeconds, batchSize: 1 }, async (jobs) => {
      for (const job of jobs) {
        const data = options.read(job);
        if (data === undefined) options.unreadable(job);
        else await options.handle(data);
      }
    }));
  }
  workerIds.push(await boss.work<unknown>(options.deadLetterQueue, { pollingIntervalSeconds, includeMetadata: true }, async (jobs) => {
    for (const job of jobs) {
      const data = options.read(job);
      if (data !== undefined) await options.deadLettered(data, failureMessage(job.output));
    }
  }));
  const safeRecover = (): void => {
    options.recover().catch((error: unknown) => options.recoveryFailed(error as Error));
  };
  safeRecover();
  const interval = options.recoveryIntervalMs ?? 30_000;
  const timer = interval > 0 ? setInterval(safeRecover, interval) : undefined;
  timer?.unref();
  return {
    recover: options.recover,
    async stop() {
      if (timer !== undefined) clearInterval(timer);
      for (const id of workerIds) await boss.offWork({ id });
    },
  };
}

/**
 * The jobs a worker process is running, so that what they use (worker threads) is closed only
 * after them, or after a time limit on shutdown.
 */
export class JobsInFlight {
  private readonly running = new Set<Promise<unknown>>();

  /** Runs `work`, counted until it settles. */
  async track<T>(work: () => Promise<T>): Promise<T> {
    const promise = work();
    this.running.add(promise);
    try {
      return await promise;
    } finally {
      this.running.delete(promise);
    }
  }

  /** Resolves when every job running now has settled, or after `timeoutMs`. */
  async settled(timeoutMs: number): Promise<void> {
    if (this.running.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<void>((resolve) => { timer = setTimeout(resolve, timeoutMs); });
    await Promise.race([Promise.allSettled([...this.running]), limit]);
    if (timer !== undefined) clearTimeout(timer);
  }
}
