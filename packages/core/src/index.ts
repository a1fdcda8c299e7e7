export type { Result } from './result';
export { ok, err } from './result';
export type { Paise, ParseRupeesOptions } from './money';
export { paise, rupeesToPaise, paiseToRupees, parseRupees, InvalidMoneyError } from './money';
export { TO_INTEGER, EXACT_BELOW } from './to-integer';
export type { RupeeFormatOptions } from './money-format';
export { formatRupees, formatRupeesAmount, formatPrice, paiseToRupeesText, groupIndianDigits, MISSING_VALUE } from './money-format';
export type { Rng } from './rng';
export { createRng, createRngFromState, InvalidSeedError } from './rng';
export type { IsoDate, Weekday, CivilDate, IstParts } from './time';
export {
  isoDate, isIsoDate, dateFromParts, dateParts, daysInMonth, addDays, daysBetween, weekday, lastWeekdayOfMonth,
  secondsOfDay, minuteOfDay, formatMinuteOfDay, istEpochMs, istParts, formatIstDateTime, parseIstDateTime,
  epochDayOf, dateOfEpochDay, InvalidTimeError, IST_OFFSET_MS,
} from './time';
export type { IsoDateRange } from './ist-dates';
export {
  istDate, istEpochDay, istMinuteOfDay, istYesterday, daysEndingYesterday, weekStart, monthStart, istMidnightMs,
  formatIstDate, formatIstTime,
} from './ist-dates';
export type { AccountRisk, LevelField, SwitchField, TrailMode } from './account-risk';
export { LEVEL_FIELDS, levelsOn, MAX_PERCENT_LEVEL, MAX_POINTS_LEVEL, NO_RISK, SWITCH_FIELDS, TRAIL_MODES } from './account-risk';
