import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { EXACT_BELOW, TO_INTEGER } from './to-integer';

const nearest = (x: number): number => x + TO_INTEGER - TO_INTEGER;

describe('TO_INTEGER', () => {
  it('rounds below EXACT_BELOW to the nearest whole number, ties to even, and as Math.round wherever there is no tie', () => {
    const check = (x: number): void => {
      const rounded = nearest(x);
      const floor = Math.floor(x);
      const tie = x - floor === 0.5;
      const expected = tie ? (floor % 2 === 0 ? floor : floor + 1) : Math.round(x);
      // Signed zeros aside (the callers add 0 or only test the value): the same whole number.
      expect([x, rounded === expected]).toEqual([x, true]);
    };
    for (const x of [0, -0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.49999999999999994, -0.49999999999999994, EXACT_BELOW - 0.5, -EXACT_BELOW + 0.5, EXACT_BELOW - 1, 2200050.0000000005, 1.005 * 100, 0.1 * 3 * 100]) check(x);
    fc.assert(fc.property(fc.oneof(fc.double({ min: -EXACT_BELOW + 1, max: EXACT_BELOW - 1, noNaN: true }), fc.double({ min: -1e6, max: 1e6, noNaN: true }), fc.integer().map((n) => n / 2)), check), { numRuns: 50_000 });
  });

  it('gives the paise of every price on the grid, as Math.round does', () => {
    // One expect for the whole range: 857,000 expects took over 5 s on a loaded CI machine.
    const differing: number[] = [];
    for (let paise = -3_000_000; paise <= 3_000_000; paise += 7) {
      const scaled = (paise / 100) * 100;
      if (nearest(scaled) !== Math.round(scaled)) differing.push(paise);
    }
    expect(differing).toEqual([]);
  });
});
