import type { BarSeries } from '../algorithm/program';
import type { SharedColumns } from './shared-columns';
import { SeriesPaise } from './window-steps';

/** `compute()`'s columns, one per key; throws when it gives another number. */
function computedOutputs(keys: readonly string[], compute: () => Float64Array[]): Float64Array[] {
  const computed = compute();
  if (computed.length !== keys.length) throw new Error(`indicator cache: ${keys.length} outputs asked, ${computed.length} computed`);
  return computed;
}

/**
 * Whole-series indicator outputs shared by the programs of one sweep over one fixed series: a
 * sweep of `crossover(sma(close, $fast), sma(close, $slow))` computes each SMA period once, not
 * once per combination, and each run copies its blocks from here. Only indicators whose input is
 * read straight from the series (a bar column, or the whole bar) are kept: their values depend on
 * the bars and the indicator's parameters alone.
 *
 * Invariants:
 * - An entry holds what the indicator's block step writes over the whole series, block after
 *   block from bar 0 (expression-plan.ts): the values a program computes for itself, since block
 *   values equal bar-by-bar values for any block sizes (block-steps.test.ts).
 * - Bound to one series, the object and its length when the cache was made: a program over
 *   another series, or over this one after it grew (live), computes its own (`covers`).
 * - At most `maxBytes` of columns: the least recently used entries go first. A budget smaller
 *   than one column of the series covers nothing (`covers`).
 * - A cache made with `reuse: previous` takes previous's columns as its spares (`column` hands
 *   them out again, zeroed) and leaves previous empty: nothing may read previous's columns after.
 *   A sweep thread given another series (server sweep-worker.ts) so writes the new series'
 *   indicators into memory it has touched already: on this VM a first-touched page costs about
 *   12 us (docs/BUDGETS.md), about 2 ms for each column of a year of minutes. An entry evicted
 *   for the budget is never reused: a program may still be reading it.
 * - A cache made with `shared` (the threads of a sweep pool, each with its own cache over the
 *   same series) asks that arena before computing an indicator: another thread's columns are read
 *   from there, and one computed here is written there for the others (shared-columns.ts). Those
 *   columns are not this cache's: they count nothing against its budget and are never handed out
 *   as spares. Without room in the arena an indicator is computed and kept here as without it.
 */
export class IndicatorCache {
  /** The default budget: 32 columns of a million bars. */
  static readonly DEFAULT_MAX_BYTES = 256 * 1024 * 1024;

  private readonly length: number;
  private readonly maxBytes: number;
  /** Entries in use order, least recent first (a Map keeps insertion order; a hit is moved to the end). */
  private readonly entries = new Map<string, Float64Array>();
  private bytes = 0;
  /** Each bar column's paise, by column (`paiseOf`). */
  private readonly paise = new Map<Float64Array, SeriesPaise>();
  private hitCount = 0;
  private missCount = 0;
  /** Columns of an earlier cache (`reuse`) not handed out again yet. */
  private readonly spares: Float64Array[];
  /** The threads' arena (`shared`), when it holds columns of this series' length. */
  private readonly shared: SharedColumns | undefined;
  /** Columns read from or written to the arena, by key: read again without asking it. */
  private readonly borrowed = new Map<string, Float64Array>();
  /** The arena's columns for the indicator being computed into it: `column` hands them out first. */
  private lent: Float64Array[] = [];
  private sharedCount = 0;

  /** Throws RangeError for a budget that is not a whole number of bytes >= 0. */
  constructor(
    readonly series: BarSeries,
    options: { readonly maxBytes?: number; readonly reuse?: IndicatorCache; readonly shared?: SharedColumns } = {},
  ) {
    const maxBytes = options.maxBytes ?? IndicatorCache.DEFAULT_MAX_BYTES;
    if (!Number.isSafeInteger(maxBytes) || maxBytes < 0) throw new RangeError(`maxBytes must be a whole number of bytes >= 0, got ${maxBytes}`);
    this.length = series.length;
    this.maxBytes = maxBytes;
    this.spares = options.reuse?.release() ?? [];
    this.shared = options.shared?.bars === series.length ? options.shared : undefined;
  }

  /**
   * A column of `length` zeros for an indicator's outputs: while one is computed into the arena,
   * the arena's column for it; else a spare of that length when there is one, else a new array.
   */
  column(length: number): Float64Array {
    if (this.lent.length > 0 && (this.lent[0] as Float64Array).length === length) return this.lent.shift() as Float64Array;
    const spare = this.spares.findIndex((column) => column.length === length);
    if (spare < 0) return new Float64Array(length);
    const [column] = this.spares.splice(spare, 1) as [Float64Array];
    return column.fill(0);
  }

