// Grids of backtests over worker threads (issue 20, "Both cores"): a pool of N threads, each
// loading the engine once and mapping the series from shared memory once, that runs a sweep as
// chunks of combination indices dealt one at a time to whichever thread is free.
//
// Invariants:
// - The result equals the engine's serial `runSweep` exactly: each chunk is `runSweepChunk` on the
//   same inputs, the chunks are merged by index (`mergeSweepChunks`) and read by `sweepResult`.
// - Chunks are dealt in index order; after the first failure no more are dealt, the ones running
//   finish, and the error of the lowest failing chunk is thrown: the first failing combination's,
//   the error the serial run throws (same class, same message: sweep-protocol.ts).
// - A thread that dies (its module fails to load, it runs out of memory) rejects the run.
// - One run at a time per pool; `close` terminates every thread (callers close in a finally).
// - Between runs the pool may be given another series (`useSeries`): the threads, their code
//   already optimised, run the next sweep over it and keep nothing of the last one.
// - A caller's AbortSignal stops the dealing: the tasks running finish, then the run rejects with
//   SweepAborted and the pool takes the next run.
// - The threads share one indicator arena (the engine's SharedColumns) of the default indicator
//   budget: each indicator of the whole series is computed once, by the first thread to need it,
//   and read by the others. The pool empties it when it gives another series, never during a run.
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { emptySharedColumns, IndicatorCache, mergeSweepChunks, shareSeries, sharedColumnsData, sharedColumnsUse, sweepResult } from '@vyuha/engine';
import type { BarSeries, SharedColumnsData, SharedColumnsUse, SweepRequest, SweepResult, SweepRow } from '@vyuha/engine';
import type { FuturesRecipeData } from '../backtest/prepared-run';
import type { FromWorker, JobMessage, PoolSeries, SeriesMessage, TaskMessage } from './sweep-protocol';
import { LegsSent } from './sweep-legs';
import type { LegsJob } from './sweep-legs';
import { receivedError } from './sweep-protocol';
import { BUNDLED_THREAD_OPTIONS } from '../threads/thread-entry';

/**
 * Without a chunk size from the caller, each chunk is the remaining combinations / (threads x 4)
 * (guided scheduling): large chunks first, then smaller ones, so the threads finish together
 * instead of one running a last large chunk alone.
 */
const GUIDED_SHARE = 4;

export interface PoolOptions {
  /** Threads; default `os.availableParallelism()`. */
  readonly workers?: number;
}

export interface ChunkOptions {
  /** Combinations per task; default guided: the remaining / (threads x 4), shrinking as the sweep ends. */
  readonly chunkSize?: number;
}

/** What a caller watching a long run (a walk-forward job) passes. */
export interface WatchOptions {
  /** Called after each task with the tasks done and the tasks in all (a job's progress). */
  readonly onTaskDone?: (done: number, total: number) => void;
  /** Once aborted no more tasks are dealt; the run rejects with SweepAborted after the ones running finish. */
  readonly signal?: AbortSignal;
  /** Option legs: called with the stored contracts a task's runs asked for that the job's candles lacked (sweep-legs.ts). */
  readonly onWanted?: (tradingSymbols: readonly string[]) => void;
}

/** A run stopped by its caller's AbortSignal. */
export class SweepAborted extends Error {
  override readonly name = 'SweepAborted';
}

/**
 * A sweep's inputs other than the series (the pool holds that). A chain of contracts or a trader
 * factory are objects of this process and cannot be posted to a thread: an index traded as its
 * futures comes as the chain's recipe (`futures`), built again over the series in each thread, and
 * option legs as the traders' data and the job's candle store, of which the threads are sent
 * what they have not had yet (`legs`, sweep-legs.ts).
 */
export type SweepJob = Omit<SweepRequest, 'series' | 'contracts' | 'trader' | 'scratch' | 'compile'> & { readonly futures?: FuturesRecipeData; readonly legs?: LegsJob };

/** Bars `fromBar` .. `toBar` - 1 of the pool's series. */
export interface BarRange {
  readonly fromBar: number;
  readonly toBar: number;
}

/** Per task: its rows, its error, or undefined when it was not dealt because an earlier one failed. */
type Outcome = readonly SweepRow[] | Error | undefined;

