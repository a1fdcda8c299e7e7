import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { blackScholesPrice, blackScholesPriceAndGreeks, type BlackScholesInput } from './black-scholes';
import { OptionInputError } from './option-input';
import { centralDifference, contract, expectClose, secondDifference } from './option-test-support';

function inputOf(c: { underlying: number; moneyness: number; years: number; vol: number; rate: number; dividendYield: number; type: 'call' | 'put' }): BlackScholesInput {
  return { spot: c.underlying, strike: c.underlying * c.moneyness, years: c.years, vol: c.vol, rate: c.rate, dividendYield: c.dividendYield, type: c.type };
}

describe('Black-Scholes, Hull worked examples', () => {
  it('prices S=42, K=40, r=10%, sigma=20%, T=0.5: call 4.76, put 0.81', () => {
    const base = { spot: 42, strike: 40, years: 0.5, vol: 0.2, rate: 0.1 } as const;
    expect(blackScholesPrice({ ...base, type: 'call' })).toBeCloseTo(4.76, 2);
    expect(blackScholesPrice({ ...base, type: 'put' })).toBeCloseTo(0.81, 2);
  });

  it('gives the greeks of S=49, K=50, r=5%, sigma=20%, T=20 weeks as Hull states them', () => {
    const greeks = blackScholesPriceAndGreeks({ spot: 49, strike: 50, years: 20 / 52, vol: 0.2, rate: 0.05, type: 'call' });
    expect(greeks.price).toBeCloseTo(2.4, 2);
    expect(greeks.delta).toBeCloseTo(0.522, 3);
    expect(greeks.gamma).toBeCloseTo(0.066, 3);
    expect(greeks.theta * 365).toBeCloseTo(-4.31, 2); // Hull: -4.31 per year
    expect(greeks.vega * 100).toBeCloseTo(12.1, 1); // Hull: 12.1 per unit of vol
    expect(greeks.rho * 100).toBeCloseTo(8.91, 2); // Hull: 8.91 per unit of rate
  });

  it('gives the S=42 example greeks that equal finite differences of its own price', () => {
    const base: BlackScholesInput = { spot: 42, strike: 40, years: 0.5, vol: 0.2, rate: 0.1, type: 'call' };
    const greeks = blackScholesPriceAndGreeks(base);
    const price = (change: Partial<BlackScholesInput>) => blackScholesPrice({ ...base, ...change });
    expectClose(greeks.delta, centralDifference((spot) => price({ spot }), 42, 1e-3), 1e-7);
    expectClose(greeks.gamma, secondDifference((spot) => price({ spot }), 42, 1e-2), 1e-6);
    expectClose(greeks.theta, -centralDifference((years) => price({ years }), 0.5, 1e-5) / 365, 1e-8);
    expectClose(greeks.vega, centralDifference((vol) => price({ vol }), 0.2, 1e-5) / 100, 1e-8);
    expectClose(greeks.rho, centralDifference((rate) => price({ rate }), 0.1, 1e-5) / 100, 1e-8);
  });
});

