// What the sweep pool (run-pool.ts) and its worker threads (sweep-worker.ts) say to each other,
// and the two things both sides must agree on: the series in shared memory, and errors sent across.
//
// Invariants:
// - The series' seven columns live in one SharedArrayBuffer (the engine's shareSeries), written
//   once by the main thread and read (never written) by every thread: no copy per task.
// - With the series comes the pool's indicator arena (the engine's SharedColumns), emptied by the
//   main thread for each series while no task runs: the threads compute each indicator of the
//   whole series once between them and read one copy.
// - An error crossing the thread boundary comes back as the same class with the same message
//   (SweepError, BacktestConfigError, RangeError; anything else as an Error with its name kept),
//   so a pooled run fails exactly as the serial one does.
import { BacktestConfigError, SweepError } from '@vyuha/engine';
import type { AlgorithmError, BacktestConfigInput, ConfigIssue, ParameterBindings, SharedColumnsData, SharedSeries, SweepMetric, SweepRow } from '@vyuha/engine';
import type { FuturesRecipeData } from '../backtest/prepared-run';
import type { LegsJobData } from './sweep-legs';

/** One sweep's fixed inputs, sent to every thread once before its tasks. */
export interface JobMessage {
  readonly type: 'job';
  readonly job: number;
  readonly document: unknown;
  readonly config: BacktestConfigInput | undefined;
  readonly combinations: readonly ParameterBindings[];
  readonly metric: SweepMetric;
  /** An index traded as its futures: the chain's recipe, built again over the shared series in each thread. */
  readonly futures?: FuturesRecipeData;
  /** Option legs: the trader's data and the candles loaded so far (sweep-legs.ts). */
  readonly legs?: LegsJobData;
}

/** Combinations `from` .. `to` - 1 over bars `fromBar` .. `toBar` - 1 of the series (a copy of them, as `sliceSeries`). */
export interface TaskMessage {
  readonly type: 'task';
  readonly job: number;
  readonly task: number;
  readonly from: number;
  readonly to: number;
  readonly fromBar: number;
  readonly toBar: number;
}

/** The series in shared memory and the indicator arena over it: workerData, and each SeriesMessage's. */
export interface PoolSeries {
  readonly series: SharedSeries;
  readonly columns: SharedColumnsData;
}

/** The series for the tasks after it, in place of the one the thread had. */
export interface SeriesMessage extends PoolSeries {
  readonly type: 'series';
}

export type ToWorker = JobMessage | TaskMessage | SeriesMessage | { readonly type: 'forget'; readonly job: number };

export interface SentError {
  readonly name: string;
  readonly message: string;
  readonly combination?: number;
  readonly errors?: readonly AlgorithmError[];
  readonly issues?: readonly ConfigIssue[];
}

export type FromWorker =
  | { readonly type: 'ready' }
  /** `wanted`: option legs, the stored contracts the task's runs asked for that the thread's copy lacked (its rows are then to be run again). */
  | { readonly type: 'rows'; readonly task: number; readonly rows: readonly SweepRow[]; readonly wanted?: readonly string[] }
  | { readonly type: 'failed'; readonly task: number; readonly error: SentError };

/** An error as plain data for postMessage. */
export function sendableError(error: unknown): SentError {
  if (error instanceof SweepError) return { name: error.name, message: error.message, combination: error.combination, errors: error.errors };
  if (error instanceof BacktestConfigError) return { name: error.name, message: error.message, issues: error.issues };
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: 'Error', message: String(error) };
}

/** The error a thread sent, rebuilt as its own class with the same message. */
export function receivedError(sent: SentError): Error {
  if (sent.name === 'SweepError' && sent.combination !== undefined && sent.errors !== undefined) return new SweepError(sent.combination, sent.errors);
  if (sent.name === 'BacktestConfigError' && sent.issues !== undefined) return new BacktestConfigError(sent.issues);
  if (sent.name === 'RangeError') return new RangeError(sent.message);
  const error = new Error(sent.message);
  error.name = sent.name;
  return error;
}
