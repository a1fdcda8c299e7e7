// A sweep pool thread (run-pool.ts): loads the engine once, maps the series the pool shared
// (workerData, later another in a `series` message) and runs the tasks it is sent, one at a
// time, answering each with its rows or its error (and says `ready` once loaded). It keeps each
// job's inputs, and its document read and parsed once (combinationCompiler, made at its first
// task), until told to forget them; the last bar range it sliced; and the indicators of the
// series it ran (IndicatorCache: each computed once for all the chunks and jobs over that
// series, and over the whole series once for all the pool's threads, in the pool's arena, while it
// has room: SharedColumns) with the series' days and run buffers (SweepScratch), until it is
// given another series; the indicators computed here for the next series are then written into
// the columns of the last one's (IndicatorCache `reuse`: memory this thread has touched already),
// as the pool writes the next series' arena over the last one's.
//
// Invariants:
// - A task's rows are `runSweepChunk` over a copy of the task's bars (`sliceSeries`, as the
//   serial walk-forward's in-sample sweep), or over the whole shared series: the same inputs as a
//   serial run, so the same rows.
// - The series' shared columns are only read; an arena column is written only by the thread that
//   claimed it, before the others may read it (shared-columns.ts).
// - Option legs (sweep-legs.ts): a task's runs use the trader the job's process would make, over
//   the thread's copy of the job's candle store (kept across jobs, added to by each); the task
//   answers with the stored contracts they asked for that the copy lacked.
import { parentPort, workerData } from 'node:worker_threads';
import { combinationCompiler, IndicatorCache, runSweepChunk, seriesOfShared, SharedColumns, sliceContractChain, sliceSeries, SweepScratch } from '@vyuha/engine';
import type { BarSeries, CombinationCompiler, ContractChain } from '@vyuha/engine';
import { futuresChainOf, recipeOfData } from '../backtest/prepared-run';
import type { FromWorker, JobMessage, PoolSeries, TaskMessage, ToWorker } from './sweep-protocol';
import { sendableError } from './sweep-protocol';
import { LegCandlesCopy } from '../backtest/leg-candles';
import type { LegCandleCopy } from '../backtest/leg-candles';
import { LegCandleCopies, legsTraderOf } from './sweep-legs';

const port = parentPort;
if (port === null) throw new Error('sweep-worker.ts runs only as a worker thread of the sweep pool');

/** The pool's series now, and the threads' indicator arena over it: workerData, then each SeriesMessage's (run-pool.ts useSeries). */
let series = seriesOfShared((workerData as PoolSeries).series);
let sharedColumns = new SharedColumns((workerData as PoolSeries).columns);
const jobs = new Map<number, JobMessage>();
/** Each job's document read, checked and parsed once for all its chunks (combinationCompiler), made at its first task. */
const compilers = new Map<number, CombinationCompiler>();
/** Each futures job's chain over the whole shared series, built from its recipe on first use. */
const chains = new Map<number, ContractChain>();
let sliced: { job: number; fromBar: number; toBar: number; series: BarSeries; contracts: ContractChain | undefined; indicators: IndicatorCache; scratch: SweepScratch } | undefined;
/**
 * The shared series' indicators, computed once for every chunk of every job run over it (a sweep
 * job's chunks each come as a job of their own); dropped when the pool gives another series.
 */
let wholeIndicators: IndicatorCache | undefined;
/** The last series' indicators, whose columns the next series' reuse (IndicatorCache `reuse`). */
let droppedIndicators: IndicatorCache | undefined;
/** The shared series' days and run buffers, kept the same way (run-sweep.ts SweepScratch). */
let wholeScratch: SweepScratch | undefined;
/** The last scratch of a series or slice no longer run, whose buffers the next scratch takes (SweepScratch `reuse`). */
let droppedScratch: SweepScratch | undefined;

/** A scratch for `bars`, taking the buffers of the last one dropped. */
function scratchFor(bars: BarSeries): SweepScratch {
  const scratch = new SweepScratch(bars, droppedScratch);
  droppedScratch = undefined;
  return scratch;
}

function chainOf(job: JobMessage): ContractChain | undefined {
  if (job.futures === undefined) return undefined;
  let chain = chains.get(job.job);
  if (chain === undefined) {
    chain = futuresChainOf(recipeOfData(job.futures), series);
    chains.set(job.job, chain);
  }
  return chain;
}

