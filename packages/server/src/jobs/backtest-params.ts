// The contract between `run_backtest` (which writes it into strategy_runs.params) and the worker
// (which reads it back): one cell of the backtest grid, with everything resolved that the request
// knew (instrument id, algorithm version), so a later edit of the algorithm or a renamed
// instrument never changes what a queued run does.
import { isIsoDate } from '@vyuha/core';
import type { IsoDate } from '@vyuha/core';

export const BACKTEST_PARAMS_FORMAT = 'vyuha.backtest-run';

export interface BacktestRunParams {
  readonly format: typeof BACKTEST_PARAMS_FORMAT;
  /** The engine's run key (`expandBacktestRequest`): the same cell has the same key in any request. */
  readonly key: string;
  readonly strategyType: 'intraday' | 'swing';
  readonly instrument: { readonly instrumentId: number; readonly exchange: string; readonly tradingSymbol: string; readonly name: string };
  readonly algorithm: { readonly algorithmId: string; readonly version: number; readonly name: string };
  /** IST dates, both included. */
  readonly dateRange: { readonly from: IsoDate; readonly to: IsoDate };
  /** Bar width the algorithm runs at, minutes. */
  readonly interval: number;
  /** The chart window of the form (kept for the results screen). */
  readonly window: number;
  readonly investmentPaise: number;
  /** The options-legs config, or null to trade the instrument (an index as its near-month futures, a stock as shares: backtest/trade-plan.ts). */
  readonly tradeInstrumentsConfig: unknown;
  /** Credits reserved when the run was created (estimateCandles). */
  readonly estimatedCandles: number;
  /** The signed-in user who asked (a manager acting for the run's owner, or the owner). */
  readonly actorId: string;
}

/** A run whose params cannot be read: the worker ends it in ERROR with this message. */
export class BacktestParamsError extends Error {
  override readonly name = 'BacktestParamsError';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function need(condition: boolean, field: string): void {
  if (!condition) throw new BacktestParamsError(`strategy_runs.params.${field} is missing or malformed`);
}

/**
 * Reads a run's params back, checking each field the worker relies on.
 * @example readBacktestRunParams(row.params).dateRange.from // '2024-06-03'
 */
export function readBacktestRunParams(value: unknown): BacktestRunParams {
  need(isRecord(value) && value.format === BACKTEST_PARAMS_FORMAT, 'format');
  const params = value as Record<string, unknown>;
  const instrument = params.instrument;
  need(isRecord(instrument) && Number.isSafeInteger(instrument.instrumentId) && typeof instrument.tradingSymbol === 'string', 'instrument');
  const algorithm = params.algorithm;
  need(isRecord(algorithm) && typeof algorithm.algorithmId === 'string' && Number.isSafeInteger(algorithm.version), 'algorithm');
  const range = params.dateRange;
  need(isRecord(range) && typeof range.from === 'string' && isIsoDate(range.from) && typeof range.to === 'string' && isIsoDate(range.to), 'dateRange');
  need(Number.isSafeInteger(params.interval) && (params.interval as number) >= 1, 'interval');
  need(Number.isSafeInteger(params.investmentPaise) && (params.investmentPaise as number) > 0, 'investmentPaise');
  need(params.strategyType === 'intraday' || params.strategyType === 'swing', 'strategyType');
  need(Number.isSafeInteger(params.estimatedCandles), 'estimatedCandles');
  return params as unknown as BacktestRunParams;
}
