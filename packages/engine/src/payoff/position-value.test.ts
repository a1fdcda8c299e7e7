import { describe, expect, it } from 'vitest';
import { blackScholesPriceAndGreeks } from '../options/black-scholes';
import { expiryCloseEpochMs } from '../options/time-to-expiry';
import { payoffAtExpiry } from './expiry-payoff';
import type { PayoffLeg } from './payoff-leg';
import { netGreeks, positionValue, type MarketState } from './position-value';

const EXPIRY = '2026-01-27';
const DAY = 24 * 60 * 60 * 1000;
const CLOSE = expiryCloseEpochMs(EXPIRY);

const ironCondor: PayoffLeg[] = [
  { kind: 'option', optionType: 'PE', strike: 24_500, expiry: EXPIRY, quantity: 65, entryPrice: 40, iv: 0.16 },
  { kind: 'option', optionType: 'PE', strike: 24_700, expiry: EXPIRY, quantity: -65, entryPrice: 90, iv: 0.15 },
  { kind: 'option', optionType: 'CE', strike: 25_300, expiry: EXPIRY, quantity: -65, entryPrice: 95, iv: 0.13 },
  { kind: 'option', optionType: 'CE', strike: 25_500, expiry: EXPIRY, quantity: 65, entryPrice: 35, iv: 0.135 },
  { kind: 'future', expiry: '2026-02-24', quantity: 65, entryPrice: 25_100 },
];
const market: MarketState = { nowEpochMs: CLOSE - 7 * DAY, spot: 25_040, rate: 0.065, dividendYield: 0.012 };

describe('positionValue and netGreeks', () => {
  it('at the expiry close equals the expiry payoff', () => {
    const legs = ironCondor.slice(0, 4);
    for (const spot of [24_000, 24_650, 25_000, 25_420, 26_000]) {
      expect(positionValue(legs, { ...market, nowEpochMs: CLOSE, spot })).toBeCloseTo(payoffAtExpiry(legs, spot), 9);
    }
  });

  it('sums each leg at its own IV: Black-Scholes on the spot, times its signed quantity', () => {
    const expected = ironCondor.slice(0, 4).reduce((sum, leg) => {
      const greeks = blackScholesPriceAndGreeks({
        spot: market.spot, strike: leg.strike!, years: 7 / 365, vol: leg.iv!, rate: market.rate, dividendYield: 0.012,
        type: leg.optionType === 'CE' ? 'call' : 'put',
      });
      return { pnl: sum.pnl + leg.quantity * (greeks.price - leg.entryPrice), vega: sum.vega + leg.quantity * greeks.vega };
    }, { pnl: 0, vega: 0 });
    const greeks = netGreeks(ironCondor.slice(0, 4), market);
    expect(greeks.profitAndLoss).toBeCloseTo(expected.pnl, 8);
    expect(greeks.vega).toBeCloseTo(expected.vega, 10);
  });

  it('values a future at its fair price spot x e^((r - q) T)', () => {
    const future = ironCondor.slice(4);
    const years = 35 / 365;
    expect(positionValue(future, market)).toBeCloseTo(65 * (25_040 * Math.exp((0.065 - 0.012) * years) - 25_100), 8);
  });

  it('has a net delta, gamma and theta equal to finite differences of the position value', () => {
    const greeks = netGreeks(ironCondor, market);
    const valueAt = (change: Partial<MarketState>) => positionValue(ironCondor, { ...market, ...change });
    const spotStep = 1;
    const delta = (valueAt({ spot: market.spot + spotStep }) - valueAt({ spot: market.spot - spotStep })) / (2 * spotStep);
    const gamma = (valueAt({ spot: market.spot + spotStep }) - 2 * valueAt({}) + valueAt({ spot: market.spot - spotStep })) / spotStep ** 2;
    const minute = DAY / 1440;
    const theta = ((valueAt({ nowEpochMs: market.nowEpochMs + minute }) - valueAt({ nowEpochMs: market.nowEpochMs - minute })) / 2) * 1440;
    expect(greeks.delta).toBeCloseTo(delta, 4);
    expect(greeks.gamma).toBeCloseTo(gamma, 5);
    expect(greeks.theta).toBeCloseTo(theta, 4);
    expect(greeks.delta).not.toBe(0);
  });

  it('uses market.vol for a leg without its own IV, and names the leg when there is neither', () => {
    const bare: PayoffLeg[] = [{ kind: 'option', optionType: 'CE', strike: 25_000, expiry: EXPIRY, quantity: 1, entryPrice: 100 }];
    expect(positionValue(bare, { ...market, vol: 0.15 })).toBeGreaterThan(-100);
    expect(() => positionValue(bare, market)).toThrow(/^legs\[0\]\.iv is required/);
    expect(() => positionValue(bare, { ...market, spot: 0, vol: 0.15 })).toThrow(/^market\.spot/);
  });
});
