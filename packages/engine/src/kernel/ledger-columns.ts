// Storage for the ledger's rows: one typed array per field that doubles when full, so an order,
// a fill or a trade costs a few numbers written into arrays and no object. A backtest with tens
// of thousands of round trips otherwise spends more time in the garbage collector (every record
// survives to the end of the run, so the young generation copies each one) than in the kernel.
// Orders, fills, trades and days are tables (OrderTable, FillTable, TradeTable, DayTable): a row is written whole
// when it is added, so the table's columns share one count. A fill's charge components are
// Columns: written only for charged fills, each with its own count of rows reached, and a
// component never written (a run without charges) allocates nothing. Each field takes the
// narrowest type that holds it. Strings that repeat (instrument, date) are stored as codes into a
// table of distinct values.
//
// Until 2026-12 a field was a list of 1,024-row chunks (never copied); a read or write then took
// two loads and a shift and mask, and the per-trade path makes about sixty of them. One array per
// field made the kernel benchmark's crossover (27,670 round trips on 1 M bars) about 6% faster;
// the copies on growth cost less than that (each row is copied once on average). Then each field
// was a Column checking its own room on every write; a table checking it once per row took the
// ledger's work on that run from 5.0-5.4 ms to 2.3 ms (its calls alone, 50 runs each).

/** `f64`: money, times, quantities; `i32`: row numbers, bar indices and string codes; `u8`: small enumerations. */
export type ColumnType = 'f64' | 'i32' | 'u8';

/** One field of a table's rows. Rows never written read as 0. */
export interface Column {
  get(row: number): number;
  set(row: number, value: number): void;
  /** Every row back to 0, the array kept (nothing is written: see the classes below). */
  clear(): void;
}

/** Rows of a column's first array. */
const FIRST_ROWS = 256;

/** The size a column holding `length` rows grows to so that it holds row `row`. */
function grownSize(length: number, row: number): number {
  let size = Math.max(FIRST_ROWS, length * 2);
  while (size <= row) size *= 2;
  return size;
}

/**
 * A column of `type`. Each type is its own class, written out three times on purpose: V8 keeps
 * one record of the array kinds an element access has seen per function, so one class over the
 * three typed arrays made every read and write a test of three kinds (measured: the kernel
 * benchmark's crossover about 4% slower than with a class per type).
 *
 * A column knows how many of its rows were reached (`rows`: the rows below the highest written);
 * rows past them read as 0 whatever the array holds there, a row written past them first zeroes
 * those skipped, and `clear` only forgets them. So a set of columns handed from run to run
 * (LedgerColumns) is cleared without writing its arrays: zeroing them all (about 6 MB after a run
 * of 27,670 round trips) took back a good part of what handing the set on saves.
 */
export function column(type: ColumnType): Column {
  return type === 'f64' ? new F64Column() : type === 'i32' ? new I32Column() : new U8Column();
}

class F64Column implements Column {
  private values = new Float64Array(0);
  /** Rows reached: 0 .. rows - 1 hold what was written or 0; the array past them is not read. */
  private rows = 0;

  get(row: number): number {
    return row < this.rows ? (this.values[row] as number) : 0;
  }

  set(row: number, value: number): void {
    if (row >= this.rows) this.reach(row);
    this.values[row] = value;
  }

  clear(): void {
    this.rows = 0;
  }

  /** Rows up to `row` reached: the array grown to hold it (the rows reached copied), or the rows skipped zeroed. */
  private reach(row: number): void {
    if (row >= this.values.length) {
      const values = new Float64Array(grownSize(this.values.length, row));
      values.set(this.values.subarray(0, this.rows));
      this.values = values;
    } else if (row > this.rows) this.values.fill(0, this.rows, row);
    this.rows = row + 1;
  }
}

class I32Column implements Column {
  private values = new Int32Array(0);
  /** Rows reached: 0 .. rows - 1 hold what was written or 0; the array past them is not read. */
  private rows = 0;

