// The inputs of the performance metrics, independent of the kernel's own result types: the lead
// maps a kernel result into these. Every check names the field, so a mapping bug says where it is.
import { isIsoDate, IST_OFFSET_MS, istParts } from '@vyuha/core';
import type { IsoDate, Paise } from '@vyuha/core';
import { tradingDaysBetween } from '@vyuha/market';
import type { SessionExchange } from '@vyuha/market';

const MS_PER_DAY = 86_400_000;

/** A metrics input was missing, out of order or inconsistent. */
export class MetricsInputError extends Error {
  override readonly name = 'MetricsInputError';
  /** The offending input, e.g. `days[3].netPnl`. */
  readonly field: string;

  constructor(field: string, problem: string) {
    super(`${field}: ${problem}`);
    this.field = field;
  }
}

/** One IST trading day of a run. Invariant: netPnl = grossPnl - charges. */
export interface DailyResult {
  readonly date: IsoDate;
  readonly netPnl: Paise;
  readonly grossPnl: Paise;
  readonly charges: Paise;
  readonly orders: number;
}

/** One closed round trip (entry to exit), with its charges already taken out of netPnl. */
export interface RoundTripTrade {
  readonly entryTime: number;
  readonly exitTime: number;
  readonly netPnl: Paise;
  readonly charges: Paise;
}

/** Mark-to-market equity in paise at each bar's time (epoch ms), for intraday drawdown. */
export interface EquitySeries {
  readonly times: Float64Array;
  readonly equity: Float64Array;
}

/**
 * The dates a run covers, both included. Without `tradingDays` they are the exchange's trading
 * days from `tradingDaysBetween` (default NSE: NFO has the same sessions).
 */
export interface MetricsPeriod {
  readonly from: IsoDate;
  readonly to: IsoDate;
  readonly exchange?: SessionExchange;
  readonly tradingDays?: readonly IsoDate[];
}

export interface MetricsInput {
  readonly capital: Paise;
  readonly period: MetricsPeriod;
  /** Days with activity, ascending; trading days missing here count as flat (0 P&L, 0 orders). */
  readonly days: readonly DailyResult[];
  readonly trades: readonly RoundTripTrade[];
  readonly equity?: EquitySeries;
  readonly barsInMarket: number;
  readonly totalBars: number;
  readonly candlesProcessed: number;
  /** Annual risk-free rate as a fraction (0.065 = 6.5%); default 0. */
  readonly riskFreeRate?: number;
}

function requireSafeInteger(value: number, field: string): void {
  if (!Number.isSafeInteger(value)) throw new MetricsInputError(field, `must be a whole number, got ${String(value)}`);
}

function requireCount(value: number, field: string): void {
  if (!Number.isSafeInteger(value) || value < 0) throw new MetricsInputError(field, `must be a whole number >= 0, got ${String(value)}`);
}

/** Throws unless capital is a whole number of paise above zero. */
export function requireCapital(capital: number, field = 'capital'): void {
  if (!Number.isSafeInteger(capital) || capital <= 0) throw new MetricsInputError(field, `must be a whole number of paise above 0, got ${String(capital)}`);
}

function requireDate(value: string, field: string): void {
  if (!isIsoDate(value)) throw new MetricsInputError(field, `must be a date as YYYY-MM-DD, got ${JSON.stringify(value)}`);
}

/** The trading days of the period, checked: ascending, unique and inside from..to. */
export function resolveTradingDays(period: MetricsPeriod): readonly IsoDate[] {
  requireDate(period.from, 'period.from');
  requireDate(period.to, 'period.to');
  if (period.to < period.from) throw new MetricsInputError('period.to', `must not be before period.from (${period.from}), got ${period.to}`);
  if (period.tradingDays === undefined) return tradingDaysBetween(period.exchange ?? 'NSE', period.from, period.to);
  period.tradingDays.forEach((date, index) => {
    const field = `period.tradingDays[${index}]`;
    requireDate(date, field);
    if (date < period.from || date > period.to) throw new MetricsInputError(field, `${date} is outside ${period.from}..${period.to}`);
    const previous = period.tradingDays?.[index - 1];
    if (previous !== undefined && date <= previous) throw new MetricsInputError(field, `must be after ${previous} (ascending, unique)`);
  });
  return period.tradingDays;
}

