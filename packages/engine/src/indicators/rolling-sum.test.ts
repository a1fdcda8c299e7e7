import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { createRng } from '@vyuha/core';
import { RollingSum, compensatedSum } from './rolling-sum';

/** The exact mean of a window of paise, from scratch: BigInt sum, converted once, divided once. */
function exactMean(paise: readonly number[]): number {
  let total = 0n;
  for (const value of paise) total += BigInt(value);
  return Number(total) / (paise.length * 100);
}

function ulp(value: number): number {
  const magnitude = Math.abs(value);
  if (magnitude === 0) return Number.MIN_VALUE;
  return 2 ** (Math.floor(Math.log2(magnitude)) - 52);
}

describe('RollingSum on the paise grid', () => {
  it('gives the exact BigInt mean bit for bit after 100k random updates', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 400 }), fc.string({ minLength: 1, maxLength: 8 }), (capacity, seed) => {
        const rng = createRng(seed);
        const window = new RollingSum(capacity);
        const paise: number[] = [];
        for (let step = 0; step < 100_000; step += 1) {
          // Prices up to 10 lakh rupees, either sign, sometimes tiny: all whole paise.
          const value = Math.floor((rng.next() - 0.5) * 2 * 10 ** (2 + rng.next() * 6));
          window.push(value / 100);
          paise.push(value);
          if (paise.length > capacity) paise.shift();
          if (step % 997 === 0 || step > 99_900) {
            expect(window.exact).toBe(true);
            expect(Object.is(window.mean(), exactMean(paise))).toBe(true);
          }
        }
        expect(window.mean()).toBe(exactMean(paise));
      }),
      { numRuns: 4 },
    );
  });

  it('makes equal true means equal doubles (ties decide as in the textbook)', () => {
    // 0.1 + 0.2 + 0.3 in floats is 0.6000000000000001; 0.3 + 0.2 + 0.1 is 0.6.
    const forwards = new RollingSum(3);
    const backwards = new RollingSum(3);
    for (const value of [0.1, 0.2, 0.3]) forwards.push(value);
    for (const value of [0.3, 0.2, 0.1]) backwards.push(value);
    expect(forwards.mean()).toBe(backwards.mean());
    expect(forwards.mean()).toBe(0.2);
    expect(forwards.sum()).toBe(0.6);
  });

  it('returns to the exact sum once off-grid values have left the window', () => {
    const window = new RollingSum(3);
    for (const value of [1 / 3, Number.NaN, 2.5, 0.1, 0.2, 0.3]) window.push(value);
    expect(window.exact).toBe(true);
    expect(window.mean()).toBe(0.2);
    window.push(Math.PI);
    expect(window.exact).toBe(false);
    expect(window.sum()).toBeCloseTo(0.5 + Math.PI, 14);
  });

  it('recovers from NaN once it leaves the window', () => {
    const window = new RollingSum(2);
    window.push(Number.NaN);
    expect(window.mean()).toBeNaN();
    window.push(0.5);
    window.push(1.5);
    expect(window.mean()).toBe(1);
  });

  it('rejects a capacity that is not a whole number >= 1', () => {
    expect(() => new RollingSum(0)).toThrow(/capacity/);
    expect(() => new RollingSum(2.5)).toThrow(/capacity/);
  });
});

describe('RollingSum moving between the paise grid and arbitrary doubles', () => {
  it('is exact whenever the window is all paise and close to a fresh compensated sum otherwise', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 50 }), fc.string({ minLength: 1, maxLength: 8 }), fc.double({ min: 0, max: 0.5, noNaN: true }), (capacity, seed, offGridShare) => {
        const rng = createRng(seed);
        const window = new RollingSum(capacity);
        const values: number[] = [];
        const paise: (number | undefined)[] = [];
        for (let step = 0; step < 10_000; step += 1) {
          const whole = Math.floor((rng.next() - 0.5) * 4_000_000);
          // Off-grid values (as from an EMA fed in) now and then among whole-paise prices.
          const offGrid = rng.next() < offGridShare;
          const value = offGrid ? whole / 100 + rng.next() * 1e-3 + 1e-7 : whole / 100;
          window.push(value);
          values.push(value);
          paise.push(offGrid ? undefined : whole);
          if (values.length > capacity) {
            values.shift();
            paise.shift();
          }
          const allGrid = paise.every((item) => item !== undefined);
          // Plain checks per step (expect() on every step would dominate the run time).
          if (window.exact !== allGrid) expect.fail(`step ${step}: exact ${window.exact}, all on grid ${allGrid}`);
          const good = allGrid
            ? window.mean() === exactMean(paise as number[])
            : Math.abs(window.sum() - compensatedSum(values)) <= 4 * ulp(2e4 * capacity);
          if (!good) expect.fail(`step ${step}: sum ${window.sum()} vs ${compensatedSum(values)}`);
        }
      }),
      { numRuns: 12 },
    );
  });
});

