// Daily P&L rows of several runs folded into one value per day, and the dashboard's summary.
import type { DayValue } from './CalendarHeatmap';

export interface DailyPnlRow {
  readonly run_id: string;
  readonly date: string;
  /** bigint paise; the API returns a JSON number (a string is accepted too). */
  readonly pnl_paise: number | string;
  readonly orders_count: number;
}

/** Sums the runs of each day. @example foldDays([{ date: 'd', pnl_paise: 5, ... }, { date: 'd', pnl_paise: -2, ... }]).get('d') -> { pnlPaise: 3, ... } */
export function foldDays(rows: readonly DailyPnlRow[]): Map<string, DayValue> {
  const days = new Map<string, DayValue>();
  for (const row of rows) {
    const before = days.get(row.date) ?? { pnlPaise: 0, orders: 0 };
    days.set(row.date, { pnlPaise: before.pnlPaise + Number(row.pnl_paise), orders: before.orders + row.orders_count });
  }
  return days;
}

export interface DaySummary {
  readonly netPaise: number;
  readonly orders: number;
  readonly tradingDays: number;
  readonly winningDays: number;
  readonly losingDays: number;
  readonly best: { readonly date: string; readonly pnlPaise: number } | undefined;
  readonly worst: { readonly date: string; readonly pnlPaise: number } | undefined;
}

/** Totals over the days: net P&L, orders, winning (P&L > 0) and losing (< 0) days, best and worst day. */
export function summarise(days: ReadonlyMap<string, DayValue>): DaySummary {
  let netPaise = 0;
  let orders = 0;
  let winningDays = 0;
  let losingDays = 0;
  let best: DaySummary['best'];
  let worst: DaySummary['worst'];
  for (const [date, value] of days) {
    netPaise += value.pnlPaise;
    orders += value.orders;
    if (value.pnlPaise > 0) winningDays += 1;
    if (value.pnlPaise < 0) losingDays += 1;
    if (best === undefined || value.pnlPaise > best.pnlPaise) best = { date, pnlPaise: value.pnlPaise };
    if (worst === undefined || value.pnlPaise < worst.pnlPaise) worst = { date, pnlPaise: value.pnlPaise };
  }
  return { netPaise, orders, tradingDays: days.size, winningDays, losingDays, best, worst };
}
