// One backtest run, start to end: params -> algorithm version -> the backtest service
// (backtest/stored-run.ts, shared with the CLI: what is traded, stored candles as typed arrays,
// the engine's inputs, the run) -> metrics -> rows, written in one transaction. Progress:
// candles 0-60% (one step per ~10 days read), engine 60-85%, writing 85-100%. The engine's run
// and the rows computed from it (backtest-outputs.ts) go to a worker thread when the job is given
// threads (backtest-threads.ts: an index's futures chain as its recipe; option legs a pass at a
// time with the candles loaded so far, the job loading those a pass asked for between passes).
// Cancellation is observed between these steps, not inside the kernel loop.
//
// Failures: anything the run's own inputs cause (an algorithm that does not compile, a legs
// config the engine refuses, an instrument that cannot be traded, no stored candles, an
// investment below one futures lot) ends the run in ERROR with that reason and is not
// retried; an infrastructure error (the database went away) is thrown to pg-boss, which retries
// the job and finally dead-letters it (see backtest-workers.ts).
import type { Paise } from '@vyuha/core';
import { OptionsLegsConfigError, parseOptionsLegsConfig } from '@vyuha/engine';
import type { BacktestResult, CompiledAlgorithm } from '@vyuha/engine';
import type pg from 'pg';
import { storedVersion } from '../backtest/algorithm-version';
import { EngineRunError, prepareStoredRun, runPrepared, StoredRunError } from '../backtest/stored-run';
import type { PreparedRun } from '../backtest/stored-run';
import { threadable } from './backtest-threads';
import type { BacktestThreads } from './backtest-threads';
import { storedInstrumentOf } from '../backtest/trade-plan';
import { BacktestRunFailure, engineFailure, outputsOf, runOutputs } from './backtest-outputs';
import type { RunOutputs } from './backtest-outputs';
import { readBacktestRunParams, BacktestParamsError } from './backtest-params';
import type { BacktestRunParams } from './backtest-params';
import { failBacktestRun, writeBacktestResults } from './backtest-results';
import { RunNoLongerInProgress, RunProgress } from './run-progress';

export { BacktestRunFailure } from './backtest-outputs';

export type RunDisposition = 'complete' | 'error' | 'skipped';

export interface ExecuteRunOptions {
  readonly pool: pg.Pool;
  readonly runId: string;
  readonly now?: () => number;
  readonly onProgress?: (percent: number) => void;
  /** Progress throttle (tests lower it). */
  readonly progressIntervalMs?: number;
  /** Worker threads to compute on (runs without option legs); undefined: this thread. */
  readonly threads?: BacktestThreads;
}

interface RunRow {
  status: string;
  user_id: string;
  strategy_id: string | null;
  params: unknown;
}

/** The run's algorithm version: as saved (for a thread to compile again) and compiled. */
interface StoredProgram {
  readonly graph: unknown;
  /** The algorithm's name and version, as the run's errors name them. */
  readonly algorithm: { readonly label: string; readonly version: number };
  readonly compiled: CompiledAlgorithm;
}

async function programOf(pool: pg.Pool, params: BacktestRunParams): Promise<StoredProgram> {
  const { algorithmId, version, name } = params.algorithm;
  const stored = await storedVersion(pool, { id: algorithmId, version, label: name });
  if (!stored.ok) throw new BacktestRunFailure(stored.error);
  return { graph: stored.value.graph, algorithm: { label: name, version }, compiled: stored.value.compiled };
}

async function prepare(pool: pg.Pool, params: BacktestRunParams, progress: RunProgress): Promise<PreparedRun> {
  const legs = params.tradeInstrumentsConfig === null || params.tradeInstrumentsConfig === undefined ? undefined : parseLegs(params.tradeInstrumentsConfig);
  try {
    return await prepareStoredRun({
      pool, instrument: await storedInstrumentOf(pool, params.instrument), strategyType: params.strategyType, dateRange: params.dateRange,
      intervalMinutes: params.interval, capital: params.investmentPaise as Paise, legs, onProgress: (percent) => progress.report(percent),
    });
  } catch (error) {
    if (error instanceof StoredRunError) throw new BacktestRunFailure(error.message);
    throw error;
  }
}

