// Where a bar of a strategy's interval starts and ends: the one alignment the runtime's candle
// builder and the replay feed use, the same the server's candle reader aggregates with
// (packages/server/src/market-data/candle-aggregate.ts; a property test in
// packages/server/test/trading-feeds/ compares the two). Bars are aligned to 09:15 IST of their
// own day; 1440 minutes is one bar per IST day stamped 09:15.
//
// A bar closes at its start plus its length, or at the session's close when that comes first
// (the last bar of a session is shorter: a 120-minute bar from 15:15 closes at 15:30). Its ticks
// fall from the later of its start and the session's open (a muhurat evening inside a bucket
// aligned to 09:15) to its close.
import { dateOfEpochDay, istEpochDay, IST_OFFSET_MS } from '@vyuha/core';
import { sessionOf } from '@vyuha/market';
import type { SessionExchange, TradingSession } from '@vyuha/market';

const MS_PER_DAY = 86_400_000;
const MS_PER_MINUTE = 60_000;
const SESSION_OPEN_MS = (9 * 60 + 15) * MS_PER_MINUTE;
/** The interval that means "one bar per trading day". */
export const DAILY_INTERVAL_MINUTES = 1440;

/** The last session looked up: bars come day by day, so one entry saves the calendar lookup per bar. */
let memo: { exchange: SessionExchange; day: number; session: TradingSession | undefined } | undefined;

function sessionOfDay(exchange: SessionExchange, day: number): TradingSession | undefined {
  if (memo === undefined || memo.day !== day || memo.exchange !== exchange) memo = { exchange, day, session: sessionOf(exchange, dateOfEpochDay(day)) };
  return memo.session;
}

/** The span of one bar: `start` is its stamp, ticks fall in [tickStart, end). */
export interface BarWindow {
  readonly start: number;
  readonly end: number;
  readonly tickStart: number;
}

/** True for a whole number of minutes from 1 to 1440. */
export function isBarInterval(intervalMinutes: number): boolean {
  return Number.isInteger(intervalMinutes) && intervalMinutes >= 1 && intervalMinutes <= DAILY_INTERVAL_MINUTES;
}

/**
 * Start (epoch ms) of the bar of `intervalMinutes` that an instant belongs to.
 * @example barStartOf(Date.UTC(2024, 0, 5, 6, 0), 120) // 11:30 IST -> 11:15 IST = Date.UTC(2024, 0, 5, 5, 45)
 */
export function barStartOf(time: number, intervalMinutes: number): number {
  const sessionOpen = istEpochDay(time) * MS_PER_DAY - IST_OFFSET_MS + SESSION_OPEN_MS;
  if (intervalMinutes >= DAILY_INTERVAL_MINUTES) return sessionOpen;
  const width = intervalMinutes * MS_PER_MINUTE;
  return sessionOpen + Math.floor((time - sessionOpen) / width) * width;
}

/**
 * The window of the bar stamped `start`: it closes at start + the interval or at the session's
 * close, whichever comes first; a day without a session (the calendar says closed) keeps the
 * full length.
 * @example barWindowOf({ start: istEpochMs('2024-01-05', '15:15'), intervalMinutes: 120, exchange: 'NSE' }).end // 15:30 IST
 */
export function barWindowOf(bar: { readonly start: number; readonly intervalMinutes: number; readonly exchange: SessionExchange }): BarWindow {
  const { start, intervalMinutes } = bar;
  const dayStart = istEpochDay(start) * MS_PER_DAY - IST_OFFSET_MS;
  const session = sessionOfDay(bar.exchange, istEpochDay(start));
  const length = Math.min(intervalMinutes, DAILY_INTERVAL_MINUTES) * MS_PER_MINUTE;
  if (session === undefined) return { start, end: start + length, tickStart: start };
  const open = dayStart + session.open * MS_PER_MINUTE;
  const close = dayStart + session.close * MS_PER_MINUTE;
  const end = intervalMinutes >= DAILY_INTERVAL_MINUTES ? close : Math.min(start + length, close);
  // A bar that ends after the close started before it, so end > start here unless the bucket
  // starts at or after the close (a tick outside the session): then it keeps its full length.
  if (end <= start) return { start, end: start + length, tickStart: start };
  return { start, end, tickStart: Math.max(start, Math.min(open, end - MS_PER_MINUTE)) };
}
