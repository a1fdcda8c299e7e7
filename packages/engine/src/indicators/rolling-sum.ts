import { EXACT_BELOW, TO_INTEGER } from '@vyuha/core';

/**
 * An exact rolling sum over the last `capacity` values (ARCHITECTURE.md, "The engine": "Rolling sums are exact"; no
 * drift, and a mean is the sum divided once).
 *
 * Prices arrive as rupees that are exact paise (x = paise / 100). While every value in the window
 * is on that paise grid the sum is kept as an integer count of paise, so it is exact and the mean
 * is one division: two windows with equal true means give identical doubles, and ties decide as
 * in the textbook. A value off the grid (a derived series such as an EMA, NaN, or a magnitude too
 * large for an exact integer sum) switches to a compensated sum (TwoSum) that is re-summed from
 * the buffer every time the ring wraps, so rounding error never outlives one window: no drift.
 *
 * Invariants: `gridPaise` is the exact integer sum of the paise of the on-grid values in the
 * window; `offGridCount` counts the rest; while `offGridCount > 0` the compensated pair
 * (`compensatedSum`, `compensation`) is the sum of every value in the window.
 * Work per update is O(1) amortised: the O(n) re-sum runs at most once per n updates.
 */
export class RollingSum {
  readonly capacity: number;
  private readonly values: Float64Array;
  /** Each window value's paise (0 when off the grid), kept beside `values` so eviction never re-derives it. */
  private readonly paiseRing: Float64Array;
  /** 1 where the window value is on the grid, 0 where it is not. */
  private readonly onGridRing: Uint8Array;
  private readonly largestPaise: number;
  private next = 0;
  private filled = 0;
  private gridPaise = 0;
  private offGridCount = 0;
  private compensatedSum = 0;
  private compensation = 0;
  /** pushColumn's range still to push, reused. */
  private readonly part = { from: 0, to: 0 };

  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`RollingSum capacity must be a whole number >= 1, got ${capacity}`);
    this.capacity = capacity;
    this.values = new Float64Array(capacity);
    this.paiseRing = new Float64Array(capacity);
    this.onGridRing = new Uint8Array(capacity);
    // Keeps |gridPaise| <= MAX_SAFE_INTEGER whatever the window holds.
    this.largestPaise = Math.floor(Number.MAX_SAFE_INTEGER / capacity);
  }

  /** Values currently in the window (grows to `capacity`, then stays). */
  get count(): number {
    return this.filled;
  }

  /** True once the window holds `capacity` values. */
  get full(): boolean {
    return this.filled === this.capacity;
  }

  /** The value that the next `push` will evict (NaN while the window is not full). */
  get oldest(): number {
    return this.filled === this.capacity ? (this.values[this.next] as number) : Number.NaN;
  }

  /** The ring slot the next `push` writes (and, once full, evicts from). */
  get nextSlot(): number {
    return this.next;
  }

  /**
   * The ring itself: entries `0 .. count - 1` are the window, the newest at the slot before
   * `nextSlot` (a mean absolute deviation reads it in any order, a weighted sum back from the
   * newest, a block loop copies it). Read it, never write it.
   */
  get ring(): Float64Array {
    return this.values;
  }

  /**
   * Adds `value` to the window, evicting the oldest once full. Whether a value is on the grid is
   * kept as a 1 or a 0 and its paise as 0 when it is not, so the grid sum and the off-grid count
   * change by arithmetic, not by a branch on each value (a series whose values fall on and off the
   * grid at random, as a typical price does, would mispredict such a branch every few values);
   * only the compensated sum's bookkeeping branches, on the count, which rarely changes sign.
   */
  push(value: number): void {
    const slot = this.next;
    const values = this.values;
    if (this.filled === this.capacity) {
      this.gridPaise -= this.paiseRing[slot] as number;
      this.offGridCount -= 1 - (this.onGridRing[slot] as number);
      if (this.offGridCount > 0) this.compensatedAdd(-(values[slot] as number));
    } else this.filled += 1;
    // The nearest whole number of paise, ties to even (core TO_INTEGER): a value on the grid is no tie,
    // so this keeps exactly what Math.round would, without its mispredicted jump.
    const scaled = value * 100;
    const paise = Math.abs(scaled) < EXACT_BELOW ? scaled + TO_INTEGER - TO_INTEGER : Math.round(scaled);
    const onGrid = +(paise / 100 === value) & +(Math.abs(paise) <= this.largestPaise);
    // NaN and infinities are off the grid, and their paise times 0 is no 0: keep 0 for them.
    const keptPaise = paise - paise === 0 ? paise * onGrid : 0;
    values[slot] = value;
    this.paiseRing[slot] = keptPaise;
    this.onGridRing[slot] = onGrid;
    this.gridPaise += keptPaise;
    this.offGridCount += 1 - onGrid;
    // The first off-grid value: the compensated sum was not kept, build it from the window.
    if (this.offGridCount > 0) {
      if (this.offGridCount + onGrid === 1) this.resum();
      else this.compensatedAdd(value);
    }
    this.next = slot + 1;
    if (this.next === this.capacity) {
      this.next = 0;
      if (this.offGridCount > 0) this.resum();
    }
  }

  /**
   * Pushes `values[from .. to)` one after the other, writing after each what `mean()` (or, for
   * `out.kind` 'sum', `sum()`) would give at `out.values[i - out.offset]`: the same operations in
   * the same order as `push` and `compensatedAdd`, so the same doubles and the same state after
   * (but for the compensated pair, below, which nothing can observe). The state lives in locals for
   * each loop and is written back once (`push` reads and writes every field per value). While the
   * window and the values coming are all on the grid, `pushOnGrid` keeps the integer sum alone
   * (over 1 M closes in 4,096-bar blocks, 6.0 ms against 9.6 ms with the pair kept); while any
   * value in it is off the grid, `pushOffGrid` keeps the compensated pair and the count of
   * off-grid values alone (11.2 ms against 17 ms over 1 M typical prices with the grid sum kept
   * too). Each hands over to the other where the window changes sides.
   */
  pushColumn(values: Float64Array, range: { readonly from: number; readonly to: number }, out: { readonly values: Float64Array; readonly offset: number; readonly kind: 'mean' | 'sum' }): void {
    const part = this.part;
    part.from = range.from;
    part.to = range.to;
    while (part.from < part.to) {
      // pushOnGrid stops at a value off the grid (or at the end), which pushOffGrid then takes.
      if (this.offGridCount === 0) part.from = this.pushOnGrid(values, part, out);
      if (part.from < part.to) part.from = this.pushOffGrid(values, part, out);
    }
  }

  /**
   * pushColumn's part while a value in the window is off the grid (`offGridCount` > 0, or the first
   * value coming is off it): values from `range.from` up to and including the first after which the
   * whole window is on the grid again, or to `range.to`; returns the index after the last taken.
   * The grid's integer sum is not kept value by value: it is read only while no value is off the
   * grid, and it is the exact sum of the window's paise (every partial sum an integer below 2^53,
   * `largestPaise`), whatever the order they were added in. So it and each slot's paise are taken
   * from the window when this returns (`regrid`), as `push` would have left them. The compensated
   * pair takes every eviction and addition (push's takes them only while a value is off the grid;
   * it is rebuilt from the window at the first such value, as push's resum, and read only then).
   */
  private pushOffGrid(values: Float64Array, range: { readonly from: number; readonly to: number }, out: { readonly values: Float64Array; readonly offset: number; readonly kind: 'mean' | 'sum' }): number {
    const capacity = this.capacity;
    const ring = this.values;
    const onGridRing = this.onGridRing;
    const largestPaise = this.largestPaise;
    const target = out.values;
    const shift = out.offset;
    const sums = out.kind === 'sum';
    let next = this.next;
    let filled = this.filled;
    let offGridCount = this.offGridCount;
    let total = this.compensatedSum;
    let compensation = this.compensation;
    let index = range.from;
    while (index < range.to) {
      const value = values[index] as number;
      const slot = next;
      if (filled === capacity) {
        offGridCount -= 1 - (onGridRing[slot] as number);
        const leaving = -(ring[slot] as number);
        const sum = total + leaving;
        const part = sum - total;
        compensation += (total - (sum - part)) + (leaving - part);
        total = sum;
      } else filled += 1;
      // The nearest whole number of paise, ties to even (core TO_INTEGER): a value on the grid is no tie,
      // so this keeps exactly what Math.round would, without its mispredicted jump.
      const scaled = value * 100;
      const paise = Math.abs(scaled) < EXACT_BELOW ? scaled + TO_INTEGER - TO_INTEGER : Math.round(scaled);
      const onGrid = +(paise / 100 === value) & +(Math.abs(paise) <= largestPaise);
      ring[slot] = value;
      onGridRing[slot] = onGrid;
      offGridCount += 1 - onGrid;
      next = slot + 1 === capacity ? 0 : slot + 1;
      // push's resum: at the first off-grid value (the count just became 1 with this one), and at
      // every wrap while any is off the grid. Inline: a call here kept V8 from holding the pair in
      // registers across it (9.1 against 11.2 ms over 1 M typical prices).
      if ((offGridCount === 1 && onGrid === 0) || (next === 0 && offGridCount > 0)) {
        total = 0;
        compensation = 0;
        for (let k = 0; k < filled; k += 1) {
          const kept = ring[k] as number;
          const sum = total + kept;
          const part = sum - total;
          compensation += (total - (sum - part)) + (kept - part);
          total = sum;
        }
      } else {
        const sum = total + value;
        const part = sum - total;
        compensation += (total - (sum - part)) + (value - part);
        total = sum;
      }
      index += 1;
      if (offGridCount === 0) break;
      target[index - 1 - shift] = sums ? total + compensation : (total + compensation) / filled;
    }
    this.next = next;
    this.filled = filled;
    this.offGridCount = offGridCount;
    this.compensatedSum = total;
    this.compensation = compensation;
    this.regrid();
    // The window is on the grid again after the last value taken: its figure is the grid sum's.
    if (offGridCount === 0) target[index - 1 - shift] = sums ? this.gridPaise / 100 : this.gridPaise / (filled * 100);
    return index;
  }

  /** Each window slot's paise (0 off the grid), as push keeps them, and their sum `gridPaise`. */
  private regrid(): void {
    const ring = this.values;
    const onGridRing = this.onGridRing;
    let gridPaise = 0;
    for (let slot = 0; slot < this.filled; slot += 1) {
      const value = ring[slot] as number;
      const scaled = value * 100;
      const paise = Math.abs(scaled) < EXACT_BELOW ? scaled + TO_INTEGER - TO_INTEGER : Math.round(scaled);
      // On the grid, the paise are a whole number below largestPaise; off it push keeps 0.
      const kept = onGridRing[slot] === 1 ? paise : 0;
      this.paiseRing[slot] = kept;
      gridPaise += kept;
    }
    this.gridPaise = gridPaise;
  }

  /**
   * pushColumn's part while the whole window is on the grid (`offGridCount` 0): values are taken
   * from `range.from` up to the first that is off the grid (NaN and too large included), which is
   * left for pushColumn's loop; returns its index, or `range.to`. The integer sum is all the state
   * there is to keep: the compensated pair is read only while a value is off the grid, and push
   * and pushColumn rebuild it from the window at the first one, so it is left as it was.
   */
  private pushOnGrid(values: Float64Array, range: { readonly from: number; readonly to: number }, out: { readonly values: Float64Array; readonly offset: number; readonly kind: 'mean' | 'sum' }): number {
    const capacity = this.capacity;
    const ring = this.values;
    const paiseRing = this.paiseRing;
    const onGridRing = this.onGridRing;
    const largestPaise = this.largestPaise;
    const target = out.values;
    const shift = out.offset;
    const sums = out.kind === 'sum';
    let next = this.next;
    let filled = this.filled;
    let gridPaise = this.gridPaise;
    let index = range.from;
    for (; index < range.to; index += 1) {
      const value = values[index] as number;
      const scaled = value * 100;
      const paise = Math.abs(scaled) < EXACT_BELOW ? scaled + TO_INTEGER - TO_INTEGER : Math.round(scaled);
      // NaN fails the first test.
      if (paise / 100 !== value || Math.abs(paise) > largestPaise) break;
      const slot = next;
      if (filled === capacity) gridPaise -= paiseRing[slot] as number;
      else filled += 1;
      ring[slot] = value;
      paiseRing[slot] = paise;
      onGridRing[slot] = 1;
      gridPaise += paise;
      next = slot + 1 === capacity ? 0 : slot + 1;
      target[index - shift] = sums ? gridPaise / 100 : gridPaise / (filled * 100);
    }
    this.next = next;
    this.filled = filled;
    this.gridPaise = gridPaise;
    return index;
  }

  /** The sum of the window. Exact while every value is on the paise grid. */
  sum(): number {
    if (this.offGridCount === 0) return this.gridPaise / 100;
    return this.compensatedSum + this.compensation;
  }

  /** The mean of the window, divided once: `sumPaise / (count * 100)` on the grid. NaN when empty. */
  mean(): number {
    if (this.filled === 0) return Number.NaN;
    if (this.offGridCount === 0) return this.gridPaise / (this.filled * 100);
    return (this.compensatedSum + this.compensation) / this.filled;
  }

  /** True while the sum is the exact integer paise sum. */
  get exact(): boolean {
    return this.offGridCount === 0;
  }

  /** Empties the window. */
  reset(): void {
    this.next = 0;
    this.filled = 0;
    this.gridPaise = 0;
    this.offGridCount = 0;
    this.compensatedSum = 0;
    this.compensation = 0;
  }

  /**
   * Compensated summation: the rounding error of each addition, found exactly by Knuth's TwoSum,
   * is kept in `compensation`. Neumaier's form finds the same error with a branch on which
   * operand is larger; TwoSum takes three more additions and no branch, which a processor
   * mispredicts on values of either size at random.
   */
  private compensatedAdd(value: number): void {
    const sum = this.compensatedSum;
    const total = sum + value;
    const part = total - sum;
    this.compensation += (sum - (total - part)) + (value - part);
    this.compensatedSum = total;
  }

  /** Rebuilds the compensated sum from the values in the window (which includes the latest). */
  private resum(): void {
    this.resumOf(this.filled);
  }

  /** The compensated pair rebuilt from ring slots 0 .. count - 1 (before the first wrap the window is values[0 .. filled); after it, the whole ring). */
  private resumOf(count: number): void {
    this.compensatedSum = 0;
    this.compensation = 0;
    for (let index = 0; index < count; index += 1) this.compensatedAdd(this.values[index] as number);
  }
}

/** A fresh compensated (Neumaier) sum of `values`: the reference the rolling sum is tested against. */
export function compensatedSum(values: ArrayLike<number>): number {
  let total = 0;
  let compensation = 0;
  for (let index = 0; index < values.length; index += 1) {
    const value = values[index] as number;
    const next = total + value;
    if (Math.abs(total) >= Math.abs(value)) compensation += total - next + value;
    else compensation += value - next + total;
    total = next;
  }
  return total + compensation;
}
