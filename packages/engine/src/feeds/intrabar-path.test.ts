// The simulated market's second-by-second path keeps its minute bar exact (open first, close
// last, low and high reached, nothing outside them, every price on the tick) and is the same for
// the same seed.
import { createRng } from '@vyuha/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { intrabarPath } from './intrabar-path';

const barArbitrary = fc.record({
  open: fc.integer({ min: 1, max: 1_000_000 }), close: fc.integer({ min: 1, max: 1_000_000 }),
  up: fc.integer({ min: 0, max: 2_000 }), down: fc.integer({ min: 0, max: 2_000 }),
}).map(({ open, close, up, down }) => {
  const tick = 5;
  const o = open * tick;
  const c = close * tick;
  return { open: o, close: c, high: Math.max(o, c) + up * tick, low: Math.max(tick, Math.min(o, c) - down * tick) };
});

describe('intrabarPath', () => {
  it('starts at the open, ends at the close, reaches the low and the high, stays inside them on the tick (property)', () => {
    fc.assert(fc.property(barArbitrary, fc.integer({ min: 4, max: 120 }), fc.string(), (bar, steps, seed) => {
      const out = new Float64Array(steps);
      intrabarPath(bar, { steps, tick: 5, rng: createRng(seed) }, out);
      expect(out[0]).toBe(bar.open);
      expect(out[steps - 1]).toBe(bar.close);
      expect(Math.min(...out)).toBe(bar.low);
      expect(Math.max(...out)).toBe(bar.high);
      expect(out.every((price) => price % 5 === 0)).toBe(true);
    }), { numRuns: 300 });
  });

  it('reaches the low before the high in a bar that closed up, the high first in one that closed down', () => {
    const rising = new Float64Array(60);
    intrabarPath({ open: 100, high: 200, low: 50, close: 150 }, { steps: 60, tick: 5, rng: createRng('a') }, rising);
    expect(rising.indexOf(50)).toBeLessThan(rising.lastIndexOf(200));
    const falling = new Float64Array(60);
    intrabarPath({ open: 150, high: 200, low: 50, close: 100 }, { steps: 60, tick: 5, rng: createRng('a') }, falling);
    expect(falling.indexOf(200)).toBeLessThan(falling.lastIndexOf(50));
  });

  it('is the same path for the same seed and another for another seed', () => {
    const bar = { open: 2_400_000, high: 2_401_500, low: 2_398_000, close: 2_400_500 };
    const path = (seed: string): number[] => {
      const out = new Float64Array(60);
      intrabarPath(bar, { steps: 60, tick: 5, rng: createRng(seed) }, out);
      return [...out];
    };
    expect(path('NIFTY 50/2026-11-25/600')).toEqual(path('NIFTY 50/2026-11-25/600'));
    expect(path('NIFTY 50/2026-11-25/600')).not.toEqual(path('NIFTY 50/2026-11-25/601'));
  });

  it('refuses fewer than 4 steps', () => {
    expect(() => intrabarPath({ open: 1, high: 1, low: 1, close: 1 }, { steps: 3, tick: 5, rng: createRng(1) }, new Float64Array(3))).toThrow(/steps must be a whole number from 4/);
  });
});
