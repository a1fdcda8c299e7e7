// The dashboard's numbers, folded from daily_pnl rows (pure; the page only subscribes and draws).
//
// - A day's P&L is what its fills booked: realised P&L less charges (daily_pnl's realised_paise -
//   charges_paise). daily_pnl's pnl_paise also holds the day's move in the open positions' marks
//   (mtm_paise, migration 0018: pnl = realised + mtm - charges); that move is not yet booked, so the
//   history shows it apart (the CSV's mark-to-market column) and only today's figures add it in.
// - Dates are IST trading dates already (the OMS writes istDate of each fill); weeks run Monday to
//   Sunday and a week or month bucket is named by its first day, clipped to the chosen range.
// - Every bucket of the range is listed, empty ones too, so a line has a point for each period.
import { addDays, monthStart, weekStart, type IsoDate, type IsoDateRange } from '@vyuha/core';
import { paiseToRupeesText } from '@vyuha/core';
import type { DayValue } from '../parts/CalendarHeatmap';

export type Duration = 'day' | 'week' | 'month';

/** A daily_pnl row as the dashboard reads it (bigint paise come back as numbers or strings). */
export interface DashboardDayRow {
  readonly run_id: string;
  readonly date: string;
  readonly pnl_paise: number | string;
  readonly realised_paise: number | string;
  readonly mtm_paise: number | string;
  readonly charges_paise: number | string;
  readonly orders_count: number;
}

/** One day (or bucket) of the user's trading: booked P&L, its parts, and the orders placed. */
export interface BookedDay extends DayValue {
  /** Realised less charges: the heatmap's and the line's value. */
  readonly pnlPaise: number;
  readonly realisedPaise: number;
  readonly chargesPaise: number;
  /** The day's move in the marks of positions still open (not booked). */
  readonly mtmPaise: number;
  readonly orders: number;
}

const ZERO: BookedDay = { pnlPaise: 0, realisedPaise: 0, chargesPaise: 0, mtmPaise: 0, orders: 0 };

function add(a: BookedDay, b: BookedDay): BookedDay {
  return {
    pnlPaise: a.pnlPaise + b.pnlPaise, realisedPaise: a.realisedPaise + b.realisedPaise, chargesPaise: a.chargesPaise + b.chargesPaise,
    mtmPaise: a.mtmPaise + b.mtmPaise, orders: a.orders + b.orders,
  };
}

/** One row's figures. @example bookedOf({ realised_paise: 5000, charges_paise: 300, mtm_paise: 0, orders_count: 2, ... }).pnlPaise // 4700 */
export function bookedOf(row: DashboardDayRow): BookedDay {
  const realisedPaise = Number(row.realised_paise);
  const chargesPaise = Number(row.charges_paise);
  return { pnlPaise: realisedPaise - chargesPaise, realisedPaise, chargesPaise, mtmPaise: Number(row.mtm_paise), orders: row.orders_count };
}

/** The runs of each day added up. @example foldBookedDays([a on 'd', b on 'd']).get('d') // a + b */
export function foldBookedDays(rows: readonly DashboardDayRow[]): Map<string, BookedDay> {
  const days = new Map<string, BookedDay>();
  for (const row of rows) days.set(row.date, add(days.get(row.date) ?? ZERO, bookedOf(row)));
  return days;
}

/** The first day of the bucket `date` falls in. @example bucketStart('2026-10-29', 'week') // '2026-10-26' (a Monday) */
export function bucketStart(date: IsoDate, duration: Duration): IsoDate {
  if (duration === 'week') return weekStart(date);
  if (duration === 'month') return monthStart(date);
  return date;
}

/** The day after the bucket that starts at `start` ends. */
function nextBucket(start: IsoDate, duration: Duration): IsoDate {
  if (duration === 'day') return addDays(start, 1);
  if (duration === 'week') return addDays(start, 7);
  // The 1st of the next month: 31 days on from the 1st always lands in the next month.
  return monthStart(addDays(start, 31));
}

