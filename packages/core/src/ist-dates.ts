// The IST calendar as screens, reports and jobs use it: the date of an instant, today and yesterday
// (the caller passes `now`: core never reads a clock), ranges of whole days ending yesterday, the
// start of a week (Monday) and of a month, and the spec's display formats for dates (YYYY-MM-DD),
// datetimes (YYYY-MM-DD HH:mm:ss, in time.ts) and times (HH:mm). Built on time.ts's fixed-offset
// arithmetic: India keeps UTC+05:30 all year, so no time-zone data is needed.
import { addDays, dateFromParts, dateParts, IST_OFFSET_MS, istEpochMs, istParts, weekday, type IsoDate } from './time';

const MS_PER_MINUTE = 60_000;
const MS_PER_DAY = 86_400_000;

/** A range of whole IST dates, both ends included. */
export interface IsoDateRange {
  readonly from: IsoDate;
  readonly to: IsoDate;
}

function pad2(value: number): string {
  return String(value).padStart(2, '0');
}

/**
 * The IST calendar date of an instant (a fraction of a millisecond is dropped).
 * @example istDate(Date.UTC(2025, 0, 1, 18, 30)) // '2025-01-02'
 */
export function istDate(epochMs: number): IsoDate {
  return istParts(Math.floor(epochMs)).date;
}

/**
 * Days since 1970-01-01 of the IST date of an instant: two divisions, no allocation, for loops over
 * bars (`dateOfEpochDay` gives the date text once per day).
 * @example istEpochDay(Date.UTC(2024, 0, 1, 18, 30)) // 19724 (2024-01-02 IST)
 */
export function istEpochDay(epochMs: number): number {
  return Math.floor((epochMs + IST_OFFSET_MS) / MS_PER_DAY);
}

/**
 * Minutes since IST midnight of an instant, 0..1439.
 * @example istMinuteOfDay(Date.UTC(2024, 0, 1, 3, 45)) // 555 (09:15 IST)
 */
export function istMinuteOfDay(epochMs: number): number {
  const local = epochMs + IST_OFFSET_MS;
  return Math.floor((local - Math.floor(local / MS_PER_DAY) * MS_PER_DAY) / MS_PER_MINUTE);
}

/**
 * The IST date before the one `now` falls on: the last date whose session can be over.
 * @example istYesterday(Date.UTC(2025, 0, 1, 18, 30)) // '2025-01-01'
 */
export function istYesterday(nowMs: number): IsoDate {
  return addDays(istDate(nowMs), -1);
}

/**
 * The `days` whole dates that end the day before `today` (the spec's default range is 90 days
 * back to yesterday). Throws for a count below 1.
 * @example daysEndingYesterday(isoDate('2025-04-01'), 90) // { from: '2025-01-01', to: '2025-03-31' }
 */
export function daysEndingYesterday(today: IsoDate, days: number): IsoDateRange {
  if (!Number.isSafeInteger(days) || days < 1) throw new RangeError(`A range needs at least one whole day, got ${days}`);
  const to = addDays(today, -1);
  return { from: addDays(to, -(days - 1)), to };
}

/**
 * The Monday of the week `date` is in (weeks run Monday to Sunday, as the calendar heatmap draws them).
 * @example weekStart(isoDate('2025-11-30')) // '2025-11-24'
 */
export function weekStart(date: IsoDate): IsoDate {
  return addDays(date, -((weekday(date) + 6) % 7));
}

/**
 * The first day of `date`'s month.
 * @example monthStart(isoDate('2024-02-29')) // '2024-02-01'
 */
export function monthStart(date: IsoDate): IsoDate {
  const { year, month } = dateParts(date);
  return dateFromParts({ year, month, day: 1 });
}

/**
 * Epoch milliseconds of 00:00 IST on `date`: where that trading date starts.
 * @example istMidnightMs(isoDate('2024-01-01')) // 1704047400000
 */
export function istMidnightMs(date: IsoDate): number {
  return istEpochMs(date, '00:00');
}

/**
 * The spec's date format of an instant, in IST.
 * @example formatIstDate(1704080700000) // '2024-01-01'
 */
export function formatIstDate(epochMs: number): string {
  return istDate(epochMs);
}

/**
 * The spec's time format (`HH:mm`) of an instant, in IST; seconds are dropped, never rounded up.
 * @example formatIstTime(1704080759000) // '09:15'
 */
export function formatIstTime(epochMs: number): string {
  const parts = istParts(Math.floor(epochMs));
  return `${pad2(parts.hh)}:${pad2(parts.mm)}`;
}
