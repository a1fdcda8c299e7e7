import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { black76Price } from '../options/black76';
import { relativeHalfSpread, SYNTHETIC_RATE, syntheticOptionQuote } from './option-quote';
import type { SyntheticOptionQuoteInput } from './option-quote';
import { syntheticAtmVolatility, syntheticImpliedVolatility } from './volatility-surface';

// Thursday 23-Jan-2025, 09:30 IST (04:00 UTC); NIFTY monthly expiry Thursday 30-Jan-2025.
const AT = Date.UTC(2025, 0, 23, 4, 0);
const EXPIRY = '2025-01-30';
const YEARS = (Date.UTC(2025, 0, 30, 10, 0) - AT) / (365 * 86_400_000);
const BASE: SyntheticOptionQuoteInput = { spot: 23_150, vix: 16, strike: 23_150, expiry: EXPIRY, at: AT, type: 'CE' };

function quote(overrides: Partial<SyntheticOptionQuoteInput>): ReturnType<typeof syntheticOptionQuote> {
  return syntheticOptionQuote({ ...BASE, ...overrides });
}

describe('synthetic volatility surface', () => {
  it('puts the 30-day at-the-money vol a little under VIX', () => {
    expect(syntheticAtmVolatility(20, 30 / 365)).toBeCloseTo(0.184, 6);
    expect(syntheticAtmVolatility(12, 30 / 365)).toBeCloseTo(0.1104, 6);
  });

  it('makes short expiries richer in a high-vol regime and keeps the curve flat in a calm one', () => {
    expect(syntheticAtmVolatility(40, 3 / 365)).toBeGreaterThan(syntheticAtmVolatility(40, 30 / 365));
    expect(syntheticAtmVolatility(40, 30 / 365)).toBeGreaterThan(syntheticAtmVolatility(40, 180 / 365));
    expect(syntheticAtmVolatility(12, 3 / 365)).toBe(syntheticAtmVolatility(12, 180 / 365));
  });

  it('skews towards puts: a strike below the forward has a higher vol than one equally far above', () => {
    fc.assert(
      fc.property(fc.double({ min: 8, max: 80, noNaN: true }), fc.double({ min: 1 / 365, max: 1, noNaN: true }), fc.double({ min: 0.005, max: 0.3, noNaN: true }), (vix, years, distance) => {
        expect(syntheticImpliedVolatility({ vix, years, logMoneyness: -distance })).toBeGreaterThan(syntheticImpliedVolatility({ vix, years, logMoneyness: distance }));
      }),
    );
  });
});

describe('syntheticOptionQuote', () => {
  it('prices the mid through Black-76 on the forward with the iv it reports', () => {
    const call = quote({ strike: 23_300 });
    const forward = 23_150 * Math.exp(SYNTHETIC_RATE * YEARS);
    const expected = black76Price({ forward, strike: 23_300, years: YEARS, vol: call.iv, rate: SYNTHETIC_RATE, type: 'call' });
    expect(call.mid).toBe(Math.round((expected * 100) / 5) * 5);
    expect(call.iv).toBe(syntheticImpliedVolatility({ vix: 16, years: YEARS, logMoneyness: Math.log(23_300 / forward) }));
    expect(call.source).toBe('synthetic');
  });

  it('keeps put-call parity on mids within two ticks: C - P = S - K e^(-rt)', () => {
    for (const strike of [21_000, 22_500, 23_000, 23_150, 23_300, 24_000, 25_500]) {
      for (const at of [AT, Date.UTC(2025, 0, 30, 8, 0), Date.UTC(2024, 11, 2, 4, 0)]) {
        const years = (Date.UTC(2025, 0, 30, 10, 0) - at) / (365 * 86_400_000);
        const call = quote({ strike, at, type: 'CE' });
        const put = quote({ strike, at, type: 'PE' });
        const parityPaise = (23_150 - strike * Math.exp(-SYNTHETIC_RATE * years)) * 100;
        expect(Math.abs(call.mid - put.mid - parityPaise), `strike ${strike} at ${new Date(at).toISOString()}`).toBeLessThanOrEqual(10);
      }
    }
  });

  it('quotes on the 0.05 tick, never below it, with bid <= mid < ask, for any contract', () => {
    fc.assert(
      fc.property(
        fc.record({
          spot: fc.double({ min: 5_000, max: 90_000, noNaN: true }),
          vix: fc.double({ min: 8, max: 90, noNaN: true }),
          strikeRatio: fc.double({ min: 0.5, max: 1.5, noNaN: true }),
          minutesToExpiry: fc.integer({ min: -60, max: 120 * 24 * 60 }),
          type: fc.constantFrom('CE' as const, 'PE' as const),
        }),
        ({ spot, vix, strikeRatio, minutesToExpiry, type }) => {
          const strike = Math.round((spot * strikeRatio) / 50) * 50;
          const result = syntheticOptionQuote({ spot, vix, strike, expiry: EXPIRY, at: Date.UTC(2025, 0, 30, 10, 0) - minutesToExpiry * 60_000, type });
          for (const price of [result.bid, result.mid, result.ask]) {
            expect(Number.isInteger(price) && price % 5 === 0 && price >= 5).toBe(true);
          }
          expect(result.bid).toBeLessThanOrEqual(result.mid);
          expect(result.ask).toBeGreaterThan(result.mid);
          expect(result.iv).toBeGreaterThan(0);
        },
      ),
    );
  });

  it('widens the relative spread for far out-of-the-money and near-expiry contracts', () => {
    expect(relativeHalfSpread(3, 30)).toBeGreaterThan(relativeHalfSpread(0, 30));
    expect(relativeHalfSpread(0, 0.5)).toBeGreaterThan(relativeHalfSpread(0, 30));
    const far = Date.UTC(2024, 11, 2, 4, 0);
    const atTheMoney = quote({ at: far, strike: 23_150 });
    const outOfTheMoney = quote({ at: far, strike: 24_500 });
    const relative = (q: { bid: number; ask: number; mid: number }): number => (q.ask - q.bid) / q.mid;
    expect(relative(outOfTheMoney)).toBeGreaterThan(relative(atTheMoney));
    expect(relative(quote({ at: Date.UTC(2025, 0, 30, 8, 0) }))).toBeGreaterThan(relative(atTheMoney));
  });

  it('is a pure function: the same request gives the same quote', () => {
    expect(quote({ strike: 22_900, type: 'PE' })).toEqual(quote({ strike: 22_900, type: 'PE' }));
  });

  it('gives intrinsic value (at least a tick) after the expiry close', () => {
    const after = Date.UTC(2025, 0, 30, 10, 1);
    expect(quote({ at: after, strike: 23_000, type: 'CE' }).mid).toBe(15_000);
    expect(quote({ at: after, strike: 23_000, type: 'PE' }).mid).toBe(5);
  });

  it('names the field of a bad input', () => {
    expect(() => quote({ expiry: '2025-02-30' })).toThrow(/expiry/);
    expect(() => quote({ expiry: '30-01-2025' })).toThrow(/expiry/);
    expect(() => quote({ spot: -1 })).toThrow(/spot/);
    expect(() => quote({ vix: Number.NaN })).toThrow(/vix/);
    expect(() => quote({ type: 'XX' as 'CE' })).toThrow(/type/);
    expect(() => quote({ at: Number.POSITIVE_INFINITY })).toThrow(/at/);
  });
});