  get(row: number): number {
    return row < this.rows ? (this.values[row] as number) : 0;
  }

  set(row: number, value: number): void {
    if (row >= this.rows) this.reach(row);
    this.values[row] = value;
  }

  clear(): void {
    this.rows = 0;
  }

  /** Rows up to `row` reached: the array grown to hold it (the rows reached copied), or the rows skipped zeroed. */
  private reach(row: number): void {
    if (row >= this.values.length) {
      const values = new Int32Array(grownSize(this.values.length, row));
      values.set(this.values.subarray(0, this.rows));
      this.values = values;
    } else if (row > this.rows) this.values.fill(0, this.rows, row);
    this.rows = row + 1;
  }
}

class U8Column implements Column {
  private values = new Uint8Array(0);
  /** Rows reached: 0 .. rows - 1 hold what was written or 0; the array past them is not read. */
  private rows = 0;

  get(row: number): number {
    return row < this.rows ? (this.values[row] as number) : 0;
  }

  set(row: number, value: number): void {
    if (row >= this.rows) this.reach(row);
    this.values[row] = value;
  }

  clear(): void {
    this.rows = 0;
  }

  /** Rows up to `row` reached: the array grown to hold it (the rows reached copied), or the rows skipped zeroed. */
  private reach(row: number): void {
    if (row >= this.values.length) {
      const values = new Uint8Array(grownSize(this.values.length, row));
      values.set(this.values.subarray(0, this.rows));
      this.values = values;
    } else if (row > this.rows) this.values.fill(0, this.rows, row);
    this.rows = row + 1;
  }
}

/** A typed array of `size` rows holding the first `rows` of `array` (a table's column grown). */
function grownArray<T extends Float64Array | Int32Array | Uint8Array>(array: T, rows: number, size: number): T {
  const grown = new (array.constructor as new (length: number) => T)(size);
  grown.set(array.subarray(0, rows));
  return grown;
}

/*
 * Tables: columns whose rows are always written whole, one row at a time at the end (an order
 * when placed, a fill when booked, a trade when recorded), so one count and one capacity serve
 * every column of the table: `add` checks the room once for the row, where a Column per field
 * checked it per field (and called its `reach` for each new row). Rows at or past `count` hold
 * whatever an earlier use left there and are never read: `clear` only sets the count to 0.
 * Each table is its own class, `add` and `clear` written out in each, for the reason the columns
 * are (above): a method shared by the three would see three classes at every access.
 */

/** The orders' fields by row (row = order id - 1). */
export class OrderTable {
  count = 0;
  instrument = new Int32Array(FIRST_ROWS);
  side = new Uint8Array(FIRST_ROWS);
  quantity = new Float64Array(FIRST_ROWS);
  reason = new Uint8Array(FIRST_ROWS);
  placedIndex = new Int32Array(FIRST_ROWS);
  placedTime = new Float64Array(FIRST_ROWS);
  status = new Uint8Array(FIRST_ROWS);

  /** A new row at the end (its fields are the caller's to write); returns it. */
  add(): number {
    const row = this.count;
    if (row === this.side.length) this.grow();
    this.count = row + 1;
    return row;
  }

  clear(): void {
    this.count = 0;
  }

  private grow(): void {
    const rows = this.count;
    const size = rows * 2;
    this.instrument = grownArray(this.instrument, rows, size);
    this.side = grownArray(this.side, rows, size);
    this.quantity = grownArray(this.quantity, rows, size);
    this.reason = grownArray(this.reason, rows, size);
    this.placedIndex = grownArray(this.placedIndex, rows, size);
    this.placedTime = grownArray(this.placedTime, rows, size);
    this.status = grownArray(this.status, rows, size);
  }
}

/** The fills' fields by row (side, quantity, instrument and reason are their order's). */
export class FillTable {
  count = 0;
  order = new Int32Array(FIRST_ROWS);
  bar = new Int32Array(FIRST_ROWS);
  time = new Float64Array(FIRST_ROWS);
  date = new Int32Array(FIRST_ROWS);
  price = new Float64Array(FIRST_ROWS);
  charges = new Float64Array(FIRST_ROWS);

