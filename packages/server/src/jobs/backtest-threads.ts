// Backtest runs computed on worker threads (issue 20, "Both cores"): a worker process takes as
// many backtest jobs at once as it has threads (backtest-workers.ts); each job loads its inputs
// on the event loop's thread, then hands the computation (backtest-outputs.ts: the engine's run,
// rows, metrics, result document) to a free thread, so one process uses every core and its event
// loop stays free for the API, polling and progress.
//
// - A run goes to a thread when everything it reads can be sent (`threadable`): a stock's own
//   series, an index traded as its futures (the chain is built again on the thread from its
//   recipe: the schedule, the sizing and the contracts' candles), or option legs (their trader's
//   data and a copy of the option candles loaded so far, ../sweep/sweep-legs.ts). Option legs read
//   candles as the engine asks: a pass that asked for stored contracts the copy lacked answers with
//   them instead of outputs (`legsPass`), and the job loads them and sends the run again.
// - A thread computes exactly what the job's thread would: the same functions over a copy of the
//   same series, config, plan and futures recipe, the algorithm version compiled again from the
//   graph as saved.
// - Threads start on first use, one task each at a time; a thread that dies fails its task
//   (pg-boss retries the job) and is replaced on the next task. `close` ends them all.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { BacktestConfigInput, BarSeries } from '@vyuha/engine';
import { recipeData } from '../backtest/prepared-run';
import type { FuturesRecipeData, PreparedRun } from '../backtest/prepared-run';
import type { TradePlan } from '../backtest/trade-plan';
import { legsSnapshot } from '../sweep/sweep-legs';
import type { LegsJobData } from '../sweep/sweep-legs';
import { BUNDLED_THREAD_OPTIONS, threadEntry } from '../threads/thread-entry';
import { BacktestRunFailure } from './backtest-outputs';
import type { RunOutputs } from './backtest-outputs';

/** One run for a thread: everything it reads, as plain data. */
export interface BacktestTask {
  readonly id: number;
  readonly graph: unknown;
  readonly algorithm: { readonly label: string; readonly version: number };
  readonly plan: TradePlan;
  readonly series: BarSeries;
  readonly config: BacktestConfigInput;
  /** An index's futures: the chain's recipe, its candles as columns. */
  readonly futures?: FuturesRecipeData;
  /** Option legs: the trader's data and the candles loaded so far. */
  readonly legs?: LegsJobData;
  readonly runId: string;
}

/** A pass of a run on a thread: its outputs, or (option legs) the stored contracts it asked for that were not loaded. */
export type ThreadPass = { readonly outputs: RunOutputs } | { readonly wanted: readonly string[] };

export type BacktestTaskAnswer =
  | { readonly id: number; readonly outputs: RunOutputs }
  | { readonly id: number; readonly wanted: readonly string[] }
  | { readonly id: number; readonly failure: string }
  | { readonly id: number; readonly error: { readonly message: string; readonly stack: string } };

/** Whether a prepared run can be computed on a thread (see the header). */
export function threadable(prepared: PreparedRun): boolean {
  if (prepared.trader !== undefined || prepared.legCandles !== undefined) return prepared.legCandles !== undefined && prepared.legsTrader !== undefined && prepared.contracts === undefined;
  return prepared.contracts === undefined || prepared.futures !== undefined;
}

const COLUMNS = ['time', 'open', 'high', 'low', 'close', 'volume', 'oi'] as const;

/** A copy of the series whose columns can be moved to a thread (the caller's stay usable). */
function seriesCopy(series: BarSeries): { series: BarSeries; buffers: ArrayBuffer[] } {
  const copy = Object.fromEntries(COLUMNS.map((name) => [name, series[name].slice(0, series.length)])) as Record<(typeof COLUMNS)[number], Float64Array>;
  return { series: { length: series.length, ...copy }, buffers: COLUMNS.map((name) => copy[name].buffer as ArrayBuffer) };
}

interface Pending {
  readonly task: BacktestTask;
  readonly buffers: ArrayBuffer[];
  readonly resolve: (pass: ThreadPass) => void;
  readonly reject: (error: Error) => void;
}

interface Slot {
  readonly thread: Worker;
  busy: Pending | undefined;
}

export class BacktestThreads {
  readonly size: number;
  private readonly slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  private nextId = 1;
  private closed = false;

  /** `threads`: default one per available core. */
  constructor(options: { threads?: number } = {}) {
    const threads = options.threads ?? availableParallelism();
    if (!Number.isSafeInteger(threads) || threads < 1 || threads > 256) throw new RangeError(`threads must be a whole number from 1 to 256, got ${threads}`);
    this.size = threads;
  }

