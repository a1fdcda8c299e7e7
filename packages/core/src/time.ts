// Indian market time. Asia/Kolkata is a fixed UTC+05:30 with no daylight saving, so every
// conversion here is integer arithmetic: no Intl, no time-zone database, no wall clock.
// Civil dates are counted as "epoch days" (days since 1970-01-01), the proleptic Gregorian
// calendar in both directions.

declare const isoDateBrand: unique symbol;

/** A valid calendar date written `YYYY-MM-DD`; only `isoDate()` (or this module) makes one. */
export type IsoDate = string & { readonly [isoDateBrand]: 'IsoDate' };

/** Day of the week, 0 Sunday .. 6 Saturday (as `Date.prototype.getUTCDay`). */
export type Weekday = 0 | 1 | 2 | 3 | 4 | 5 | 6;

/** A date or time that is not what it claims to be; the message quotes the bad text. */
export class InvalidTimeError extends Error {
  override readonly name = 'InvalidTimeError';
}

/** Year, month (1-12) and day (1-31) of a civil date. */
export interface CivilDate {
  readonly year: number;
  readonly month: number;
  readonly day: number;
}

/** What `istParts` gives: the IST date and the time of day, whole seconds. */
export interface IstParts {
  readonly date: IsoDate;
  /** Minutes since IST midnight, 0..1439: the key of a 1-minute bar. */
  readonly minuteOfDay: number;
  readonly hh: number;
  readonly mm: number;
  readonly ss: number;
}

const MS_PER_SECOND = 1_000;
const MS_PER_MINUTE = 60_000;
const MS_PER_DAY = 86_400_000;
/** Asia/Kolkata = UTC + 5 h 30 min, all year, every year this code covers. */
export const IST_OFFSET_MS = 19_800_000;

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME_OF_DAY = /^(\d{2}):(\d{2})(?::(\d{2}))?$/;
const IST_DATE_TIME = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})$/;

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** Number of days in a month (1-12) of a year. @example daysInMonth(2024, 2) // 29 */
export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}

/**
 * Validates `YYYY-MM-DD` text as a real calendar date (years 0001-9999).
 * @example isoDate('2024-02-29') // '2024-02-29'; isoDate('2025-02-30') throws
 */
export function isoDate(text: string): IsoDate {
  const match = ISO_DATE.exec(text);
  if (!match) throw new InvalidTimeError(`Expected a date as YYYY-MM-DD, got "${text}"`);
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
    throw new InvalidTimeError(`"${text}" is not a calendar date`);
  }
  return text as IsoDate;
}

/** True when `text` is a valid `YYYY-MM-DD` calendar date. */
export function isIsoDate(text: string): text is IsoDate {
  try {
    isoDate(text);
    return true;
  } catch {
    return false;
  }
}

/** Builds a date from its parts, refusing impossible ones. @example dateFromParts({ year: 2024, month: 4, day: 10 }) // '2024-04-10' */
export function dateFromParts(parts: CivilDate): IsoDate {
  const { year, month, day } = parts;
  if (![year, month, day].every(Number.isInteger)) throw new InvalidTimeError(`Date parts must be whole numbers, got ${year}-${month}-${day}`);
  return isoDate(`${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`);
}

/** Year, month and day of a date. @example dateParts(isoDate('2024-04-10')) // { year: 2024, month: 4, day: 10 } */
export function dateParts(date: IsoDate): CivilDate {
  return { year: Number(date.slice(0, 4)), month: Number(date.slice(5, 7)), day: Number(date.slice(8, 10)) };
}

