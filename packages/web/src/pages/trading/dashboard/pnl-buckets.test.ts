import { isoDate } from '@vyuha/core';
import { expect, test } from 'vitest';
import { toCsv } from '../parts/csv';
import { bucketLabel, bucketsOf, bucketStart, csvRows, foldBookedDays, istBounds, linePoints, type DashboardDayRow } from './pnl-buckets';

const row = (date: string, values: { realised: number; charges: number; mtm?: number; orders?: number; run?: string }): DashboardDayRow => ({
  run_id: values.run ?? 'a', date, realised_paise: values.realised, charges_paise: String(values.charges), mtm_paise: values.mtm ?? 0,
  pnl_paise: values.realised + (values.mtm ?? 0) - values.charges, orders_count: values.orders ?? 0,
});

// Two runs on Thursday 2026-10-29: (50,000 - 1,200) + (-20,000 - 800) = 28,000 paise booked; the
// second run's open position moved 9,000 paise, which is not booked and stays out of pnlPaise.
test('a day is realised less charges summed over its runs; the mark-to-market move is kept apart', () => {
  const days = foldBookedDays([
    row('2026-10-29', { realised: 50_000, charges: 1_200, orders: 2 }),
    row('2026-10-29', { realised: -20_000, charges: 800, mtm: 9_000, orders: 3, run: 'b' }),
  ]);
  expect(days.get('2026-10-29')).toEqual({ pnlPaise: 28_000, realisedPaise: 30_000, chargesPaise: 2_000, mtmPaise: 9_000, orders: 5 });
});

test('weeks start on Monday and months on the 1st (IST calendar dates)', () => {
  expect(bucketStart(isoDate('2026-11-01'), 'week')).toBe('2026-10-26'); // a Sunday belongs to the week before
  expect(bucketStart(isoDate('2026-11-02'), 'week')).toBe('2026-11-02');
  expect(bucketStart(isoDate('2026-10-31'), 'month')).toBe('2026-10-01');
  expect(bucketStart(isoDate('2026-10-31'), 'day')).toBe('2026-10-31');
});

// 2026-10-28 (Wed) to 2026-11-03 (Tue): the first week is clipped to Wed-Sun, the second to Mon-Tue.
// Days: Thu 29 Oct 1,000 - 100; Sun 1 Nov -500 - 0; Mon 2 Nov 300 - 50.
test('week and month buckets are clipped to the range and add up their days; empty buckets are listed', () => {
  const days = foldBookedDays([
    row('2026-10-29', { realised: 1_000, charges: 100, orders: 1 }),
    row('2026-11-01', { realised: -500, charges: 0, orders: 1 }),
    row('2026-11-02', { realised: 300, charges: 50, orders: 2 }),
    row('2026-11-04', { realised: 99_999, charges: 0 }), // outside the range
  ]);
  const range = { from: isoDate('2026-10-28'), to: isoDate('2026-11-03') };
  const weeks = bucketsOf(days, range, 'week');
  expect(weeks.map((bucket) => [bucket.from, bucket.to, bucket.pnlPaise, bucket.orders, bucket.tradingDays])).toEqual([
    ['2026-10-28', '2026-11-01', 400, 2, 2],
    ['2026-11-02', '2026-11-03', 250, 2, 1],
  ]);
  const months = bucketsOf(days, range, 'month');
  expect(months.map((bucket) => [bucket.from, bucket.to, bucket.pnlPaise])).toEqual([['2026-10-28', '2026-10-31', 900], ['2026-11-01', '2026-11-03', -250]]);
  const dayBuckets = bucketsOf(days, range, 'day');
  expect(dayBuckets).toHaveLength(7);
  expect(dayBuckets[0]).toMatchObject({ from: '2026-10-28', to: '2026-10-28', pnlPaise: 0, tradingDays: 0 });
});

test('a month bucket crosses a year end and February of a leap year', () => {
  const range = { from: isoDate('2027-12-15'), to: isoDate('2028-03-02') };
  expect(bucketsOf(new Map(), range, 'month').map((bucket) => [bucket.from, bucket.to])).toEqual([
    ['2027-12-15', '2027-12-31'], ['2028-01-01', '2028-01-31'], ['2028-02-01', '2028-02-29'], ['2028-03-01', '2028-03-02'],
  ]);
});

test('labels name a week by its Monday and a month by its name and year', () => {
  expect(bucketLabel({ from: isoDate('2026-10-26') }, 'week')).toBe('26 Oct');
  expect(bucketLabel({ from: isoDate('2026-10-01') }, 'month')).toBe('Oct 2026');
});

test('the CSV lists only periods with trading, in rupees with two decimals', () => {
  const days = foldBookedDays([row('2026-10-29', { realised: 12_345, charges: 1_000, mtm: -50, orders: 3 })]);
  const buckets = bucketsOf(days, { from: isoDate('2026-10-26'), to: isoDate('2026-11-08') }, 'week');
  const rows = csvRows(buckets);
  expect(rows).toEqual([['2026-10-26', '2026-11-01', '113.45', '123.45', '10.00', '-0.50', 3, 1]]);
  expect(toCsv(['from', 'to'], [['2026-10-26', '2026-11-01']])).toBe('from,to\r\n2026-10-26,2026-11-01\r\n');
});

test('the line has each bucket and the running total in rupees', () => {
  const days = foldBookedDays([row('2026-10-29', { realised: 10_000, charges: 0 }), row('2026-11-02', { realised: -4_000, charges: 0 })]);
  const { perBucket, cumulative } = linePoints(bucketsOf(days, { from: isoDate('2026-10-26'), to: isoDate('2026-11-08') }, 'week'));
  expect(perBucket).toEqual([{ time: '2026-10-26', value: 100 }, { time: '2026-11-02', value: -40 }]);
  expect(cumulative).toEqual([{ time: '2026-10-26', value: 100 }, { time: '2026-11-02', value: 60 }]);
});

test('a day of orders is its IST midnight to the next', () => {
  expect(istBounds({ from: isoDate('2026-10-30'), to: isoDate('2026-10-30') })).toEqual({ from: '2026-10-30T00:00:00+05:30', before: '2026-10-31T00:00:00+05:30' });
});
