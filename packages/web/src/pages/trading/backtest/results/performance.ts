// The performance panel's computations (docs/PRODUCT.md section 3): correlations between the selected runs
// and with the NIFTY 50 / NIFTY BANK buy-and-hold benchmarks, the runs' P&L on special days, the
// investment history of the selection, and the curves of the side-by-side chart. The formulas are
// the engine's (metrics/README.md); this module only maps stored rows into its inputs.
//
// compute-investment (default on): returns are computed on the run's investment, P&L / investment
// (the engine's daily return on capital), so runs of different sizes compare; off: raw P&L in
// rupees. Pearson correlation does not change when a series is scaled, so only the chart, the
// metric table's investment-based rows and the labels differ between the two.
import type { IsoDate, Paise } from '@vyuha/core';
import { buyAndHoldReturns, correlationMatrix, specialDayPerformance } from '@vyuha/engine';
import type { CorrelationMatrix, DailyClose, ReturnSeries, SpecialDayResult } from '@vyuha/engine';
import { formatDate } from '../../../../format/format';

/** A daily_pnl row (bigint paise arrive as numbers or strings). */
export interface DailyPnlRecord {
  readonly date: string;
  readonly pnl_paise: number | string;
  readonly orders_count: number;
}

/** What the panel knows of one selected run. */
export interface RunDays {
  readonly runId: string;
  readonly title: string;
  readonly investmentPaise: number;
  readonly from: string;
  readonly to: string;
  readonly days: readonly DailyPnlRecord[];
}

const pnlOf = (day: DailyPnlRecord): number => Number(day.pnl_paise);

/**
 * A run's daily returns: P&L over the investment (computeInvestment) or the P&L in rupees.
 * @example runSeries({ investmentPaise: 100_000_00, days: [{ date: '2026-08-03', pnl_paise: 1_000_00 }], ... }, true).returns.get('2026-08-03') // 0.01
 */
export function runSeries(run: RunDays, computeInvestment: boolean): ReturnSeries {
  const returns = new Map<IsoDate, number>();
  for (const day of run.days) returns.set(day.date as IsoDate, computeInvestment ? pnlOf(day) / run.investmentPaise : pnlOf(day) / 100);
  return { id: run.runId, from: run.from as IsoDate, to: run.to as IsoDate, returns };
}

/** Daily closes (IST dates) from 1440-minute candles (epoch ms of each bar's start, paise). */
export function dailyCloses(candles: { readonly time: readonly number[]; readonly close: readonly number[] }): DailyClose[] {
  return candles.time.map((time, index) => ({ date: formatDate(time) as IsoDate, close: (candles.close[index] as number) / 100 }));
}

/** A benchmark's buy-and-hold series, or undefined with fewer than two closes. */
export function benchmarkSeries(name: string, closes: readonly DailyClose[]): ReturnSeries | undefined {
  return closes.length < 2 ? undefined : buyAndHoldReturns(name, closes);
}

/** Every pair's correlation: the runs first, then the benchmarks. */
export function correlations(series: readonly ReturnSeries[]): CorrelationMatrix {
  return correlationMatrix(series);
}

/**
 * The run's P&L on the special days (budget, election results, exit polls, muhurat...) inside its
 * range. `chargesByDate` (from the fills) completes the engine's daily rows: gross = net + charges.
 */
export function specialDays(run: RunDays, chargesByDate: ReadonlyMap<string, number>): SpecialDayResult[] {
  const days = run.days.map((day) => {
    const charges = chargesByDate.get(day.date) ?? 0;
    return { date: day.date as IsoDate, netPnl: pnlOf(day) as Paise, grossPnl: (pnlOf(day) + charges) as Paise, charges: charges as Paise, orders: day.orders_count };
  });
  return specialDayPerformance({ days, from: run.from as IsoDate, to: run.to as IsoDate });
}

export interface InvestmentEntry {
  readonly date: string;
  readonly runId: string;
  readonly title: string;
  readonly investmentPaise: number;
  /** The investment of every selected run whose range covers `date`. */
  readonly totalPaise: number;
}

/**
 * The total investment history of the selection: one entry where each run starts, with the sum
 * of the investments in use that day.
 * @example investmentHistory([{ from: '2026-08-03', to: '2026-09-30', investmentPaise: 5 }, { from: '2026-08-03', ..., investmentPaise: 7 }])[1].totalPaise // 12
 */
export function investmentHistory(runs: readonly RunDays[]): InvestmentEntry[] {
  const sorted = [...runs].sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0));
  return sorted.map((run, index) => {
    const active = sorted.slice(0, index + 1).filter((other) => other.from <= run.from && other.to >= run.from);
    return { date: run.from, runId: run.runId, title: run.title, investmentPaise: run.investmentPaise, totalPaise: active.reduce((sum, other) => sum + other.investmentPaise, 0) };
  });
}

export interface CurvePoint {
  readonly time: string;
  readonly value: number;
}

/**
 * One run's daily equity as the comparison chart plots it: return % on the investment
 * (computeInvestment) or P&L in rupees.
 * @example comparisonCurve({ dates: ['2026-08-03'], equityPaise: [101_000_00] }, 100_000_00, true) // [{ time: '2026-08-03', value: 1 }]
 */
export function comparisonCurve(curve: { readonly dates: readonly string[]; readonly equityPaise: readonly number[] }, investmentPaise: number, computeInvestment: boolean): CurvePoint[] {
  return curve.dates.map((date, index) => {
    const pnl = (curve.equityPaise[index] as number) - investmentPaise;
    return { time: date, value: computeInvestment ? (pnl / investmentPaise) * 100 : pnl / 100 };
  });
}
