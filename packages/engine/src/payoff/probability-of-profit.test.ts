import { describe, expect, it } from 'vitest';
import type { PayoffLeg } from './payoff-leg';
import { probabilityOfProfit } from './probability-of-profit';

const EXPIRY = '2026-01-27';
const option = (optionType: 'CE' | 'PE', strike: number, trade: { quantity: number; entryPrice: number }): PayoffLeg => ({ kind: 'option', optionType, strike, expiry: EXPIRY, ...trade });

/** P(a < S_T < b) by Simpson's rule on the lognormal density: an independent check of the closed form. */
function lognormalMass(model: { spot: number; vol: number; rate: number; days: number }, a: number, b: number): number {
  const years = model.days / 365;
  const mean = Math.log(model.spot) + (model.rate - model.vol ** 2 / 2) * years;
  const spread = model.vol * Math.sqrt(years);
  const density = (x: number) => Math.exp(-(((Math.log(x) - mean) / spread) ** 2) / 2) / (x * spread * Math.sqrt(2 * Math.PI));
  const intervals = 20_000;
  const width = (b - a) / intervals;
  let sum = density(a) + density(b);
  for (let i = 1; i < intervals; i += 1) sum += (i % 2 === 1 ? 4 : 2) * density(a + i * width);
  return (sum * width) / 3;
}

describe('probabilityOfProfit under a lognormal settlement price', () => {
  const model = { spot: 25_000, vol: 0.14, rate: 0.065, days: 14 };

  it('of a short straddle is the mass between its breakevens 24,650 and 25,350', () => {
    const legs = [option('CE', 25_000, { quantity: -65, entryPrice: 180 }), option('PE', 25_000, { quantity: -65, entryPrice: 170 })];
    expect(probabilityOfProfit(legs, model)).toBeCloseTo(lognormalMass(model, 24_650, 25_350), 8);
  });

  it('of a bull call spread is the mass above its breakeven 25,090', () => {
    const legs = [option('CE', 25_000, { quantity: 65, entryPrice: 200 }), option('CE', 25_200, { quantity: -65, entryPrice: 110 })];
    const above = 1 - lognormalMass(model, 1, 25_090); // the mass below 1 rupee is nil at 14% vol
    expect(probabilityOfProfit(legs, model)).toBeCloseTo(above, 8);
  });

  it('adds the profitable pieces of a position with several profitable regions', () => {
    // Long strangle: profits below 24,600 and above 25,400.
    const legs = [option('CE', 25_100, { quantity: 1, entryPrice: 150 }), option('PE', 24_900, { quantity: 1, entryPrice: 150 })];
    const inside = lognormalMass(model, 24_600, 25_400);
    expect(probabilityOfProfit(legs, model)).toBeCloseTo(1 - inside, 8);
  });

  it('is 1 or 0 when the outcome is certain (zero vol or zero days)', () => {
    const longCall = [option('CE', 25_000, { quantity: 1, entryPrice: 100 })];
    expect(probabilityOfProfit(longCall, { ...model, vol: 0 })).toBe(0); // the forward 25,062 is below 25,100
    expect(probabilityOfProfit(longCall, { ...model, spot: 25_200, days: 0 })).toBe(1);
  });

  it('rejects a bad model by field name', () => {
    expect(() => probabilityOfProfit([option('CE', 100, { quantity: 1, entryPrice: 1 })], { ...model, vol: Number.NaN })).toThrow(/^vol/);
    expect(() => probabilityOfProfit([option('CE', 100, { quantity: 1, entryPrice: 1 })], { ...model, days: -1 })).toThrow(/^days/);
  });
});
