// The dashboard's summary of its days (folded from daily_pnl rows in dashboard/pnl-buckets.ts).
import type { DayValue } from './CalendarHeatmap';

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
