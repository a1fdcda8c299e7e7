import { describe, expect, it } from 'vitest';
import { blackScholesPrice } from './black-scholes';
import { black76Price } from './black76';
import { black76ImpliedVolatility, blackScholesImpliedVolatility, type ImpliedVolatilityResult } from './implied-volatility';
import type { OptionType } from './option-input';

const HOURS_PER_YEAR = 24 * 365;
const MONEYNESS = Array.from({ length: 16 }, (_, i) => 0.5 * 4 ** (i / 15)); // 0.5 .. 2, geometric
const YEARS = [1, 3, 24, 24 * 7, 24 * 30, 24 * 91, 24 * 365, 24 * 730].map((hours) => hours / HOURS_PER_YEAR);
const VOLS = [0.05, 0.1, 0.15, 0.2, 0.3, 0.45, 0.6, 0.8, 1.1, 1.5];
const TYPES: readonly OptionType[] = ['call', 'put'];
const RATE = 0.07;
const EPSILON = Number.EPSILON;

interface Case {
  readonly forward: number;
  readonly strike: number;
  readonly years: number;
  readonly vol: number;
  readonly type: OptionType;
}

function* grid(): Generator<Case> {
  const forward = 24_000;
  for (const moneyness of MONEYNESS) for (const years of YEARS) for (const vol of VOLS) for (const type of TYPES) {
    yield { forward, strike: forward * moneyness, years, vol, type };
  }
}

/**
 * A refusal is honest when the price really cannot pin the vol: either its time value is within
 * rounding of nothing, or moving the vol by 1e-6 moves the price by no more than its rounding.
 */
function expectHonestRefusal(result: Extract<ImpliedVolatilityResult, { ok: false }>, c: Case, priceAt: (vol: number) => number): void {
  const discount = Math.exp(-RATE * c.years);
  const scale = c.forward + c.strike + priceAt(c.vol) / discount;
  const rounding = 16 * EPSILON * scale * discount;
  if (result.reason === 'no-time-value') {
    const intrinsic = discount * Math.max(0, c.type === 'call' ? c.forward - c.strike : c.strike - c.forward);
    expect(priceAt(c.vol) - intrinsic).toBeLessThanOrEqual(rounding);
    return;
  }
  expect(result.reason).toBe('vega-too-small');
  const move = Math.abs(priceAt(c.vol + 1e-6) - priceAt(Math.max(0, c.vol - 1e-6))) / 2;
  expect(move).toBeLessThanOrEqual(rounding);
}

/** Prices far above rounding with a vega that clearly fixes the vol: these must always solve. */
function isComfortable(c: Case, price: number, priceAt: (vol: number) => number): boolean {
  const intrinsic = Math.max(0, c.type === 'call' ? c.forward - c.strike : c.strike - c.forward);
  const timeValue = price - Math.exp(-RATE * c.years) * intrinsic;
  const vegaMove = Math.abs(priceAt(c.vol * 1.001) - price);
  return timeValue > 1e-9 * c.forward && vegaMove > 1e-9 * c.forward;
}

function roundTrip(model: 'black76' | 'bs'): { solved: number; refused: number; maxIterations: number } {
  let solved = 0;
  let refused = 0;
  let maxIterations = 0;
  for (const c of grid()) {
    // For Black-Scholes the grid's forward is reached from a spot with a 1.5% dividend yield.
    const spot = c.forward * Math.exp(-(RATE - 0.015) * c.years);
    const priceAt = (vol: number): number => model === 'black76'
      ? black76Price({ forward: c.forward, strike: c.strike, years: c.years, vol, rate: RATE, type: c.type })
      : blackScholesPrice({ spot, strike: c.strike, years: c.years, vol, rate: RATE, dividendYield: 0.015, type: c.type });
    const price = priceAt(c.vol);
    const result = model === 'black76'
      ? black76ImpliedVolatility({ price, forward: c.forward, strike: c.strike, years: c.years, rate: RATE, type: c.type })
      : blackScholesImpliedVolatility({ price, spot, strike: c.strike, years: c.years, rate: RATE, dividendYield: 0.015, type: c.type });
    if (result.ok) {
      solved += 1;
      maxIterations = Math.max(maxIterations, result.iterations);
      if (Math.abs(result.vol - c.vol) > 1e-6) throw new Error(`${model} ${JSON.stringify(c)}: solved ${result.vol}`);
    } else {
      refused += 1;
      expectHonestRefusal(result, c, priceAt);
      if (isComfortable(c, price, priceAt)) throw new Error(`${model} ${JSON.stringify(c)}: refused a clear price: ${result.message}`);
    }
  }
  return { solved, refused, maxIterations };
}

describe('implied volatility round trip over a wide grid', () => {
  it.each(['black76', 'bs'] as const)('%s: recovers the vol to 1e-6, or honestly says the price cannot carry it', (model) => {
    const { solved, refused, maxIterations } = roundTrip(model);
    // The grid's refusals are expiring or deep options whose price is rounding noise (a 1-hour
    // option 50% out of the money is worth 0.0); most of the grid must still solve.
    expect(solved).toBeGreaterThan(refused);
    expect(maxIterations).toBeLessThanOrEqual(30);
  });
});

