// The fast path of the candle CSV parser: one row read straight from the file text by character
// codes, with no per-row strings, arrays, objects or closures. It only ACCEPTS rows: anything it
// is not sure of (quotes, spaces, signs, odd timestamps, a bad or out-of-order value) makes it
// return false, and the caller re-reads that row with the general path, which names the problem.
// So the two paths cannot disagree on an error, and a good row gives the same numbers either way:
// the same calendar checks, the same paise arithmetic, the same order check.

import { IST_OFFSET_MS, daysInMonth } from '@vyuha/core';
import type { CandleLayout } from './candle-header';
import { MAX_PRICE_PAISE } from './decimal';
import type { BarSessionGuard } from './session-check';
import { epochDay, parseDateAndTime, parseTimestamp } from './timestamps';

const MS_PER_DAY = 86_400_000;
const DOT = 46;
const DIGIT_0 = 48;

/** The columns being filled and the last row's time (shared with the general path). */
export interface CandleBuilder {
  readonly columns: { time: Float64Array; open: Int32Array; high: Int32Array; low: Int32Array; close: Int32Array; volume: Float64Array; oi: Float64Array | undefined };
  length: number;
  /** Time and line of the last row whose time parsed (even if another cell of it was bad). */
  lastTime: number;
  lastLine: number;
}

/** One row's values: time in epoch ms, prices in paise. */
export interface CandleValues {
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
  oi: number;
}

/** Appends a checked row to the columns (oi only when the file has the column). */
export function appendCandle(builder: CandleBuilder, candle: CandleValues): void {
  const { columns } = builder;
  const row = builder.length;
  columns.time[row] = candle.time;
  columns.open[row] = candle.open;
  columns.high[row] = candle.high;
  columns.low[row] = candle.low;
  columns.close[row] = candle.close;
  columns.volume[row] = candle.volume;
  if (columns.oi !== undefined) columns.oi[row] = candle.oi;
  builder.length = row + 1;
}

/** Reused state of the fast path: cell bounds of the current line and the last date seen. */
export interface FastRowContext {
  readonly text: string;
  readonly layout: CandleLayout;
  readonly builder: CandleBuilder;
  readonly requireWholeMinutes: boolean;
  /** When set, a bar outside the exchange's sessions (or in the future) goes to the general path. */
  readonly sessions: BarSessionGuard | undefined;
  readonly starts: Int32Array;
  readonly ends: Int32Array;
  /** yyyymmdd of the last plain date and its epoch day in ms: rows of one session share it. */
  lastDateKey: number;
  lastDateMs: number;
  /** The row being read, reused so the fast path allocates nothing per row. */
  readonly candle: CandleValues;
}

/** A fast-path context for the rows after `layout`'s header. */
export function createFastRowContext(input: Pick<FastRowContext, 'text' | 'layout' | 'builder' | 'requireWholeMinutes' | 'sessions'>): FastRowContext {
  const { layout } = input;
  return {
    ...input,
    starts: new Int32Array(layout.width), ends: new Int32Array(layout.width), lastDateKey: -1, lastDateMs: 0,
    candle: { time: 0, open: 0, high: 0, low: 0, close: 0, volume: 0, oi: 0 },
  };
}

/** Finds the cells of text[start, end) (no quotes in it); false unless there are exactly `width`. */
function splitCells(context: FastRowContext, start: number, end: number): boolean {
  const { text, starts, ends } = context;
  const last = starts.length - 1;
  let cell = 0;
  let position = start;
  for (;;) {
    const comma = text.indexOf(',', position);
    if (comma === -1 || comma >= end) {
      if (cell !== last) return false;
      starts[cell] = position;
      ends[cell] = end;
      return true;
    }
    if (cell === last) return false;
    starts[cell] = position;
    ends[cell] = comma;
    cell += 1;
    position = comma + 1;
  }
}

/** Two digits at `index` as a number, or -1. */
function twoDigits(text: string, index: number): number {
  const tens = text.charCodeAt(index) - DIGIT_0;
  const units = text.charCodeAt(index + 1) - DIGIT_0;
  return tens >= 0 && tens <= 9 && units >= 0 && units <= 9 ? tens * 10 + units : -1;
}

/** Epoch ms of a date's IST midnight from `YYYY-MM-DD` at `start`, or NaN; cached per date. */
function dateMs(context: FastRowContext, start: number): number {
  const { text } = context;
  const century = twoDigits(text, start);
  const yearInCentury = twoDigits(text, start + 2);
  const month = twoDigits(text, start + 5);
  const day = twoDigits(text, start + 8);
  if (century < 0 || yearInCentury < 0 || month < 1 || month > 12 || day < 1) return Number.NaN;
  if (text.charCodeAt(start + 4) !== 45 || text.charCodeAt(start + 7) !== 45) return Number.NaN;
  const year = century * 100 + yearInCentury;
  const key = (year * 100 + month) * 100 + day;
  if (key === context.lastDateKey) return context.lastDateMs;
  if (day > daysInMonth(year, month)) return Number.NaN;
  context.lastDateKey = key;
  context.lastDateMs = epochDay(year, month, day) * MS_PER_DAY - IST_OFFSET_MS;
  return context.lastDateMs;
}

