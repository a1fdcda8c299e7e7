// A run's daily_pnl rows as the calendar heatmaps draw them and as the client-side CSV download
// writes them (docs/PRODUCT.md sections 7 and 9): the engine's heatmapCsv, `date,pnl,orders`, one row per
// trading day the run saw, P&L in rupees with two decimals written from integer paise.
import type { IsoDate } from '@vyuha/core';
import { heatmapCsv } from '@vyuha/engine';
import type { DayValue } from '../../parts/CalendarHeatmap';
import type { DailyPnlRecord } from './performance';

function sortedDays(days: readonly DailyPnlRecord[]): DailyPnlRecord[] {
  return [...days].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}

/** Date -> the cell's P&L and orders. */
export function heatmapValues(days: readonly DailyPnlRecord[]): Map<string, DayValue> {
  return new Map(days.map((day) => [day.date, { pnlPaise: Number(day.pnl_paise), orders: day.orders_count }]));
}

/**
 * The CSV text of the heatmaps.
 * @example heatmapCsvText([{ date: '2026-08-03', pnl_paise: -12345, orders_count: 4 }]) // 'date,pnl,orders\n2026-08-03,-123.45,4\n'
 */
export function heatmapCsvText(days: readonly DailyPnlRecord[]): string {
  return heatmapCsv(sortedDays(days).map((day) => ({ date: day.date as IsoDate, netPnl: Number(day.pnl_paise), orders: day.orders_count })));
}
