// Storage for the ledger's rows: one column per field, each one typed array that doubles when
// full, so an order, a fill or a trade costs a few numbers written into arrays and no object. A
// backtest with tens of thousands of round trips otherwise spends more time in the garbage
// collector (every record survives to the end of the run, so the young generation copies each
// one) than in the kernel. A column never written (charge components in a run without charges)
// allocates nothing, a small run's columns stay small (a sweep's run of a few hundred trades: a
// few KB each), and each field takes the narrowest type that holds it.
// Strings that repeat (instrument, date) are stored as codes into a table of distinct values.
//
// Until 2026-12 a column was a list of 1,024-row chunks (never copied); a read or write then
// took two loads and a shift and mask, and the per-trade path makes about sixty of them. One
// array per column made the kernel benchmark's crossover (27,670 round trips on 1 M bars) about
// 6% faster; the copies on growth cost less than that (each row is copied once on average).

/** `f64`: money, times, quantities; `i32`: row numbers, bar indices and string codes; `u8`: small enumerations. */
export type ColumnType = 'f64' | 'i32' | 'u8';

/** One field of a table's rows. Rows never written read as 0. */
export interface Column {
  get(row: number): number;
  set(row: number, value: number): void;
  /** Every row back to 0, the array kept. */
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
 */
export function column(type: ColumnType): Column {
  return type === 'f64' ? new F64Column() : type === 'i32' ? new I32Column() : new U8Column();
}

class F64Column implements Column {
  private values = new Float64Array(0);

  get(row: number): number {
    return row < this.values.length ? (this.values[row] as number) : 0;
  }

  set(row: number, value: number): void {
    if (row >= this.values.length) {
      const values = new Float64Array(grownSize(this.values.length, row));
      values.set(this.values);
      this.values = values;
    }
    this.values[row] = value;
  }

  clear(): void {
    this.values.fill(0);
  }
}

class I32Column implements Column {
  private values = new Int32Array(0);

  get(row: number): number {
    return row < this.values.length ? (this.values[row] as number) : 0;
  }

  set(row: number, value: number): void {
    if (row >= this.values.length) {
      const values = new Int32Array(grownSize(this.values.length, row));
      values.set(this.values);
      this.values = values;
    }
    this.values[row] = value;
  }

  clear(): void {
    this.values.fill(0);
  }
}

class U8Column implements Column {
  private values = new Uint8Array(0);

  get(row: number): number {
    return row < this.values.length ? (this.values[row] as number) : 0;
  }

  set(row: number, value: number): void {
    if (row >= this.values.length) {
      const values = new Uint8Array(grownSize(this.values.length, row));
      values.set(this.values);
      this.values = values;
    }
    this.values[row] = value;
  }

  clear(): void {
    this.values.fill(0);
  }
}

/** Distinct strings by code (first seen, first code). The last string looked up is remembered: runs of one value cost no hash lookup. */
export class StringTable<T extends string = string> {
  readonly values: T[] = [];
  private readonly codes = new Map<T, number>();
  private lastValue: T | undefined;
  private lastCode = -1;

  code(value: T): number {
    if (value === this.lastValue) return this.lastCode;
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
