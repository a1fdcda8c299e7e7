// Whether an imported bar or end-of-day file can be real: a 1-minute bar must open inside a
// session of its exchange on a day that exchange trades, and neither may lie in the future.
// The importers ask this of every row, so a file with bars at 03:00, on a Sunday, on a holiday
// or in 2031 is refused (line:column and the rule) instead of stored.
//
// Invariants:
// - A bar is stamped with its OPENING minute (the candle parser's convention): NSE's bars open
//   09:15 .. 15:29, so a bar stamped 15:30 is outside the session (a close-stamped file shows up
//   there, and the reason says so).
// - Special sessions listed in the calendar (muhurat, weekend budget days, DR drills) are
//   accepted only when the caller allows them, and then only inside that session's hours.
// - "The future" is after `now`, which the caller passes in (pure package: no wall clock here).

import { IST_OFFSET_MS, formatIstDateTime, formatMinuteOfDay, istParts, weekday, type IsoDate } from '@vyuha/core';
import { holidayOn } from '../calendar/holidays';
import { isRegularTradingDay, sessionOf, type SessionExchange, type TradingSession } from '../calendar/sessions';

/** What the importer checks rows against. */
export interface SessionRules {
  readonly exchange: SessionExchange;
  /** The wall clock at import time, epoch ms: anything after it is refused. */
  readonly now: number;
  /** Accept bars and days of special sessions listed in the calendar (muhurat, weekend budget days, DR drills). */
  readonly specialSessions: boolean;
}

const MS_PER_DAY = 86_400_000;
const MS_PER_MINUTE = 60_000;
const WEEKDAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;
/** Every refusal of a special session ends with this, so a command can add how to allow them. */
const SPECIAL_SESSION_REFUSAL = 'special sessions are refused unless allowed';

/** True when an issue's reason is the refusal of a special session (a command may then name its flag). */
export function isSpecialSessionRefusal(reason: string): boolean {
  return reason.endsWith(SPECIAL_SESSION_REFUSAL);
}

function sessionName(rules: SessionRules, session: TradingSession): string {
  const kind = session.kind === 'normal' ? '' : session.kind === 'muhurat' ? ' muhurat' : ' special';
  return `the ${rules.exchange}${kind} session ${formatMinuteOfDay(session.open)}-${formatMinuteOfDay(session.close)}`;
}

/** What kind of day it is when it is not a regular trading day: a holiday (with its name) or a weekend day. */
function closedDay(exchange: SessionExchange, date: IsoDate): { text: string; weekend: boolean } {
  const holiday = holidayOn(exchange, date);
  if (holiday !== undefined) return { text: `${date} is a holiday on ${exchange} (${holiday.event})`, weekend: false };
  return { text: `${date} is a ${WEEKDAY_NAMES[weekday(date)]}`, weekend: true };
}

/**
 * The session bars may fall in on a date, or why none may: a closed day, or a special session
 * the rules do not allow.
 * @example sessionForDay({ exchange: 'NSE', now, specialSessions: false }, isoDate('2024-01-26')) // { reason: '2024-01-26 is a holiday on NSE (Republic Day)' }
 */
export function sessionForDay(rules: SessionRules, date: IsoDate): { session: TradingSession } | { reason: string } {
  const session = sessionOf(rules.exchange, date);
  if (session === undefined) {
    const day = closedDay(rules.exchange, date);
    return { reason: day.weekend ? `${day.text}, when ${rules.exchange} has no session` : day.text };
  }
  if (session.kind === 'normal' || rules.specialSessions) return { session };
  const day = isRegularTradingDay(rules.exchange, date) ? date : closedDay(rules.exchange, date).text;
  return { reason: `${day}: its only session is ${sessionName(rules, session)}; ${SPECIAL_SESSION_REFUSAL}` };
}

/** `YYYY-MM-DD HH:mm`, with seconds only when there are some. */
function barTimeText(epochMs: number): string {
  const text = formatIstDateTime(epochMs);
  return text.endsWith(':00') ? text.slice(0, -3) : text;
}

