// The sweep jobs' threads: a chunk's runs, or a walk-forward's in-sample sweeps, on worker threads
// of this process (../sweep/run-pool.ts), so that one worker process uses every core and its event
// loop stays free for the API, job polling and progress writes while they run.
//
// - One pool per sweep whose jobs this process is running, started on the sweep's series at its
//   first job (the series' columns are copied once into shared memory), used by one job at a time
//   (later jobs of the sweep wait their turn: a pool runs one sweep at a time, over all its threads).
// - A pool is closed when its sweep is released (completed, or its inputs left the cache), after
//   IDLE_MS without a job, or when the workers stop. A pool whose job failed is dropped (a thread
//   may have died): the job fails as the serial run would, and the next job starts a new pool.
// - Results equal the serial `runSweepChunk` / `runWalkForward` (the pool's own guarantee); rows of
//   a chunk keep their positions in the whole grid.
import type { BarSeries, SweepRow, WalkForwardRequest, WalkForwardResult } from '@vyuha/engine';
import { SweepPool } from '../sweep/run-pool';
import type { SweepJob as PoolJob, WatchOptions } from '../sweep/run-pool';
import { walkForwardInPool } from '../sweep/walk-forward-pool';
import type { FuturesRecipeData } from '../backtest/prepared-run';
import type { LegsJob } from '../sweep/sweep-legs';

/** A pool without a job for this long is closed (its threads hold the engine and a copy of the series). */
const IDLE_MS = 60_000;

export interface SweepThreadsOptions {
  /** Threads per sweep pool; default one per available core. */
  readonly threads?: number;
  readonly idleMs?: number;
}

interface Entry {
  readonly pool: SweepPool;
  /** The last job's end: the next job of the sweep starts after it. */
  turn: Promise<unknown>;
  /** Jobs queued or running on the pool. */
  pending: number;
  timer: NodeJS.Timeout | undefined;
}

export class SweepThreads {
  private readonly entries = new Map<string, Entry>();
  private closed = false;

  constructor(private readonly options: SweepThreadsOptions = {}) {}

  /**
   * Rows of combinations `from` .. `to` - 1 of `job` over `series`, each with its position in the whole grid.
   * @example await threads.rows(sweepId, { series, job: { document, config, combinations, metric }, from: 0, to: 40 }) // as runSweepChunk({ ..., from: 0, to: 40 })
   */
  async rows(key: string, slice: { series: BarSeries; job: PoolJob; from: number; to: number }, watch: Pick<WatchOptions, 'onWanted'> = {}): Promise<SweepRow[]> {
    const { series, job, from, to } = slice;
    return this.inTurn(key, series, async (pool) => {
      const result = await pool.sweep({ ...job, combinations: job.combinations.slice(from, to) }, watch);
      return result.rows.map((row) => ({ ...row, index: row.index + from }));
    });
  }

  /**
   * `runWalkForward(request)` with its in-sample sweeps on the sweep's pool (an index's futures:
   * `futures`, the chain's recipe; option legs: `legs`, the traders' data and the candle store).
   */
  async walkForward(key: string, request: WalkForwardRequest, options: WatchOptions & { futures?: FuturesRecipeData; legs?: LegsJob } = {}): Promise<WalkForwardResult> {
    return this.inTurn(key, request.series, (pool) => walkForwardInPool(pool, request, options));
  }

  /** Closes the sweep's pool (after the job using it, if any). */
  async release(key: string): Promise<void> {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    if (entry.timer !== undefined) clearTimeout(entry.timer);
    await entry.turn.catch(() => undefined);
    await entry.pool.close();
  }

  /** Closes every pool; later jobs are refused. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.entries.keys()].map((key) => this.release(key)));
  }

  private inTurn<T>(key: string, series: BarSeries, work: (pool: SweepPool) => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new Error('the sweep threads are closed'));
    let entry = this.entries.get(key);
    if (entry !== undefined && entry.pool.series !== series) {
      // The sweep's inputs were loaded again (they had left the cache): a pool on the new series.
      void this.release(key);
      entry = undefined;
    }
    if (entry === undefined) {
      entry = { pool: SweepPool.start(series, { ...(this.options.threads === undefined ? {} : { workers: this.options.threads }) }), turn: Promise.resolve(), pending: 0, timer: undefined };
      this.entries.set(key, entry);
    }
    const current = entry;
    if (current.timer !== undefined) clearTimeout(current.timer);
    current.timer = undefined;
    current.pending += 1;
    const run = current.turn.catch(() => undefined).then(() => work(current.pool));
    current.turn = run;
    run.then(() => {
      current.pending -= 1;
      this.idle(key, current);
    }, () => {
      current.pending -= 1;
      if (this.entries.get(key) === current) void this.release(key);
    });
    return run;
  }

  private idle(key: string, entry: Entry): void {
    if (this.entries.get(key) !== entry || entry.pending > 0) return;
    if (entry.timer !== undefined) clearTimeout(entry.timer);
    entry.timer = setTimeout(() => void this.release(key), this.options.idleMs ?? IDLE_MS);
    entry.timer.unref();
  }
}
