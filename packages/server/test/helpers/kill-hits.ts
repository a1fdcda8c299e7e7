// Which hits of a fault point the chaos tests kill at (chaos-sigkill, live-chaos-sigkill).
//
// A clean run reaches each point a handful of times (6 to 15 in the runs of those tests). Killing
// at every one of its hits covers each moment once; twenty seeded draws from so few repeated most
// of them and skipped some, for twice the kills. Only a point reached more than `limit` times is
// sampled: `limit` distinct hits, drawn by a seeded generator, so a failure names a hit that
// fails again.
import { createRng } from '@vyuha/core';

/** The hits (1-based) to kill at: all of 1..`count` when there are at most `limit`, else `limit` distinct ones drawn from `seed`, ascending. */
export function killHits(count: number, limit: number, seed: string): number[] {
  const every = Array.from({ length: count }, (_, index) => index + 1);
  if (count <= limit) return every;
  const rng = createRng(seed);
  // A partial Fisher-Yates shuffle: the first `limit` places are a uniform draw without repeats.
  for (let index = 0; index < limit; index += 1) {
    const other = index + Math.floor(rng.next() * (count - index));
    [every[index], every[other]] = [every[other] as number, every[index] as number];
  }
  return every.slice(0, limit).sort((a, b) => a - b);
}