export interface Bucket extends BookedDay {
  /** The bucket's first day, clipped to the range (the line's time). */
  readonly from: IsoDate;
  /** Its last day, clipped to the range. */
  readonly to: IsoDate;
  /** Days of the bucket with a daily_pnl row. */
  readonly tradingDays: number;
}

/**
 * The range cut into day, week or month buckets (every one, empty ones too), each the sum of its days.
 * @example bucketsOf(days, { from: '2026-10-28', to: '2026-11-03' }, 'week').map((b) => [b.from, b.to])
 *   // [['2026-10-28', '2026-11-01'], ['2026-11-02', '2026-11-03']]
 */
export function bucketsOf(days: ReadonlyMap<string, BookedDay>, range: IsoDateRange, duration: Duration): Bucket[] {
  const buckets: Bucket[] = [];
  for (let start = bucketStart(range.from, duration); start <= range.to; start = nextBucket(start, duration)) {
    const from = start < range.from ? range.from : start;
    const last = addDays(nextBucket(start, duration), -1);
    const to = last > range.to ? range.to : last;
    let sum = ZERO;
    let tradingDays = 0;
    for (let date = from; date <= to; date = addDays(date, 1)) {
      const day = days.get(date);
      if (day === undefined) continue;
      sum = add(sum, day);
      tradingDays += 1;
    }
    buckets.push({ ...sum, from, to, tradingDays });
  }
  return buckets;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A bucket's name on a cell. @example bucketLabel({ from: '2026-10-26', ... }, 'week') // '26 Oct' ; (…, 'month') // 'Oct 2026' */
export function bucketLabel(bucket: Pick<Bucket, 'from'>, duration: Duration): string {
  const month = MONTHS[Number(bucket.from.slice(5, 7)) - 1] ?? '';
  if (duration === 'month') return `${month} ${bucket.from.slice(0, 4)}`;
  return `${Number(bucket.from.slice(8, 10))} ${month}`;
}

/** The CSV's header; money in rupees with two decimals, as the statement a broker sends. */
export const CSV_HEADER = ['from', 'to', 'pnl_rupees', 'realised_rupees', 'charges_rupees', 'mark_to_market_rupees', 'orders', 'trading_days'] as const;

/**
 * The CSV rows of the buckets that had trading (an empty period is not a row).
 * @example csvRows([{ from: '2026-10-26', to: '2026-11-01', pnlPaise: 4700, realisedPaise: 5000, chargesPaise: 300, mtmPaise: 0, orders: 2, tradingDays: 1 }])
 *   // [['2026-10-26', '2026-11-01', '47.00', '50.00', '3.00', '0.00', 2, 1]]
 */
export function csvRows(buckets: readonly Bucket[]): Array<Array<string | number>> {
  return buckets.filter((bucket) => bucket.tradingDays > 0).map((bucket) => [
    bucket.from, bucket.to, paiseToRupeesText(bucket.pnlPaise), paiseToRupeesText(bucket.realisedPaise),
    paiseToRupeesText(bucket.chargesPaise), paiseToRupeesText(bucket.mtmPaise), bucket.orders, bucket.tradingDays,
  ]);
}

/** The line's points: each bucket's booked P&L and the running total, in rupees. */
export function linePoints(buckets: readonly Bucket[]): { perBucket: Array<{ time: string; value: number }>; cumulative: Array<{ time: string; value: number }> } {
  let running = 0;
  const perBucket: Array<{ time: string; value: number }> = [];
  const cumulative: Array<{ time: string; value: number }> = [];
  for (const bucket of buckets) {
    running += bucket.pnlPaise;
    perBucket.push({ time: bucket.from, value: bucket.pnlPaise / 100 });
    cumulative.push({ time: bucket.from, value: running / 100 });
  }
  return { perBucket, cumulative };
}

/** The [start, end) of an IST date range as timestamps, for filtering orders by when they were placed. */
export function istBounds(range: IsoDateRange): { readonly from: string; readonly before: string } {
  return { from: `${range.from}T00:00:00+05:30`, before: `${addDays(range.to, 1)}T00:00:00+05:30` };
}
