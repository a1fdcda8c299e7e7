// The 1-minute candle store. Writes stage rows with COPY into a temporary table and move them
// with one INSERT ... ON CONFLICT DO NOTHING in the same transaction: a repeat import inserts
// nothing and a failure writes nothing. Reads stream COPY text straight into typed arrays.

import type { CandleColumns } from '@vyuha/market';
import type pg from 'pg';
import { aggregateCandles } from './candle-aggregate';
import { copyBytesOut, copyLinesInto } from './copy-stream';

/** The `candle_source` enum of the schema. */
export type CandleSource = 'synthetic' | 'import' | 'broker';

export interface WriteCandlesInput {
  readonly instrumentId: number;
  readonly candles: CandleColumns;
  readonly source: CandleSource;
}

/** What a write did: rows newly stored, and rows that were already there (same instrument and minute). */
export interface WriteCandlesResult {
  readonly inserted: number;
  readonly duplicates: number;
}

/**
 * Up to this many candles are written by one INSERT over arrays (unnest) instead of COPY into a
 * staging table: the simulated market stores each minute's candles as the minute closes, at the
 * moment every strategy orders, and a temporary table's CREATE and DROP change the catalogs, which
 * makes every other connection drop its cached plans (the foreign-key checks of the order inserts
 * among them) and plan them again.
 */
export const SMALL_CANDLE_WRITE = 500;

/**
 * Stores candles inside the caller's transaction (a large write through a staging table dropped at commit).
 * @example await writeCandlesInTransaction(client, { instrumentId: 1, candles, source: 'import' }) // { inserted: 375, duplicates: 0 }
 */
export async function writeCandlesInTransaction(client: pg.PoolClient, input: WriteCandlesInput): Promise<WriteCandlesResult> {
  const { instrumentId, candles, source } = input;
  if (!Number.isSafeInteger(instrumentId)) throw new TypeError(`instrumentId must be an integer, got ${instrumentId}`);
  if (candles.length <= SMALL_CANDLE_WRITE) return insertCandleArrays(client, input);
  await client.query(`CREATE TEMP TABLE candle_staging (
    ts_ms bigint NOT NULL, open_paise integer NOT NULL, high_paise integer NOT NULL, low_paise integer NOT NULL,
    close_paise integer NOT NULL, volume bigint NOT NULL, oi bigint) ON COMMIT DROP`);
  await copyLinesInto(client, 'COPY candle_staging FROM STDIN', candleLines(candles));
  // timestamptz 'epoch' + ms keeps the instant exact (no float seconds).
  const inserted = await client.query(
    `INSERT INTO candles (ts, volume, oi, instrument_id, open_paise, high_paise, low_paise, close_paise, source)
     SELECT timestamptz 'epoch' + ts_ms * interval '1 millisecond', volume, oi, $1, open_paise, high_paise, low_paise, close_paise, $2::candle_source
     FROM candle_staging ORDER BY ts_ms
     ON CONFLICT (instrument_id, ts) DO NOTHING`, [instrumentId, source]);
  await client.query('DROP TABLE candle_staging');
  const count = inserted.rowCount ?? 0;
  return { inserted: count, duplicates: candles.length - count };
}

/** A few candles in one statement (atomic on its own): the columns as arrays, ON CONFLICT DO NOTHING as the staged write. */
async function insertCandleArrays(db: pg.Pool | pg.ClientBase, input: WriteCandlesInput): Promise<WriteCandlesResult> {
  const { instrumentId, candles, source } = input;
  if (!Number.isSafeInteger(instrumentId)) throw new TypeError(`instrumentId must be an integer, got ${instrumentId}`);
  const column = (values: ArrayLike<number>): number[] => Array.from({ length: candles.length }, (_, index) => values[index] as number);
  const inserted = await db.query(
    `INSERT INTO candles (ts, volume, oi, instrument_id, open_paise, high_paise, low_paise, close_paise, source)
     SELECT timestamptz 'epoch' + c.ts_ms * interval '1 millisecond', c.volume, c.oi, $1, c.open_paise, c.high_paise, c.low_paise, c.close_paise, $2::candle_source
     FROM unnest($3::bigint[], $4::integer[], $5::integer[], $6::integer[], $7::integer[], $8::bigint[], $9::bigint[])
       AS c(ts_ms, open_paise, high_paise, low_paise, close_paise, volume, oi)
     ORDER BY c.ts_ms
     ON CONFLICT (instrument_id, ts) DO NOTHING`,
    [instrumentId, source, column(candles.time), column(candles.open), column(candles.high), column(candles.low), column(candles.close), column(candles.volume),
      candles.oi === undefined ? Array.from({ length: candles.length }, () => null) : column(candles.oi)]);
  const count = inserted.rowCount ?? 0;
  return { inserted: count, duplicates: candles.length - count };
}

/** Stores candles in a transaction of their own (a few: in one statement). */
export async function writeCandles(pool: pg.Pool, input: WriteCandlesInput): Promise<WriteCandlesResult> {
  if (input.candles.length <= SMALL_CANDLE_WRITE) return insertCandleArrays(pool, input);
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await writeCandlesInTransaction(client, input);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}

