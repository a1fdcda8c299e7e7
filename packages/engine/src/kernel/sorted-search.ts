// A search over a strictly increasing column (bar times) for the kernel's skips: where the day
// ends, a few hundred bars on however far the skip may go.

/**
 * The first index in [range.from, range.to) whose value is >= `target` in `values` (increasing), or `to` when
 * none is. It gallops out from `from` (1, 2, 4 ... bars on: a handful of nearby reads) and then
 * halves what is left, so an answer near `from` costs reads near `from`, not reads spread over the
 * whole range (each a cache miss on a long series).
 * @example firstAtOrAfter(Float64Array.of(1, 2, 3, 4), 3, { from: 0, to: 4 }) // 2
 */
export function firstAtOrAfter(values: Float64Array, target: number, range: { readonly from: number; readonly to: number }): number {
  let low = range.from;
  let high = range.to;
  for (let step = 1; low + step < high; step *= 2) {
    if ((values[low + step] as number) >= target) {
      high = low + step;
      break;
    }
    // Every value up to low + step is below the target.
    low += step;
  }
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((values[middle] as number) < target) low = middle + 1;
    else high = middle;
  }
  return low;
}
