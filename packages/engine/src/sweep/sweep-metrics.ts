import type { IsoDate } from '@vyuha/core';
import { dateOfEpochDay, IST_OFFSET_MS } from '@vyuha/core';
import type { BarSeries } from '../algorithm/program';
import type { BacktestResult } from '../backtest/run-backtest';
import type { DayRow, LedgerTrade } from '../kernel/ledger';
import { deepestDrawdown } from '../metrics/drawdown';
import type { FallDepth } from '../metrics/drawdown';
import type { DailyResult, RoundTripTrade } from '../metrics/metrics-input';
import type { Ratio } from '../metrics/risk-ratios';
import { dailyReturnsOnCapital, sharpeRatio } from '../metrics/risk-ratios';
import { tradeOutcomes } from '../metrics/trade-statistics';
import type { TradeOutcomes } from '../metrics/trade-statistics';

/*
 * The figures a sweep keeps per run, by the project's metrics formulas (metrics/README.md) so a
 * sweep row and the run's own metrics table never disagree. A run may be measured from a bar on
 * (`fromBar`): walk-forward runs an out-of-sample window with warm-up bars before it, and only the
 * window's own days, equity and bars count.
 */

export interface SweepMetrics {
  /** Paise. */
  readonly netPnl: number;
  /** Net P&L over the capital, x 100. */
  readonly returnPercent: number;
  /** The deepest fall from a running peak, paise (>= 0). */
  readonly maxDrawdown: number;
  readonly maxDrawdownPercent: number;
  /** Daily, annualised over 252 days (metrics/README.md); null with fewer than 2 days or no variation. */
  readonly sharpe: number | null;
  /** Winning trades over trades, 0..1; null without trades. */
  readonly winRate: number | null;
  readonly trades: number;
  /** 'infinite' with profit and no loss; null with neither. */
  readonly profitFactor: Ratio;
  /** Bars the run processed, warm-up included: the credits it used. */
  readonly candlesProcessed: number;
  /** Trading days measured. */
  readonly tradingDays: number;
}

/** The metrics a sweep can rank by, and which way is better. */
export const SWEEP_METRICS = {
  netPnl: 'max',
  returnPercent: 'max',
  sharpe: 'max',
  winRate: 'max',
  profitFactor: 'max',
  trades: 'max',
  maxDrawdown: 'min',
  maxDrawdownPercent: 'min',
} as const satisfies Record<string, 'max' | 'min'>;

export type SweepMetric = keyof typeof SWEEP_METRICS;
export type MetricDirection = 'max' | 'min';

/** True when `name` is a metric a sweep ranks by. */
export function isSweepMetric(name: string): name is SweepMetric {
  return Object.hasOwn(SWEEP_METRICS, name);
}

/** The metric as a number for ranking: 'infinite' is +Infinity, null stays null. */
export function rankValue(metrics: SweepMetrics, metric: SweepMetric): number | null {
  const value = metrics[metric];
  if (value === 'infinite') return Number.POSITIVE_INFINITY;
  return value;
}

/** The IST trading days of a series: each date and the first bar on it, ascending. */
export interface SeriesDays {
  readonly dates: readonly IsoDate[];
  /** firstBar[d] is the first bar of dates[d]; firstBar[dates.length] is the series length. */
  readonly firstBar: readonly number[];
}

const DAY_MS = 86_400_000;

/** Splits a series into its IST dates (one date computed per day, not per bar). @example seriesDays(series).dates // ['2024-01-01', '2024-01-02'] */
export function seriesDays(series: BarSeries): SeriesDays {
  const dates: IsoDate[] = [];
  const firstBar: number[] = [];
  let previousDay = Number.NaN;
  for (let index = 0; index < series.length; index += 1) {
    const day = Math.floor(((series.time[index] as number) + IST_OFFSET_MS) / DAY_MS);
    if (day !== previousDay) {
      dates.push(dateOfEpochDay(day));
      firstBar.push(index);
      previousDay = day;
    }
  }
  firstBar.push(series.length);
  return { dates, firstBar };
}

/** A run's pieces in the metrics module's own types, measured over `tradingDays`. */
export interface MeasuredRun {
  readonly capital: number;
  readonly tradingDays: readonly IsoDate[];
  readonly days: readonly DailyResult[];
  readonly trades: readonly RoundTripTrade[];
  /** Per-bar equity (paise) over the measured bars. */
  readonly equity: Float64Array;
  readonly candlesProcessed: number;
}

/** What a run's figures are computed from, however the run was read. */
interface RunTotals {
  readonly capital: number;
  /** Net P&L of the measured days, summed in their order. */
  readonly netPnl: number;
  /** Net P&L over the capital per measured trading day (dailyReturnsOnCapital). */
  readonly returns: Float64Array;
  readonly outcomes: TradeOutcomes;
  /** The deepest fall of the per-bar equity over the measured bars (deepestDrawdown's figures). */
  readonly deepest: FallDepth;
  readonly candlesProcessed: number;
}

