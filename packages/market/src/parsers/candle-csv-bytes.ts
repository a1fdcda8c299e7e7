// A candle CSV read straight from the bytes of the file (UTF-8, as read from disk, whole or in
// chunks) into the columns parseCandleCsv gives, without decoding the file into a string: no
// per-row strings, arrays or objects, a date's IST midnight computed once per day. Big plain files
// (a vendor's years of 1-minute bars) are what it is for; a caller reading a file in chunks never
// holds more than one chunk of it.
//
// Invariants:
// - It only ACCEPTS. It reads a row exactly as the text fast path (candle-row-fast.ts) does, and
//   on anything that path would hand to the general path (a quote, a space, a sign, a bad or
//   out-of-order value, a header it cannot use, a non-ASCII character where it reads text) it
//   gives up on the whole file: the caller then decodes the bytes and runs parseCandleCsv, which
//   alone reports issues, with their line:column.
// - When it gives candles, they equal parseCandleCsv's on the UTF-8 text of the same bytes: the
//   same lines (LF or CRLF, blank lines skipped, a leading BOM dropped), the same cells (commas
//   are ASCII, so a multi-byte or malformed sequence never moves one), the same numbers.

import { IST_OFFSET_MS, daysInMonth } from '@vyuha/core';
import type { CandleColumns, CandleCsvOptions } from './candle-csv';
import { resolveCandleLayout, type CandleLayout } from './candle-header';
import { splitCsvLine } from './csv-line';
import { MAX_PRICE_PAISE } from './decimal';
import { createBarSessionGuard, type BarSessionGuard } from './session-check';
import { epochDay, parseDateAndTime, parseTimestamp } from './timestamps';

const MS_PER_DAY = 86_400_000;
const LF = 10;
const CR = 13;
const SPACE = 32;
const QUOTE = 34;
const COMMA = 44;
const DASH = 45;
const DOT = 46;
const DIGIT_0 = 48;
const COLON = 58;
const LETTER_T = 84;
/** What PlainCandleReader.read returns when the file needs parseCandleCsv. */
export const NOT_PLAIN = -1;

/** Candles with prices in rupees (paise / 100, as the engine's bar series holds them), in Float64Arrays. */
export interface RupeeCandleColumns {
  readonly length: number;
  readonly time: Float64Array;
  readonly open: Float64Array;
  readonly high: Float64Array;
  readonly low: Float64Array;
  readonly close: Float64Array;
  readonly volume: Float64Array;
  readonly oi?: Float64Array;
}

/** Reads a candle CSV's bytes chunk by chunk; see readPlainCandleBytes for one whole buffer. */
export interface PlainCandleReader<Candles = CandleColumns> {
  /**
   * Reads the complete lines of bytes[0, end) (every line when `last`: the file ends there); the
   * count of bytes read (the unfinished line after them goes first in the next chunk), or NOT_PLAIN.
   */
  read(bytes: Uint8Array, end: number, last: boolean): number;
  /** The candles, once the last chunk was read. */
  finish(): Candles;
}

/** The columns being filled, sized once the header is found. */
interface Columns {
  readonly time: Float64Array;
  readonly open: Int32Array | Float64Array;
  readonly high: Int32Array | Float64Array;
  readonly low: Int32Array | Float64Array;
  readonly close: Int32Array | Float64Array;
  readonly volume: Float64Array;
  readonly oi: Float64Array | undefined;
}

/**
 * What the rows are read with and into: the current chunk, the header's layout, the checks, the
 * columns and how much of them is filled, the cell bounds of the current row, the last time and
 * date seen. Fields, not closure variables: a number field is updated in place, a closure's
 * would be a new heap number per row.
 */
interface ByteRows {
  bytes: Uint8Array;
  readonly layout: CandleLayout;
  readonly wholeMinutes: boolean;
  readonly sessions: BarSessionGuard | undefined;
  /** 1 for paise, 100 for rupees (paise / 100 is exactly what paiseToRupees gives). */
  readonly divisor: number;
  readonly columns: Columns;
  readonly capacity: number;
  length: number;
  lastTime: number;
  readonly starts: Int32Array;
  readonly ends: Int32Array;
  /** yyyymmdd of the last plain date and its IST midnight in epoch ms: rows of one session share it. */
  lastDateKey: number;
  lastDateMs: number;
}

/**
 * A reader for a file of `lineCount` lines (a last line without LF counts; rows beyond the count
 * make it give up). Chunks must hold whole lines: a line longer than a chunk is the caller's to refuse.
 * @example const reader = createPlainCandleReader(2); reader.read(bytes, bytes.length, true); reader.finish().length // 1
 */
