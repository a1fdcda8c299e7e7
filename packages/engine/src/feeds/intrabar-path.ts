// The simulated market's ticks inside one bar: a bar's price path sampled at `steps` even
// instants (every second of a minute bar), seeded, so the same seed always gives the same path.
// The path keeps the bar exact: it starts at the open, ends at the close, is pinned to the low and
// the high at two instants in the order of the one tick path (execution/tick-path.ts: low first
// when the bar closed at or above its open), and never leaves [low, high]. So the candle builder, fed
// these ticks, gives back the bar itself. Between those four points the price moves on a
// straight line plus noise from the Rng, rounded to the price tick.
import type { Rng } from '@vyuha/core';
import type { CandlePrices } from '../execution/tick-path';

export interface IntrabarPathOptions {
  /** Ticks in the bar, at least 4 (60 for one a second in a minute). */
  readonly steps: number;
  /** The price grid, in the bar's unit (5 paise for an index). */
  readonly tick: number;
  readonly rng: Rng;
}

/** Share of the bar's range the noise may add either side of the straight line. */
const NOISE_SHARE = 0.35;

/**
 * Writes the bar's path into `out[0..steps-1]`.
 * @example intrabarPath({ open: 100, high: 120, low: 90, close: 110 }, { steps: 60, tick: 5, rng }, out) // out[0] 100, out[59] 110
 */
export function intrabarPath(bar: CandlePrices, options: IntrabarPathOptions, out: Float64Array): void {
  const { steps, tick, rng } = options;
  if (!Number.isInteger(steps) || steps < 4 || out.length < steps) throw new RangeError(`steps must be a whole number from 4 to out.length (${out.length}), got ${steps}`);
  const rising = bar.close >= bar.open;
  const last = steps - 1;
  // The first extreme in the first half, the second in the second half, never on the open or close.
  const half = Math.floor(last / 2);
  const first = 1 + Math.floor(rng.next() * (half - 1 > 0 ? half - 1 : 1));
  const second = half + Math.floor(rng.next() * (last - half > 1 ? last - half : 1));
  const anchors = [
    [0, bar.open],
    [Math.min(first, last - 2), rising ? bar.low : bar.high],
    [Math.max(Math.min(second, last - 1), Math.min(first, last - 2) + 1), rising ? bar.high : bar.low],
    [last, bar.close],
  ] as const;
  const noise = (bar.high - bar.low) * NOISE_SHARE;
  for (let segment = 0; segment < 3; segment += 1) {
    const [fromStep, fromPrice] = anchors[segment]!;
    const [toStep, toPrice] = anchors[segment + 1]!;
    out[fromStep] = fromPrice;
    for (let step = fromStep + 1; step < toStep; step += 1) {
      const share = (step - fromStep) / (toStep - fromStep);
      const line = fromPrice + (toPrice - fromPrice) * share;
      const price = Math.round((line + (rng.next() - 0.5) * 2 * noise) / tick) * tick;
      out[step] = price < bar.low ? bar.low : price > bar.high ? bar.high : price;
    }
  }
  out[last] = bar.close;
}
