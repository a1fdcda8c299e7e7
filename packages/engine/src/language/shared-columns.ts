// Whole-series indicator columns in shared memory, so that the threads of a sweep pool (server
// run-pool.ts) compute each indicator of their common series once between them and read one copy:
// without it each thread of a 2-thread sweep of the SMA crossover computed and kept its own 50-odd
// of the grid's 65 SMA columns (a year of minutes: 49 MB a thread, each first-touched page paid
// again). An IndicatorCache given a SharedColumns (`shared`) asks it before computing.
//
// Layout: `control` is an Int32Array: NEXT_SLOT and NEXT_UNIT, then a hash table of ENTRY_INTS
// per entry (its state, its key's hash, where its key lies in `text`, its first column and its
// count); `text` holds the keys' UTF-16 units; `values` the columns, `bars` doubles each, one after
// the other.
//
// Invariants:
// - An entry's state only moves forward: EMPTY -> CLAIMED -> COMPUTING -> READY, or to UNSHARED
//   from CLAIMED or COMPUTING. One thread claims an entry (compareExchange from EMPTY) and alone
//   writes it: its key before COMPUTING, its columns before READY. Atomics.store of the state
//   publishes what was written before it to a thread that loads that state.
// - A key (an indicator's outputs, joined) has at most one READY entry; its columns are never
//   written again until the pool empties the whole arena for another series (`emptySharedColumns`),
//   which it does only between runs, when no thread reads them.
// - UNSHARED (no room for the key or its columns, or its computation threw): every thread computes
//   that indicator for itself, as it would without the arena. A thread waiting for another's
//   computation gives up after WAIT_LIMIT_MS and computes its own, so a thread that died mid-way
//   costs time, never a result.

const NEXT_SLOT = 0;
const NEXT_UNIT = 1;
const HEADER_INTS = 2;

const STATE = 0;
const HASH = 1;
const KEY_AT = 2;
const KEY_UNITS = 3;
const FIRST_SLOT = 4;
const SLOT_COUNT = 5;
const ENTRY_INTS = 6;

const EMPTY = 0;
const CLAIMED = 1;
const COMPUTING = 2;
const READY = 3;
const UNSHARED = 4;

/** Entries of the hash table (a power of two): room for this many distinct indicators. */
const DEFAULT_ENTRIES = 2048;
/** UTF-16 units of key text: about 20 a key. */
const TEXT_UNITS = 128 * 1024;
/** How long a thread waits for another's column before computing its own. */
const WAIT_LIMIT_MS = 60_000;
const WAIT_STEP_MS = 100;

/** The arena as a thread receives it (workerData, or a message): the same buffers for every series, `bars` for this one. */
export interface SharedColumnsData {
  readonly bars: number;
  readonly control: SharedArrayBuffer;
  readonly text: SharedArrayBuffer;
  readonly values: SharedArrayBuffer;
}

/** How the threads used an arena: indicators computed into it, and the columns they fill. */
export interface SharedColumnsUse {
  readonly indicators: number;
  readonly columns: number;
}

/**
 * An empty arena of `maxBytes` of columns for a series of `bars` bars. Its memory is reserved, not
 * touched: a page costs only when a column is first written to it.
 * @example new SharedColumns(sharedColumnsData(93_750, 256 * 1024 * 1024)).capacity // 357
 */
export function sharedColumnsData(bars: number, maxBytes: number, entries = DEFAULT_ENTRIES): SharedColumnsData {
  checkBars(bars);
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 0) throw new RangeError(`maxBytes must be a whole number of bytes >= 0, got ${maxBytes}`);
  if (!Number.isSafeInteger(entries) || entries < 1 || (entries & (entries - 1)) !== 0) throw new RangeError(`entries must be a power of two, got ${entries}`);
  const doubles = Math.floor(maxBytes / Float64Array.BYTES_PER_ELEMENT);
  return {
    bars,
    control: new SharedArrayBuffer((HEADER_INTS + entries * ENTRY_INTS) * Int32Array.BYTES_PER_ELEMENT),
    text: new SharedArrayBuffer(TEXT_UNITS * Uint16Array.BYTES_PER_ELEMENT),
    values: new SharedArrayBuffer(doubles * Float64Array.BYTES_PER_ELEMENT),
  };
}

/**
 * The same arena emptied for another series of `bars` bars: its memory, already touched, is
 * written again. Only while no thread reads it (between runs).
 */
export function emptySharedColumns(data: SharedColumnsData, bars: number): SharedColumnsData {
  checkBars(bars);
  new Int32Array(data.control).fill(0);
  return { ...data, bars };
}

/** Throws RangeError naming `bars` unless it is a whole number >= 0. */
function checkBars(bars: number): void {
  if (!Number.isSafeInteger(bars) || bars < 0) throw new RangeError(`bars must be a whole number >= 0, got ${bars}`);
}

/** What the threads have computed into the arena so far. */
export function sharedColumnsUse(data: SharedColumnsData): SharedColumnsUse {
  const control = new Int32Array(data.control);
  let indicators = 0;
  let columns = 0;
  for (let entry = HEADER_INTS; entry < control.length; entry += ENTRY_INTS) {
    if (Atomics.load(control, entry + STATE) !== READY) continue;
    indicators += 1;
    columns += control[entry + SLOT_COUNT] as number;
  }
  return { indicators, columns };
}

/** FNV-1a over the key's UTF-16 units. */
function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash | 0;
}

