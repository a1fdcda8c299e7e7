// One backtest run, start to end: params -> algorithm version -> the backtest service
// (backtest/stored-run.ts, shared with the CLI: what is traded, stored candles as typed arrays,
// the engine's inputs, the run) -> metrics -> rows, written in one transaction. Progress:
// candles 0-60% (one step per ~10 days read), engine 60-85%, writing 85-100%. The engine itself
// is synchronous (>= 10 M bars/s; a year of option legs <= 1 s), so cancellation is observed
// between these steps, not inside the kernel loop.
//
// Failures: anything the run's own inputs cause (an algorithm that does not compile, a legs
// config the engine refuses, an instrument that cannot be traded, no stored candles, an
// investment below one futures lot) ends the run in ERROR with that reason and is not
// retried; an infrastructure error (the database went away) is thrown to pg-boss, which retries
// the job and finally dead-letters it (see backtest-workers.ts).
import type { Paise } from '@vyuha/core';
import { BacktestConfigError, OptionsLegsConfigError, parseOptionsLegsConfig } from '@vyuha/engine';
import type { BacktestResult, CompiledAlgorithm } from '@vyuha/engine';
import type pg from 'pg';
import { metricsOf } from '../backtest/run-metrics';
import { EngineRunError, prepareStoredRun, runPrepared, StoredRunError, tradedSummary } from '../backtest/stored-run';
import type { PreparedRun } from '../backtest/stored-run';
import { storedInstrumentOf } from '../backtest/trade-plan';
import { readBacktestRunParams, BacktestParamsError } from './backtest-params';
import type { BacktestRunParams } from './backtest-params';
import { failBacktestRun, writeBacktestResults } from './backtest-results';
import { backtestRows, resultDocument } from './backtest-rows';
import { RunNoLongerInProgress, RunProgress } from './run-progress';
import { compiledVersion } from '../backtest/algorithm-version';

/** A problem with the run's own inputs: the run ends in ERROR with this message, no retry. */
export class BacktestRunFailure extends Error {
  override readonly name = 'BacktestRunFailure';
}

export type RunDisposition = 'complete' | 'error' | 'skipped';

export interface ExecuteRunOptions {
  readonly pool: pg.Pool;
  readonly runId: string;
  readonly now?: () => number;
  readonly onProgress?: (percent: number) => void;
  /** Progress throttle (tests lower it). */
  readonly progressIntervalMs?: number;
}

interface RunRow {
  status: string;
  user_id: string;
  strategy_id: string | null;
  params: unknown;
}

async function compiledAlgorithmOf(pool: pg.Pool, params: BacktestRunParams): Promise<CompiledAlgorithm> {
  const { algorithmId, version, name } = params.algorithm;
  const compiled = await compiledVersion(pool, { id: algorithmId, version, label: name });
  if (!compiled.ok) throw new BacktestRunFailure(compiled.error);
  return compiled.value;
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

/** Runs the engine (option legs: until every stored option candle it asked for was loaded). */
async function runEngine(pool: pg.Pool, request: { params: BacktestRunParams; prepared: PreparedRun; program: CompiledAlgorithm }): Promise<BacktestResult> {
  const { params } = request;
  try {
    return await runPrepared(pool, { prepared: request.prepared, program: request.program, dateRange: params.dateRange, intervalMinutes: params.interval });
  } catch (error) {
    // The engine is pure: whatever it throws, it would throw again on a retry.
    if (!(error instanceof EngineRunError)) throw error;
    throw new BacktestRunFailure(error.cause instanceof BacktestConfigError ? `impossible config: ${error.message}` : `the engine stopped: ${error.message}`);
  }
}

/** Rows, metrics and the result document: pure computations, so a failure is the run's own. */
function summarise(request: { result: BacktestResult; prepared: PreparedRun; runId: string }): { rows: ReturnType<typeof backtestRows>; metrics: unknown; result: unknown } {
  const { result, prepared } = request;
  try {
    return {
      rows: backtestRows(result, request.runId),
      metrics: metricsOf(result, prepared.series) ?? null,
      result: { ...resultDocument(result, prepared.series), traded: tradedSummary(prepared, result) },
    };
  } catch (error) {
    throw new BacktestRunFailure(`the results could not be computed: ${(error as Error).message}`);
  }
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
    const program = await compiledAlgorithmOf(pool, params);
    const prepared = await prepare(pool, params, progress);
    await progress.report(60);
    const result = await runEngine(pool, { params, prepared, program });
    await progress.report(85);
    const outputs = summarise({ result, prepared, runId });
    await progress.checkpoint();
    await writeBacktestResults(pool, {
      runId, strategyId: run.strategy_id, userId: run.user_id, product: params.strategyType === 'intraday' ? 'MIS' : 'NRML',
      instrument: params.instrument, ...outputs, candles: Math.min(result.candlesProcessed, params.estimatedCandles),
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
