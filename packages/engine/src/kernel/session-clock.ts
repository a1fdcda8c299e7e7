// The kernel's session clock: bar length, bar close times and the session end, on @vyuha/core's
// IST calendar (epoch day and minute of day with two divisions, no Date and no allocation; a day's
// date text is made once per thread: sessionDate). istEpochDay is re-exported for the kernel.
import { dateOfEpochDay, IST_OFFSET_MS, istEpochDay } from '@vyuha/core';
import type { IsoDate } from '@vyuha/core';
import type { BarSeries } from '../algorithm/program';

export { istEpochDay } from '@vyuha/core';

export const MS_PER_MINUTE = 60_000;
export const MS_PER_DAY = 86_400_000;
/** 15:30 IST: the end of the NSE/BSE normal market. */
export const SESSION_END_MINUTE = 15 * 60 + 30;

/** Days the date cache holds (a power of two: a day's place is its low bits): 11 years of calendar days. */
const CACHED_DAYS = 4096;
const cachedDay = new Float64Array(CACHED_DAYS).fill(Number.NaN);
const cachedDate: IsoDate[] = new Array<IsoDate>(CACHED_DAYS);

/**
 * The IST date of an epoch day (`dateOfEpochDay`), each day's text made once per thread: a sweep's
 * runs start the same 250 days of a year a thousand times, and the text was 250 new strings a run.
 * Direct-mapped: a day takes place `day mod CACHED_DAYS`, so any 4,096 consecutive days are held at
 * once, and a day that finds another day in its place makes its text and takes the place.
 * @example sessionDate(19723) // '2024-01-01'
 */
export function sessionDate(epochDay: number): IsoDate {
  const place = epochDay & (CACHED_DAYS - 1);
  if (cachedDay[place] === epochDay) return cachedDate[place] as IsoDate;
  const date = dateOfEpochDay(epochDay);
  cachedDay[place] = epochDay;
  cachedDate[place] = date;
  return date;
}

/**
 * A bar's length: the smallest gap between two consecutive bars of one IST day, or Infinity when
 * every day has one bar (daily bars). Gaps in the data only make gaps larger, never smaller.
 * @example inferBarMilliseconds(oneMinuteSeries) // 60000
 */
export function inferBarMilliseconds(series: BarSeries): number {
  return smallestInDayGap(series, false);
}

/**
 * scanBarTimes' answers by time column and length: runs over one series (an optimiser's grid, a
 * benchmark) scan its times once. A column whose first `length` times were scanned and found
 * increasing is assumed not to be rewritten in place (series are built, then only read; a growing
 * series appends, which changes the length). Only successful scans are kept.
 */
const scannedTimes = new WeakMap<Float64Array, { readonly length: number; readonly barMilliseconds: number }>();

/**
 * inferBarMilliseconds and the check that times increase strictly, in one pass over the times (a
 * backtest reads them once before its run). Throws a RangeError naming the first bar out of order.
 * @example scanBarTimes(oneMinuteSeries) // 60000
 */
export function scanBarTimes(series: BarSeries): number {
  const known = scannedTimes.get(series.time);
  if (known !== undefined && known.length === series.length) return known.barMilliseconds;
  const barMilliseconds = smallestInDayGap(series, true);
  scannedTimes.set(series.time, { length: series.length, barMilliseconds });
  return barMilliseconds;
}

/** The smallest gap between two bars of one IST day; `strict`: throw at the first time not after the one before it. */
function smallestInDayGap(series: BarSeries, strict: boolean): number {
  let smallest = Number.POSITIVE_INFINITY;
  let nextDayStart = Number.NEGATIVE_INFINITY;
  const time = series.time;
  const length = series.length;
  for (let index = 1; index < length; index += 1) {
    const previous = time[index - 1] as number;
    const current = time[index] as number;
    if (strict && current <= previous) throw new RangeError(`series.time[${index}]: times must increase strictly`);
    if (previous >= nextDayStart) nextDayStart = (istEpochDay(previous) + 1) * MS_PER_DAY - IST_OFFSET_MS;
    const gap = current - previous;
    if (gap > 0 && gap < smallest && current < nextDayStart) smallest = gap;
  }
  return smallest;
}

/**
 * When a bar that starts at `time` ends: start + bar length, but a bar inside the session never
 * ends after 15:30 (a partial last bar, or a daily bar, ends at the close).
 */
export function barCloseTime(time: number, barMilliseconds: number): number {
  const sessionEnd = istEpochDay(time) * MS_PER_DAY - IST_OFFSET_MS + SESSION_END_MINUTE * MS_PER_MINUTE;
  if (time >= sessionEnd) return Number.isFinite(barMilliseconds) ? time + barMilliseconds : time;
  return Math.min(time + barMilliseconds, sessionEnd);
}
