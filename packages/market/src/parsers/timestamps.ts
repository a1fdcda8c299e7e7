// Candle timestamps as vendors write them, to epoch milliseconds. Indian market data without a
// zone is Indian time: `YYYY-MM-DD HH:mm[:ss]` means IST, a fixed UTC+05:30 (no daylight saving).

import { IST_OFFSET_MS, daysInMonth } from '@vyuha/core';

/** Epoch milliseconds, or the reason the text is not a timestamp. */
export type TimestampResult = { readonly ok: true; readonly epochMs: number } | { readonly ok: false; readonly reason: string };

const MS_PER_DAY = 86_400_000;
const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME_OF_DAY = /^(\d{2}):(\d{2})(?::(\d{2}))?$/;

/** Days since 1970-01-01 of a proleptic Gregorian date (month 1-12); integer arithmetic only. */
export function epochDay(year: number, month: number, day: number): number {
  const marchYear = month <= 2 ? year - 1 : year;
  const era = Math.floor(marchYear / 400);
  const yearOfEra = marchYear - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  return era * 146_097 + yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear - 719_468;
}

interface WallClock {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
  readonly millisecond: number;
}

function checkedEpochMs(clock: WallClock, offsetMs: number): TimestampResult {
  const { year, month, day, hour, minute, second } = clock;
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
    return { ok: false, reason: `${year}-${pad2(month)}-${pad2(day)} is not a calendar date` };
  }
  if (hour > 23 || minute > 59 || second > 59) return { ok: false, reason: `${pad2(hour)}:${pad2(minute)}:${pad2(second)} is not a time of day` };
  const local = epochDay(year, month, day) * MS_PER_DAY + ((hour * 60 + minute) * 60 + second) * 1000 + clock.millisecond;
  return { ok: true, epochMs: local - offsetMs };
}

function pad2(value: number): string {
  return String(value).padStart(2, '0');
}

function zoneOffsetMs(zone: string | undefined): number | undefined {
  if (zone === undefined) return IST_OFFSET_MS;
  if (zone === 'Z') return 0;
  const digits = zone.replace(':', '');
  const hours = Number(digits.slice(1, 3));
  const minutes = Number(digits.slice(3, 5));
  if (hours > 14 || minutes > 59) return undefined;
  return (zone.startsWith('-') ? -1 : 1) * (hours * 60 + minutes) * 60_000;
}

/**
 * One timestamp cell: 13-digit epoch ms, 10-digit epoch seconds, or ISO date-time (`T` or space,
 * optional seconds, fraction and zone; no zone = IST).
 * @example parseTimestamp('2024-01-05 09:15') // { ok: true, epochMs: 1704426300000 }
 */
export function parseTimestamp(text: string): TimestampResult {
  if (/^\d{13}$/.test(text)) return { ok: true, epochMs: Number(text) };
  if (/^\d{10}$/.test(text)) return { ok: true, epochMs: Number(text) * 1000 };
  const match = ISO_DATE_TIME.exec(text);
  if (!match) {
    return { ok: false, reason: `"${text}" is not a timestamp (expected YYYY-MM-DD HH:mm[:ss], ISO 8601 or epoch milliseconds)` };
  }
  const offsetMs = zoneOffsetMs(match[8]);
  if (offsetMs === undefined) return { ok: false, reason: `"${match[8]}" is not a time-zone offset` };
  const fraction = match[7] ?? '';
  return checkedEpochMs({
    year: Number(match[1]), month: Number(match[2]), day: Number(match[3]),
    hour: Number(match[4]), minute: Number(match[5]), second: Number(match[6] ?? 0),
    // Milliseconds only: digits beyond the third are truncated (candles never carry them).
    millisecond: fraction === '' ? 0 : Number(fraction.slice(0, 3).padEnd(3, '0')),
  }, offsetMs);
}

/** Separate date (`YYYY-MM-DD`) and time (`HH:mm[:ss]`) cells, read as IST. */
export function parseDateAndTime(date: string, time: string): TimestampResult & { field?: 'date' | 'time' } {
  const dateMatch = ISO_DATE.exec(date);
  if (!dateMatch) return { ok: false, reason: `date "${date}" is not YYYY-MM-DD`, field: 'date' };
  const timeMatch = TIME_OF_DAY.exec(time);
  if (!timeMatch) return { ok: false, reason: `time "${time}" is not HH:mm[:ss]`, field: 'time' };
  return checkedEpochMs({
    year: Number(dateMatch[1]), month: Number(dateMatch[2]), day: Number(dateMatch[3]),
    hour: Number(timeMatch[1]), minute: Number(timeMatch[2]), second: Number(timeMatch[3] ?? 0), millisecond: 0,
  }, IST_OFFSET_MS);
}
