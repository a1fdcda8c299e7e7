import { addDays, isoDate, minuteOfDay, weekday } from '@vyuha/core';
import type { IsoDate } from '@vyuha/core';
import { SPECIAL_SESSION_RECORDS } from '../data/special-sessions.generated';
import type { SpecialSessionKind } from './calendar-records';
import { holidayOn } from './holidays';

/** The Indian exchange segments that have a session calendar (XCBO keeps US hours and is not modelled). */
export const SESSION_EXCHANGES = ['NSE', 'NFO', 'BSE', 'BFO', 'CDS', 'BCD'] as const;
export type SessionExchange = (typeof SESSION_EXCHANGES)[number];

export type SessionKind = 'normal' | 'muhurat' | 'special';

/** One trading session in IST minutes of the day: bars start at `open` .. `close - 1`. */
export interface TradingSession {
  readonly open: number;
  readonly close: number;
  readonly kind: SessionKind;
}

interface SessionHours {
  /** First date these hours apply (inclusive). */
  readonly from: IsoDate;
  readonly exchanges: readonly SessionExchange[];
  readonly open: string;
  readonly close: string;
}

/**
 * Normal-market hours as a dated schedule; the last row starting on or before a date applies.
 * Pre-open (and NSE's futures-only 09:00-09:15 pre-open from 8-Dec-2025) is not part of the
 * session: no option trades there and no 1-minute bar starts there.
 */
const SESSION_HOURS: readonly SessionHours[] = [
  { from: isoDate('2000-01-01'), exchanges: ['NSE', 'NFO', 'BSE', 'BFO'], open: '09:15', close: '15:30' },
  { from: isoDate('2000-01-01'), exchanges: ['CDS', 'BCD'], open: '09:00', close: '17:00' },
];

/** Special sessions are announced per exchange; the derivatives segments follow their exchange. */
const SPECIAL_SESSION_SOURCE: Readonly<Record<SessionExchange, 'NSE' | 'BSE' | undefined>> = {
  NSE: 'NSE', NFO: 'NSE', BSE: 'BSE', BFO: 'BSE', CDS: undefined, BCD: undefined,
};

/** Which CSV kinds open a session and as what; the rest are event days without a session of their own. */
const SESSION_KIND_OF: Partial<Record<SpecialSessionKind, SessionKind>> = {
  muhurat: 'muhurat',
  budget_weekend_session: 'special',
  special_full_session: 'special',
  special_live_session_dr: 'special',
};

// A special session whose times are not yet known (start/end empty) opens no session: we cannot
// say which minutes trade, so the day stays closed until the CSV gets the times.
const SPECIAL_SESSIONS: ReadonlyMap<string, TradingSession> = new Map(
  SPECIAL_SESSION_RECORDS.flatMap((record) => {
    const kind = SESSION_KIND_OF[record.kind];
    if (kind === undefined || record.exchange === 'IN' || record.start === null || record.end === null) return [];
    const session: TradingSession = { open: minuteOfDay(record.start), close: minuteOfDay(record.end), kind };
    return [[`${record.exchange}|${isoDate(record.date)}`, session] as const];
  }),
);

/** How far next/previous trading day searches before deciding the calendar is broken. */
const MAX_CLOSED_RUN_DAYS = 31;

function normalHours(exchange: SessionExchange, date: IsoDate): TradingSession {
  const hours = SESSION_HOURS.filter((row) => row.from <= date && row.exchanges.includes(exchange)).at(-1);
  if (hours === undefined) throw new RangeError(`No session hours for ${exchange} on ${date}`);
  return { open: minuteOfDay(hours.open), close: minuteOfDay(hours.close), kind: 'normal' };
}

/**
 * A Monday-to-Friday date that is not a holiday of the exchange: the days expiries and
 * settlements count, whatever special session a weekend or a holiday may have had.
 */
export function isRegularTradingDay(exchange: SessionExchange, date: IsoDate): boolean {
  const day = weekday(date);
  return day !== 0 && day !== 6 && holidayOn(exchange, date) === undefined;
}

/**
 * The session of an exchange on a date, or undefined when it is closed: special sessions
 * (weekend budget days, muhurat on a holiday) first, then normal hours on regular trading days.
 * @example sessionOf('NFO', isoDate('2024-11-01')) // { open: 1080, close: 1140, kind: 'muhurat' }
 */
export function sessionOf(exchange: SessionExchange, date: IsoDate): TradingSession | undefined {
  const source = SPECIAL_SESSION_SOURCE[exchange];
  const special = source === undefined ? undefined : SPECIAL_SESSIONS.get(`${source}|${date}`);
  if (special !== undefined) return special;
  return isRegularTradingDay(exchange, date) ? normalHours(exchange, date) : undefined;
}

/** True when the exchange has any session that day (normal, muhurat or special). */
export function isTradingDay(exchange: SessionExchange, date: IsoDate): boolean {
  return sessionOf(exchange, date) !== undefined;
}

function stepToTradingDay(exchange: SessionExchange, date: IsoDate, step: 1 | -1): IsoDate {
  let candidate = date;
  for (let i = 0; i < MAX_CLOSED_RUN_DAYS; i += 1) {
    candidate = addDays(candidate, step);
    if (isTradingDay(exchange, candidate)) return candidate;
  }
  throw new RangeError(`${exchange} has no trading day within ${MAX_CLOSED_RUN_DAYS} days of ${date}`);
}

/** The first trading day strictly after `date`. @example nextTradingDay('NSE', isoDate('2024-04-10')) // '2024-04-12' */
export function nextTradingDay(exchange: SessionExchange, date: IsoDate): IsoDate {
  return stepToTradingDay(exchange, date, 1);
}

/** The last trading day strictly before `date`. @example previousTradingDay('NSE', isoDate('2024-04-12')) // '2024-04-10' */
export function previousTradingDay(exchange: SessionExchange, date: IsoDate): IsoDate {
  return stepToTradingDay(exchange, date, -1);
}

/** Every trading day from `from` to `to`, both included, in order (empty when `to` is before `from`). */
export function tradingDaysBetween(exchange: SessionExchange, from: IsoDate, to: IsoDate): IsoDate[] {
  const days: IsoDate[] = [];
  for (let date = from; date <= to; date = addDays(date, 1)) {
    if (isTradingDay(exchange, date)) days.push(date);
  }
  return days;
}

/**
 * Minute-of-day starts of the session's 1-minute bars (open .. close - 1); empty when closed.
 * @example sessionMinutes('NSE', isoDate('2024-04-10')).length // 375
 */
export function sessionMinutes(exchange: SessionExchange, date: IsoDate): number[] {
  const session = sessionOf(exchange, date);
  if (session === undefined) return [];
  return Array.from({ length: session.close - session.open }, (_, i) => session.open + i);
}