/** Days since 1970-01-01 (negative before it). @example epochDayOf(isoDate('1970-01-02')) // 1 */
export function epochDayOf(date: IsoDate): number {
  const { year, month, day } = dateParts(date);
  // Count years from March so that the leap day is the last day of the counted year.
  const marchYear = month <= 2 ? year - 1 : year;
  const era = Math.floor(marchYear / 400);
  const yearOfEra = marchYear - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

/** The inverse of `epochDayOf`. @example dateOfEpochDay(19_723) // '2024-01-01' */
export function dateOfEpochDay(epochDay: number): IsoDate {
  const shifted = epochDay + 719_468;
  const era = Math.floor(shifted / 146_097);
  const dayOfEra = shifted - era * 146_097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1_460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthFromMarch = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthFromMarch + 2) / 5) + 1;
  const month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  if (year < 1 || year > 9999) throw new InvalidTimeError(`Date out of range (years 0001-9999): epoch day ${epochDay}`);
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}` as IsoDate;
}

/** The date `days` later (earlier when negative). @example addDays(isoDate('2024-02-28'), 2) // '2024-03-01' */
export function addDays(date: IsoDate, days: number): IsoDate {
  if (!Number.isSafeInteger(days)) throw new InvalidTimeError(`Days must be a whole number, got ${days}`);
  return dateOfEpochDay(epochDayOf(date) + days);
}

/** Whole days from `from` to `to` (negative when `to` is earlier). @example daysBetween(isoDate('2024-01-01'), isoDate('2025-01-01')) // 366 */
export function daysBetween(from: IsoDate, to: IsoDate): number {
  return epochDayOf(to) - epochDayOf(from);
}

/** Day of the week, 0 Sunday .. 6 Saturday. @example weekday(isoDate('2024-04-11')) // 4 (Thursday) */
export function weekday(date: IsoDate): Weekday {
  // 1970-01-01 was a Thursday (4).
  return ((((epochDayOf(date) + 4) % 7) + 7) % 7) as Weekday;
}

/** The last given weekday of the month that `date` falls in. @example lastWeekdayOfMonth(isoDate('2024-04-01'), 4) // '2024-04-25' */
export function lastWeekdayOfMonth(date: IsoDate, day: Weekday): IsoDate {
  const { year, month } = dateParts(date);
  const monthEnd = dateFromParts({ year, month, day: daysInMonth(year, month) });
  return addDays(monthEnd, -((weekday(monthEnd) - day + 7) % 7));
}

/**
 * Seconds since midnight of `HH:mm` or `HH:mm:ss` text (00:00:00 .. 23:59:59).
 * @example secondsOfDay('09:15') // 33300
 */
export function secondsOfDay(time: string): number {
  const match = TIME_OF_DAY.exec(time);
  const [hh, mm, ss] = match ? [Number(match[1]), Number(match[2]), Number(match[3] ?? '0')] : [NaN, NaN, NaN];
  if (!match || hh > 23 || mm > 59 || ss > 59) throw new InvalidTimeError(`Expected a time as HH:mm or HH:mm:ss, got "${time}"`);
  return hh * 3_600 + mm * 60 + ss;
}

/** Minutes since midnight of `HH:mm` text; seconds must be zero. @example minuteOfDay('15:30') // 930 */
export function minuteOfDay(time: string): number {
  const seconds = secondsOfDay(time);
  if (seconds % 60 !== 0) throw new InvalidTimeError(`Expected a whole minute, got "${time}"`);
  return seconds / 60;
}

/** `HH:mm` of a minute of the day. @example formatMinuteOfDay(555) // '09:15' */
export function formatMinuteOfDay(minute: number): string {
  if (!Number.isInteger(minute) || minute < 0 || minute >= 1_440) throw new InvalidTimeError(`Minute of day must be 0..1439, got ${minute}`);
  return `${pad(Math.floor(minute / 60), 2)}:${pad(minute % 60, 2)}`;
}

/** Epoch milliseconds of an IST date and time. @example istEpochMs(isoDate('2024-01-01'), '09:15') // 1704080700000 */
export function istEpochMs(date: IsoDate, time: string): number {
  return epochDayOf(date) * MS_PER_DAY + secondsOfDay(time) * MS_PER_SECOND - IST_OFFSET_MS;
}

function requireEpochMs(epochMs: number): void {
  if (!Number.isSafeInteger(epochMs)) throw new InvalidTimeError(`Epoch milliseconds must be a whole number, got ${epochMs}`);
}

/** The IST date and time of day of an instant (milliseconds are dropped, never rounded up). */
export function istParts(epochMs: number): IstParts {
  requireEpochMs(epochMs);
  const local = epochMs + IST_OFFSET_MS;
  const epochDay = Math.floor(local / MS_PER_DAY);
  const msOfDay = local - epochDay * MS_PER_DAY;
  const minute = Math.floor(msOfDay / MS_PER_MINUTE);
  return {
    date: dateOfEpochDay(epochDay),
    minuteOfDay: minute,
    hh: Math.floor(minute / 60),
    mm: minute % 60,
    ss: Math.floor((msOfDay % MS_PER_MINUTE) / MS_PER_SECOND),
  };
}

/** The spec's datetime format, in IST. @example formatIstDateTime(1704080700000) // '2024-01-01 09:15:00' */
export function formatIstDateTime(epochMs: number): string {
  const parts = istParts(epochMs);
  return `${parts.date} ${pad(parts.hh, 2)}:${pad(parts.mm, 2)}:${pad(parts.ss, 2)}`;
}

/** Epoch milliseconds of `YYYY-MM-DD HH:mm:ss` IST text. @example parseIstDateTime('2024-01-01 09:15:00') // 1704080700000 */
export function parseIstDateTime(text: string): number {
  const match = IST_DATE_TIME.exec(text);
  if (!match) throw new InvalidTimeError(`Expected a datetime as YYYY-MM-DD HH:mm:ss, got "${text}"`);
  return istEpochMs(isoDate(match[1] as string), match[2] as string);
}
