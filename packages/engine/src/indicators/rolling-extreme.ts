import { larger } from './branchless';

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
  /** Scratch of pushColumn: running extremes forwards and backwards within stretches of `capacity`. */
  private prefix = new Float64Array(0);
  private suffix = new Float64Array(0);

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
   * is checked, and a window holding a NaN or a zero (whose sign the deque's tie rule would
   * pick) is pushed one value at a time. Otherwise each full window's extreme is taken from
   * running extremes over stretches of `capacity` values (van Herk / Gil-Werman): three
   * comparisons per value and no data-dependent branch, where the deque's pops are a branch the
   * processor mispredicts about every other value.
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
   * `out`; false, with nothing kept, when a value in them is NaN or zero. Stretches of `capacity`
   * values start at from - capacity + 1: a window is the tail of one stretch (`suffix`, running
   * backwards from its end) and the head of the next (`prefix`, running forwards from its start).
   */
  private windowExtremes(values: Float64Array, range: { readonly from: number; readonly to: number }, out: { readonly values: Float64Array; readonly offset: number }): boolean {
    const { from, to } = range;
    const capacity = this.capacity;
    const sign = this.sign;
    const first = from - capacity + 1;
    const length = to - first;
    if (this.prefix.length < length) {
      this.prefix = new Float64Array(Math.max(length, this.prefix.length * 2));
      this.suffix = new Float64Array(this.prefix.length);
    }
    const prefix = this.prefix;
    const suffix = this.suffix;
    let running = 0;
    // `phase` is k % capacity, counted rather than divided.
    let phase = 0;
    for (let k = 0; k < length; k += 1) {
      const signed = sign * (values[first + k] as number);
      if (!(signed > 0 || signed < 0)) return false;
      running = phase === 0 || signed >= running ? signed : running;
      prefix[k] = running;
      phase = phase + 1 === capacity ? 0 : phase + 1;
    }
    phase = (length - 1) % capacity;
    running = sign * (values[first + length - 1] as number);
    for (let k = length - 1; k >= 0; k -= 1) {
      const signed = sign * (values[first + k] as number);
      running = phase === capacity - 1 || signed >= running ? signed : running;
      suffix[k] = running;
      phase = phase === 0 ? capacity - 1 : phase - 1;
    }
    const target = out.values;
    const shift = first - out.offset;
    for (let k = capacity - 1; k < length; k += 1) {
      const head = prefix[k] as number;
      const tail = suffix[k - capacity + 1] as number;
      target[k + shift] = sign * larger(head, tail);
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
