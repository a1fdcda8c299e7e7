// `candle_series(instrument_id, interval, from, to)`: one instrument's candles aggregated to a docs/PRODUCT.md
// section 9 interval (the candle store aggregates in TypeScript, aligned to 09:15 IST), as
// columns (one array per field: a 100k-candle chart is arrays of numbers, not 100k objects).
// Prices are integer paise; times epoch ms of each bar's start. A range starting before the
// tier's `x-hasura-w<interval>m` date is refused; more than MAX_CANDLE_ROWS bars keep the latest.
import { daysBetween, isIsoDate } from '@vyuha/core';
import type { IsoDate } from '@vyuha/core';
import { INTERVAL_MINUTES } from '@vyuha/market';
import type { IntervalMinutes } from '@vyuha/market';
import type pg from 'pg';
import { loadRunCandles } from '../../backtest/stored-candles';
import type { ActionInvocation } from '../metadata/types';
import { GraphqlFailure } from '../types';
import { minimumCandleDate, requireRole, SIGNED_IN_ROLES } from './session-access';

/** Most bars one call returns (the chart budget's 100k candles). */
export const MAX_CANDLE_ROWS = 100_000;
/** Longest date range one call may read. */
export const MAX_CANDLE_RANGE_DAYS = 366 * 6;

export interface CandlesOutput {
  readonly instrument_id: number;
  readonly interval: number;
  readonly from: string;
  readonly to: string;
  readonly count: number;
  readonly truncated: boolean;
  readonly time: number[];
  readonly open: number[];
  readonly high: number[];
  readonly low: number[];
  readonly close: number[];
  readonly volume: number[];
  readonly oi: Array<number | null> | null;
}

const argPath = (name: string): string => `$.selectionSet.candles.args.${name}`;

function checkedArgs(args: Readonly<Record<string, unknown>>): { instrumentId: number; interval: IntervalMinutes; from: string; to: string } {
  const { instrument_id: instrumentId, interval, from, to } = args;
  if (typeof instrumentId !== 'number' || !Number.isSafeInteger(instrumentId) || instrumentId <= 0) {
    throw new GraphqlFailure('validation-failed', `instrument_id must be a positive integer, got ${JSON.stringify(instrumentId)}`, argPath('instrument_id'));
  }
  if (!INTERVAL_MINUTES.includes(interval as IntervalMinutes)) {
    throw new GraphqlFailure('validation-failed', `interval must be one of ${INTERVAL_MINUTES.join(', ')} minutes, got ${JSON.stringify(interval)}`, argPath('interval'));
  }
  for (const [name, value] of [['from', from], ['to', to]] as const) {
    if (typeof value !== 'string' || !isIsoDate(value)) throw new GraphqlFailure('validation-failed', `${name} must be a date as YYYY-MM-DD, got ${JSON.stringify(value)}`, argPath(name));
  }
  const fromDate = from as string;
  const toDate = to as string;
  if (toDate < fromDate) throw new GraphqlFailure('validation-failed', `to (${toDate}) is before from (${fromDate})`, argPath('to'));
  return { instrumentId, interval: interval as IntervalMinutes, from: fromDate, to: toDate };
}

/**
 * The `candles` query action.
 * @example await candlesAction({ pool }, { args: { instrument_id: 1, interval: 5, from: '2024-06-03', to: '2024-06-07' }, session }) // { count: 375, ... }
 */
export async function candlesAction(context: { readonly pool: pg.Pool }, invocation: ActionInvocation): Promise<CandlesOutput> {
  const { session } = invocation;
  requireRole(session, SIGNED_IN_ROLES, 'candle_series');
  const args = checkedArgs(invocation.args);
  const from = args.from as IsoDate;
  const to = args.to as IsoDate;
  if (daysBetween(from, to) > MAX_CANDLE_RANGE_DAYS) {
    throw new GraphqlFailure('validation-failed', `from ${from} to ${to} is longer than ${MAX_CANDLE_RANGE_DAYS} days: ask for a shorter range`, argPath('to'));
  }
  const minimum = minimumCandleDate(session, args.interval);
  if (minimum !== undefined && from < minimum) {
    throw new GraphqlFailure('permission-error', `from ${from} is before ${minimum}, the earliest date your tier may load ${args.interval}-minute candles`, argPath('from'));
  }
  const candles = await loadRunCandles({ pool: context.pool, instrumentId: args.instrumentId, dateRange: { from, to }, intervalMinutes: args.interval });
  const start = Math.max(0, candles.length - MAX_CANDLE_ROWS);
  const slice = <T extends Float64Array | Int32Array>(column: T): number[] => Array.from(column.subarray(start));
  return {
    instrument_id: args.instrumentId, interval: args.interval, from, to,
    count: candles.length - start, truncated: start > 0,
    time: slice(candles.time), open: slice(candles.open), high: slice(candles.high), low: slice(candles.low), close: slice(candles.close),
    volume: slice(candles.volume),
    oi: candles.oi === undefined ? null : Array.from(candles.oi.subarray(start), (value) => (Number.isNaN(value) ? null : value)),
  };
}
