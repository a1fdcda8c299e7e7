import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { larger, positivePart, positivePartIf } from './branchless';

const SPECIAL = [0, -0, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, Number.MIN_VALUE, -Number.MIN_VALUE, Number.MAX_VALUE, -Number.MAX_VALUE, 1, -1, 0.1];
const anyDouble = fc.oneof(fc.double(), fc.constantFrom(...SPECIAL));

describe('branchless selections', () => {
  it('equal their branching forms for every double, signed zeros and NaN included', () => {
    fc.assert(fc.property(anyDouble, anyDouble, fc.boolean(), (a, b, also) => {
      expect(Object.is(larger(a, b), Math.max(a, b))).toBe(true);
      expect(Object.is(positivePart(a), a > 0 ? a : 0)).toBe(true);
      expect(Object.is(positivePartIf(a, also), a > 0 && also ? a : 0)).toBe(true);
    }), { numRuns: 20_000 });
    for (const a of SPECIAL) {
      for (const b of SPECIAL) {
        expect([a, b, Object.is(larger(a, b), Math.max(a, b))]).toEqual([a, b, true]);
        expect([a, b, Object.is(positivePartIf(a, b > 0), a > 0 && b > 0 ? a : 0)]).toEqual([a, b, true]);
      }
    }
  });
});
