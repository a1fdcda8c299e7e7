/**
 * The largest (or smallest) of the last `capacity` values, O(1) amortised per push with a
 * monotonic deque: it holds the positions of values that can still become the extreme, their
 * values strictly decreasing (for a maximum) from front to back. Each position enters and leaves
 * once, so n pushes cost O(n) in all. The deque is a ring of preallocated typed arrays: no
 * allocation per push.
 */
export class RollingExtreme {
  private readonly capacity: number;
  private readonly sign: number;
  private readonly positions: Float64Array;
  private readonly values: Float64Array;
  private front = 0;
  private size = 0;
  private pushed = 0;
  /** Scratch of pushColumn: the doubling passes' spans, in turn. */
  private spanScratch = new Float64Array(0);
  private spareScratch = new Float64Array(0);

  constructor(options: { readonly capacity: number; readonly kind: 'maximum' | 'minimum' }) {
    if (!Number.isInteger(options.capacity) || options.capacity < 1) throw new RangeError(`RollingExtreme capacity must be a whole number >= 1, got ${options.capacity}`);
    this.capacity = options.capacity;
    // A minimum is the maximum of the negated values; store the sign, not two code paths.
    this.sign = options.kind === 'maximum' ? 1 : -1;
    this.positions = new Float64Array(options.capacity);
    this.values = new Float64Array(options.capacity);
  }

  /** Values pushed so far. */
  get count(): number {
    return this.pushed;
  }

  /** True once `capacity` values have been pushed. */
  get full(): boolean {
    return this.pushed >= this.capacity;
  }

  /** The extreme of the window (NaN before the first push). */
  get value(): number {
    if (this.size === 0) return Number.NaN;
    return this.sign * (this.values[this.front] as number);
  }

  /**
   * Pushes `values[from .. to)` as `push` would, one after the other, writing `value` after each
   * at `out.values[i - out.offset]`: the same extremes and the same state after. `values[0 .. from)` must be
   * what was pushed before (as when a column is fed block after block from its start); the count
   * is checked, and a window holding a NaN, an infinity or a zero (whose sign the deque's tie
   * rule would pick) is pushed one value at a time. Otherwise each full window's extreme is taken
   * from doubling passes (windowExtremes): about log2(capacity) + 2 maxima per value and no
   * data-dependent branch, where the deque's pops are a branch the processor mispredicts about
   * every other value.
   */
  pushColumn(values: Float64Array, range: { readonly from: number; readonly to: number }, out: { readonly values: Float64Array; readonly offset: number }): void {
    const { from, to } = range;
    let index = from;
    const windowed = this.pushed === from ? Math.min(to, Math.max(from, this.capacity - 1)) : to;
    for (; index < windowed; index += 1) {
      this.push(values[index] as number);
      out.values[index - out.offset] = this.value;
    }
    if (index >= to) return;
    if (this.windowExtremes(values, { from: index, to }, out)) {
      this.refill(values, to);
      return;
    }
    for (; index < to; index += 1) {
      this.push(values[index] as number);
      out.values[index - out.offset] = this.value;
    }
  }

  /**
   * The extreme of each full window ending at from .. to - 1 (from >= capacity - 1), written to
   * `out`; false, with nothing kept, when a value in them is NaN, infinite or zero. Doubling
   * passes over the values from from - capacity + 1: after the pass for `span`, entry k is the
   * extreme of the `span` values ending at k, and a window of `capacity` is the extreme of two such
   * spans (the largest power of 2 not above it) that together cover it. Every pass is one max per
   * value with no dependence between values and no branch on them: the selection is written
   * without a jump (branchless.ts's `larger`, exact for finite non-zero values), where the deque's
   * pops, or a running extreme's updates, are jumps the processor mispredicts.
   */
  private windowExtremes(values: Float64Array, range: { readonly from: number; readonly to: number }, out: { readonly values: Float64Array; readonly offset: number }): boolean {
    const { from, to } = range;
    const capacity = this.capacity;
    const sign = this.sign;
    const first = from - capacity + 1;
    const length = to - first;
    if (this.spanScratch.length < length) {
      this.spanScratch = new Float64Array(Math.max(length, this.spanScratch.length * 2));
      this.spareScratch = new Float64Array(this.spanScratch.length);
    }
    let spans = this.spanScratch;
    let next = this.spareScratch;
    for (let k = 0; k < length; k += 1) {
      const signed = sign * (values[first + k] as number);
      if (!(Math.abs(signed) < Number.POSITIVE_INFINITY) || signed === 0) return false;
      spans[k] = signed;
    }
    let span = 1;
    for (; span * 2 <= capacity; span *= 2) {
      for (let k = span; k < length; k += 1) {
        const a = spans[k] as number;
        const b = spans[k - span] as number;
        next[k] = a * +(a >= b) + b * +(b > a);
      }
      const swapped = spans;
      spans = next;
      next = swapped;
    }
    const target = out.values;
    const shift = first - out.offset;
    const back = capacity - span;
    for (let k = capacity - 1; k < length; k += 1) {
      const a = spans[k] as number;
      const b = spans[k - back] as number;
      target[k + shift] = sign * (a * +(a >= b) + b * +(b > a));
    }
    return true;
  }