/** The thread entry bundled from the sources, once per process. */
let sourceEntry: URL | undefined;

/** What this file uses of esbuild's API. */
interface Bundler {
  buildSync(options: Record<string, unknown>): { outputFiles: ReadonlyArray<{ text: string }> };
}

/**
 * The thread entry: the CLI bundle's own sweep-worker.mjs when bin/vyuha.mjs built one
 * (VYUHA_SWEEP_WORKER); else sweep-worker.ts bundled from the sources in memory, as bin/vyuha.mjs
 * bundles the CLI (esbuild, tsx's own dependency), and started from a data: URL, so that a thread
 * under tsx or vitest loads one module instead of the engine's hundreds through a loader.
 */
export function workerEntry(): URL {
  const bundled = process.env.VYUHA_SWEEP_WORKER;
  if (bundled !== undefined && bundled !== '') return pathToFileURL(bundled);
  if (sourceEntry === undefined) {
    const esbuild = createRequire(createRequire(import.meta.url).resolve('tsx'))('esbuild') as Bundler;
    const root = fileURLToPath(new URL('../../../../', import.meta.url));
    const output = esbuild.buildSync({
      entryPoints: [fileURLToPath(new URL('./sweep-worker.ts', import.meta.url))], absWorkingDir: root, bundle: true, write: false, format: 'esm',
      platform: 'node', target: 'node20', packages: 'external', logLevel: 'silent',
      alias: Object.fromEntries(['core', 'market', 'engine'].map((name) => [`@vyuha/${name}`, join(root, 'packages', name, 'src', 'index.ts')])),
    });
    const text = (output.outputFiles[0] as { text: string }).text;
    sourceEntry = new URL(`data:text/javascript;base64,${Buffer.from(text).toString('base64')}`);
  }
  return sourceEntry;
}

/** The threads to start: `requested`, or one per available core. Throws RangeError naming the bad value. */
export function poolSize(requested: number | undefined): number {
  if (requested === undefined) return availableParallelism();
  if (!Number.isSafeInteger(requested) || requested < 1 || requested > 256) throw new RangeError(`workers must be a whole number from 1 to 256, got ${requested}`);
  return requested;
}

/**
 * Index ranges [from, to) of `size` each (the last may be shorter).
 * @example chunkRanges(10, 4) // [[0, 4], [4, 8], [8, 10]]
 */
export function chunkRanges(total: number, size: number): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  for (let from = 0; from < total; from += size) ranges.push([from, Math.min(total, from + size)]);
  return ranges;
}

/**
 * Index ranges [from, to) each holding the remaining count / `share` (at least 1), so they shrink.
 * @example guidedRanges(10, 4) // [[0, 3], [3, 5], [5, 7], [7, 8], [8, 9], [9, 10]]
 */
export function guidedRanges(total: number, share: number): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  for (let from = 0; from < total;) {
    const to = from + Math.max(1, Math.ceil((total - from) / share));
    ranges.push([from, to]);
    from = to;
  }
  return ranges;
}

export class SweepPool {
  private readonly threads: Worker[];
  private readonly loaded: Promise<void>;
  /** Rejects when a thread dies. */
  private readonly died: Promise<never>;
  private reportDeath: (error: Error) => void = () => undefined;
  private nextJob = 0;
  /** What the threads have been sent of each option-legs candle store (they keep it until the series changes). */
  private legsSent = new LegsSent();
  private running = false;
  private closing = false;
  private broken: Error | undefined;
  private onMessage: ((thread: Worker, message: Exclude<FromWorker, { type: 'ready' }>) => void) | undefined;
  private onCrash: ((error: Error) => void) | undefined;

  /** The series the threads share (read-only) now. */
  private current: BarSeries;
  /** The threads' indicator arena over the current series. */
  private columns: SharedColumnsData;

