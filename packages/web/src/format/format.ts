// The display formats of docs/PRODUCT.md section 9 as the web app uses them: rupees (from @vyuha/core's one
// money formatter), dates and times in Asia/Kolkata (core's IST calendar; here a missing or
// non-finite instant shows a dash), timestamps as GraphQL and files write them, percentages and
// download file names. Pure functions: the caller passes the clock.
import {
  IST_OFFSET_MS, MISSING_VALUE, dateFromParts, daysInMonth, epochDayOf, formatIstDate, formatIstDateTime, formatIstTime, istParts,
} from '@vyuha/core';

export { MISSING_VALUE, formatRupees, formatRupeesAmount, type RupeeFormatOptions } from '@vyuha/core';

const MS_PER_DAY = 86_400_000;

function pad2(value: number): string {
  return String(value).padStart(2, '0');
}

/** Whole milliseconds, or undefined for NaN, infinities and instants beyond the safe range. */
function wholeMs(epochMs: number): number | undefined {
  if (!Number.isFinite(epochMs)) return undefined;
  const whole = Math.floor(epochMs);
  return Number.isSafeInteger(whole) ? whole : undefined;
}

/** The IST calendar date of an instant. @example formatDate(Date.UTC(2026, 10, 24, 18, 30)) // '2026-11-25' */
export function formatDate(epochMs: number): string {
  const whole = wholeMs(epochMs);
  return whole === undefined ? MISSING_VALUE : formatIstDate(whole);
}

/** The IST date and time, whole seconds (dropped, never rounded up). @example formatDateTime(1704080700000) // '2024-01-01 09:15:00' */
export function formatDateTime(epochMs: number): string {
  const whole = wholeMs(epochMs);
  return whole === undefined ? MISSING_VALUE : formatIstDateTime(whole);
}

/** The IST time of day in hours and minutes. @example formatTime(1704080700000) // '09:15' */
export function formatTime(epochMs: number): string {
  const whole = wholeMs(epochMs);
  return whole === undefined ? MISSING_VALUE : formatIstTime(whole);
}

// docs/PRODUCT.md section 5. `T`, `t` or a space between date and time; seconds, a fraction of any length
// and a zone (Z, ±HH:mm, ±HHmm, ±HH) are optional.
const ISO_TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?\s*([Zz]|[+-]\d{2}(?::?\d{2})?)?$/;
const EPOCH_MS = /^-?\d{13}$/;

/** Offset east of UTC in ms; a missing zone means Indian time (how Indian market data is written). */
function zoneOffsetMs(zone: string | undefined): number | undefined {
  if (zone === undefined) return IST_OFFSET_MS;
  if (zone === 'Z' || zone === 'z') return 0;
  const digits = zone.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = digits.length > 2 ? Number(digits.slice(2, 4)) : 0;
  if (hours > 14 || minutes > 59) return undefined;
  return (zone.startsWith('-') ? -1 : 1) * (hours * 60 + minutes) * 60_000;
}

function parseIsoTimestamp(text: string): number | undefined {
  const match = ISO_TIMESTAMP.exec(text);
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s, fraction, zone] = match;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s ?? 0);
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const offsetMs = zoneOffsetMs(zone);
  if (offsetMs === undefined) return undefined;
  // Milliseconds only: digits past the third (micro- and nanoseconds) are dropped.
  const millisecond = fraction === undefined ? 0 : Number(fraction.slice(0, 3).padEnd(3, '0'));
  const wallClockMs = epochDayOf(dateFromParts({ year, month, day })) * MS_PER_DAY + ((hour * 60 + minute) * 60 + second) * 1000 + millisecond;
  return wallClockMs - offsetMs;
}

/**
 * Epoch milliseconds of a 13-digit millisecond stamp (number or text) or an ISO-style timestamp
 * with optional seconds, fraction and zone (no zone: IST); undefined for anything else, including
 * impossible dates and 10-digit second stamps.
 * @example parseTimestamp('2024-01-05T03:45:00.000Z') // 1704426300000
 * @example parseTimestamp('2024-01-05 09:15') // 1704426300000 (IST)
 * @example parseTimestamp(1704426300000) // 1704426300000
 */
export function parseTimestamp(value: string | number): number | undefined {
  if (typeof value === 'number') {
    return Number.isSafeInteger(value) && EPOCH_MS.test(String(value)) ? value : undefined;
  }
  const text = value.trim();
  if (EPOCH_MS.test(text)) return Number(text);
  return parseIsoTimestamp(text);
}

// File-name safety: anything but letters, digits, dot, underscore and hyphen becomes a hyphen.
const UNSAFE_RUN = /[^\p{L}\p{N}._-]+/gu;

function safePart(text: string): string {
  return text.trim().replace(UNSAFE_RUN, '-').replace(/^[-.]+|[-.]+$/g, '');
}

/** The spec's download prefix: the first two letters of the profile name, uppercased ('' when it has none). */
function profilePrefix(profileName: string): string {
  const letters = profileName.match(/\p{L}/gu) ?? [];
  return letters.slice(0, 2).join('').toUpperCase();
}

export interface DownloadFileNameParts {
  /** The signed-in user's profile name; its first two letters, uppercased, start the name. */
  readonly profileName: string;
  /** What the file holds, e.g. 'pnl-heatmap'. */
  readonly base: string;
  /** Without the dot, e.g. 'csv' (a leading dot is tolerated); '' for none. */
  readonly extension: string;
  /** The clock, in epoch milliseconds (the caller passes Date.now()). */
  readonly nowMs: number;
}

/**
 * A download's file name: `<PREFIX>_<base>_<YYYYMMDD-HHmmss IST>.<extension>`, where PREFIX is
 * the first two letters of the profile name uppercased (left out, with its underscore, when the
 * name has no letters); characters unsafe in file names become hyphens.
 * @example downloadFileName({ profileName: 'Ravi Kumar', base: 'pnl-heatmap', extension: 'csv', nowMs: Date.UTC(2026, 10, 24, 4, 0, 15) }) // 'RA_pnl-heatmap_20261124-093015.csv'
 */
export function downloadFileName(parts: DownloadFileNameParts): string {
  const whole = wholeMs(parts.nowMs);
  if (whole === undefined) throw new RangeError(`downloadFileName needs the current time in epoch milliseconds, got ${parts.nowMs}`);
  const clock = istParts(whole);
  const stamp = `${clock.date.replaceAll('-', '')}-${pad2(clock.hh)}${pad2(clock.mm)}${pad2(clock.ss)}`;
  const stem = [profilePrefix(parts.profileName), safePart(parts.base), stamp].filter((part) => part !== '').join('_');
  const suffix = safePart(parts.extension.replace(/^\.+/, ''));
  return suffix === '' ? stem : `${stem}.${suffix}`;
}

const PERCENT_FORMATS = new Map<number, Intl.NumberFormat>();

/**
 * A value already in percent units with exactly `digits` decimals and en-IN grouping; a value
 * that rounds to zero shows no minus sign.
 * @example percent(33.3333) // '33.33%'
 * @example percent(-4.2, 1) // '-4.2%'
 */
export function percent(value: number, digits = 2): string {
  if (!Number.isFinite(value)) return MISSING_VALUE;
  let format = PERCENT_FORMATS.get(digits);
  if (format === undefined) {
    format = new Intl.NumberFormat('en-IN', { minimumFractionDigits: digits, maximumFractionDigits: digits, signDisplay: 'negative' });
    PERCENT_FORMATS.set(digits, format);
  }
  return `${format.format(value)}%`;
}