describe('Black-Scholes properties', () => {
  it('satisfies put-call parity with a dividend yield: C - P = S e^-qT - K e^-rT', () => {
    fc.assert(fc.property(contract, (c) => {
      const input = inputOf(c);
      const call = blackScholesPrice({ ...input, type: 'call' });
      const put = blackScholesPrice({ ...input, type: 'put' });
      const parity = input.spot * Math.exp(-c.dividendYield * c.years) - input.strike * Math.exp(-c.rate * c.years);
      expectClose(call - put, parity, 1e-12 * (input.spot + input.strike));
    }));
  });

  it('has greeks equal to finite differences of the price', () => {
    fc.assert(fc.property(contract, (c) => {
      const input = inputOf(c);
      const greeks = blackScholesPriceAndGreeks(input);
      const price = (change: Partial<BlackScholesInput>) => blackScholesPrice({ ...input, ...change });
      expect(greeks.price).toBeCloseTo(blackScholesPrice(input), 12);
      // Steps scale with the width of the price's bend, S * vol * sqrt(T), so the difference error stays small.
      const width = input.spot * input.vol * Math.sqrt(input.years);
      expectClose(greeks.delta, centralDifference((spot) => price({ spot }), input.spot, 1e-4 * width), 1e-6);
      expectClose(greeks.gamma, secondDifference((spot) => price({ spot }), input.spot, 1e-2 * width), 1e-4);
      expectClose(greeks.theta, -centralDifference((years) => price({ years }), input.years, 1e-6) / 365, 1e-6);
      expectClose(greeks.vega, centralDifference((vol) => price({ vol }), input.vol, 1e-6) / 100, 1e-6);
      expectClose(greeks.rho, centralDifference((rate) => price({ rate }), input.rate, 1e-6) / 100, 1e-6);
    }));
  });

  it('rises with volatility, and moves with spot and strike the way the right says', () => {
    fc.assert(fc.property(contract, fc.double({ min: 1.0001, max: 1.5, noNaN: true }), (c, bump) => {
      const input = inputOf(c);
      const base = blackScholesPrice(input);
      const slack = 1e-12 * input.spot;
      const sign = c.type === 'call' ? 1 : -1;
      expect(blackScholesPrice({ ...input, vol: input.vol * bump })).toBeGreaterThanOrEqual(base - slack);
      expect(sign * (blackScholesPrice({ ...input, spot: input.spot * bump }) - base)).toBeGreaterThanOrEqual(-slack);
      expect(sign * (blackScholesPrice({ ...input, strike: input.strike * bump }) - base)).toBeLessThanOrEqual(slack);
    }));
  });
});

describe('Black-Scholes edge cases', () => {
  it('is the intrinsic value at expiry, with step delta and no other greeks', () => {
    const atExpiry = blackScholesPriceAndGreeks({ spot: 105, strike: 100, years: 0, vol: 0.3, rate: 0.05, type: 'call' });
    expect(atExpiry).toEqual({ price: 5, delta: 1, gamma: 0, theta: 0, vega: 0, rho: 0 });
    expect(blackScholesPrice({ spot: 105, strike: 100, years: 0, vol: 0.3, rate: 0.05, type: 'put' })).toBe(0);
    expect(blackScholesPriceAndGreeks({ spot: 100, strike: 100, years: 0, vol: 0.3, rate: 0, type: 'put' }).delta).toBe(-0.5);
  });

  it('with zero volatility is the discounted forward intrinsic value', () => {
    const input = { spot: 100, strike: 95, years: 1, vol: 0, rate: 0.05, dividendYield: 0.01, type: 'call' } as const;
    const expected = 100 * Math.exp(-0.01) - 95 * Math.exp(-0.05);
    expect(blackScholesPrice(input)).toBeCloseTo(expected, 12);
    const greeks = blackScholesPriceAndGreeks(input);
    expect(greeks.delta).toBeCloseTo(Math.exp(-0.01), 14);
    expect(greeks.gamma).toBe(0);
    expect(greeks.vega).toBe(0);
    expect(blackScholesPrice({ ...input, type: 'put' })).toBe(0);
  });

  it('rejects NaN and negative inputs, naming the field', () => {
    const good: BlackScholesInput = { spot: 100, strike: 100, years: 1, vol: 0.2, rate: 0.05, type: 'call' };
    expect(() => blackScholesPrice({ ...good, spot: Number.NaN })).toThrow(/^spot must be a positive finite number/);
    expect(() => blackScholesPrice({ ...good, strike: -1 })).toThrow(/^strike/);
    expect(() => blackScholesPrice({ ...good, years: -0.1 })).toThrow(/^years must be a finite number >= 0/);
    expect(() => blackScholesPriceAndGreeks({ ...good, vol: -0.2 })).toThrow(/^vol/);
    expect(() => blackScholesPrice({ ...good, rate: Number.NaN })).toThrow(/^rate/);
    expect(() => blackScholesPrice({ ...good, dividendYield: Number.POSITIVE_INFINITY })).toThrow(/^dividendYield/);
    expect(() => blackScholesPrice({ ...good, type: 'straddle' as 'call' })).toThrow(OptionInputError);
  });
});