describe('implied volatility on worked examples', () => {
  it("recovers Hull's 20% from the S=42, K=40 call and put", () => {
    const base = { spot: 42, strike: 40, years: 0.5, rate: 0.1 } as const;
    for (const type of TYPES) {
      const price = blackScholesPrice({ ...base, vol: 0.2, type });
      const result = blackScholesImpliedVolatility({ ...base, price, type });
      expect(result.ok && result.vol).toBeCloseTo(0.2, 12);
    }
  });

  it('converges on an expiry-day NIFTY option two hours before the close, in and out of the money', () => {
    const years = 2 / HOURS_PER_YEAR;
    for (const strike of [24_700, 24_800, 24_900, 25_000, 25_100, 25_200, 25_300]) {
      for (const type of TYPES) {
        const price = black76Price({ forward: 25_000, strike, years, vol: 0.14, rate: RATE, type });
        const result = black76ImpliedVolatility({ price, forward: 25_000, strike, years, rate: RATE, type });
        const deepInTheMoney = type === 'call' ? strike === 24_700 : strike === 25_300;
        if (deepInTheMoney) {
          // 300 points in the money its time value is 5e-8 on a price of 300: only 3 digits survive.
          expect(result).toMatchObject({ ok: false, reason: 'vega-too-small' });
        } else {
          expect(result.ok && Math.abs(result.vol - 0.14)).toBeLessThan(1e-9);
        }
      }
    }
  });

  it('converges for deep out-of-the-money options with tiny prices', () => {
    const price = black76Price({ forward: 100, strike: 400, years: 0.25, vol: 0.3, rate: 0, type: 'call' });
    expect(price).toBeGreaterThan(0);
    expect(price).toBeLessThan(1e-19);
    const result = black76ImpliedVolatility({ price, forward: 100, strike: 400, years: 0.25, rate: 0, type: 'call' });
    expect(result.ok && result.vol).toBeCloseTo(0.3, 9);
  });
});

describe('implied volatility says why no volatility fits', () => {
  const contract = { forward: 100, strike: 90, years: 0.5, rate: 0.1, type: 'call' } as const;
  const discount = Math.exp(-0.05);

  it('below the discounted intrinsic value', () => {
    const result = black76ImpliedVolatility({ ...contract, price: 9.5 });
    expect(result).toMatchObject({ ok: false, reason: 'below-intrinsic' });
    expect(!result.ok && result.message).toContain('below the intrinsic value 10');
  });

  it('at exactly the discounted intrinsic value: no time value', () => {
    expect(black76ImpliedVolatility({ ...contract, price: 10 * discount })).toMatchObject({ ok: false, reason: 'no-time-value' });
  });

  it('at or above the upper bound (the discounted forward for a call, the discounted strike for a put)', () => {
    expect(black76ImpliedVolatility({ ...contract, price: 100 * discount })).toMatchObject({ ok: false, reason: 'above-maximum' });
    expect(black76ImpliedVolatility({ ...contract, type: 'put', price: 95 })).toMatchObject({ ok: false, reason: 'above-maximum' });
  });

  it('when the option has expired', () => {
    expect(black76ImpliedVolatility({ ...contract, years: 0, price: 10 })).toMatchObject({ ok: false, reason: 'expired' });
  });

  it('outside the [1e-4, 10] volatility bracket', () => {
    const tooHigh = black76Price({ ...contract, vol: 12 });
    expect(black76ImpliedVolatility({ ...contract, price: tooHigh })).toMatchObject({ ok: false, reason: 'above-volatility-range' });
    const tooLow = black76Price({ forward: 100, strike: 100, years: 0.5, rate: 0.1, vol: 5e-5, type: 'put' });
    expect(black76ImpliedVolatility({ forward: 100, strike: 100, years: 0.5, rate: 0.1, price: tooLow, type: 'put' }))
      .toMatchObject({ ok: false, reason: 'below-volatility-range' });
  });

  it('when the time value of a deep in-the-money option is lost in rounding', () => {
    const price = black76Price({ forward: 200, strike: 100, years: 3 / HOURS_PER_YEAR, vol: 0.2, rate: 0.07, type: 'call' });
    const result = black76ImpliedVolatility({ price, forward: 200, strike: 100, years: 3 / HOURS_PER_YEAR, rate: 0.07, type: 'call' });
    expect(result.ok).toBe(false);
    expect(!result.ok && ['no-time-value', 'vega-too-small']).toContain(!result.ok && result.reason);
  });

  it('rejects malformed inputs by field name', () => {
    expect(() => black76ImpliedVolatility({ ...contract, price: Number.NaN })).toThrow(/^price/);
    expect(() => black76ImpliedVolatility({ ...contract, price: -1 })).toThrow(/^price must be a finite number >= 0/);
    expect(() => blackScholesImpliedVolatility({ price: 1, spot: -5, strike: 100, years: 1, rate: 0, type: 'call' })).toThrow(/^spot/);
  });
});
