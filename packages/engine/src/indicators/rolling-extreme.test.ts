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

  it('pushColumn writes what push and value give, block after block, and leaves the same state', () => {
    // Values from a few levels (ties), zeros, NaN and infinities among them in some cases (the push-by-push path).
    const value = fc.oneof(
      { weight: 12, arbitrary: fc.integer({ min: 1, max: 40 }).map((paise) => paise / 4) },
      { weight: 1, arbitrary: fc.constantFrom(0, -0, -2.5, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY) },
    );
    fc.assert(
      fc.property(
        fc.record({ capacity: fc.integer({ min: 1, max: 40 }), kind: fc.constantFrom<'maximum' | 'minimum'>('maximum', 'minimum') }),
        fc.array(value, { maxLength: 240 }),
        fc.array(fc.integer({ min: 1, max: 50 }), { minLength: 1, maxLength: 5 }),
        ({ capacity, kind }, list, sizes) => {
          const values = Float64Array.from(list);
          const single = new RollingExtreme({ capacity, kind });
          const expected = list.map((item) => {
            single.push(item);
            return single.value;
          });
          const blocked = new RollingExtreme({ capacity, kind });
          const written = new Float64Array(values.length);
          for (let from = 0, block = 0; from < values.length; block += 1) {
            const to = Math.min(values.length, from + (sizes[block % sizes.length] as number));
            const out = new Float64Array(to - from);
            blocked.pushColumn(values, { from, to }, { values: out, offset: from });
            written.set(out, from);
            from = to;
          }
          expect(Array.from(written)).toEqual(expected);
          expect(blocked.count).toBe(single.count);
          // The same state after: the next pushes give the same extremes.
          for (const next of [3, 9, 1, 7, 2, 8, 4]) {
            single.push(next);
            blocked.push(next);
            expect(blocked.value).toBe(single.value);
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it('pushColumn after pushes from elsewhere pushes one value at a time (the column is not their record)', () => {
    const values = Float64Array.from([5, 1, 1, 1, 1, 1]);
    const maximum = new RollingExtreme({ capacity: 3, kind: 'maximum' });
    maximum.push(9);
    const out = new Float64Array(5);
    // Four pushes so far would make bar 4 the fifth: the count (1) says otherwise, so 9 and 5 still count.
    maximum.pushColumn(values, { from: 0, to: 5 }, { values: out, offset: 0 });
    expect(Array.from(out)).toEqual([9, 9, 5, 1, 1]);
  });

  it('is NaN before the first push', () => {
    expect(new RollingExtreme({ capacity: 3, kind: 'maximum' }).value).toBeNaN();
  });
});
