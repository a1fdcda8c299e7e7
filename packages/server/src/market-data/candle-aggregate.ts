// 1-minute bars -> any chart interval of docs/PRODUCT.md section 9, aligned to the 09:15 IST session open.
// Done in TypeScript over typed arrays rather than in SQL (date_bin): the rows are already in
// memory in time order, so one pass is enough, and the bench measures it against SQL.
//
// Invariants: bars are aligned to 09:15 IST of their own trading day (a 120-minute bar covers
// 09:15-11:15, 11:15-13:15, 13:15-15:15, then 15:15-15:30 is a partial bar); 1440 gives one bar
// per IST calendar day stamped 09:15; open = first, close = last, high = max, low = min,
// volume = sum, oi = last. A bar's time is the start of its bucket, not of its first candle.

import { istEpochDay, IST_OFFSET_MS } from '@vyuha/core';
import type { CandleColumns } from '@vyuha/market';

const MS_PER_DAY = 86_400_000;
const MS_PER_MINUTE = 60_000;
/** 09:15 after IST midnight. */
const SESSION_OPEN_MS = (9 * 60 + 15) * MS_PER_MINUTE;
/** The interval that means "one bar per trading day". */
const DAILY_MINUTES = 1440;

/**
 * Start of the bar (epoch ms) that a candle at `time` belongs to.
 * @example barStart(Date.UTC(2024, 0, 5, 6, 0), 120) // 11:30 IST -> 11:15 IST = Date.UTC(2024, 0, 5, 5, 45)
 */
export function barStart(time: number, intervalMinutes: number): number {
  const istDay = istEpochDay(time);
  const sessionOpen = istDay * MS_PER_DAY - IST_OFFSET_MS + SESSION_OPEN_MS;
  if (intervalMinutes >= DAILY_MINUTES) return sessionOpen;
  const width = intervalMinutes * MS_PER_MINUTE;
  // Math.floor keeps pre-open minutes (futures, 09:00-09:15) in bars before the session open.
  return sessionOpen + Math.floor((time - sessionOpen) / width) * width;
}

/**
 * Aggregates time-ordered 1-minute candles into bars of `intervalMinutes`.
 * @example aggregateCandles(oneMinute, 5).time[0] // the 09:15 bar covering 09:15-09:19
 */
export function aggregateCandles(candles: CandleColumns, intervalMinutes: number): CandleColumns {
  if (!Number.isInteger(intervalMinutes) || intervalMinutes < 1 || intervalMinutes > DAILY_MINUTES) {
    throw new RangeError(`intervalMinutes must be a whole number from 1 to 1440, got ${intervalMinutes}`);
  }
  const { length, time, open, high, low, close, volume, oi } = candles;
  const out = {
    time: new Float64Array(length), open: new Int32Array(length), high: new Int32Array(length),
    low: new Int32Array(length), close: new Int32Array(length), volume: new Float64Array(length),
    oi: oi === undefined ? undefined : new Float64Array(length),
  };
  let bars = 0;
  let current = Number.NaN;
  for (let index = 0; index < length; index += 1) {
    const start = barStart(time[index] as number, intervalMinutes);
    if (start !== current) {
      current = start;
      out.time[bars] = start;
      out.open[bars] = open[index] as number;
      out.high[bars] = high[index] as number;
      out.low[bars] = low[index] as number;
      out.volume[bars] = 0;
      bars += 1;
    }
    const bar = bars - 1;
    if ((high[index] as number) > (out.high[bar] as number)) out.high[bar] = high[index] as number;
    if ((low[index] as number) < (out.low[bar] as number)) out.low[bar] = low[index] as number;
    out.close[bar] = close[index] as number;
    out.volume[bar] = (out.volume[bar] as number) + (volume[index] as number);
    if (out.oi !== undefined && oi !== undefined) out.oi[bar] = oi[index] as number;
  }
  const result = {
    length: bars,
    time: out.time.slice(0, bars), open: out.open.slice(0, bars), high: out.high.slice(0, bars),
    low: out.low.slice(0, bars), close: out.close.slice(0, bars), volume: out.volume.slice(0, bars),
  };
  return out.oi === undefined ? result : { ...result, oi: out.oi.slice(0, bars) };
}
