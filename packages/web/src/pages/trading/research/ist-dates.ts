// Calendar dates as the screens use them: "today" is the IST date (spec section 9: Asia/Kolkata),
// and the default range is the 90 days ending yesterday.
import { addDays, IST_OFFSET_MS, isIsoDate, type IsoDate } from '@vyuha/core';

/** Spec section 9: the default date range goes 90 days back and ends yesterday. */
export const DEFAULT_RANGE_DAYS = 90;

/** The IST calendar date of an instant. @example istDateOf(Date.UTC(2026, 0, 1, 20)) // '2026-01-02' */
export function istDateOf(epochMs: number): IsoDate {
  return new Date(epochMs + IST_OFFSET_MS).toISOString().slice(0, 10) as IsoDate;
}

/** Today's IST date. */
export function istToday(): IsoDate {
  return istDateOf(Date.now());
}

/** The default range: 90 days back to yesterday (IST). */
export function defaultDateRange(today: IsoDate = istToday()): { from: IsoDate; to: IsoDate } {
  const to = addDays(today, -1);
  return { from: addDays(to, -(DEFAULT_RANGE_DAYS - 1)), to };
}

/** The text as an IsoDate, or undefined when it is not a valid `YYYY-MM-DD`. */
export function asIsoDate(text: string): IsoDate | undefined {
  return isIsoDate(text) ? text : undefined;
}

/** Epoch ms of 00:00 IST on a date: the start of that trading date. */
export function istMidnightMs(date: IsoDate): number {
  return Date.parse(`${date}T00:00:00Z`) - IST_OFFSET_MS;
}