/** Checks the daily rows against the trading days: known days, ascending, exact money, net = gross - charges. */
export function validateDays(days: readonly DailyResult[], tradingDays: readonly IsoDate[]): void {
  const known = new Set<string>(tradingDays);
  days.forEach((day, index) => {
    const field = `days[${index}]`;
    requireDate(day.date, `${field}.date`);
    if (!known.has(day.date)) throw new MetricsInputError(`${field}.date`, `${day.date} is not a trading day of the period`);
    const previous = days[index - 1];
    if (previous !== undefined && day.date <= previous.date) throw new MetricsInputError(`${field}.date`, `must be after ${previous.date} (ascending, unique)`);
    requireSafeInteger(day.netPnl, `${field}.netPnl`);
    requireSafeInteger(day.grossPnl, `${field}.grossPnl`);
    requireCount(day.charges, `${field}.charges`);
    requireCount(day.orders, `${field}.orders`);
    if (day.netPnl !== day.grossPnl - day.charges) {
      throw new MetricsInputError(`${field}.netPnl`, `must equal grossPnl - charges (${day.grossPnl} - ${day.charges}), got ${day.netPnl}`);
    }
  });
}

/** Checks the trades: whole epoch milliseconds, exit not before entry, exact money. */
export function validateTrades(trades: readonly RoundTripTrade[]): void {
  trades.forEach((trade, index) => {
    const field = `trades[${index}]`;
    requireSafeInteger(trade.entryTime, `${field}.entryTime`);
    requireSafeInteger(trade.exitTime, `${field}.exitTime`);
    if (trade.exitTime < trade.entryTime) throw new MetricsInputError(`${field}.exitTime`, `must not be before entryTime ${trade.entryTime}`);
    requireSafeInteger(trade.netPnl, `${field}.netPnl`);
    requireCount(trade.charges, `${field}.charges`);
  });
}

/** Checks a per-bar equity series: one value per time, whole epoch ms not decreasing, finite values. */
export function validateEquitySeries(series: EquitySeries): void {
  if (series.times.length !== series.equity.length) {
    throw new MetricsInputError('equity.equity', `must have one value per time (${series.times.length}), got ${series.equity.length}`);
  }
  let previousTime = -Infinity;
  for (let i = 0; i < series.times.length; i += 1) {
    const time = series.times[i] as number;
    if (!Number.isSafeInteger(time) || time < previousTime) throw new MetricsInputError(`equity.times[${i}]`, `must be whole epoch milliseconds, not decreasing, got ${time}`);
    if (!Number.isFinite(series.equity[i] as number)) throw new MetricsInputError(`equity.equity[${i}]`, `must be finite, got ${series.equity[i]}`);
    previousTime = time;
  }
}

/**
 * Checks a per-bar equity series and gives each bar's position in the trading days (0-based),
 * which turns drawdown durations into trading days.
 */
export function barDayIndices(series: EquitySeries, tradingDays: readonly IsoDate[]): Int32Array {
  validateEquitySeries(series);
  const dayIndex = new Map<string, number>(tradingDays.map((date, index) => [date, index]));
  const indices = new Int32Array(series.times.length);
  // Bars of one IST day share its index: the date is looked up once per day, not once per bar.
  let day = Number.NaN;
  let index = 0;
  for (let i = 0; i < series.times.length; i += 1) {
    const time = series.times[i] as number;
    const epochDay = Math.floor((time + IST_OFFSET_MS) / MS_PER_DAY);
    if (epochDay !== day) {
      const date = istParts(time).date;
      const found = dayIndex.get(date);
      if (found === undefined) throw new MetricsInputError(`equity.times[${i}]`, `falls on ${date}, not a trading day of the period`);
      day = epochDay;
      index = found;
    }
    indices[i] = index;
  }
  return indices;
}

/** Checks the counters: whole numbers, bars in market not above total bars, a finite rate. */
export function validateCounters(input: MetricsInput): void {
  requireCount(input.barsInMarket, 'barsInMarket');
  requireCount(input.totalBars, 'totalBars');
  requireCount(input.candlesProcessed, 'candlesProcessed');
  if (input.barsInMarket > input.totalBars) throw new MetricsInputError('barsInMarket', `must not exceed totalBars (${input.totalBars}), got ${input.barsInMarket}`);
  const rate = input.riskFreeRate ?? 0;
  if (!Number.isFinite(rate) || rate <= -1) throw new MetricsInputError('riskFreeRate', `must be a finite annual rate above -1, got ${String(rate)}`);
}