export function createPlainCandleReader(lineCount: number, options: CandleCsvOptions = {}): PlainCandleReader {
  return createReader(lineCount, options, false) as PlainCandleReader;
}

/**
 * createPlainCandleReader with the prices in rupees: what seriesOf would make of its candles,
 * without the paise columns in between.
 * @example createPlainRupeeCandleReader(2) // finish().close[0] is 100.5 where the other gives 10050
 */
export function createPlainRupeeCandleReader(lineCount: number, options: CandleCsvOptions = {}): PlainCandleReader<RupeeCandleColumns> {
  return createReader(lineCount, options, true) as PlainCandleReader<RupeeCandleColumns>;
}

function createReader(lineCount: number, options: CandleCsvOptions, rupees: boolean): PlainCandleReader<CandleColumns | RupeeCandleColumns> {
  let linesSeen = 0;
  let atFileStart = true;
  let rows: ByteRows | undefined;

  /** The header from the line [start, stop); false when parseCandleCsv must read the file. */
  const readHeader = (bytes: Uint8Array, start: number, stop: number): boolean => {
    const layout = headerLayout(bytes, start, stop);
    if (layout === undefined) return false;
    const capacity = Math.max(0, lineCount - linesSeen);
    const Prices = rupees ? Float64Array : Int32Array;
    const columns = {
      time: new Float64Array(capacity), open: new Prices(capacity), high: new Prices(capacity), low: new Prices(capacity),
      close: new Prices(capacity), volume: new Float64Array(capacity), oi: layout.oi === undefined ? undefined : new Float64Array(capacity),
    };
    rows = {
      bytes, layout, wholeMinutes: options.requireWholeMinutes === true,
      sessions: options.sessions === undefined ? undefined : createBarSessionGuard(options.sessions),
      divisor: rupees ? 100 : 1, columns, capacity, length: 0, lastTime: Number.NaN,
      starts: new Int32Array(layout.width), ends: new Int32Array(layout.width), lastDateKey: -1, lastDateMs: Number.NaN,
    };
    return true;
  };

  const read = (chunk: Uint8Array, end: number, last: boolean): number => {
    const bytes = chunk.subarray(0, end);
    let position = 0;
    if (atFileStart) {
      atFileStart = false;
      if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) position = 3;
    }
    // A quote sends a row to the text parser's general path: here, the whole file.
    if (rows !== undefined && bytes.indexOf(QUOTE, position) !== -1) return NOT_PLAIN;
    while (position < end) {
      let lineEnd = bytes.indexOf(LF, position);
      if (lineEnd === -1) {
        if (!last) return position;
        lineEnd = end;
      }
      const stop = lineEnd > position && bytes[lineEnd - 1] === CR ? lineEnd - 1 : lineEnd;
      linesSeen += 1;
      if (stop > position) {
        if (rows === undefined) {
          if (!readHeader(bytes, position, stop)) return NOT_PLAIN;
          if (bytes.indexOf(QUOTE, lineEnd) !== -1) return NOT_PLAIN;
        } else {
          rows.bytes = bytes;
          if (!readRow(rows, position, stop)) return NOT_PLAIN;
        }
      }
      position = lineEnd + 1;
    }
    // No header in the whole file: parseCandleCsv says so.
    return last && rows === undefined ? NOT_PLAIN : end;
  };

  const finish = (): CandleColumns | RupeeCandleColumns => {
    if (rows === undefined) throw new Error('finish() before the last chunk was read');
    const { columns: target, length } = rows;
    const cut = <T extends Float64Array | Int32Array>(column: T): T => (length === column.length ? column : (column.slice(0, length) as T));
    const candles = {
      length, time: cut(target.time), open: cut(target.open), high: cut(target.high), low: cut(target.low), close: cut(target.close), volume: cut(target.volume),
    };
    // The price columns are Int32Array or Float64Array as the reader was made: the two exported makers say which.
    const all = (target.oi === undefined ? candles : { ...candles, oi: cut(target.oi) }) as unknown;
    return all as CandleColumns | RupeeCandleColumns;
  };

  return { read, finish };
}

/**
 * The candles of a plain candle CSV given whole as UTF-8 bytes, equal to `parseCandleCsv` on the
 * decoded text; undefined when some line needs the careful parser (decode, then parseCandleCsv).
 * @example readPlainCandleBytes(bytesOf('datetime,open,high,low,close\n2024-01-05 09:15,100,101,99,100.5\n'))?.close[0] // 10050
 */