/** Milliseconds into the day of `HH:mm` or `HH:mm:ss` at `start` (length 5 or 8), or NaN. */
function timeOfDayMs(text: string, start: number, length: number): number {
  if (length !== 5 && length !== 8) return Number.NaN;
  const hour = twoDigits(text, start);
  const minute = twoDigits(text, start + 3);
  const second = length === 8 ? twoDigits(text, start + 6) : 0;
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) return Number.NaN;
  if (text.charCodeAt(start + 2) !== 58 || (length === 8 && text.charCodeAt(start + 5) !== 58)) return Number.NaN;
  return ((hour * 60 + minute) * 60 + second) * 1000;
}

/** A whole number of exactly the digits in [start, end) (at most 15 of them), or -1. */
function digitsValue(text: string, start: number, end: number): number {
  if (end <= start || end - start > 15) return -1;
  let value = 0;
  for (let index = start; index < end; index += 1) {
    const digit = text.charCodeAt(index) - DIGIT_0;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/** The timestamp cell in epoch ms: plain forms by hand, other forms through the general parser. */
function stampMs(context: FastRowContext): number {
  const { text, layout, starts, ends } = context;
  const start = starts[layout.stamp] as number;
  const end = ends[layout.stamp] as number;
  const length = end - start;
  if (layout.time !== undefined) {
    const timeStart = starts[layout.time] as number;
    const timeEnd = ends[layout.time] as number;
    const plain = length === 10 ? dateMs(context, start) + timeOfDayMs(text, timeStart, timeEnd - timeStart) : Number.NaN;
    if (!Number.isNaN(plain)) return plain;
    const parsed = parseDateAndTime(text.slice(start, end).trim(), text.slice(timeStart, timeEnd).trim());
    return parsed.ok ? parsed.epochMs : Number.NaN;
  }
  if (length === 16 || length === 19) {
    const separator = text.charCodeAt(start + 10);
    if (separator === 32 || separator === 84) {
      const plain = dateMs(context, start) + timeOfDayMs(text, start + 11, length - 11);
      if (!Number.isNaN(plain)) return plain;
    }
  } else if (length === 13 || length === 10) {
    const value = digitsValue(text, start, end);
    if (value >= 0) return length === 13 ? value : value * 1000;
  }
  const parsed = parseTimestamp(text.slice(start, end).trim());
  return parsed.ok ? parsed.epochMs : Number.NaN;
}

/** A positive price in paise from plain `123`, `123.4` or `123.45` (trailing zeros allowed), or -1. */
function pricePaise(context: FastRowContext, cell: number): number {
  const { text, starts, ends } = context;
  const start = starts[cell] as number;
  const end = ends[cell] as number;
  let index = start;
  let whole = 0;
  for (; index < end; index += 1) {
    const digit = text.charCodeAt(index) - DIGIT_0;
    if (digit < 0 || digit > 9) break;
    whole = whole * 10 + digit;
  }
  const wholeDigits = index - start;
  if (wholeDigits > 10) return -1;
  let fraction = 0;
  let fractionDigits = 0;
  if (index < end && text.charCodeAt(index) === DOT) {
    for (index += 1; index < end; index += 1) {
      const digit = text.charCodeAt(index) - DIGIT_0;
      if (digit < 0 || digit > 9) return -1;
      fractionDigits += 1;
      if (fractionDigits <= 2) fraction = fraction * 10 + digit;
      else if (digit !== 0) return -1;
    }
  }
  if (index !== end || wholeDigits + fractionDigits === 0) return -1;
  const paise = whole * 100 + (fractionDigits === 1 ? fraction * 10 : fraction);
  return paise > 0 && paise <= MAX_PRICE_PAISE ? paise : -1;
}

/** A count from `123` or `123.0`, or -1 (an absent column counts 0). */
function countValue(context: FastRowContext, cell: number | undefined): number {
  if (cell === undefined) return 0;
  const { text, starts, ends } = context;
  const start = starts[cell] as number;
  let end = ends[cell] as number;
  const dot = text.indexOf('.', start);
  if (dot !== -1 && dot < end) {
    for (let index = dot + 1; index < end; index += 1) if (text.charCodeAt(index) !== DIGIT_0) return -1;
    end = dot;
  }
  return digitsValue(text, start, end);
}

/**
 * Reads the row text[start, end) into the builder if every cell is plainly good and its time is
 * after the previous row's; true when stored. The caller records the row's line number.
 */
export function readFastRow(context: FastRowContext, start: number, end: number): boolean {
  if (!splitCells(context, start, end)) return false;
  const { layout, builder } = context;
  const time = stampMs(context);
  if (Number.isNaN(time) || time <= builder.lastTime || (context.requireWholeMinutes && time % 60_000 !== 0)) return false;
  if (context.sessions !== undefined && !context.sessions.accepts(time)) return false;
  const open = pricePaise(context, layout.open);
  const high = pricePaise(context, layout.high);
  const low = pricePaise(context, layout.low);
  const close = pricePaise(context, layout.close);
  const volume = countValue(context, layout.volume);
  const oi = countValue(context, layout.oi);
  if (open < 0 || high < 0 || low < 0 || close < 0 || volume < 0 || oi < 0) return false;
  if (high < open || high < close || low > open || low > close) return false;
  const { candle } = context;
  candle.time = time;
  candle.open = open;
  candle.high = high;
  candle.low = low;
  candle.close = close;
  candle.volume = volume;
  candle.oi = oi;
  appendCandle(builder, candle);
  builder.lastTime = time;
  return true;
}
