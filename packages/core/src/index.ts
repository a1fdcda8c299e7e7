export type { Result } from './result';
export { ok, err } from './result';
export type { Paise } from './money';
export { paise, rupeesToPaise, InvalidMoneyError } from './money';
export type { Rng } from './rng';
export { createRng, createRngFromState, InvalidSeedError } from './rng';
export type { IsoDate, Weekday, CivilDate, IstParts } from './time';
export {
  isoDate, isIsoDate, dateFromParts, dateParts, daysInMonth, addDays, daysBetween, weekday, lastWeekdayOfMonth,
  secondsOfDay, minuteOfDay, formatMinuteOfDay, istEpochMs, istParts, formatIstDateTime, parseIstDateTime,
  InvalidTimeError, IST_OFFSET_MS,
} from './time';