  /** A new row at the end (its fields are the caller's to write); returns it. */
  add(): number {
    const row = this.count;
    if (row === this.order.length) this.grow();
    this.count = row + 1;
    return row;
  }

  clear(): void {
    this.count = 0;
  }

  private grow(): void {
    const rows = this.count;
    const size = rows * 2;
    this.order = grownArray(this.order, rows, size);
    this.bar = grownArray(this.bar, rows, size);
    this.time = grownArray(this.time, rows, size);
    this.date = grownArray(this.date, rows, size);
    this.price = grownArray(this.price, rows, size);
    this.charges = grownArray(this.charges, rows, size);
  }
}

/** The round trips' fields by row (everything else comes from their two fills). */
export class TradeTable {
  count = 0;
  entry = new Int32Array(FIRST_ROWS);
  exit = new Int32Array(FIRST_ROWS);
  quantity = new Float64Array(FIRST_ROWS);
  gross = new Float64Array(FIRST_ROWS);
  charges = new Float64Array(FIRST_ROWS);

  /** A new row at the end (its fields are the caller's to write); returns it. */
  add(): number {
    const row = this.count;
    if (row === this.entry.length) this.grow();
    this.count = row + 1;
    return row;
  }

  clear(): void {
    this.count = 0;
  }

  private grow(): void {
    const rows = this.count;
    const size = rows * 2;
    this.entry = grownArray(this.entry, rows, size);
    this.exit = grownArray(this.exit, rows, size);
    this.quantity = grownArray(this.quantity, rows, size);
    this.gross = grownArray(this.gross, rows, size);
    this.charges = grownArray(this.charges, rows, size);
  }
}

/**
 * The days' fields by row (a day's gross is its net plus its charges). A run closes one row per
 * trading day: as objects (about 95 bytes each with their array) they were the one record a sweep
 * run still allocated per day, and V8, seeing them live to the end of each run, began allocating
 * them straight into the old generation (pretenuring): 24 MB of old space a 1,000-run sweep over a
 * year of minutes, collected by full garbage collections.
 */
export class DayTable {
  count = 0;
  date = new Int32Array(FIRST_ROWS);
  net = new Float64Array(FIRST_ROWS);
  charges = new Float64Array(FIRST_ROWS);
  orders = new Int32Array(FIRST_ROWS);

  /** A new row at the end (its fields are the caller's to write); returns it. */
  add(): number {
    const row = this.count;
    if (row === this.date.length) this.grow();
    this.count = row + 1;
    return row;
  }

  clear(): void {
    this.count = 0;
  }

  private grow(): void {
    const rows = this.count;
    const size = rows * 2;
    this.date = grownArray(this.date, rows, size);
    this.net = grownArray(this.net, rows, size);
    this.charges = grownArray(this.charges, rows, size);
    this.orders = grownArray(this.orders, rows, size);
  }
}

/** Distinct strings by code (first seen, first code). The last string looked up is remembered: runs of one value cost no hash lookup. */
export class StringTable<T extends string = string> {
  readonly values: T[] = [];
  private readonly codes = new Map<T, number>();
  /**
   * The last value coded and its code; before the first, '' and -1, which `code` never returns. The
   * value is always a string, so code optimised by V8 on a table in use is not thrown away ("not a
   * String") at the first call on a new table, as a sweep's next series makes.
   */
  private lastValue: string = '';
  private lastCode = -1;

  code(value: T): number {
    if (value === this.lastValue && this.lastCode >= 0) return this.lastCode;
    let code = this.codes.get(value);
    if (code === undefined) {
      code = this.values.length;
      this.values.push(value);
      this.codes.set(value, code);
    }
    this.lastValue = value;
    this.lastCode = code;
    return code;
  }

  value(code: number): T {
    return this.values[code] as T;
  }
}
