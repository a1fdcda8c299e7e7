// The chart form of docs/PRODUCT.md section 3 (selectedInstrument, dateRanges, window 5,
// selectedIndicatorGroup) and its rules: the interval choices and default of docs/PRODUCT.md section 9, and
// the tier's earliest date per interval (the x-hasura-w<n>m claims) that bounds the range. The
// date-range presets (default "Last 90 days" ending yesterday, IST) are format/date-ranges.ts's.
import { isIsoDate, type IsoDate, type IsoDateRange } from '@vyuha/core';
import { DEFAULT_INTERVAL_MINUTES, INTERVAL_MINUTES, type IntervalMinutes } from '@vyuha/market';
import { defaultDateRange } from '../../../format/date-ranges';

export type DateRange = IsoDateRange;

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