  /**
   * The run's outputs computed on a thread; rejects with BacktestRunFailure for the run's own
   * failure (as runOutputs throws), an Error when the thread died or the pool closed.
   * @example await threads.run({ graph, algorithm: { label: 'EMA cross', version: 3 }, prepared, runId })
   */
  run(request: { graph: unknown; algorithm: { label: string; version: number }; prepared: PreparedRun; runId: string }): Promise<RunOutputs> {
    if (request.prepared.legCandles !== undefined) return Promise.reject(new Error('option legs are run a pass at a time: legsPass'));
    return this.submit(request).then((pass) => {
      if ('outputs' in pass) return pass.outputs;
      throw new Error(`a run without option legs asked for option candles (${pass.wanted.join(', ')})`);
    });
  }

  /**
   * One pass of an option-legs run on a thread, over the candles `prepared.legCandles` has loaded:
   * its outputs when it asked for no stored candle left unloaded; else those contracts (load them
   * and run another pass). Rejects as `run` does.
   */
  legsPass(request: { graph: unknown; algorithm: { label: string; version: number }; prepared: PreparedRun; runId: string }): Promise<ThreadPass> {
    if (request.prepared.legCandles === undefined) return Promise.reject(new Error('legsPass: the run has no option legs (use run)'));
    return this.submit(request);
  }

  private submit(request: { graph: unknown; algorithm: { label: string; version: number }; prepared: PreparedRun; runId: string }): Promise<ThreadPass> {
    if (this.closed) return Promise.reject(new Error('the backtest threads are closed'));
    const { prepared } = request;
    if (!threadable(prepared)) return Promise.reject(new Error('this run reads objects of this process (a trader without its data, or a chain without its recipe): compute it here'));
    const { series, buffers } = seriesCopy(prepared.series);
    const futures = prepared.futures === undefined ? undefined : recipeData(prepared.futures);
    const legs = prepared.legsTrader === undefined || prepared.legCandles === undefined ? undefined : legsSnapshot(prepared.legsTrader, prepared.legCandles);
    const task: BacktestTask = {
      id: this.nextId, graph: request.graph, algorithm: request.algorithm, plan: prepared.plan, series, config: prepared.config, runId: request.runId,
      ...(futures === undefined ? {} : { futures }),
      ...(legs === undefined ? {} : { legs }),
    };
    this.nextId += 1;
    return new Promise<ThreadPass>((resolve, reject) => {
      this.queue.push({ task, buffers, resolve, reject });
      this.dispatch();
    });
  }

  /** Terminates every thread; queued runs are rejected. */
  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.queue.splice(0)) pending.reject(new Error('the backtest threads are closed'));
    await Promise.all(this.slots.splice(0).map((slot) => slot.thread.terminate()));
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      let slot = this.slots.find((candidate) => candidate.busy === undefined);
      if (slot === undefined && this.slots.length < this.size) slot = this.startThread();
      if (slot === undefined) return;
      const pending = this.queue.shift() as Pending;
      slot.busy = pending;
      slot.thread.postMessage(pending.task, pending.buffers);
    }
  }

  private startThread(): Slot {
    const thread = new Worker(threadEntry({ source: new URL('./backtest-thread.ts', import.meta.url), bundledEnv: 'VYUHA_BACKTEST_THREAD' }), BUNDLED_THREAD_OPTIONS);
    const slot: Slot = { thread, busy: undefined };
    thread.on('message', (answer: BacktestTaskAnswer) => {
      const pending = slot.busy;
      if (pending === undefined || pending.task.id !== answer.id) return;
      slot.busy = undefined;
      if ('outputs' in answer) pending.resolve({ outputs: answer.outputs });
      else if ('wanted' in answer) pending.resolve({ wanted: answer.wanted });
      else if ('failure' in answer) pending.reject(new BacktestRunFailure(answer.failure));
      else pending.reject(Object.assign(new Error(answer.error.message), { stack: answer.error.stack }));
      this.dispatch();
    });
    const lost = (reason: string): void => {
      const index = this.slots.indexOf(slot);
      if (index === -1) return;
      this.slots.splice(index, 1);
      slot.busy?.reject(new Error(`a backtest thread stopped (${reason})`));
      slot.busy = undefined;
      if (!this.closed) this.dispatch();
    };
    thread.on('error', (error) => lost(error.message));
    thread.on('exit', (code) => lost(`exit code ${code}`));
    this.slots.push(slot);
    return slot;
  }
}