export function readPlainCandleBytes(bytes: Uint8Array, options: CandleCsvOptions = {}): CandleColumns | undefined {
  const reader = createPlainCandleReader(countLines(bytes, bytes.length), options);
  return reader.read(bytes, bytes.length, true) === NOT_PLAIN ? undefined : reader.finish();
}

/** How many lines bytes[0, end) holds (a last line without LF counts). */
function countLines(bytes: Uint8Array, end: number): number {
  if (end === 0) return 0;
  const view = bytes.subarray(0, end);
  let count = view[end - 1] === LF ? 0 : 1;
  for (let index = view.indexOf(LF); index !== -1; index = view.indexOf(LF, index + 1)) count += 1;
  return count;
}

/** The layout of a header line of ASCII text; undefined unless usable. */
function headerLayout(bytes: Uint8Array, start: number, stop: number): CandleLayout | undefined {
  let text = '';
  for (let index = start; index < stop; index += 1) {
    const code = bytes[index] as number;
    if (code >= 0x80) return undefined;
    text += String.fromCharCode(code);
  }
  const fields = splitCsvLine(text);
  if (!('values' in fields)) return undefined;
  const layout = resolveCandleLayout(fields.values, fields.columns);
  return Array.isArray(layout) ? undefined : layout;
}

/** One row from the line [start, stop) of `rows.bytes` into the columns; false when parseCandleCsv must read the file. */
function readRow(rows: ByteRows, start: number, stop: number): boolean {
  const { length } = rows;
  if (length === rows.capacity || !splitCells(rows, start, stop)) return false;
  const { layout } = rows;
  const stamp = stampMs(rows);
  if (Number.isNaN(stamp) || stamp <= rows.lastTime || (rows.wholeMinutes && stamp % 60_000 !== 0)) return false;
  if (rows.sessions !== undefined && !rows.sessions.accepts(stamp)) return false;
  const open = pricePaise(rows, layout.open);
  const high = pricePaise(rows, layout.high);
  const low = pricePaise(rows, layout.low);
  const close = pricePaise(rows, layout.close);
  const volume = countValue(rows, layout.volume);
  const oi = countValue(rows, layout.oi);
  if (open < 0 || high < 0 || low < 0 || close < 0 || volume < 0 || oi < 0) return false;
  if (high < open || high < close || low > open || low > close) return false;
  const { columns, divisor } = rows;
  columns.time[length] = stamp;
  columns.open[length] = open / divisor;
  columns.high[length] = high / divisor;
  columns.low[length] = low / divisor;
  columns.close[length] = close / divisor;
  columns.volume[length] = volume;
  if (columns.oi !== undefined) columns.oi[length] = oi;
  rows.length = length + 1;
  rows.lastTime = stamp;
  return true;
}

/** Finds the cells of the line [start, stop) (no quote in it); false unless there are exactly the header's width. */
function splitCells(rows: ByteRows, start: number, stop: number): boolean {
  const { bytes, starts, ends } = rows;
  const last = starts.length - 1;
  let cell = 0;
  starts[0] = start;
  for (let index = start; index < stop; index += 1) {
    if (bytes[index] !== COMMA) continue;
    if (cell === last) return false;
    ends[cell] = index;
    cell += 1;
    starts[cell] = index + 1;
  }
  if (cell !== last) return false;
  ends[cell] = stop;
  return true;
}

/** Two ASCII digits at `index` as a number, or -1. */
function twoDigits(bytes: Uint8Array, index: number): number {
  const tens = (bytes[index] as number) - DIGIT_0;
  const units = (bytes[index + 1] as number) - DIGIT_0;
  return tens >= 0 && tens <= 9 && units >= 0 && units <= 9 ? tens * 10 + units : -1;
}

/** Epoch ms of a date's IST midnight from `YYYY-MM-DD` at `start`, or NaN; cached per date. */
function dateMs(rows: ByteRows, start: number): number {
  const { bytes } = rows;
  const century = twoDigits(bytes, start);
  const yearInCentury = twoDigits(bytes, start + 2);
  const month = twoDigits(bytes, start + 5);
  const day = twoDigits(bytes, start + 8);
  if (century < 0 || yearInCentury < 0 || month < 1 || month > 12 || day < 1) return Number.NaN;
  if (bytes[start + 4] !== DASH || bytes[start + 7] !== DASH) return Number.NaN;
  const year = century * 100 + yearInCentury;
  const key = (year * 100 + month) * 100 + day;
  if (key === rows.lastDateKey) return rows.lastDateMs;
  if (day > daysInMonth(year, month)) return Number.NaN;
  rows.lastDateKey = key;
  rows.lastDateMs = epochDay(year, month, day) * MS_PER_DAY - IST_OFFSET_MS;
  return rows.lastDateMs;
}

