// What a replay is asked for, checked before anything is read: the speeds the product offers,
// a real date range in order, the strategy's interval, and instruments that exist and have a
// session calendar. Every problem is an issue naming its field; a refused request reads nothing
// more and starts nothing.
import { err, isIsoDate, ok } from '@vyuha/core';
import type { IsoDate, Result } from '@vyuha/core';
import { isBarInterval } from '@vyuha/engine';
import type { FeedIssue } from '@vyuha/engine';
import { SESSION_EXCHANGES } from '@vyuha/market';
import type { SessionExchange } from '@vyuha/market';
import type pg from 'pg';

/** 1x, 10x, 60x, 600x market time, or 0: as fast as the consumer takes the ticks. */
export const REPLAY_SPEEDS = [0, 1, 10, 60, 600] as const;
export type ReplaySpeed = (typeof REPLAY_SPEEDS)[number];

/** Instruments one replay may play at once (the index, its futures, a few option contracts). */
export const MAX_REPLAY_INSTRUMENTS = 50;

export interface ReplayRequest {
  /** The strategy's instrument first, then any other instrument it trades (a futures or option contract). */
  readonly instrumentIds: readonly number[];
  /** IST dates, both included. */
  readonly from: string;
  readonly to: string;
  /** The strategy's interval: the bars the backtest would load for it. */
  readonly intervalMinutes: number;
  readonly speed: number;
}

/** A request that passed: dates typed, each instrument with its calendar. */
export interface CheckedReplayRequest {
  readonly instruments: readonly { readonly instrumentId: number; readonly exchange: SessionExchange; readonly tradingSymbol: string }[];
  readonly from: IsoDate;
  readonly to: IsoDate;
  readonly intervalMinutes: number;
  readonly speed: ReplaySpeed;
}

/** The request's own problems (no database needed). */
export function replayRequestIssues(request: ReplayRequest): FeedIssue[] {
  const issues: FeedIssue[] = [];
  if (!(REPLAY_SPEEDS as readonly number[]).includes(request.speed)) {
    issues.push({ field: 'speed', message: `must be one of ${REPLAY_SPEEDS.join(', ')} (0 = as fast as possible), got ${request.speed}` });
  }
  for (const field of ['from', 'to'] as const) {
    if (typeof request[field] !== 'string' || !isIsoDate(request[field])) issues.push({ field, message: `must be a date as YYYY-MM-DD, got ${JSON.stringify(request[field])}` });
  }
  if (isIsoDate(String(request.from)) && isIsoDate(String(request.to)) && request.from > request.to) {
    issues.push({ field: 'from', message: `${request.from} is after to (${request.to})` });
  }
  if (!isBarInterval(request.intervalMinutes)) {
    issues.push({ field: 'intervalMinutes', message: `must be a whole number of minutes from 1 to 1440, got ${request.intervalMinutes}` });
  }
  if (!Array.isArray(request.instrumentIds) || request.instrumentIds.length === 0) {
    issues.push({ field: 'instrumentIds', message: 'must name at least one instrument' });
  } else if (request.instrumentIds.length > MAX_REPLAY_INSTRUMENTS) {
    issues.push({ field: 'instrumentIds', message: `at most ${MAX_REPLAY_INSTRUMENTS} instruments, got ${request.instrumentIds.length}` });
  } else {
    request.instrumentIds.forEach((id, index) => {
      if (!Number.isSafeInteger(id) || id <= 0) issues.push({ field: `instrumentIds[${index}]`, message: `must be a positive whole number, got ${id}` });
      else if (request.instrumentIds.indexOf(id) !== index) issues.push({ field: `instrumentIds[${index}]`, message: `instrument ${id} is listed twice` });
    });
  }
  return issues;
}

/** Checks the request, then that each instrument exists and trades on an exchange with a calendar. */
export async function checkReplayRequest(pool: pg.Pool, request: ReplayRequest): Promise<Result<CheckedReplayRequest, FeedIssue[]>> {
  const issues = replayRequestIssues(request);
  if (issues.length > 0) return err(issues);
  const { rows } = await pool.query<{ instrument_id: number; exchange: string; trading_symbol: string }>(
    'SELECT instrument_id, exchange, trading_symbol FROM instruments WHERE instrument_id = ANY($1::int[])', [request.instrumentIds]);
  const byId = new Map(rows.map((row) => [row.instrument_id, row]));
  const instruments: CheckedReplayRequest['instruments'][number][] = [];
  request.instrumentIds.forEach((id, index) => {
    const row = byId.get(id);
    if (row === undefined) {
      issues.push({ field: `instrumentIds[${index}]`, message: `no instrument ${id}` });
    } else if (!(SESSION_EXCHANGES as readonly string[]).includes(row.exchange)) {
      issues.push({ field: `instrumentIds[${index}]`, message: `${row.trading_symbol} trades on ${row.exchange}, which has no session calendar` });
    } else {
      instruments.push({ instrumentId: id, exchange: row.exchange as SessionExchange, tradingSymbol: row.trading_symbol });
    }
  });
  if (issues.length > 0) return err(issues);
  return ok({ instruments, from: request.from as IsoDate, to: request.to as IsoDate, intervalMinutes: request.intervalMinutes, speed: request.speed as ReplaySpeed });
}
