// A backtest request is a grid: algorithms x date ranges x (frequency, investment) pairs. Each cell
// is one run of the kernel, with a key that stays the same for the same cell in any request.
import type { Paise } from '@vyuha/core';
import type { IntervalMinutes } from '@vyuha/market';
import type { AlgorithmReference, BacktestRequest, DateRange, StrategyType } from './backtest-request';

export interface BacktestRun {
  /** `<algorithm key>|<from>..<to>|<interval>m|<investment paise>`, e.g. `id:a1|2024-01-01..2024-03-31|5m|10000000`. */
  readonly key: string;
  readonly algorithm: AlgorithmReference;
  readonly dateRange: DateRange;
  readonly interval: IntervalMinutes;
  readonly investment: Paise;
  readonly strategyType: StrategyType;
  readonly instrument: string;
  readonly window: IntervalMinutes;
  readonly tradeInstrumentsConfig: unknown;
}

/** The key of one cell. */
export function runKey(cell: { readonly algorithm: AlgorithmReference; readonly dateRange: DateRange; readonly interval: number; readonly investment: number }): string {
  return `${cell.algorithm.key}|${cell.dateRange.from}..${cell.dateRange.to}|${cell.interval}m|${cell.investment}`;
}

/**
 * Every run of a validated request, algorithm-major, then date range, then frequency pair (input order).
 * @example expandBacktestRequest(request).length // algorithms x dateRanges x frequenciesAndInvestments
 */
export function expandBacktestRequest(request: BacktestRequest): BacktestRun[] {
  const { strategyType, instrument, window, tradeInstrumentsConfig } = request;
  return request.algorithms.flatMap((algorithm) => request.dateRanges.flatMap((dateRange) => request.frequenciesAndInvestments.map(({ interval, investment }) => ({
    key: runKey({ algorithm, dateRange, interval, investment }),
    algorithm, dateRange, interval, investment, strategyType, instrument, window, tradeInstrumentsConfig,
  }))));
}