/** Why a bar cannot be real, and whether its day or only its time of day is to blame (which cell to point at). */
export interface BarSessionIssue {
  readonly reason: string;
  readonly about: 'day' | 'time';
}

/**
 * Why a bar opening at `epochMs` cannot be real, or undefined when it can.
 * @example barSessionIssue(rules, Date.UTC(2024, 0, 4, 21, 30)) // { reason: '2024-01-05 03:00 is outside the NSE session 09:15-15:30', about: 'time' }
 */
export function barSessionIssue(rules: SessionRules, epochMs: number): BarSessionIssue | undefined {
  if (epochMs > rules.now) return { reason: `${barTimeText(epochMs)} is in the future (now: ${barTimeText(rules.now)} IST)`, about: 'day' };
  const parts = istParts(epochMs);
  const day = sessionForDay(rules, parts.date);
  if ('reason' in day) return { reason: day.reason, about: 'day' };
  const { session } = day;
  if (parts.minuteOfDay >= session.open && parts.minuteOfDay < session.close) return undefined;
  const stampedAtClose = parts.minuteOfDay === session.close && parts.ss === 0 && epochMs % 1000 === 0;
  const hint = stampedAtClose ? ` (a bar is stamped with its opening minute: the last one opens at ${formatMinuteOfDay(session.close - 1)})` : '';
  return { reason: `${barTimeText(epochMs)} is outside ${sessionName(rules, session)}${hint}`, about: 'time' };
}

/** The reason alone. @example barSessionProblem(rules, Date.UTC(2024, 0, 4, 21, 30)) // '2024-01-05 03:00 is outside the NSE session 09:15-15:30' */
export function barSessionProblem(rules: SessionRules, epochMs: number): string | undefined {
  return barSessionIssue(rules, epochMs)?.reason;
}

/**
 * Why a whole trading day (a bhavcopy's trade date) cannot be real, or undefined when it can:
 * after today (IST), or a day without a session the rules allow.
 * @example tradeDateProblem(rules, isoDate('2024-01-26')) // '2024-01-26 is a holiday on NFO (Republic Day)'
 */
export function tradeDateProblem(rules: SessionRules, date: IsoDate): string | undefined {
  const today = istParts(rules.now).date;
  if (date > today) return `${date} is in the future (today is ${today} IST)`;
  const day = sessionForDay(rules, date);
  return 'reason' in day ? day.reason : undefined;
}

/**
 * A per-day cache over `barSessionProblem` for the parser's fast path: `accepts` costs two
 * comparisons for every bar of a day after the first. It only says yes or no; the reason comes
 * from `barSessionProblem` on the general path.
 */
export interface BarSessionGuard {
  readonly rules: SessionRules;
  accepts(epochMs: number): boolean;
}

/** A guard for `rules`. @example createBarSessionGuard(rules).accepts(Date.UTC(2024, 0, 5, 3, 45)) // true (09:15 on a Friday) */
export function createBarSessionGuard(rules: SessionRules): BarSessionGuard {
  let cachedDay = Number.NaN;
  let windowStart = 0;
  let windowEnd = 0;
  return {
    rules,
    accepts(epochMs) {
      if (epochMs > rules.now) return false;
      const epochDay = Math.floor((epochMs + IST_OFFSET_MS) / MS_PER_DAY);
      if (epochDay !== cachedDay) {
        cachedDay = epochDay;
        const midnight = epochDay * MS_PER_DAY - IST_OFFSET_MS;
        const day = sessionForDay(rules, istParts(midnight).date);
        // A refused day is an empty window.
        windowStart = 'session' in day ? midnight + day.session.open * MS_PER_MINUTE : 0;
        windowEnd = 'session' in day ? midnight + day.session.close * MS_PER_MINUTE : 0;
      }
      return epochMs >= windowStart && epochMs < windowEnd;
    },
  };
}
