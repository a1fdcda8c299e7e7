// The calendar heatmap's data as CSV: `date,pnl,orders`, one row per day. Plain numbers (pnl in
// rupees with exactly two decimals, written from integer paise without floating point); en-IN
// grouping and the rupee sign are for display only.
import { paiseToRupeesText, type IsoDate } from '@vyuha/core';
import { MetricsInputError } from './metrics-input';
import type { DailyResult } from './metrics-input';

/** One heatmap cell. */
export interface HeatmapDay {
  readonly date: IsoDate;
  readonly netPnl: number;
  readonly orders: number;
}

/**
 * Every trading day with its net P&L and orders; days without a row are 0, 0 (an empty cell still
 * has a date on the calendar).
 */
export function heatmapDays(days: readonly DailyResult[], tradingDays: readonly IsoDate[]): HeatmapDay[] {
  const byDate = new Map<string, DailyResult>(days.map((day) => [day.date, day]));
  return tradingDays.map((date) => {
    const day = byDate.get(date);
    return { date, netPnl: day?.netPnl ?? 0, orders: day?.orders ?? 0 };
  });
}

/**
 * The heatmap CSV (LF line ends, header first, a final newline).
 * @example heatmapCsv([{ date: '2024-01-01', netPnl: 150050, orders: 4 }]) // 'date,pnl,orders\n2024-01-01,1500.50,4\n'
 */
export function heatmapCsv(days: readonly HeatmapDay[]): string {
  const lines = ['date,pnl,orders'];
  days.forEach((day, index) => {
    if (!Number.isSafeInteger(day.orders) || day.orders < 0) throw new MetricsInputError(`days[${index}].orders`, `must be a whole number >= 0, got ${day.orders}`);
    if (!Number.isSafeInteger(day.netPnl)) throw new MetricsInputError(`days[${index}].netPnl`, `must be whole paise, got ${day.netPnl}`);
    lines.push(`${day.date},${paiseToRupeesText(day.netPnl)},${day.orders}`);
  });
  return `${lines.join('\n')}\n`;
}