  private constructor(series: BarSeries, workers: number) {
    this.current = series;
    this.columns = sharedColumnsData(series.length, IndicatorCache.DEFAULT_MAX_BYTES);
    const workerData: PoolSeries = { series: shareSeries(series), columns: this.columns };
    const entry = workerEntry();
    const ready: Array<Promise<void>> = [];
    this.threads = Array.from({ length: workers }, () => {
      const thread = new Worker(entry, { workerData, ...BUNDLED_THREAD_OPTIONS });
      ready.push(new Promise<void>((resolve) => {
        thread.on('message', (message: FromWorker) => {
          if (message.type === 'ready') resolve();
          else this.onMessage?.(thread, message);
        });
      }));
      thread.on('error', (error) => this.crash(error));
      thread.on('exit', (code) => {
        if (!this.closing) this.crash(new Error(`a sweep worker thread stopped (exit code ${code})`));
      });
      return thread;
    });
    this.loaded = Promise.all(ready).then(() => undefined);
    this.died = new Promise<never>((_resolve, reject) => {
      this.reportDeath = reject;
    });
    this.died.catch(() => undefined);
  }

  /**
   * Starts `workers` threads (default one per core) sharing `series`.
   * @example const pool = SweepPool.start(series, { workers: 2 }); try { await pool.sweep(job); } finally { await pool.close(); }
   */
  static start(series: BarSeries, options: PoolOptions = {}): SweepPool {
    return new SweepPool(series, poolSize(options.workers));
  }

  /** Resolves once every thread has loaded the engine (tasks sent before then wait in its queue); rejects if one dies first. */
  ready(): Promise<void> {
    return Promise.race([this.loaded, this.died]);
  }

  /** The series the threads share (read-only), for what the caller runs beside them. */
  get series(): BarSeries {
    return this.current;
  }

  /**
   * Gives the threads `series` for the runs after this call (its columns copied once into shared
   * memory); they drop what they kept of the last one (its indicators, its futures chains). The
   * threads stay up, with the engine's code as their earlier runs optimised it. Throws while a
   * run is on the pool.
   * @example pool.useSeries(nextSeries); await pool.sweep(job) // runs over nextSeries
   */
  useSeries(series: BarSeries): void {
    if (series === this.current) return;
    if (this.running) throw new Error('the sweep pool cannot change its series during a run');
    this.columns = emptySharedColumns(this.columns, series.length);
    const message: SeriesMessage = { type: 'series', series: shareSeries(series), columns: this.columns };
    for (const thread of this.threads) thread.postMessage(message);
    this.current = series;
    // The threads drop the candle stores' copies with the series (a store belongs to one sweep's inputs).
    this.legsSent = new LegsSent();
  }

  get size(): number {
    return this.threads.length;
  }

  /** The indicators the threads have computed into their shared arena over the current series, and their columns. */
  get sharedIndicators(): SharedColumnsUse {
    return sharedColumnsUse(this.columns);
  }

  /** False once a thread has died or the pool is closing: it then refuses every run. */
  get usable(): boolean {
    return this.broken === undefined && !this.closing;
  }

  /** The chunks of `total` combinations: the caller's size, else guided (GUIDED_SHARE). */
  chunksOf(total: number, options: ChunkOptions = {}): Array<[number, number]> {
    const { chunkSize } = options;
    if (chunkSize === undefined) return guidedRanges(total, this.threads.length * GUIDED_SHARE);
    if (!Number.isSafeInteger(chunkSize) || chunkSize < 1) throw new RangeError(`chunkSize must be a whole number >= 1, got ${chunkSize}`);
    return chunkRanges(total, chunkSize);
  }

  /**
   * The sweep over the whole series: equal to `runSweep({ series, ...job })`. Throws what it throws.
   * @example (await pool.sweep({ document, combinations, metric: 'sharpe' })).rows.length // combinations.length
   */
  async sweep(job: SweepJob, options: ChunkOptions & WatchOptions = {}): Promise<SweepResult> {
    const [rows] = await this.sweepRanges(job, [{ fromBar: 0, toBar: this.current.length }], options);
    if (rows instanceof Error) throw rows;
    return sweepResult(rows as SweepRow[], job.metric);
  }

