import { breakevens, expiryCloseEpochMs, netGreeks, payoffAtExpiry, positionValue, probabilityOfProfit, SYNTHETIC_RATE, syntheticAtmVolatility, type PayoffLeg } from '@vyuha/engine';
import { describe, expect, it } from 'vitest';
import { chainVolatility, chartGrid, chartPoints, daysToExpiry, nearestPoint, payoffAtPrice, payoffFigures, withoutOwnVolatility } from './payoff-analysis';

// A short straddle at 24,000: one lot (65) of each sold, ₹150 + ₹140 received = ₹290 a unit.
const straddle: PayoffLeg[] = [
  { kind: 'option', optionType: 'CE', strike: 24_000, expiry: '2026-12-01', quantity: -65, entryPrice: 150, iv: 0.3 },
  { kind: 'option', optionType: 'PE', strike: 24_000, expiry: '2026-12-01', quantity: -65, entryPrice: 140, iv: 0.3 },
];
const at = Date.UTC(2026, 10, 28, 5); // 28 Nov 2026 10:30 IST
const scenario = { legs: straddle, spot: 24_050, vol: 0.12, at };

describe('payoff figures come from the engine, every leg at the screen IV', () => {
  it('drops the legs own IVs so the input volatility values each', () => {
    expect(withoutOwnVolatility(straddle).every((leg) => leg.iv === undefined)).toBe(true);
    const legs = withoutOwnVolatility(straddle);
    const market = { nowEpochMs: at, spot: 24_050, rate: SYNTHETIC_RATE, vol: 0.12 };
    const figures = payoffFigures(scenario);
    // Breakevens 24,000 ± 290; max profit 65 x 290 = ₹18,850 (at 24,000); the loss is unlimited above.
    expect(figures.breakevens).toEqual([23_710, 24_290]);
    expect(figures.bounds).toEqual({ maxProfit: 18_850, maxLoss: 'unlimited' });
    expect(figures.net).toEqual(netGreeks(legs, market));
    expect(figures.net).not.toEqual(netGreeks(straddle, market));
    expect(figures.perLeg?.[1]).toEqual(netGreeks([legs[1]!], market));
    const days = (expiryCloseEpochMs('2026-12-01') - at) / 86_400_000;
    expect(figures.probabilityOfProfit).toBe(probabilityOfProfit(legs, { spot: 24_050, vol: 0.12, rate: SYNTHETIC_RATE, days }));
    expect(breakevens(legs)).toEqual(figures.breakevens);
  });

  it('gives only the expiry figures without a volatility', () => {
    const figures = payoffFigures({ ...scenario, vol: undefined });
    expect(figures.net).toBeUndefined();
    expect(figures.probabilityOfProfit).toBeUndefined();
    expect(payoffAtPrice({ ...scenario, vol: undefined }, 24_400)).toEqual({ atExpiry: -65 * 400 + 65 * 290 });
    // At 24,400 the call owes 65 x 400 = ₹26,000 against ₹18,850 received: -₹7,150.
  });

  it('reads the P&L at a price at expiry and at the valuation moment', () => {
    const legs = withoutOwnVolatility(straddle);
    const value = payoffAtPrice(scenario, 23_900);
    expect(value.atExpiry).toBe(payoffAtExpiry(legs, 23_900));
    expect(value.atValuation).toBe(positionValue(legs, { nowEpochMs: at, spot: 23_900, rate: SYNTHETIC_RATE, vol: 0.12 }));
  });

  it("defaults the IV to the chain's ATM IV from INDIA VIX, to 0.01 vol points", () => {
    const years = (expiryCloseEpochMs('2026-12-01') - at) / (365 * 86_400_000);
    expect(chainVolatility(14, '2026-12-01', at)).toBe(Math.round(syntheticAtmVolatility(14, years) * 10_000) / 10_000);
    expect(daysToExpiry('2026-12-01', expiryCloseEpochMs('2026-12-01') + 5)).toBe(0);
  });
});

describe('the chart grid', () => {
  it('is evenly spaced with every strike on it, so the expiry line bends exactly at the strikes', () => {
    const legs: PayoffLeg[] = [...straddle, { kind: 'option', optionType: 'CE', strike: 24_350, expiry: '2026-12-01', quantity: 65, entryPrice: 40 }];
    const grid = chartGrid({ ...scenario, legs });
    const points = chartPoints({ ...scenario, legs });
    expect(points.length).toBe(grid.steps + 1);
    expect(grid.steps).toBeGreaterThanOrEqual(200);
    const gaps = new Set(points.slice(1).map((point, index) => point.spot - points[index]!.spot));
    expect(gaps.size).toBe(1);
    expect(points.some((point) => point.spot === 24_350)).toBe(true);
    expect(points.every((point) => point.beforeExpiry !== undefined)).toBe(true);
    expect(nearestPoint(points, 24_051)?.spot).toBe(24_050);
  });

  it('takes a round step for a single strike', () => {
    const grid = chartGrid({ ...scenario, legs: [straddle[0]!] });
    const step = (grid.to - grid.from) / grid.steps;
    expect(100 % step).toBe(0);
    expect(grid.steps).toBeGreaterThanOrEqual(200);
    expect(chartPoints({ ...scenario, legs: [straddle[0]!] }).some((point) => point.spot === 24_000)).toBe(true);
  });

  it('falls back to the engine curve of 200 steps for a strike that is not a whole number', () => {
    const legs: PayoffLeg[] = [{ ...straddle[0]!, strike: 24_012.5 }];
    expect(chartGrid({ ...scenario, legs }).steps).toBe(200);
  });
});
