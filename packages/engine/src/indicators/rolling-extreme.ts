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

  constructor(options: { readonly capacity: number; readonly kind: 'maximum' | 'minimum' }) {
    if (!Number.isInteger(options.capacity) || options.capacity < 1) throw new RangeError(`RollingExtreme capacity must be a whole number >= 1, got ${options.capacity}`);
    this.capacity = options.capacity;
    // A minimum is the maximum of the negated values; store the sign, not two code paths.
    this.sign = options.kind === 'maximum' ? 1 : -1;
    this.positions = new Float64Array(options.capacity);
    this.values = new Float64Array(options.capacity);
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

  push(value: number): void {
    const signed = this.sign * value;
    const position = this.pushed;
    this.pushed += 1;
    // Drop first the position that slides out of the window, so the ring never overflows.
    if (this.size > 0 && (this.positions[this.front] as number) <= position - this.capacity) {
      this.front = this.front + 1 === this.capacity ? 0 : this.front + 1;
      this.size -= 1;
    }
    // Drop from the back every value that the new one dominates (ties: the newer one lives longer).
    while (this.size > 0 && (this.values[this.slot(this.size - 1)] as number) <= signed) this.size -= 1;
    const back = this.slot(this.size);
    this.positions[back] = position;
    this.values[back] = signed;
    this.size += 1;
  }

  private slot(offset: number): number {
    const index = this.front + offset;
    return index >= this.capacity ? index - this.capacity : index;
  }
}