  /**
   * True when a program over `series` may read this cache: the same series, not grown since, and
   * a budget that keeps at least one of its columns (else the program computes its own, block by
   * block, rather than a whole column nobody keeps).
   */
  covers(series: BarSeries): boolean {
    return series === this.series && series.length === this.length && this.length * Float64Array.BYTES_PER_ELEMENT <= this.maxBytes;
  }

  /**
   * The columns of `keys` (one per output, each `series.length` long): kept ones when every key
   * is kept, else `compute()`'s (one column per key, in order), kept for the next caller.
   */
  outputs(keys: readonly string[], compute: () => Float64Array[]): readonly Float64Array[] {
    const kept: Float64Array[] = [];
    for (const key of keys) {
      const column = this.entries.get(key);
      if (column === undefined) break;
      kept.push(column);
    }
    if (kept.length === keys.length) {
      this.hitCount += 1;
      for (let k = 0; k < keys.length; k += 1) this.touch(keys[k] as string, kept[k] as Float64Array);
      return kept;
    }
    const borrowed = this.fromArena(keys, compute);
    if (borrowed !== undefined) return borrowed;
    this.missCount += 1;
    const computed = computedOutputs(keys, compute);
    for (let k = 0; k < keys.length; k += 1) this.keep(keys[k] as string, computed[k] as Float64Array);
    return computed;
  }

  /**
   * The paise of a column of the series, block by block, each block converted once for every
   * whole-series SMA of the column computed here. Kept beside the budget: at most one column's
   * worth per bar column (a block is converted when an SMA on the paise grid first asks for it).
   */
  paiseOf(column: Float64Array): SeriesPaise {
    let paise = this.paise.get(column);
    if (paise === undefined) {
      paise = new SeriesPaise(column);
      this.paise.set(column, paise);
    }
    return paise;
  }

  /**
   * Lookups answered from kept columns or the arena's, lookups that computed (into the arena or
   * not), of the hits those answered by another thread's columns in the arena, and the bytes kept.
   */
  get stats(): { readonly hits: number; readonly misses: number; readonly shared: number; readonly bytes: number; readonly entries: number } {
    return { hits: this.hitCount, misses: this.missCount, shared: this.sharedCount, bytes: this.bytes, entries: this.entries.size };
  }

  /** The arena's columns of `keys`: read there, or computed here into it; undefined without an arena or room in it. */
  private fromArena(keys: readonly string[], compute: () => Float64Array[]): readonly Float64Array[] | undefined {
    if (this.shared === undefined) return undefined;
    const known = keys.map((key) => this.borrowed.get(key));
    if (known.every((column) => column !== undefined)) {
      this.hitCount += 1;
      return known as Float64Array[];
    }
    let computedHere = false;
    const columns = this.shared.outputs(keys, (arena) => {
      computedHere = true;
      this.lent = [...arena];
      try {
        const computed = computedOutputs(keys, compute);
        for (let k = 0; k < keys.length; k += 1) if (computed[k] !== arena[k]) (arena[k] as Float64Array).set(computed[k] as Float64Array);
      } finally {
        this.lent = [];
      }
    });
    if (columns === undefined) return undefined;
    if (computedHere) this.missCount += 1;
    else {
      this.hitCount += 1;
      this.sharedCount += 1;
    }
    for (let k = 0; k < keys.length; k += 1) this.borrowed.set(keys[k] as string, columns[k] as Float64Array);
    return columns;
  }

  /** Every column this cache keeps or has spare, handed over; the cache is left empty. */
  private release(): Float64Array[] {
    const columns = [...this.spares, ...this.entries.values()];
    this.borrowed.clear();
    this.spares.length = 0;
    this.entries.clear();
    this.bytes = 0;
    return columns;
  }

  private touch(key: string, column: Float64Array): void {
    this.entries.delete(key);
    this.entries.set(key, column);
  }

  private keep(key: string, column: Float64Array): void {
    const previous = this.entries.get(key);
    if (previous !== undefined) {
      this.entries.delete(key);
      this.bytes -= previous.byteLength;
    }
    if (column.byteLength > this.maxBytes) return;
    for (const [oldest, old] of this.entries) {
      if (this.bytes + column.byteLength <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= old.byteLength;
    }
    this.entries.set(key, column);
    this.bytes += column.byteLength;
  }
}