/** Milliseconds into the day of `HH:mm` or `HH:mm:ss` at `start` (length 5 or 8), or NaN. */
function timeOfDayMs(bytes: Uint8Array, start: number, length: number): number {
  if (length !== 5 && length !== 8) return Number.NaN;
  const hour = twoDigits(bytes, start);
  const minute = twoDigits(bytes, start + 3);
  const second = length === 8 ? twoDigits(bytes, start + 6) : 0;
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) return Number.NaN;
  if (bytes[start + 2] !== COLON || (length === 8 && bytes[start + 5] !== COLON)) return Number.NaN;
  return ((hour * 60 + minute) * 60 + second) * 1000;
}

/** A whole number of exactly the digits in [start, end) (at most 15 of them), or -1. */
function digitsValue(bytes: Uint8Array, start: number, end: number): number {
  if (end <= start || end - start > 15) return -1;
  let value = 0;
  for (let index = start; index < end; index += 1) {
    const digit = (bytes[index] as number) - DIGIT_0;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/** The bytes [start, end) as text, trimmed like a cell; undefined when one is not ASCII. */
function asciiCell(bytes: Uint8Array, start: number, end: number): string | undefined {
  let text = '';
  for (let index = start; index < end; index += 1) {
    const code = bytes[index] as number;
    if (code >= 0x80) return undefined;
    text += String.fromCharCode(code);
  }
  return text.trim();
}

/** The timestamp cell in epoch ms: plain forms by hand, other ASCII forms through the text parser's readers; NaN otherwise. */
function stampMs(rows: ByteRows): number {
  const { bytes, layout, starts, ends } = rows;
  const start = starts[layout.stamp] as number;
  const end = ends[layout.stamp] as number;
  const length = end - start;
  if (layout.time !== undefined) {
    const timeStart = starts[layout.time] as number;
    const timeEnd = ends[layout.time] as number;
    const plain = length === 10 ? dateMs(rows, start) + timeOfDayMs(bytes, timeStart, timeEnd - timeStart) : Number.NaN;
    if (!Number.isNaN(plain)) return plain;
    const date = asciiCell(bytes, start, end);
    const time = asciiCell(bytes, timeStart, timeEnd);
    if (date === undefined || time === undefined) return Number.NaN;
    const parsed = parseDateAndTime(date, time);
    return parsed.ok ? parsed.epochMs : Number.NaN;
  }
  if (length === 16 || length === 19) {
    const separator = bytes[start + 10];
    if (separator === SPACE || separator === LETTER_T) {
      const plain = dateMs(rows, start) + timeOfDayMs(bytes, start + 11, length - 11);
      if (!Number.isNaN(plain)) return plain;
    }
  } else if (length === 13 || length === 10) {
    const value = digitsValue(bytes, start, end);
    if (value >= 0) return length === 13 ? value : value * 1000;
  }
  const text = asciiCell(bytes, start, end);
  if (text === undefined) return Number.NaN;
  const parsed = parseTimestamp(text);
  return parsed.ok ? parsed.epochMs : Number.NaN;
}

/** A positive price in paise from plain `123`, `123.4` or `123.45` (trailing zeros allowed), or -1. */
function pricePaise(rows: ByteRows, cell: number): number {
  const { bytes, starts, ends } = rows;
  const start = starts[cell] as number;
  const end = ends[cell] as number;
  let index = start;
  let whole = 0;
  for (; index < end; index += 1) {
    const digit = (bytes[index] as number) - DIGIT_0;
    if (digit < 0 || digit > 9) break;
    whole = whole * 10 + digit;
  }
  const wholeDigits = index - start;
  if (wholeDigits > 10) return -1;
  let fraction = 0;
  let fractionDigits = 0;
  if (index < end && bytes[index] === DOT) {
    for (index += 1; index < end; index += 1) {
      const digit = (bytes[index] as number) - DIGIT_0;
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
function countValue(rows: ByteRows, cell: number | undefined): number {
  if (cell === undefined) return 0;
  const { bytes, starts, ends } = rows;
  const start = starts[cell] as number;
  let end = ends[cell] as number;
  for (let index = start; index < end; index += 1) {
    if (bytes[index] !== DOT) continue;
    for (let after = index + 1; after < end; after += 1) if (bytes[after] !== DIGIT_0) return -1;
    end = index;
    break;
  }
  return digitsValue(bytes, start, end);
}