describe('RollingSum on arbitrary doubles', () => {
  it('does not drift: after 1M updates it is within a few ulps of a fresh compensated sum', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 300 }), fc.string({ minLength: 1, maxLength: 8 }), (capacity, seed) => {
        const rng = createRng(seed);
        const window = new RollingSum(capacity);
        const ring = new Float64Array(capacity);
        for (let step = 0; step < 1_000_000; step += 1) {
          // Magnitudes from 1e-3 to 1e6, both signs: cancellation is common.
          const value = rng.normal() * 10 ** (rng.next() * 9 - 3);
          window.push(value);
          ring[step % capacity] = value;
        }
        const reference = compensatedSum(ring);
        let magnitude = 0;
        for (const value of ring) magnitude += Math.abs(value);
        // A few ulps of the result, or of the terms' scale times epsilon when they cancel.
        const tolerance = 4 * Math.max(ulp(reference), Number.EPSILON * ulp(magnitude));
        expect(Math.abs(window.sum() - reference)).toBeLessThanOrEqual(tolerance);
        expect(window.exact).toBe(false);
      }),
      { numRuns: 3 },
    );
  });

  it('is what a naive running sum is not: exact after a huge value has passed through', () => {
    const window = new RollingSum(2);
    let naive = 0;
    const values = [1e17, 0.25, 0.5];
    values.forEach((value, index) => {
      window.push(value);
      naive += value - (index >= 2 ? (values[index - 2] as number) : 0);
    });
    expect(window.sum()).toBe(0.75);
    expect(naive).not.toBe(0.75);
  });
});

describe('RollingSum.pushColumn', () => {
  it('writes what push then mean (or sum) give, bit for bit, and leaves the same state, over any blocks', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 30 }), fc.string({ minLength: 1, maxLength: 6 }), fc.constantFrom<'mean' | 'sum'>('mean', 'sum'), (capacity, seed, kind) => {
      const rng = createRng(seed);
      // Runs of paise, of arbitrary doubles, a NaN now and then, and a magnitude too large for the grid.
      const values = Float64Array.from({ length: 600 }, (_, index) => {
        const draw = rng.next();
        if (index % 150 < 50) return Math.round((rng.next() - 0.5) * 1e6) / 100;
        if (draw < 0.02) return Number.NaN;
        if (draw < 0.04) return 1e15 * (rng.next() - 0.5);
        return draw < 0.5 ? Math.round(rng.next() * 1e5) / 100 : (rng.next() - 0.5) * 1e3;
      });
      const streamed = new RollingSum(capacity);
      const expected = Array.from(values, (value) => {
        streamed.push(value);
        return kind === 'sum' ? streamed.sum() : streamed.mean();
      });
      const blocked = new RollingSum(capacity);
      const out = new Float64Array(values.length + 7);
      for (let from = 0, size = 1; from < values.length; from += size, size = (size * 5) % 47 + 1) {
        blocked.pushColumn(values, { from, to: Math.min(values.length, from + size) }, { values: out, offset: -7, kind });
      }
      expect(Array.from(out.subarray(7))).toEqual(expected);
      for (const value of [0.1, 1 / 3, 0.2, 0.3, 5]) {
        blocked.push(value);
        streamed.push(value);
        expect([blocked.mean(), blocked.exact, blocked.count]).toEqual([streamed.mean(), streamed.exact, streamed.count]);
      }
    }), { numRuns: 150 });
  });

  it('may be mixed with push in any order: the same figures as pushing every value', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 12 }), fc.string({ minLength: 1, maxLength: 6 }), (capacity, seed) => {
      const rng = createRng(seed);
      // Mostly on the grid, with off-grid values coming and leaving (the compensated pair is rebuilt and dropped).
      const values = Float64Array.from({ length: 500 }, () => {
        const draw = rng.next();
        if (draw < 0.7) return Math.round((rng.next() - 0.5) * 1e5) / 100;
        return draw < 0.97 ? (rng.next() - 0.5) * 1e3 : Number.NaN;
      });
      const streamed = new RollingSum(capacity);
      const mixed = new RollingSum(capacity);
      const out = new Float64Array(values.length);
      let from = 0;
      while (from < values.length) {
        const size = 1 + Math.floor(rng.next() * 9);
        const to = Math.min(values.length, from + size);
        if (rng.next() < 0.5) mixed.pushColumn(values, { from, to }, { values: out, offset: 0, kind: 'mean' });
        else for (let index = from; index < to; index += 1) {
          mixed.push(values[index] as number);
          out[index] = mixed.mean();
        }
        for (let index = from; index < to; index += 1) streamed.push(values[index] as number);
        expect([Object.is(out[to - 1], streamed.mean()), mixed.exact, mixed.sum()]).toEqual([true, streamed.exact, streamed.sum()]);
        from = to;
      }
    }), { numRuns: 200 });
  });
});