function* candleLines(candles: CandleColumns): Generator<string> {
  const { time, open, high, low, close, volume, oi } = candles;
  for (let index = 0; index < candles.length; index += 1) {
    const openInterest = oi === undefined ? '\\N' : String(oi[index]);
    yield `${time[index]}\t${open[index]}\t${high[index]}\t${low[index]}\t${close[index]}\t${volume[index]}\t${openInterest}\n`;
  }
}

export interface ReadCandlesInput {
  readonly instrumentId: number;
  /** Inclusive start, epoch ms. */
  readonly from: number;
  /** Exclusive end, epoch ms. */
  readonly to: number;
  /** Bar width (docs/PRODUCT.md section 9 choices); 1 (default) returns the stored 1-minute candles. */
  readonly intervalMinutes?: number;
}

/**
 * One instrument's candles in [from, to) as typed arrays, aggregated to `intervalMinutes`.
 * `oi` is present when any stored candle in the range has open interest.
 */
export async function readCandles(pool: pg.Pool, input: ReadCandlesInput): Promise<CandleColumns> {
  const { instrumentId, from, to } = input;
  for (const [name, value] of [['instrumentId', instrumentId], ['from', from], ['to', to]] as const) {
    // COPY takes no parameters, so the numbers are checked to be integers before being inlined.
    if (!Number.isSafeInteger(value)) throw new TypeError(`${name} must be an integer, got ${value}`);
  }
  const reader = new CopyCandleReader();
  const client = await pool.connect();
  try {
    await copyBytesOut(client,
      `COPY (SELECT (extract(epoch FROM ts) * 1000)::bigint, open_paise, high_paise, low_paise, close_paise, volume, oi
             FROM candles
             WHERE instrument_id = ${instrumentId}
               AND ts >= timestamptz 'epoch' + ${from}::bigint * interval '1 millisecond'
               AND ts < timestamptz 'epoch' + ${to}::bigint * interval '1 millisecond'
             ORDER BY ts) TO STDOUT`,
      (chunk) => reader.push(chunk));
  } finally {
    client.release();
  }
  const candles = reader.finish();
  const interval = input.intervalMinutes ?? 1;
  return interval === 1 ? candles : aggregateCandles(candles, interval);
}

const TAB = 9;
const NEWLINE = 10;
const MINUS = 45;
const BACKSLASH = 92;
const FIELDS = 7;

/**
 * Parses COPY text rows of seven integer columns byte by byte into growing typed arrays: no
 * strings are made per row. A `\N` (NULL) is only expected in the last (oi) column.
 */
class CopyCandleReader {
  private capacity = 4096;
  private length = 0;
  private time = new Float64Array(this.capacity);
  private prices = [new Int32Array(this.capacity), new Int32Array(this.capacity), new Int32Array(this.capacity), new Int32Array(this.capacity)];
  private volume = new Float64Array(this.capacity);
  private oi = new Float64Array(this.capacity);
  private anyOi = false;
  private field = 0;
  private value = 0;
  private negative = false;
  private isNull = false;

  push(chunk: Buffer): void {
    for (let index = 0; index < chunk.length; index += 1) {
      const byte = chunk[index] as number;
      if (byte >= 48 && byte <= 57) this.value = this.value * 10 + (byte - 48);
      else if (byte === TAB) this.endField();
      else if (byte === NEWLINE) this.endRow();
      else if (byte === MINUS) this.negative = true;
      else if (byte === BACKSLASH) this.isNull = true;
      // 'N' after the backslash needs nothing more.
    }
  }

  private endField(): void {
    const value = this.negative ? -this.value : this.value;
    const row = this.length;
    // Grow when a row starts, before its first field is written (a write past the end of a typed array is silently dropped).
    if (this.field === 0 && row === this.capacity) this.grow();
    if (this.field === 0) this.time[row] = value;
    else if (this.field <= 4) (this.prices[this.field - 1] as Int32Array)[row] = value;
    else if (this.field === 5) this.volume[row] = value;
    else if (this.isNull) this.oi[row] = Number.NaN;
    else {
      this.oi[row] = value;
      this.anyOi = true;
    }
    this.field += 1;
    this.value = 0;
    this.negative = false;
    this.isNull = false;
  }

  private endRow(): void {
    this.endField();
    if (this.field !== FIELDS) throw new Error(`COPY row ${this.length + 1} has ${this.field} fields, expected ${FIELDS}`);
    this.field = 0;
    this.length += 1;
  }

  private grow(): void {
    this.capacity *= 2;
    const grown = <T extends Float64Array | Int32Array>(array: T, make: (size: number) => T): T => {
      const next = make(this.capacity);
      next.set(array);
      return next;
    };
    this.time = grown(this.time, (n) => new Float64Array(n));
    this.prices = this.prices.map((array) => grown(array, (n) => new Int32Array(n)));
    this.volume = grown(this.volume, (n) => new Float64Array(n));
    this.oi = grown(this.oi, (n) => new Float64Array(n));
  }

  finish(): CandleColumns {
    const n = this.length;
    const [open, high, low, close] = this.prices.map((array) => array.slice(0, n)) as [Int32Array, Int32Array, Int32Array, Int32Array];
    const candles = { length: n, time: this.time.slice(0, n), open, high, low, close, volume: this.volume.slice(0, n) };
    return this.anyOi ? { ...candles, oi: this.oi.slice(0, n) } : candles;
  }
}
