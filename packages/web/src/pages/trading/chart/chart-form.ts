// The chart form of spec section 3 (selectedInstrument, dateRanges, window 5,
// selectedIndicatorGroup) and its rules: the interval choices and default of spec section 9, the
// date-range presets (default "Last 90 days" ending yesterday, IST) and the tier's earliest date
// per interval (the x-hasura-w<n>m claims) that bounds the range.
import { addDays, isIsoDate, type IsoDate } from '@vyuha/core';
import { DEFAULT_INTERVAL_MINUTES, INTERVAL_MINUTES, type IntervalMinutes } from '@vyuha/market';
import { defaultDateRange } from '../research/ist-dates';

export interface DateRange {
  readonly from: IsoDate;
  readonly to: IsoDate;
}

export interface ChartForm {
  readonly selectedInstrument: number | undefined;
  readonly dateRanges: DateRange;
  /** The candle interval in minutes (the spec calls it window). */
  readonly window: IntervalMinutes;
  readonly selectedIndicatorGroup: string | undefined;
}

/** The form a fresh /chart starts with. */
export function initialChartForm(today?: IsoDate): ChartForm {
  return { selectedInstrument: undefined, dateRanges: defaultDateRange(today), window: DEFAULT_INTERVAL_MINUTES, selectedIndicatorGroup: undefined };
}

/** An interval's label. @example intervalLabel(120) // '2 hours'; intervalLabel(1440) // '1 day' */
export function intervalLabel(minutes: number): string {
  if (minutes === 1440) return '1 day';
  if (minutes >= 60) return `${minutes / 60} hour${minutes === 60 ? '' : 's'}`;
  return `${minutes} min`;
}

export const INTERVAL_OPTIONS: ReadonlyArray<{ value: string; label: string }> = INTERVAL_MINUTES.map((minutes) => ({ value: String(minutes), label: intervalLabel(minutes) }));

export interface RangePreset {
  readonly key: string;
  readonly label: string;
  /** Calendar days back, ending yesterday. */
  readonly days: number;
}

/** The presets, each ending yesterday (IST); "Last 90 days" is the default of spec section 9. */
export const RANGE_PRESETS: readonly RangePreset[] = [
  { key: '7d', label: 'Last 7 days', days: 7 },
  { key: '30d', label: 'Last 30 days', days: 30 },
  { key: '90d', label: 'Last 90 days', days: 90 },
  { key: '180d', label: 'Last 180 days', days: 180 },
  { key: '365d', label: 'Last 365 days', days: 365 },
];

export const DEFAULT_RANGE_PRESET = '90d';

/** A preset's range. @example presetRange('7d', '2026-11-24') // { from: '2026-11-17', to: '2026-11-23' } */
export function presetRange(key: string, today: IsoDate): DateRange | undefined {
  const preset = RANGE_PRESETS.find((entry) => entry.key === key);
  if (preset === undefined) return undefined;
  const to = addDays(today, -1);
  return { from: addDays(to, -(preset.days - 1)), to };
}

/** The preset a range is, if any. */
export function presetOf(range: DateRange, today: IsoDate): string | undefined {
  return RANGE_PRESETS.find((preset) => {
    const candidate = presetRange(preset.key, today);
    return candidate !== undefined && candidate.from === range.from && candidate.to === range.to;
  })?.key;
}

export type RangeCheck =
  | { readonly ok: true; readonly range: DateRange; readonly raised: boolean }
  | { readonly ok: false; readonly message: string };

/**
 * The range to load: the start raised to the tier's earliest date for the interval; a range
 * ending before its (raised) start is refused with a message.
 * @example checkRange({ from: '2026-01-01', to: '2026-02-01' }, '2026-01-15') // { ok: true, range: { from: '2026-01-15', to: '2026-02-01' }, raised: true }
 */
export function checkRange(range: { from: string; to: string }, earliest: string | undefined): RangeCheck {
  if (!isIsoDate(range.from) || !isIsoDate(range.to)) return { ok: false, message: 'Enter both dates.' };
  const minimum = earliest !== undefined && isIsoDate(earliest) ? earliest : undefined;
  const from = minimum !== undefined && range.from < minimum ? minimum : range.from;
  if (range.to < from) return { ok: false, message: `The range ends before it starts (${from}).` };
  return { ok: true, range: { from, to: range.to }, raised: from !== range.from };
}