  /**
   * One sweep of `job` per bar range (each over a copy of those bars, as the walk-forward's
   * in-sample sweep), chunks of every range in one queue (range by range, index by index). Per
   * range: its rows in combination order, or the error its serial sweep would throw, or undefined
   * for ranges after the first failing one (not run).
   */
  async sweepRanges(job: SweepJob, ranges: readonly BarRange[], options: ChunkOptions & WatchOptions = {}): Promise<Array<SweepRow[] | Error | undefined>> {
    const total = job.combinations.length;
    const chunks = this.chunksOf(total, options);
    const tasks = ranges.flatMap((range) => chunks.map(([from, to]) => ({ from, to, fromBar: range.fromBar, toBar: range.toBar })));
    const outcomes = await this.runTasks(job, tasks, options);
    return ranges.map((_range, index) => {
      const mine = outcomes.slice(index * chunks.length, (index + 1) * chunks.length);
      const failure = mine.find((outcome): outcome is Error => outcome instanceof Error);
      if (failure !== undefined) return failure;
      if (mine.some((outcome) => outcome === undefined)) return undefined;
      return mergeSweepChunks(total, mine as Array<readonly SweepRow[]>);
    });
  }

  /** Terminates every thread. */
  async close(): Promise<void> {
    this.closing = true;
    await Promise.all(this.threads.map((thread) => thread.terminate()));
  }

  private crash(error: Error): void {
    this.broken ??= error;
    this.reportDeath(error);
    this.onCrash?.(error);
  }

  /** Sends the job to every thread, deals the tasks in order, and collects every outcome. */
  private runTasks(job: SweepJob, tasks: ReadonlyArray<Omit<TaskMessage, 'type' | 'job' | 'task'>>, watch: WatchOptions = {}): Promise<Outcome[]> {
    if (watch.signal?.aborted === true) return Promise.reject(new SweepAborted('the sweep was stopped before it started'));
    if (this.broken !== undefined) return Promise.reject(this.broken);
    if (this.closing) return Promise.reject(new Error('the sweep pool is closed'));
    if (this.running) return Promise.reject(new Error('the sweep pool runs one sweep at a time'));
    const objects = job as { contracts?: unknown; trader?: unknown };
    if (objects.contracts !== undefined || objects.trader !== undefined) {
      return Promise.reject(new RangeError('a sweep pool cannot run a contract chain or a trader factory on its threads: send a futures recipe, or run the sweep serially'));
    }
    this.running = true;
    const id = this.nextJob;
    this.nextJob += 1;
    const jobMessage: JobMessage = {
      type: 'job', job: id, document: job.document, config: job.config, combinations: job.combinations, metric: job.metric, ...(job.futures === undefined ? {} : { futures: job.futures }),
      ...(job.legs === undefined ? {} : { legs: this.legsSent.message(job.legs) }),
    };
    return new Promise<Outcome[]>((resolve, reject) => {
      const outcomes: Outcome[] = new Array<Outcome>(tasks.length).fill(undefined);
      let next = 0;
      let inFlight = 0;
      let done = 0;
      let failed = false;
      let settled = false;
      const settle = (error?: Error): void => {
        if (settled) return;
        settled = true;
        this.running = false;
        this.onMessage = undefined;
        this.onCrash = undefined;
        // The threads forget the job's inputs whatever its outcome: a kept pool runs job after job.
        if (this.broken === undefined) for (const thread of this.threads) thread.postMessage({ type: 'forget', job: id });
        if (error !== undefined) {
          reject(error);
          return;
        }
        resolve(outcomes);
      };
      const deal = (thread: Worker): void => {
        const aborted = watch.signal?.aborted === true;
        if (failed || aborted || next >= tasks.length) {
          if (inFlight === 0) settle(aborted ? new SweepAborted(`the sweep was stopped after ${done} of ${tasks.length} tasks`) : undefined);
          return;
        }
        const task = next;
        next += 1;
        inFlight += 1;
        const range = tasks[task] as Omit<TaskMessage, 'type' | 'job' | 'task'>;
        thread.postMessage({ type: 'task', job: id, task, ...range } satisfies TaskMessage);
      };
      this.onMessage = (thread, message) => {
        inFlight -= 1;
        if (message.type === 'rows') {
          outcomes[message.task] = message.rows;
          if (message.wanted !== undefined) watch.onWanted?.(message.wanted);
        } else {
          outcomes[message.task] = receivedError(message.error);
          failed = true;
        }
        done += 1;
        watch.onTaskDone?.(done, tasks.length);
        deal(thread);
      };
      this.onCrash = (error) => settle(error);
      for (const thread of this.threads) thread.postMessage(jobMessage);
      for (const thread of this.threads) deal(thread);
    });
  }
}
