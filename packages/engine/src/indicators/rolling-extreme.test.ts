import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { RollingExtreme } from './rolling-extreme';

describe('RollingExtreme', () => {
  it('equals the brute-force maximum and minimum of the window after every push', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.array(fc.integer({ min: -20, max: 20 }), { maxLength: 300 }), (capacity, values) => {
        const maximum = new RollingExtreme({ capacity, kind: 'maximum' });
        const minimum = new RollingExtreme({ capacity, kind: 'minimum' });
        values.forEach((value, index) => {
          maximum.push(value);
          minimum.push(value);
          const window = values.slice(Math.max(0, index + 1 - capacity), index + 1);
          expect(maximum.value).toBe(Math.max(...window));
          expect(minimum.value).toBe(Math.min(...window));
          expect(maximum.full).toBe(index + 1 >= capacity);
        });
      }),
      { numRuns: 300 },
    );
  });

  it('keeps a NaN until it ages out, the extreme only while it is the oldest value left', () => {
    const maximum = new RollingExtreme({ capacity: 3, kind: 'maximum' });
    const seen = [1, Number.NaN, 0, 0, 2, 1].map((value) => {
      maximum.push(value);
      return maximum.value;
    });
    expect(seen).toEqual([1, 1, 1, Number.NaN, 2, 2]);
  });

  it('is NaN before the first push', () => {
    expect(new RollingExtreme({ capacity: 3, kind: 'maximum' }).value).toBeNaN();
  });
});