/** One thread's view of an arena. */
export class SharedColumns {
  readonly bars: number;
  /** Columns of `bars` the arena holds. */
  readonly capacity: number;
  private readonly control: Int32Array;
  private readonly text: Uint16Array;
  private readonly values: SharedArrayBuffer;
  private readonly mask: number;

  constructor(data: SharedColumnsData) {
    this.bars = data.bars;
    this.control = new Int32Array(data.control);
    this.text = new Uint16Array(data.text);
    this.values = data.values;
    const doubles = data.values.byteLength / Float64Array.BYTES_PER_ELEMENT;
    this.capacity = data.bars === 0 ? 0 : Math.floor(doubles / data.bars);
    this.mask = (this.control.length - HEADER_INTS) / ENTRY_INTS - 1;
  }

  /**
   * The columns of the indicator whose outputs are `keys`: another thread's, once it has computed
   * them (waiting while it does), or computed here by `compute` into zeroed columns of the arena
   * it is given, for the others. Undefined when the arena has no room for them, or the thread that
   * claimed them failed: the caller then computes its own. Throws what `compute` throws.
   */
  outputs(keys: readonly string[], compute: (columns: readonly Float64Array[]) => void): readonly Float64Array[] | undefined {
    if (keys.length === 0 || this.capacity === 0) return undefined;
    const key = keys.join('\n');
    const hash = hashOf(key);
    const { control } = this;
    for (let probe = 0; probe <= this.mask; probe += 1) {
      const entry = HEADER_INTS + ((hash + probe) & this.mask) * ENTRY_INTS;
      if (Atomics.load(control, entry + STATE) === EMPTY && Atomics.compareExchange(control, entry + STATE, EMPTY, CLAIMED) === EMPTY) {
        return this.claim(entry, { key, hash, count: keys.length }, compute);
      }
      const state = this.waitWhile(entry, CLAIMED);
      if (state === CLAIMED || !this.holds(entry, key, hash)) continue;
      const settled = this.waitWhile(entry, COMPUTING);
      return settled === READY ? this.columnsOf(entry) : undefined;
    }
    return undefined;
  }

  /** Writes the claimed entry: its key, its columns (computed here), then READY; UNSHARED where it cannot. */
  private claim(entry: number, wanted: { readonly key: string; readonly hash: number; readonly count: number }, compute: (columns: readonly Float64Array[]) => void): readonly Float64Array[] | undefined {
    const { control } = this;
    const { key, hash, count } = wanted;
    control[entry + HASH] = hash;
    const at = this.reserve(NEXT_UNIT, key.length, this.text.length);
    if (at < 0) {
      // Without its key nobody can match the entry: the others probe past it.
      control[entry + KEY_UNITS] = -1;
      this.settle(entry, UNSHARED);
      return undefined;
    }
    for (let i = 0; i < key.length; i += 1) this.text[at + i] = key.charCodeAt(i);
    control[entry + KEY_AT] = at;
    control[entry + KEY_UNITS] = key.length;
    const first = this.reserve(NEXT_SLOT, count, this.capacity);
    if (first < 0) {
      this.settle(entry, UNSHARED);
      return undefined;
    }
    control[entry + FIRST_SLOT] = first;
    control[entry + SLOT_COUNT] = count;
    this.settle(entry, COMPUTING);
    const columns = this.columnsOf(entry);
    try {
      for (const column of columns) column.fill(0);
      compute(columns);
    } catch (error) {
      this.settle(entry, UNSHARED);
      throw error;
    }
    this.settle(entry, READY);
    return columns;
  }

  /** The first of `count` units of what the header's counter at `index` counts, taken below `limit`; -1 when they do not fit (nothing taken). */
  private reserve(index: number, count: number, limit: number): number {
    for (;;) {
      const first = Atomics.load(this.control, index);
      if (first + count > limit) return -1;
      if (Atomics.compareExchange(this.control, index, first, first + count) === first) return first;
    }
  }

  private settle(entry: number, state: number): void {
    Atomics.store(this.control, entry + STATE, state);
    Atomics.notify(this.control, entry + STATE);
  }

  /** The entry's state once it is no longer `state`, or still `state` after WAIT_LIMIT_MS. */
  private waitWhile(entry: number, state: number): number {
    const index = entry + STATE;
    let now = Atomics.load(this.control, index);
    for (let waited = 0; now === state && waited < WAIT_LIMIT_MS; waited += WAIT_STEP_MS) {
      Atomics.wait(this.control, index, state, WAIT_STEP_MS);
      now = Atomics.load(this.control, index);
    }
    return now;
  }

  /** True when the entry, its key written, is `key`'s. */
  private holds(entry: number, key: string, hash: number): boolean {
    const { control } = this;
    if (control[entry + HASH] !== hash || control[entry + KEY_UNITS] !== key.length) return false;
    const at = control[entry + KEY_AT] as number;
    for (let i = 0; i < key.length; i += 1) if (this.text[at + i] !== key.charCodeAt(i)) return false;
    return true;
  }

  private columnsOf(entry: number): Float64Array[] {
    const first = this.control[entry + FIRST_SLOT] as number;
    const count = this.control[entry + SLOT_COUNT] as number;
    const bytes = this.bars * Float64Array.BYTES_PER_ELEMENT;
    return Array.from({ length: count }, (_, k) => new Float64Array(this.values, (first + k) * bytes, this.bars));
  }
}
