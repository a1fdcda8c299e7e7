import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { roundHalfUp } from './round-half-up';

const EDGES = [
  0, -0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.49999999999999994, -0.49999999999999994, 4503599627370495.5, -4503599627370495.5,
  2 ** 51 - 0.5, -(2 ** 51) + 0.5, 2 ** 51, 2 ** 52, 2 ** 53, Number.MAX_SAFE_INTEGER, Number.MAX_VALUE, Number.MIN_VALUE, -Number.MIN_VALUE,
  Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 2200050.0000000005, 1.005 * 100, 0.1 * 3 * 100,
];

describe('roundHalfUp', () => {
  it('is Math.round bit for bit: ties, signed zeros, NaN, infinities and huge magnitudes', () => {
    for (const value of EDGES) expect([value, Object.is(roundHalfUp(value), Math.round(value))]).toEqual([value, true]);
    fc.assert(fc.property(fc.oneof(fc.double(), fc.double({ min: -1e6, max: 1e6 }), fc.integer().map((n) => n / 2), fc.integer().map((n) => n / 100 * 100)), (value) => {
      expect(Object.is(roundHalfUp(value), Math.round(value))).toBe(true);
    }), { numRuns: 50_000 });
  });

  it('rounds prices times 100 as Math.round does (what the callers pass)', () => {
    for (let paise = -300_000; paise <= 300_000; paise += 7) {
      const scaled = (paise / 100) * 100;
      expect(roundHalfUp(scaled)).toBe(Math.round(scaled));
      expect(roundHalfUp(scaled + 0.5)).toBe(Math.round(scaled + 0.5));
    }
  });
});
