// Calendar dates of the Indian market as 'YYYY-MM-DD' strings. India has no daylight saving, so
// the IST date of an instant is the UTC date of the instant moved by +05:30.

const DAY_MS = 86_400_000;
const IST_OFFSET_MS = 330 * 60_000;

/** The IST calendar date of an instant. @example istDate(Date.UTC(2025, 0, 1, 20, 0)) -> '2025-01-02' */
export function istDate(epochMs: number): string {
  return new Date(epochMs + IST_OFFSET_MS).toISOString().slice(0, 10);
}

/** A date moved by whole days. @example addDays('2025-03-01', -1) -> '2025-02-28' */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

/** Monday 0 ... Sunday 6. */
export function weekdayIndex(date: string): number {
  return (new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7;
}

/** True for a well-formed calendar date string. */
export function isDateString(value: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`))
    && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value);
}

export interface DateRange {
  readonly from: string;
  readonly to: string;
}

/** The range presets of the dashboard; every one ends yesterday (spec section 9: default 90 days back to yesterday). */
export const RANGE_PRESETS = [
  { value: '7', label: 'Last 7 days', days: 7 },
  { value: '30', label: 'Last 30 days', days: 30 },
  { value: '90', label: 'Last 90 days', days: 90 },
  { value: '180', label: 'Last 180 days', days: 180 },
  { value: '365', label: 'Last 365 days', days: 365 },
] as const;

export const DEFAULT_PRESET = '90';

/** The `days` days ending yesterday (IST). @example presetRange(90, nowMs) on 2025-04-01 -> 2024-12-31 .. 2025-03-31 */
export function presetRange(days: number, nowMs: number): DateRange {
  const to = addDays(istDate(nowMs), -1);
  return { from: addDays(to, -(days - 1)), to };
}
