import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { blackScholesPrice, blackScholesPriceAndGreeks } from './black-scholes';
import { black76Price, black76PriceAndGreeks, type Black76Input } from './black76';
import { centralDifference, contract, expectClose, secondDifference } from './option-test-support';

function inputOf(c: { underlying: number; moneyness: number; years: number; vol: number; rate: number; type: 'call' | 'put' }): Black76Input {
  return { forward: c.underlying, strike: c.underlying * c.moneyness, years: c.years, vol: c.vol, rate: c.rate, type: c.type };
}

describe('Black-76', () => {
  it("prices Hull's futures option: F=K=20, r=9%, sigma=25%, 4 months, put 1.12", () => {
    expect(black76Price({ forward: 20, strike: 20, years: 4 / 12, vol: 0.25, rate: 0.09, type: 'put' })).toBeCloseTo(1.12, 2);
    // At the money forward, the call and the put are worth the same.
    expect(black76Price({ forward: 20, strike: 20, years: 4 / 12, vol: 0.25, rate: 0.09, type: 'call' }))
      .toBeCloseTo(black76Price({ forward: 20, strike: 20, years: 4 / 12, vol: 0.25, rate: 0.09, type: 'put' }), 14);
  });

  it('equals Black-Scholes on the forward S e^(r-q)T, with delta scaled by dF/dS', () => {
    fc.assert(fc.property(contract, (c) => {
      const forward = c.underlying * Math.exp((c.rate - c.dividendYield) * c.years);
      const strike = c.underlying * c.moneyness;
      const onForward = black76PriceAndGreeks({ forward, strike, years: c.years, vol: c.vol, rate: c.rate, type: c.type });
      const onSpot = blackScholesPriceAndGreeks({ spot: c.underlying, strike, years: c.years, vol: c.vol, rate: c.rate, dividendYield: c.dividendYield, type: c.type });
      expectClose(onForward.price, onSpot.price, 1e-12);
      expectClose(onForward.delta * (forward / c.underlying), onSpot.delta, 1e-12);
      expectClose(onForward.vega, onSpot.vega, 1e-12);
      expect(blackScholesPrice({ spot: c.underlying, strike, years: c.years, vol: c.vol, rate: c.rate, dividendYield: c.dividendYield, type: c.type })).toBeGreaterThanOrEqual(0);
    }));
  });

  it('satisfies put-call parity: C - P = e^-rT (F - K)', () => {
    fc.assert(fc.property(contract, (c) => {
      const input = inputOf(c);
      const difference = black76Price({ ...input, type: 'call' }) - black76Price({ ...input, type: 'put' });
      expectClose(difference, Math.exp(-c.rate * c.years) * (input.forward - input.strike), 1e-12 * (input.forward + input.strike));
    }));
  });

  it('has greeks equal to finite differences (theta and rho with the forward held fixed)', () => {
    fc.assert(fc.property(contract, (c) => {
      const input = inputOf(c);
      const greeks = black76PriceAndGreeks(input);
      const price = (change: Partial<Black76Input>) => black76Price({ ...input, ...change });
      expect(greeks.price).toBeCloseTo(black76Price(input), 12);
      // Steps scale with the width of the price's bend, S * vol * sqrt(T), so the difference error stays small.
      const width = input.forward * input.vol * Math.sqrt(input.years);
      expectClose(greeks.delta, centralDifference((forward) => price({ forward }), input.forward, 1e-4 * width), 1e-6);
      expectClose(greeks.gamma, secondDifference((forward) => price({ forward }), input.forward, 1e-2 * width), 1e-4);
      expectClose(greeks.theta, -centralDifference((years) => price({ years }), input.years, 1e-6) / 365, 1e-6);
      expectClose(greeks.vega, centralDifference((vol) => price({ vol }), input.vol, 1e-6) / 100, 1e-6);
      expectClose(greeks.rho, centralDifference((rate) => price({ rate }), input.rate, 1e-6) / 100, 1e-6);
    }));
  });

  it('rises with volatility and time, and moves with forward and strike the way the right says', () => {
    fc.assert(fc.property(contract, fc.double({ min: 1.0001, max: 1.5, noNaN: true }), (c, bump) => {
      const input = { ...inputOf(c), rate: 0 };
      const base = black76Price(input);
      const slack = 1e-12 * input.forward;
      const sign = c.type === 'call' ? 1 : -1;
      expect(black76Price({ ...input, vol: input.vol * bump })).toBeGreaterThanOrEqual(base - slack);
      expect(black76Price({ ...input, years: input.years * bump })).toBeGreaterThanOrEqual(base - slack);
      expect(sign * (black76Price({ ...input, forward: input.forward * bump }) - base)).toBeGreaterThanOrEqual(-slack);
      expect(sign * (black76Price({ ...input, strike: input.strike * bump }) - base)).toBeLessThanOrEqual(slack);
    }));
  });

  it('is the intrinsic value at expiry and the discounted intrinsic value at zero vol', () => {
    expect(black76Price({ forward: 110, strike: 100, years: 0, vol: 0.2, rate: 0.07, type: 'call' })).toBe(10);
    expect(black76PriceAndGreeks({ forward: 90, strike: 100, years: 0, vol: 0.2, rate: 0.07, type: 'put' }))
      .toEqual({ price: 10, delta: -1, gamma: 0, theta: 0, vega: 0, rho: 0 });
    expect(black76Price({ forward: 110, strike: 100, years: 0.5, vol: 0, rate: 0.07, type: 'call' })).toBeCloseTo(10 * Math.exp(-0.035), 12);
    const atTheMoney = black76PriceAndGreeks({ forward: 100, strike: 100, years: 0.5, vol: 0, rate: 0.07, type: 'call' });
    expect(atTheMoney.price).toBe(0);
    expect(atTheMoney.delta).toBeCloseTo(0.5 * Math.exp(-0.035), 14);
  });

  it('rejects NaN and negative inputs, naming the field', () => {
    const good: Black76Input = { forward: 100, strike: 100, years: 1, vol: 0.2, rate: 0.05, type: 'put' };
    expect(() => black76Price({ ...good, forward: Number.NaN })).toThrow(/^forward must be a positive finite number, got NaN/);
    expect(() => black76Price({ ...good, strike: 0 })).toThrow(/^strike/);
    expect(() => black76Price({ ...good, years: Number.NaN })).toThrow(/^years/);
    expect(() => black76PriceAndGreeks({ ...good, vol: -0.01 })).toThrow(/^vol must be a finite number >= 0, got -0.01/);
    expect(() => black76Price({ ...good, rate: Number.NEGATIVE_INFINITY })).toThrow(/^rate/);
  });
});
