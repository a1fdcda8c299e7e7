// A search over a strictly increasing column (bar times) for the kernel's skips: where the day
// ends, a few hundred bars on however far the skip may go.

/**
 * The first index in [search.from, search.to) whose value is >= `search.target` in `values`
 * (increasing), or `to` when none is. It gallops out from `from` (1, 2, 4 ... bars on: a handful
 * of nearby reads) and then halves what is left, so an answer near `from` costs reads near `from`,
 * not reads spread over the whole range (each a cache miss on a long series). The target comes in
 * the object, not as an argument: a time is a double beyond V8's small integers, and a double
 * passed to a call V8 does not inline is a new heap number (the kernel searches once a day).
 * @example firstAtOrAfter(Float64Array.of(1, 2, 3, 4), { from: 0, to: 4, target: 3 }) // 2
 */
export function firstAtOrAfter(values: Float64Array, search: { readonly from: number; readonly to: number; readonly target: number }): number {
  const target = search.target;
  let low = search.from;
  let high = search.to;
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
