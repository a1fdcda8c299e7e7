/**
 * An exact rolling sum over the last `capacity` values (ARCHITECTURE.md, "The engine": "Rolling sums are exact"; no
 * drift, and a mean is the sum divided once).
 *
 * Prices arrive as rupees that are exact paise (x = paise / 100). While every value in the window
 * is on that paise grid the sum is kept as an integer count of paise, so it is exact and the mean
 * is one division: two windows with equal true means give identical doubles, and ties decide as
 * in the textbook. A value off the grid (a derived series such as an EMA, NaN, or a magnitude too
 * large for an exact integer sum) switches to a compensated (Neumaier) sum that is re-summed from
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
  /** Each window value's paise (NaN when off the grid), kept beside `values` so eviction never re-derives it. */
  private readonly paiseRing: Float64Array;
  private readonly largestPaise: number;
  private next = 0;
  private filled = 0;
  private gridPaise = 0;
  private offGridCount = 0;
  private compensatedSum = 0;
  private compensation = 0;

  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`RollingSum capacity must be a whole number >= 1, got ${capacity}`);
    this.capacity = capacity;
    this.values = new Float64Array(capacity);
    this.paiseRing = new Float64Array(capacity);
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

  /** The value `back` pushes ago (0 is the latest); NaN when the window does not reach that far. */
  valueAgo(back: number): number {
    if (back < 0 || back >= this.filled) return Number.NaN;
    let index = this.next - 1 - back;
    if (index < 0) index += this.capacity;
    return this.values[index] as number;
  }

  /**
   * The ring itself, for an O(n) pass whose order does not matter (a mean absolute deviation):
   * entries `0 .. count - 1` are the window. Read it, never write it.
   */
  get ring(): Float64Array {
    return this.values;
  }

  /** Adds `value` to the window, evicting the oldest once full. */
  push(value: number): void {
    const slot = this.next;
    if (this.filled === this.capacity) this.remove(this.values[slot] as number, this.paiseRing[slot] as number);
    else this.filled += 1;
    const paise = this.paiseOf(value);
    this.values[slot] = value;
    this.paiseRing[slot] = paise;
    this.add(value, paise);
    this.next = slot + 1;
    if (this.next === this.capacity) {
      this.next = 0;
      if (this.offGridCount > 0) this.resum();
    }
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

  private paiseOf(value: number): number {
    const paise = Math.round(value * 100);
    // NaN and infinities fail the equality; large magnitudes fail the bound.
    if (paise / 100 !== value || Math.abs(paise) > this.largestPaise) return Number.NaN;
    return paise;
  }

  private add(value: number, paise: number): void {
    if (paise === paise) {
      this.gridPaise += paise;
      if (this.offGridCount > 0) this.compensatedAdd(value);
      return;
    }
    this.offGridCount += 1;
    // The first off-grid value: the compensated sum was not kept, build it from the window.
    if (this.offGridCount === 1) this.resum();
    else this.compensatedAdd(value);
  }

  private remove(value: number, paise: number): void {
    if (paise === paise) this.gridPaise -= paise;
    else this.offGridCount -= 1;
    if (this.offGridCount > 0) this.compensatedAdd(-value);
  }

  /** Neumaier's variant of Kahan summation: exact to the last bit in almost every case. */
  private compensatedAdd(value: number): void {
    const total = this.compensatedSum + value;
    if (Math.abs(this.compensatedSum) >= Math.abs(value)) this.compensation += this.compensatedSum - total + value;
    else this.compensation += value - total + this.compensatedSum;
    this.compensatedSum = total;
  }

  /** Rebuilds the compensated sum from the values in the window (which includes the latest). */
  private resum(): void {
    this.compensatedSum = 0;
    this.compensation = 0;
    // Before the first wrap the window is values[0 .. filled); after it, the whole ring.
    for (let index = 0; index < this.filled; index += 1) this.compensatedAdd(this.values[index] as number);
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