/** The task's bars (a copy of a range, as `sliceSeries`) and, for futures, the chain cut to them (as the engine's walk-forward cuts it). */
function inputsOf(task: TaskMessage, job: JobMessage): { series: BarSeries; contracts: ContractChain | undefined; indicators: IndicatorCache; scratch: SweepScratch } {
  const chain = chainOf(job);
  if (task.fromBar === 0 && task.toBar === series.length) {
    if (wholeIndicators === undefined) {
      wholeIndicators = new IndicatorCache(series, { shared: sharedColumns, ...(droppedIndicators === undefined ? {} : { reuse: droppedIndicators }) });
      droppedIndicators = undefined;
    }
    wholeScratch ??= scratchFor(series);
    return { series, contracts: chain, indicators: wholeIndicators, scratch: wholeScratch };
  }
  if (sliced === undefined || sliced.job !== task.job || sliced.fromBar !== task.fromBar || sliced.toBar !== task.toBar) {
    const bars = sliceSeries(series, task.fromBar, task.toBar);
    droppedScratch = sliced?.scratch ?? droppedScratch;
    sliced = {
      job: task.job, fromBar: task.fromBar, toBar: task.toBar, series: bars, contracts: chain === undefined ? undefined : sliceContractChain(chain, bars, task.fromBar),
      indicators: new IndicatorCache(bars), scratch: scratchFor(bars),
    };
  }
  return { series: sliced.series, contracts: sliced.contracts, indicators: sliced.indicators, scratch: sliced.scratch };
}

/** Option legs: each candle store's copy, kept for the thread's life, and each job's. */
let legCopies = new LegCandleCopies();
const jobCandles = new Map<number, LegCandleCopy>();

function runTask(task: TaskMessage): FromWorker {
  const job = jobs.get(task.job);
  if (job === undefined) return { type: 'failed', task: task.task, error: { name: 'Error', message: `sweep worker: job ${task.job} was never sent` } };
  try {
    const { series: bars, contracts, indicators, scratch } = inputsOf(task, job);
    let compile = compilers.get(task.job);
    if (compile === undefined) {
      compile = combinationCompiler(job.document);
      compilers.set(task.job, compile);
    }
    const copy = jobCandles.get(task.job);
    const candles = copy === undefined ? undefined : new LegCandlesCopy(copy);
    const rows = runSweepChunk({
      series: bars, document: job.document, compile, combinations: job.combinations, metric: job.metric, from: task.from, to: task.to, indicators, scratch,
      ...(job.config === undefined ? {} : { config: job.config }),
      ...(contracts === undefined ? {} : { contracts }),
      ...(job.legs === undefined || candles === undefined ? {} : { trader: legsTraderOf(job.legs, candles, { fromBar: task.fromBar, toBar: task.toBar, length: series.length }) }),
    });
    const wanted = candles?.takeWanted() ?? [];
    return { type: 'rows', task: task.task, rows, ...(wanted.length === 0 ? {} : { wanted }) };
  } catch (error) {
    return { type: 'failed', task: task.task, error: sendableError(error) };
  }
}

port.on('message', (message: ToWorker) => {
  if (message.type === 'job') {
    jobs.set(message.job, message);
    if (message.legs !== undefined) jobCandles.set(message.job, legCopies.receive(message.legs));
  }
  else if (message.type === 'series') {
    // Another sweep's bars: what was kept of the last series (indicators, chains, a sliced range,
    // the option candles its jobs sent) belongs to that sweep. The pool forgets what it sent too.
    series = seriesOfShared(message.series);
    sharedColumns = new SharedColumns(message.columns);
    droppedIndicators = wholeIndicators ?? droppedIndicators;
    wholeIndicators = undefined;
    droppedScratch = wholeScratch ?? sliced?.scratch ?? droppedScratch;
    wholeScratch = undefined;
    sliced = undefined;
    chains.clear();
    legCopies = new LegCandleCopies();
  }
  else if (message.type === 'forget') {
    jobs.delete(message.job);
    compilers.delete(message.job);
    chains.delete(message.job);
    jobCandles.delete(message.job);
    if (sliced?.job === message.job) {
      droppedScratch = sliced.scratch;
      sliced = undefined;
    }
  }
  else port.postMessage(runTask(message));
});
port.postMessage({ type: 'ready' } satisfies FromWorker);
