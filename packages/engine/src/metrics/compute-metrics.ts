// The metrics table of a backtest run (issue 4, item 5). Formulas: ./README.md.
import { daysBetween } from '@vyuha/core';
import type { IsoDate, Paise } from '@vyuha/core';
import { dailyEquity, summariseDrawdown } from './drawdown';
import type { DrawdownSummary } from './drawdown';
import { barDayIndices, requireCapital, resolveTradingDays, validateCounters, validateDays, validateTrades } from './metrics-input';
import type { MetricsInput } from './metrics-input';
import { dailyReturnsOnCapital, ratioOf, sharpeRatio, sortinoRatio } from './risk-ratios';
import type { Ratio } from './risk-ratios';
import { dayStatistics, tradeStatistics } from './trade-statistics';
import type { DayStatistics, TradeStatistics } from './trade-statistics';

/** Days in a year for CAGR: calendar days over 365 (ACT/365). */
export const CALENDAR_DAYS_PER_YEAR = 365;

export interface PerformanceMetrics extends DrawdownSummary, TradeStatistics, DayStatistics {
  readonly capital: Paise;
  readonly netPnl: Paise;
  readonly grossPnl: Paise;
  readonly chargesPaid: Paise;
  readonly endingEquity: Paise;
  readonly orders: number;
  /** netPnl / capital x 100. */
  readonly returnPercent: number;
  /** ((endingEquity / capital)^(365 / calendarDays) - 1) x 100; -100 when equity is gone; null when it overflows. */
  readonly cagrPercent: number | null;
  readonly calendarDays: number;
  readonly tradingDays: number;
  readonly riskFreeRate: number;
  readonly sharpe: number | null;
  readonly sortino: Ratio;
  /** CAGR over max drawdown (both in percent). */
  readonly calmar: Ratio;
  /** barsInMarket / totalBars x 100; null without bars. */
  readonly exposurePercent: number | null;
  readonly candlesProcessed: number;
}

function compoundAnnualGrowthPercent(options: { readonly capital: number; readonly endingEquity: number; readonly calendarDays: number }): number | null {
  if (options.endingEquity <= 0) return -100;
  const growth = (options.endingEquity / options.capital) ** (CALENDAR_DAYS_PER_YEAR / options.calendarDays) - 1;
  return Number.isFinite(growth) ? growth * 100 : null;
}

function sumOf(values: readonly number[]): number {
  let sum = 0;
  for (const value of values) sum += value;
  return sum;
}

function drawdownFor(input: MetricsInput, tradingDays: readonly IsoDate[]): DrawdownSummary {
  const { capital } = input;
  if (input.equity !== undefined) {
    const dayOfPosition = barDayIndices(input.equity, tradingDays);
    return summariseDrawdown({ equity: input.equity.equity, capital, dayOfPosition, tradingDays });
  }
  const equity = dailyEquity({ capital, days: input.days, tradingDays });
  const dayOfPosition = Int32Array.from(tradingDays, (_, index) => index);
  return summariseDrawdown({ equity, capital, dayOfPosition, tradingDays });
}

/**
 * Every metric of one run from its capital, daily rows, round trips and counters.
 * @example computeMetrics({ capital: rupeesToPaise(100_000), period: { from, to }, days, trades, barsInMarket: 30, totalBars: 375, candlesProcessed: 375 }).returnPercent // 1.5
 */
export function computeMetrics(input: MetricsInput): PerformanceMetrics {
  requireCapital(input.capital);
  const tradingDays = resolveTradingDays(input.period);
  validateDays(input.days, tradingDays);
  validateTrades(input.trades);
  validateCounters(input);
  const riskFreeRate = input.riskFreeRate ?? 0;
  const netPnl = sumOf(input.days.map((day) => day.netPnl));
  const endingEquity = input.capital + netPnl;
  const calendarDays = daysBetween(input.period.from, input.period.to) + 1;
  const cagrPercent = compoundAnnualGrowthPercent({ capital: input.capital, endingEquity, calendarDays });
  const drawdown = drawdownFor(input, tradingDays);
  const returns = dailyReturnsOnCapital({ capital: input.capital, days: input.days, tradingDays }).returns;
  return {
    capital: input.capital,
    netPnl: netPnl as Paise,
    grossPnl: sumOf(input.days.map((day) => day.grossPnl)) as Paise,
    chargesPaid: sumOf(input.days.map((day) => day.charges)) as Paise,
    endingEquity: endingEquity as Paise,
    orders: sumOf(input.days.map((day) => day.orders)),
    returnPercent: (netPnl / input.capital) * 100,
    cagrPercent,
    calendarDays,
    tradingDays: tradingDays.length,
    riskFreeRate,
    ...drawdown,
    sharpe: sharpeRatio(returns, riskFreeRate),
    sortino: sortinoRatio(returns, riskFreeRate),
    calmar: cagrPercent === null ? null : ratioOf(cagrPercent, drawdown.maxDrawdownPercent),
    ...tradeStatistics(input.trades),
    ...dayStatistics(input.days, tradingDays),
    exposurePercent: input.totalBars === 0 ? null : (input.barsInMarket / input.totalBars) * 100,
    candlesProcessed: input.candlesProcessed,
  };
}
