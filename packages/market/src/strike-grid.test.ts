import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { atmStrike, strikesAround } from './strike-grid';

describe('atmStrike', () => {
  it('rounds the spot to the nearest strike, ties up', () => {
    expect(atmStrike(24_524.9, 50)).toBe(24_500);
    expect(atmStrike(24_525, 50)).toBe(24_550);
    expect(atmStrike(51_249.99, 100)).toBe(51_200);
    expect(atmStrike(12_012.5, 25)).toBe(12_025);
  });

  it('is a multiple of the step within half a step of the spot', () => {
    fc.assert(fc.property(fc.double({ min: 1, max: 200_000, noNaN: true }), fc.constantFrom(25, 50, 100), (spot, step) => {
      const atm = atmStrike(spot, step);
      expect(atm % step).toBe(0);
      expect(Math.abs(atm - spot)).toBeLessThanOrEqual(step / 2);
    }));
  });

  it('refuses a bad spot or step', () => {
    expect(() => atmStrike(Number.NaN, 50)).toThrow('spot');
    expect(() => atmStrike(24_000, 0)).toThrow('step');
  });
});

describe('strikesAround', () => {
  it('lists count strikes either side of the ATM', () => {
    expect(strikesAround(24_510, 50, 2)).toEqual([24_400, 24_450, 24_500, 24_550, 24_600]);
    expect(strikesAround(24_510, 50, 0)).toEqual([24_500]);
    expect(strikesAround(60, 50, 3)).toEqual([50, 100, 150, 200]);
    expect(() => strikesAround(24_510, 50, -1)).toThrow('count');
  });

  it('gives an evenly spaced ascending grid centred on the ATM', () => {
    fc.assert(fc.property(fc.double({ min: 10_000, max: 100_000, noNaN: true }), fc.constantFrom(25, 50, 100), fc.integer({ min: 0, max: 40 }), (spot, step, count) => {
      const strikes = strikesAround(spot, step, count);
      expect(strikes).toHaveLength(2 * count + 1);
      expect(strikes[count]).toBe(atmStrike(spot, step));
      for (let i = 1; i < strikes.length; i += 1) expect(strikes[i]! - strikes[i - 1]!).toBe(step);
    }));
  });
});
