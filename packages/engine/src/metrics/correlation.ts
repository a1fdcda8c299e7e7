// Pearson correlation of daily returns between runs and with buy-and-hold benchmarks
// (docs/PRODUCT.md section 9: NIFTY 50 and NIFTY BANK). Series are aligned on dates inside both ranges; a
// date one series has and the other lacks counts as a 0 return for the other (a flat day).
import type { IsoDate } from '@vyuha/core';
import { MetricsInputError, requireCapital, resolveTradingDays, validateDays } from './metrics-input';
import type { DailyResult, MetricsPeriod } from './metrics-input';
import { dailyReturnsOnCapital } from './risk-ratios';

/** A named series of daily returns over a date range (both ends included). */
export interface ReturnSeries {
  readonly id: string;
  readonly from: IsoDate;
  readonly to: IsoDate;
  readonly returns: ReadonlyMap<IsoDate, number>;
}

/** One daily close of a benchmark index. */
export interface DailyClose {
  readonly date: IsoDate;
  readonly close: number;
}

/**
 * Pearson's r of two equally long samples; null with fewer than 2 points or when either has no
 * spread (r is undefined there, not 0).
 * @example pearsonCorrelation([1, 2, 3], [2, 4, 7]) // 0.9933
 */
export function pearsonCorrelation(a: ArrayLike<number>, b: ArrayLike<number>): number | null {
  if (a.length !== b.length) throw new MetricsInputError('b', `must have as many values as a (${a.length}), got ${b.length}`);
  const n = a.length;
  if (n < 2) return null;
  let meanA = 0;
  let meanB = 0;
  for (let i = 0; i < n; i += 1) {
    meanA += a[i] as number;
    meanB += b[i] as number;
  }
  meanA /= n;
  meanB /= n;
  let covariance = 0;
  let varianceA = 0;
  let varianceB = 0;
  for (let i = 0; i < n; i += 1) {
    const da = (a[i] as number) - meanA;
    const db = (b[i] as number) - meanB;
    covariance += da * db;
    varianceA += da * da;
    varianceB += db * db;
  }
  if (varianceA === 0 || varianceB === 0) return null;
  // Rounding can push |r| a hair past 1; clamp so callers can rely on [-1, 1].
  return Math.max(-1, Math.min(1, covariance / Math.sqrt(varianceA * varianceB)));
}

/**
 * The two series on common dates: every date either has inside the overlap of their ranges, in
 * order, the missing side as 0. Empty when the ranges do not overlap.
 */
export function alignReturns(a: ReturnSeries, b: ReturnSeries): { readonly dates: IsoDate[]; readonly a: Float64Array; readonly b: Float64Array } {
  const from = a.from > b.from ? a.from : b.from;
  const to = a.to < b.to ? a.to : b.to;
  const inside = (date: IsoDate): boolean => date >= from && date <= to;
  const dates = [...new Set([...a.returns.keys(), ...b.returns.keys()])].filter(inside).sort();
  return {
    dates,
    a: Float64Array.from(dates, (date) => a.returns.get(date) ?? 0),
    b: Float64Array.from(dates, (date) => b.returns.get(date) ?? 0),
  };
}

/**
 * A run's daily returns on capital as a series: every trading day of its period, flat days as 0,
 * so two runs align on the trading days both cover.
 */
export function runReturnSeries(id: string, run: { readonly capital: number; readonly days: readonly DailyResult[]; readonly period: MetricsPeriod }): ReturnSeries {
  requireCapital(run.capital);
  const tradingDays = resolveTradingDays(run.period);
  validateDays(run.days, tradingDays);
  const daily = dailyReturnsOnCapital({ capital: run.capital, days: run.days, tradingDays });
  return { id, from: run.period.from, to: run.period.to, returns: new Map(daily.dates.map((date, index) => [date, daily.returns[index] as number])) };
}

/** Correlation of two return series on their aligned dates. */
export function returnsCorrelation(a: ReturnSeries, b: ReturnSeries): number | null {
  const aligned = alignReturns(a, b);
  return pearsonCorrelation(aligned.a, aligned.b);
}

/**
 * Buy-and-hold daily returns of a benchmark from its closes: close / previous close - 1, so the
 * first close only anchors (its own day has no return). The range runs from the second close.
 * @example buyAndHoldReturns('NIFTY 50', [{ date: '2024-01-01', close: 100 }, { date: '2024-01-02', close: 101 }]).returns.get('2024-01-02') // 0.01
 */
export function buyAndHoldReturns(id: string, closes: readonly DailyClose[]): ReturnSeries {
  const returns = new Map<IsoDate, number>();
  closes.forEach((close, index) => {
    if (!Number.isFinite(close.close) || close.close <= 0) throw new MetricsInputError(`closes[${index}].close`, `must be a positive finite price, got ${close.close}`);
    const previous = closes[index - 1];
    if (previous === undefined) return;
    if (close.date <= previous.date) throw new MetricsInputError(`closes[${index}].date`, `must be after ${previous.date} (ascending, unique)`);
    returns.set(close.date, close.close / previous.close - 1);
  });
  const first = closes[1]?.date;
  const last = closes.at(-1)?.date;
  if (first === undefined || last === undefined) throw new MetricsInputError('closes', `need at least 2 closes for a return, got ${closes.length}`);
  return { id, from: first, to: last, returns };
}

/** A symmetric matrix of correlations, rows and columns in the order of `ids`. */
export interface CorrelationMatrix {
  readonly ids: readonly string[];
  readonly matrix: readonly (readonly (number | null)[])[];
}

/**
 * Pairwise correlations of runs and benchmarks; the diagonal is 1 unless the series has no spread.
 * @example correlationMatrix([runA, runB, nifty]).matrix[0][2] // the correlation of run A with NIFTY 50
 */
export function correlationMatrix(series: readonly ReturnSeries[]): CorrelationMatrix {
  const ids = series.map((entry) => entry.id);
  const duplicate = ids.findIndex((id, index) => ids.indexOf(id) !== index);
  if (duplicate >= 0) throw new MetricsInputError(`series[${duplicate}].id`, `must be unique, ${JSON.stringify(ids[duplicate])} repeats`);
  const matrix = series.map(() => new Array<number | null>(series.length).fill(null));
  series.forEach((a, i) => {
    for (let j = i; j < series.length; j += 1) {
      const value = returnsCorrelation(a, series[j] as ReturnSeries);
      (matrix[i] as (number | null)[])[j] = value;
      (matrix[j] as (number | null)[])[i] = value;
    }
  });
  return { ids, matrix };
}
