// Daily returns on capital and the ratios built on them. A return here is the day's net P&L over
// the run's starting capital (not over the day's opening equity): the capital is what the trader
// sets aside, and a return on it adds up across days like the P&L does.
import type { IsoDate } from '@vyuha/core';
import type { DailyResult } from './metrics-input';

/** Trading days in a year, for annualising daily figures. */
export const TRADING_DAYS_PER_YEAR = 252;

/**
 * A ratio that can be unbounded: a number, `'infinite'` when the denominator is zero and the
 * numerator positive, or null when it is undefined (0/0, too few points). JSON keeps all three.
 */
export type Ratio = number | 'infinite' | null;

/** One return per trading day of a run, in order; `returns[i]` belongs to `dates[i]`. */
export interface DailyReturns {
  readonly dates: readonly IsoDate[];
  readonly returns: Float64Array;
}

/**
 * Net P&L over capital for every trading day; a trading day without a row is a 0 return.
 * @example dailyReturnsOnCapital({ capital, days: [{ date: '2024-01-02', netPnl: 1_000_00, ... }], tradingDays: ['2024-01-01', '2024-01-02'] }).returns // [0, 0.01] with capital 1 lakh rupees
 */
export function dailyReturnsOnCapital(input: { readonly capital: number; readonly days: readonly DailyResult[]; readonly tradingDays: readonly IsoDate[] }): DailyReturns {
  const pnlByDate = new Map<string, number>(input.days.map((day) => [day.date, day.netPnl]));
  const returns = new Float64Array(input.tradingDays.length);
  input.tradingDays.forEach((date, index) => {
    returns[index] = (pnlByDate.get(date) ?? 0) / input.capital;
  });
  return { dates: input.tradingDays, returns };
}

// The ratios read each day's excess return (its return less the daily risk-free rate) where they
// need it instead of from an array of them: a sweep measures every run, and the array, with the
// callback that filled it, was about 15 KB of new memory a run over a year's days.

/** The mean of the returns less `daily` each, summed in order. */
function meanExcess(returns: Float64Array, daily: number): number {
  let sum = 0;
  for (let day = 0; day < returns.length; day += 1) sum += (returns[day] as number) - daily;
  return sum / returns.length;
}

// A spread below this share of the mean is rounding noise from summing equal floats: treating it
// as a real spread would turn a constant series into an absurd ratio.
const NOISE = 1e-12;

/**
 * Annualised Sharpe ratio: mean daily excess return over its sample standard deviation
 * (n - 1), times sqrt(252); null with fewer than 2 days or no spread.
 * @example sharpeRatio(Float64Array.of(0.01, -0.005, 0.02, 0, 0.005), 0) // 9.1651...
 */
export function sharpeRatio(returns: Float64Array, riskFreeRate = 0): number | null {
  if (returns.length < 2) return null;
  const daily = riskFreeRate / TRADING_DAYS_PER_YEAR;
  const average = meanExcess(returns, daily);
  let squares = 0;
  for (let day = 0; day < returns.length; day += 1) squares += ((returns[day] as number) - daily - average) ** 2;
  const deviation = Math.sqrt(squares / (returns.length - 1));
  if (deviation <= NOISE * Math.max(Math.abs(average), NOISE)) return null;
  return (average / deviation) * Math.sqrt(TRADING_DAYS_PER_YEAR);
}

/**
 * Annualised Sortino ratio: mean daily excess return over the downside deviation
 * sqrt(sum(min(0, excess)^2) / n), times sqrt(252). No losing day: 'infinite' if the mean is
 * positive, else null.
 */
export function sortinoRatio(returns: Float64Array, riskFreeRate = 0): Ratio {
  if (returns.length < 1) return null;
  const daily = riskFreeRate / TRADING_DAYS_PER_YEAR;
  const average = meanExcess(returns, daily);
  let squares = 0;
  for (let day = 0; day < returns.length; day += 1) {
    const excess = (returns[day] as number) - daily;
    if (excess < 0) squares += excess * excess;
  }
  const downside = Math.sqrt(squares / returns.length);
  if (downside === 0) return average > 0 ? 'infinite' : null;
  return (average / downside) * Math.sqrt(TRADING_DAYS_PER_YEAR);
}

/** numerator / denominator as a Ratio: a zero denominator gives 'infinite' (numerator > 0) or null. */
export function ratioOf(numerator: number, denominator: number): Ratio {
  if (denominator === 0) return numerator > 0 ? 'infinite' : null;
  return numerator / denominator;
}
