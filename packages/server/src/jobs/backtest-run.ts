// One backtest run, start to end: params -> algorithm version -> stored candles (typed arrays) ->
// the engine (runBacktest, the same kernel as the CLI) -> metrics -> rows, written in one
// transaction. Progress: candles 0-60% (one step per ~month read), engine 60-85%, writing
// 85-100%. The engine itself is synchronous (>= 10 M bars/s; a year of option legs <= 1 s), so
// cancellation is observed between these steps, not inside the kernel loop.
//
// Failures: anything the run's own inputs cause (an algorithm that does not compile, a legs
// config the engine refuses, no stored candles) ends the run in ERROR with that reason and is not
// retried; an infrastructure error (the database went away) is thrown to pg-boss, which retries
// the job and finally dead-letters it (see backtest-workers.ts).
import { addDays, istEpochMs } from '@vyuha/core';
import type { Paise } from '@vyuha/core';
import {
  BacktestConfigError, compileAlgorithm, dailyLimitsOf, formatAlgorithmError, OptionsLegsConfigError, optionsLegsTraderFactory,
  parseOptionsLegsConfig, runBacktest,
} from '@vyuha/engine';
import type { BacktestConfigInput, BacktestResult, BarSeries, CompiledAlgorithm, TraderFactory } from '@vyuha/engine';
import type pg from 'pg';
import { CHARGES, metricsOf, seriesOf } from '../commands/backtest';
import { readBacktestRunParams, BacktestParamsError } from './backtest-params';
import type { BacktestRunParams } from './backtest-params';
import { failBacktestRun, writeBacktestResults } from './backtest-results';
import { backtestRows, resultDocument } from './backtest-rows';
import { loadRunCandles, StoredLegCandles, vixAtBars } from './run-candles';
import { RunNoLongerInProgress, RunProgress } from './run-progress';

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
  const { rows } = await pool.query<{ graph: unknown }>('SELECT graph FROM algorithm_versions WHERE algorithm_id = $1 AND version = $2', [algorithmId, version]);
  if (rows[0] === undefined) throw new BacktestRunFailure(`algorithm ${name} version ${version} no longer exists`);
  const compiled = compileAlgorithm(rows[0].graph);
  if (!compiled.ok) throw new BacktestRunFailure(`algorithm ${name} version ${version} does not compile: ${compiled.error.map(formatAlgorithmError).join('; ')}`);
  return compiled.value;
}

interface Prepared {
  readonly series: BarSeries;
  readonly config: BacktestConfigInput;
  readonly trader?: TraderFactory;
  readonly legCandles?: StoredLegCandles;
}

function baseConfig(params: BacktestRunParams): BacktestConfigInput {
  return { capital: params.investmentPaise as Paise, type: params.strategyType, instrument: params.instrument.tradingSymbol, direction: 'long-only' };
}

async function prepare(pool: pg.Pool, params: BacktestRunParams, progress: RunProgress): Promise<Prepared> {
  const { instrument, dateRange, interval } = params;
  const legs = params.tradeInstrumentsConfig === null || params.tradeInstrumentsConfig === undefined ? undefined : parseLegs(params.tradeInstrumentsConfig);
  const share = legs === undefined ? 60 : 45;
  const candles = await loadRunCandles({ pool, instrumentId: instrument.instrumentId, dateRange, intervalMinutes: interval, onChunk: (fraction) => progress.report(fraction * share) });
  const series = seriesOf(candles);
  if (series.length === 0) throw new BacktestRunFailure(`no stored candles for ${instrument.exchange}:${instrument.tradingSymbol} from ${dateRange.from} to ${dateRange.to}`);
  if (legs === undefined) return { series, config: { ...baseConfig(params), charges: CHARGES.none, sizing: { kind: 'all-in' } } };
  const { rows } = await pool.query<{ instrument_id: number }>(`SELECT instrument_id FROM instruments WHERE kind = 'index' AND name = 'INDIA VIX'`);
  const vixId = rows[0]?.instrument_id;
  const vix = vixId === undefined ? undefined : await loadRunCandles({ pool, instrumentId: vixId, dateRange, intervalMinutes: interval, onChunk: (fraction) => progress.report(45 + fraction * 15) });
  if (vix === undefined || vix.length === 0) throw new BacktestRunFailure(`no stored INDIA VIX candles from ${dateRange.from} to ${dateRange.to} (the synthetic option chain needs them)`);
  const from = istEpochMs(dateRange.from, '00:00');
  const to = istEpochMs(addDays(dateRange.to, 1), '00:00');
  const legCandles = await StoredLegCandles.find(pool, { underlyingId: instrument.instrumentId, from, to });
  const { dailyMaxLoss, dailyMaxProfit } = dailyLimitsOf(legs);
  const trader = optionsLegsTraderFactory({ config: legs, vix: vixAtBars(series, vix), fill: 'next-open', slippage: { kind: 'none' }, candles: legCandles });
  const config: BacktestConfigInput = {
    ...baseConfig(params), charges: CHARGES['nse-options'],
    ...(dailyMaxLoss === undefined ? {} : { dailyMaxLoss: dailyMaxLoss as Paise }),
    ...(dailyMaxProfit === undefined ? {} : { dailyMaxProfit: dailyMaxProfit as Paise }),
  };
  return { series, config, trader, legCandles };
}

function parseLegs(config: unknown): ReturnType<typeof parseOptionsLegsConfig> {
  try {
    return parseOptionsLegsConfig(config);
  } catch (error) {
    if (error instanceof OptionsLegsConfigError) throw new BacktestRunFailure(`tradeInstrumentsConfig.${error.message}`);
    throw error;
  }
}

/** Runs the engine; with option legs, again until every stored option candle it asked for was loaded. */
async function runEngine(pool: pg.Pool, request: { params: BacktestRunParams; prepared: Prepared; program: CompiledAlgorithm }): Promise<BacktestResult> {
  const { prepared, program, params } = request;
  const once = (): BacktestResult => {
    try {
      return runBacktest({ series: prepared.series, program, config: prepared.config, ...(prepared.trader === undefined ? {} : { trader: prepared.trader }) });
    } catch (error) {
      // The engine is pure: whatever it throws, it would throw again on a retry.
      throw new BacktestRunFailure(error instanceof BacktestConfigError ? `impossible config: ${error.message}` : `the engine stopped: ${(error as Error).message}`);
    }
  };
  const range = { dateRange: params.dateRange, intervalMinutes: params.interval };
  for (;;) {
    const result = once();
    if (prepared.legCandles === undefined || !(await prepared.legCandles.loadWanted(pool, range))) return result;
  }
}

/** Rows, metrics and the result document: pure computations, so a failure is the run's own. */
function summarise(request: { result: BacktestResult; series: BarSeries; runId: string }): { rows: ReturnType<typeof backtestRows>; metrics: unknown; result: unknown } {
  try {
    return {
      rows: backtestRows(request.result, request.runId),
      metrics: metricsOf(request.result, request.series) ?? null,
      result: resultDocument(request.result, request.series),
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
    const outputs = summarise({ result, series: prepared.series, runId });
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
