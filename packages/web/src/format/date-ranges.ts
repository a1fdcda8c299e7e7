// The screens' date ranges: today in IST from the browser's clock (the one place the web app turns
// Date.now() into a trading date), the default range of docs/PRODUCT.md section 9 (90 days back to
// yesterday) and the presets /dashboard and /chart offer. The calendar arithmetic is
// @vyuha/core's; this file only holds the screens' choices.
import { daysEndingYesterday, isIsoDate, istDate, type IsoDate, type IsoDateRange } from '@vyuha/core';

/** docs/PRODUCT.md section 9: the default date range goes 90 days back and ends yesterday. */
export const DEFAULT_RANGE_DAYS = 90;

/** Today's IST date at `nowMs` (default: the browser's clock). */
export function istToday(nowMs: number = Date.now()): IsoDate {
  return istDate(nowMs);
}

/** The default range: the 90 days ending yesterday (IST). @example defaultDateRange('2025-04-01') // { from: '2025-01-01', to: '2025-03-31' } */
export function defaultDateRange(today: IsoDate = istToday()): IsoDateRange {
  return daysEndingYesterday(today, DEFAULT_RANGE_DAYS);
}

/** The text as an IsoDate, or undefined when it is not a valid `YYYY-MM-DD`. */
export function asIsoDate(text: string): IsoDate | undefined {
  return isIsoDate(text) ? text : undefined;
}

export interface RangePreset {
  readonly key: string;
  readonly label: string;
  /** Calendar days back, ending yesterday. */
  readonly days: number;
}

/** The presets, each ending yesterday (IST); "Last 90 days" is the default of docs/PRODUCT.md section 9. */
export const RANGE_PRESETS: readonly RangePreset[] = [
  { key: '7d', label: 'Last 7 days', days: 7 },
  { key: '30d', label: 'Last 30 days', days: 30 },
  { key: '90d', label: 'Last 90 days', days: DEFAULT_RANGE_DAYS },
  { key: '180d', label: 'Last 180 days', days: 180 },
  { key: '365d', label: 'Last 365 days', days: 365 },
];

export const DEFAULT_RANGE_PRESET = '90d';

/** A preset's range. @example presetRange('7d', '2026-11-24') // { from: '2026-11-17', to: '2026-11-23' } */
export function presetRange(key: string, today: IsoDate): IsoDateRange | undefined {
  const preset = RANGE_PRESETS.find((entry) => entry.key === key);
  return preset === undefined ? undefined : daysEndingYesterday(today, preset.days);
}

/** The preset a range is, if any. */
export function presetOf(range: IsoDateRange, today: IsoDate): string | undefined {
  return RANGE_PRESETS.find((preset) => {
    const candidate = presetRange(preset.key, today);
    return candidate !== undefined && candidate.from === range.from && candidate.to === range.to;
  })?.key;
}