function metricsOf(run: RunTotals): SweepMetrics {
  const { deepest } = run;
  return {
    netPnl: run.netPnl,
    returnPercent: (run.netPnl / run.capital) * 100,
    maxDrawdown: Math.round(deepest.depth),
    maxDrawdownPercent: deepest.depthPercent,
    sharpe: sharpeRatio(run.returns, 0),
    winRate: run.outcomes.winRate,
    trades: run.outcomes.trades,
    profitFactor: run.outcomes.profitFactor,
    candlesProcessed: run.candlesProcessed,
    tradingDays: run.returns.length,
  };
}

/**
 * The sweep's figures by the formulas of `computeMetrics` (metrics/README.md), from the same
 * functions (deepestDrawdown, dailyReturnsOnCapital, sharpeRatio, tradeOutcomes) but without
 * dating every bar: a sweep computes this per run, and on a year of 1-minute bars dating the
 * bars costs more than the backtest. `run-sweep.test.ts` checks it equals `computeMetrics`.
 */
export function measure(run: MeasuredRun): SweepMetrics {
  let netPnl = 0;
  for (const day of run.days) netPnl += day.netPnl;
  return metricsOf({
    capital: run.capital, netPnl, deepest: deepestDrawdown(run.equity, run.capital), candlesProcessed: run.candlesProcessed,
    returns: dailyReturnsOnCapital({ capital: run.capital, days: run.days, tradingDays: run.tradingDays }).returns,
    outcomes: tradeOutcomes(run.trades.map((trade) => trade.netPnl)),
  });
}

/** A ledger day row as the metrics module's daily result. */
export function dailyResultOf(day: DayRow): DailyResult {
  return { date: day.date, netPnl: day.net, grossPnl: day.gross, charges: day.charges, orders: day.orders };
}

/** A ledger round trip as the metrics module's trade. */
export function roundTripOf(trade: LedgerTrade): RoundTripTrade {
  return { entryTime: trade.entryTime, exitTime: trade.exitTime, netPnl: trade.net, charges: trade.charges };
}

/** The position of `date` in `dates` (ascending), or -1. */
function dateIndex(dates: readonly IsoDate[], date: IsoDate): number {
  let low = 0;
  let high = dates.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const found = dates[middle] as IsoDate;
    if (found === date) return middle;
    if (found < date) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}

/**
 * The buffers a sweep's runs are measured in, one run after another (a SweepScratch keeps one): a
 * run's daily returns and its trades' nets were about 12 KB of new memory a run over a year's days.
 * What `sweepMetricsOf` reads from them is read before the next run is measured.
 */
export class SweepMetricBuffers {
  private returns = new Float64Array(0);
  private nets = new Float64Array(256);

  /** `count` zeros: the same array, zeroed, while the count is the same. */
  returnsOf(count: number): Float64Array {
    if (this.returns.length !== count) this.returns = new Float64Array(count);
    else this.returns.fill(0);
    return this.returns;
  }

  /** A buffer of at least `count` values. */
  netsOf(count: number): Float64Array {
    if (this.nets.length < count) this.nets = new Float64Array(Math.max(count, this.nets.length * 2));
    return this.nets;
  }
}

/**
 * The metrics of a run measured from day `fromDay` of `days` (the series' days) on: the figures
 * `measure` gives for its days, trades and equity from that day, read from the result's day and
 * trade columns without building a day or trade object, and its drawdown from the kernel's runs of
 * bars without building the equity column (a sweep measures every run).
 */
export function sweepMetricsOf(result: BacktestResult, options: { days: SeriesDays; fromDay?: number; buffers?: SweepMetricBuffers }): SweepMetrics {
  const fromDay = options.fromDay ?? 0;
  const { dates, firstBar } = options.days;
  const fromBar = firstBar[fromDay] ?? result.candlesProcessed;
  const first = dates[fromDay];
  const capital = result.config.capital;
  const dayCount = Math.max(0, dates.length - fromDay);
  const returns = options.buffers?.returnsOf(dayCount) ?? new Float64Array(dayCount);
  let netPnl = 0;
  if (first !== undefined) {
    const days = result.dayColumns;
    for (let row = 0; row < days.count; row += 1) {
      const date = days.date(row);
      if (date < first) continue;
      const net = days.net(row);
      netPnl += net;
      // As dailyReturnsOnCapital's map by date: a later row of the same date wins; a date off the series counts nowhere.
      const index = dateIndex(dates, date);
      if (index >= fromDay) returns[index - fromDay] = net / capital;
    }
  }
  const { roundTrips } = result;
  const nets = options.buffers?.netsOf(roundTrips.count) ?? new Float64Array(roundTrips.count);
  let trades = 0;
  for (let row = 0; row < roundTrips.count; row += 1) {
    if (roundTrips.entryIndex(row) < fromBar) continue;
    nets[trades] = roundTrips.net(row);
    trades += 1;
  }
  // From the kernel's runs of bars: a sweep never builds a run's equity column.
  return metricsOf({ capital, netPnl, returns, outcomes: tradeOutcomes(nets, trades), deepest: result.deepestFallFrom(fromBar), candlesProcessed: result.candlesProcessed });
}
