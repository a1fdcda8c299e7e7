// The sweep jobs' threads: a chunk's runs, or a walk-forward's in-sample sweeps, on worker threads
// of this process (../sweep/run-pool.ts), so that one worker process uses every core and its event
// loop stays free for the API, job polling and progress writes while they run.
//
// - One pool for every sweep this process runs, started at the first job. Each job gives the pool
//   its sweep's series (copied once into shared memory when it is not the one the threads have),
//   so the threads load the engine once and every sweep after the first runs on code their earlier
//   runs optimised (a fresh thread spends about a second of CPU optimising it). Jobs take turns:
//   a pool runs one sweep at a time, over all its threads, which already use every core.
// - The pool is closed after IDLE_MS without a job, or when the workers stop. A pool whose thread
//   died is dropped: a job running on it fails (pg-boss runs it again), and the next job starts a
//   new pool. A job that fails for its own reasons (a refused combination or config, a cancel)
//   fails as the serial run would and leaves the pool, its threads warm, to the next job.
// - Results equal the serial `runSweepChunk` / `runWalkForward` (the pool's own guarantee); rows of
//   a chunk keep their positions in the whole grid.
import type { BarSeries, SweepRow, WalkForwardRequest, WalkForwardResult } from '@vyuha/engine';
import { SweepPool } from '../sweep/run-pool';
import type { SweepJob as PoolJob, WatchOptions } from '../sweep/run-pool';
import { walkForwardInPool } from '../sweep/walk-forward-pool';
import type { FuturesRecipeData } from '../backtest/prepared-run';
import type { LegsJob } from '../sweep/sweep-legs';

/** The pool is closed after this long without a job (its threads hold the engine's optimised code and the last series). */
const IDLE_MS = 5 * 60_000;

export interface SweepThreadsOptions {
  /** Threads in the pool; default one per available core. */
  readonly threads?: number;
  readonly idleMs?: number;
}

export class SweepThreads {
  private pool: SweepPool | undefined;
  /** The last job's end: the next job starts after it. */
  private turn: Promise<unknown> = Promise.resolve();
  /** Jobs queued or running. */
  private pending = 0;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly options: SweepThreadsOptions = {}) {}

  /**
   * Rows of combinations `from` .. `to` - 1 of `job` over `series`, each with its position in the whole grid.
   * @example await threads.rows({ series, job: { document, config, combinations, metric }, from: 0, to: 40 }) // as runSweepChunk({ ..., from: 0, to: 40 })
   */
  async rows(slice: { series: BarSeries; job: PoolJob; from: number; to: number }, watch: Pick<WatchOptions, 'onWanted'> = {}): Promise<SweepRow[]> {
    const { series, job, from, to } = slice;
    return this.inTurn(series, async (pool) => {
      const result = await pool.sweep({ ...job, combinations: job.combinations.slice(from, to) }, watch);
      return result.rows.map((row) => ({ ...row, index: row.index + from }));
    });
  }

  /**
   * `runWalkForward(request)` with its in-sample sweeps on the pool (an index's futures:
   * `futures`, the chain's recipe; option legs: `legs`, the traders' data and the candle store).
   */
  async walkForward(request: WalkForwardRequest, options: WatchOptions & { futures?: FuturesRecipeData; legs?: LegsJob } = {}): Promise<WalkForwardResult> {
    return this.inTurn(request.series, (pool) => walkForwardInPool(pool, request, options));
  }

  /** Closes the pool (after the job using it, if any); later jobs are refused. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    await this.turn.catch(() => undefined);
    await this.drop();
  }

  private inTurn<T>(series: BarSeries, work: (pool: SweepPool) => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new Error('the sweep threads are closed'));
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.pending += 1;
    const run = this.turn.catch(() => undefined).then(async () => {
      if (this.closed) throw new Error('the sweep threads are closed');
      // A thread died since the last job (the pool refuses runs then): start again.
      if (this.pool?.usable === false) await this.drop();
      this.pool ??= SweepPool.start(series, this.options.threads === undefined ? {} : { workers: this.options.threads });
      this.pool.useSeries(series);
      return work(this.pool);
    });
    // The next job waits for this one, and for the pool to be closed if a thread died under it.
    this.turn = run.then(() => undefined, () => (this.pool?.usable === false ? this.drop() : undefined));
    void this.turn.then(() => {
      this.pending -= 1;
      this.idle();
    });
    return run;
  }

  /** Closes the pool and forgets it (a thread died, idle, or at close). */
  private async drop(): Promise<void> {
    const pool = this.pool;
    this.pool = undefined;
    await pool?.close();
  }

  private idle(): void {
    if (this.pending > 0 || this.closed || this.pool === undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      // A job may have come meanwhile: it cleared this timer, or it is pending.
      if (this.pending === 0) void (this.turn = this.turn.then(() => this.drop()));
    }, this.options.idleMs ?? IDLE_MS);
    this.timer.unref();
  }
}