function parseLegs(config: unknown): ReturnType<typeof parseOptionsLegsConfig> {
  try {
    return parseOptionsLegsConfig(config);
  } catch (error) {
    if (error instanceof OptionsLegsConfigError) throw new BacktestRunFailure(`tradeInstrumentsConfig.${error.message}`);
    throw error;
  }
}

/**
 * The run's outputs: on a worker thread when given one and everything the run reads can be sent;
 * option legs a pass at a time (there or here), the engine run again until every stored option
 * candle it asked for was loaded.
 */
async function computeOutputs(pool: pg.Pool, request: { params: BacktestRunParams; prepared: PreparedRun; program: StoredProgram; runId: string; threads: BacktestThreads | undefined }): Promise<RunOutputs> {
  const { params, prepared, program, runId, threads } = request;
  if (prepared.legCandles === undefined) {
    return threads !== undefined && threadable(prepared)
      ? threads.run({ graph: program.graph, algorithm: program.algorithm, prepared, runId })
      : runOutputs({ prepared, program: program.compiled, runId });
  }
  if (threads !== undefined && threadable(prepared)) {
    // Option legs on a thread: a pass over the candles loaded so far, again once those it asked for are.
    const range = { dateRange: params.dateRange, intervalMinutes: params.interval };
    for (;;) {
      const pass = await threads.legsPass({ graph: program.graph, algorithm: program.algorithm, prepared, runId });
      if ('outputs' in pass) return pass.outputs;
      prepared.legCandles.want(pass.wanted);
      if (!(await prepared.legCandles.loadWanted(pool, range))) throw new Error(`the run asked for option candles of ${pass.wanted.join(', ')} again after they were loaded`);
    }
  }
  let result: BacktestResult;
  try {
    result = await runPrepared(pool, { prepared, program: program.compiled, dateRange: params.dateRange, intervalMinutes: params.interval });
  } catch (error) {
    // The engine is pure: whatever it throws, it would throw again on a retry.
    if (!(error instanceof EngineRunError)) throw error;
    throw engineFailure(error);
  }
  return outputsOf({ result, prepared, runId });
}

async function loadRun(pool: pg.Pool, runId: string): Promise<RunRow | undefined> {
  const { rows } = await pool.query<RunRow>(`SELECT status, user_id, strategy_id, params FROM strategy_runs WHERE run_id = $1 AND kind = 'BACKTEST'`, [runId]);
  return rows[0];
}

/**
 * Executes one run. 'skipped' when the run is not IN PROGRESS (cancelled, or already done);
 * 'error' when its inputs made it fail (status ERROR, error = the reason); 'complete' otherwise.
 * Infrastructure errors are thrown.
 */
export async function executeBacktestRun(options: ExecuteRunOptions): Promise<RunDisposition> {
  const { pool, runId } = options;
  const run = await loadRun(pool, runId);
  if (run === undefined || run.status !== 'IN PROGRESS') return 'skipped';
  const progress = new RunProgress({
    pool, runId, now: options.now ?? Date.now, ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
    ...(options.progressIntervalMs === undefined ? {} : { minimumIntervalMs: options.progressIntervalMs }),
  });
  try {
    await progress.restart();
    const params = readBacktestRunParams(run.params);
    const program = await programOf(pool, params);
    const prepared = await prepare(pool, params, progress);
    await progress.report(60);
    const { candlesProcessed, ...outputs } = await computeOutputs(pool, { params, prepared, program, runId, threads: options.threads });
    await progress.report(85);
    await progress.checkpoint();
    await writeBacktestResults(pool, {
      runId, strategyId: run.strategy_id, userId: run.user_id, product: params.strategyType === 'intraday' ? 'MIS' : 'NRML',
      instrument: params.instrument, ...outputs, candles: Math.min(candlesProcessed, params.estimatedCandles),
    });
    options.onProgress?.(100);
    return 'complete';
  } catch (error) {
    if (error instanceof RunNoLongerInProgress) return 'skipped';
    if (error instanceof BacktestRunFailure || error instanceof BacktestParamsError) {
      await failBacktestRun(pool, { runId, reason: error.message });
      return 'error';
    }
    throw error;
  }
}
