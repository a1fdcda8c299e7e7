import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { firstAtOrAfter } from './sorted-search';

describe('firstAtOrAfter', () => {
  it('is the first index in the range at or after the target, as a scan finds it', () => {
    const increasing = fc.array(fc.integer({ min: 1, max: 50 }), { minLength: 1, maxLength: 3_000 }).map((gaps) => {
      let value = 0;
      return Float64Array.from(gaps, (gap) => (value += gap));
    });
    fc.assert(fc.property(increasing, fc.tuple(fc.nat(), fc.nat()), fc.integer({ min: -10, max: 80_000 }), (values, [a, b], target) => {
      const from = a % (values.length + 1);
      const to = from + (b % (values.length - from + 1));
      let expected = from;
      while (expected < to && (values[expected] as number) < target) expected += 1;
      expect(firstAtOrAfter(values, { from, to, target })).toBe(expected);
    }), { numRuns: 3_000 });
  });

  it('finds every position of a day boundary, on a probe of the gallop or between two', () => {
    const values = Float64Array.from({ length: 600 }, (_unused, index) => index);
    for (let boundary = 0; boundary <= 600; boundary += 1) {
      expect(firstAtOrAfter(values, { from: 0, to: 600, target: boundary })).toBe(boundary);
      expect(firstAtOrAfter(values, { from: 5, to: 600, target: boundary - 0.5 })).toBe(Math.max(5, boundary));
    }
  });
});
