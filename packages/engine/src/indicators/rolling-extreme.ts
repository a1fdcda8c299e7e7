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
