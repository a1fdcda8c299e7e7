// Test support (not exported): seeded random-walk bars with realistic OHLC, and a relative comparison.
import { createRng } from '@vyuha/core';
import type { IndicatorBar } from './indicator';

export interface RandomBarsOptions {
  readonly count: number;
  readonly seed: string;
  /** Round prices to whole paise (the normal case); false leaves them as arbitrary doubles. */
  readonly paise?: boolean;
  readonly start?: number;
}

const MINUTE = 60_000;
/** 2024-01-01 09:15 IST. */
const FIRST_BAR = Date.UTC(2024, 0, 1, 3, 45);
const BARS_PER_DAY = 375;

/** 1-minute bars from 09:15 IST, 375 a day, a random walk: high >= max(open, close), low <= min(open, close). */
export function randomBars(options: RandomBarsOptions): IndicatorBar[] {
  const rng = createRng(options.seed);
  const round = options.paise === false ? (x: number): number => x : (x: number): number => Math.round(x * 100) / 100;
  const bars: IndicatorBar[] = [];
  let close = options.start ?? 20_000;
  for (let index = 0; index < options.count; index += 1) {
    const day = Math.floor(index / BARS_PER_DAY);
    const time = FIRST_BAR + day * 86_400_000 + (index % BARS_PER_DAY) * MINUTE;
    const open = round(close * (1 + 0.0005 * rng.normal()));
    const next = round(open * (1 + 0.001 * rng.normal()));
    const high = round(Math.max(open, next) * (1 + 0.0005 * Math.abs(rng.normal())));
    const low = round(Math.min(open, next) * (1 - 0.0005 * Math.abs(rng.normal())));
    bars.push({ time, open, high: Math.max(high, open, next), low: Math.min(low, open, next), close: next, volume: 1 + Math.floor(rng.next() * 10_000) });
    close = next;
  }
  return bars;
}

/** True when a and b agree to `relative` of the larger magnitude (or of 1, so values near zero compare absolutely). */
export function agrees(a: number, b: number, relative = 1e-9): boolean {
  return Math.abs(a - b) <= relative * Math.max(Math.abs(a), Math.abs(b), 1);
}