  /** The deque as pushing values[0 .. to) would leave it: only the last `capacity` values can be in it. */
  private refill(values: Float64Array, to: number): void {
    this.front = 0;
    this.size = 0;
    this.pushed = to - this.capacity;
    for (let index = to - this.capacity; index < to; index += 1) this.push(values[index] as number);
  }

  push(value: number): void {
    const signed = this.sign * value;
    // The ring's fields in locals, written back once: the pop loop below is most of the cost of
    // a push, and it should neither re-read them nor recompute a slot per step.
    const capacity = this.capacity;
    const positions = this.positions;
    const values = this.values;
    const position = this.pushed;
    this.pushed = position + 1;
    let front = this.front;
    let size = this.size;
    // Drop first the position that slides out of the window, so the ring never overflows.
    if (size > 0 && (positions[front] as number) <= position - capacity) {
      front = front + 1 === capacity ? 0 : front + 1;
      size -= 1;
    }
    // Drop from the back every value that the new one dominates (ties: the newer one lives longer).
    // `back` starts at the free slot after the last entry and steps backwards over each one dropped.
    // A NaN on either side fails `<=`: it drops nothing and is dropped only by age.
    let back = front + size;
    if (back >= capacity) back -= capacity;
    while (size > 0) {
      const last = back === 0 ? capacity - 1 : back - 1;
      if (!((values[last] as number) <= signed)) break;
      back = last;
      size -= 1;
    }
    positions[back] = position;
    values[back] = signed;
    this.front = front;
    this.size = size + 1;
  }
}

/**
 * The highest high and the lowest low of the last `period` bars (the stochastic's and the Donchian
 * channel's window), fed a bar or a block of bars at a time.
 */
export class HighLowWindow {
  private readonly period: number;
  private readonly highs: RollingExtreme;
  private readonly lows: RollingExtreme;
  /** pushBlock's answer: its columns grown to the largest block. */
  private readonly block = { highest: new Float64Array(0), lowest: new Float64Array(0), firstFull: 0 };

  constructor(period: number) {
    this.period = period;
    this.highs = new RollingExtreme({ capacity: period, kind: 'maximum' });
    this.lows = new RollingExtreme({ capacity: period, kind: 'minimum' });
  }

  /** True once `period` bars have been pushed. */
  get full(): boolean {
    return this.highs.full;
  }

  get highest(): number {
    return this.highs.value;
  }

  get lowest(): number {
    return this.lows.value;
  }

  push(high: number, low: number): void {
    this.highs.push(high);
    this.lows.push(low);
  }

  /**
   * Pushes bars from .. to - 1 of the columns (pushColumn: the same values and state as bar by
   * bar): bar i's extremes at `highest[i - from]` and `lowest[i - from]`; the window is full from
   * bar `firstFull` on.
   */
  pushBlock(bars: { readonly high: Float64Array; readonly low: Float64Array }, range: { readonly from: number; readonly to: number }): { readonly highest: Float64Array; readonly lowest: Float64Array; readonly firstFull: number } {
    const block = this.block;
    const size = range.to - range.from;
    if (block.highest.length < size) {
      block.highest = new Float64Array(size);
      block.lowest = new Float64Array(size);
    }
    block.firstFull = range.from + this.period - 1 - this.highs.count;
    this.highs.pushColumn(bars.high, range, { values: block.highest, offset: range.from });
    this.lows.pushColumn(bars.low, range, { values: block.lowest, offset: range.from });
    return block;
  }
}
