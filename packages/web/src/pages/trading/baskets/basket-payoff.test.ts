import { breakevens, payoffAtExpiry } from '@vyuha/engine';
import { describe, expect, it } from 'vitest';
import { basketPayoff } from './basket-payoff';
import type { PreviewLeg } from './basket-payoff';

// A short straddle at 24,000 for Rs 200 + Rs 180 a unit, 65 units: break-evens 23,620 and 24,380.
const base = {
  lot_size: 65, quantity: 65, price_source: 'synthetic option chain', value_paise: 0, charges_paise: 0, expiry: '2026-12-29', strike: 24_000,
  underlying: 'NIFTY', underlying_price_paise: 2_400_000,
} as const;
const call: PreviewLeg = { ...base, index: 0, symbol: 'NIFTY26DEC24000CE', kind: 'option', side: 'SELL', price_paise: 20_000, implied_volatility: 0.14, option_type: 'CE' };
const put: PreviewLeg = { ...base, index: 1, symbol: 'NIFTY26DEC24000PE', kind: 'option', side: 'SELL', price_paise: 18_000, implied_volatility: 0.15, option_type: 'PE' };

describe('the basket payoff preview', () => {
  it('is the engine\'s payoff of the option legs of one index and expiry', () => {
    const payoff = basketPayoff([call, put], Date.UTC(2026, 11, 1, 4, 30))!;
    expect(payoff.breakevens).toEqual([23_620, 24_380]);
    expect(payoff.bounds).toEqual({ maxProfit: 380 * 65, maxLoss: 'unlimited' });
    expect(payoff.spot).toBe(24_000);
    const legs = [
      { kind: 'option' as const, optionType: 'CE' as const, strike: 24_000, expiry: '2026-12-29', quantity: -65, entryPrice: 200, iv: 0.14 },
      { kind: 'option' as const, optionType: 'PE' as const, strike: 24_000, expiry: '2026-12-29', quantity: -65, entryPrice: 180, iv: 0.15 },
    ];
    expect(payoff.breakevens).toEqual(breakevens(legs));
    const at = payoff.points.find((point) => point.spot === 24_000)!;
    expect(at.atExpiry).toBe(payoffAtExpiry(legs, 24_000));
    expect(at.beforeExpiry).toBeLessThan(at.atExpiry);
  });

  it('leaves out legs of another expiry, and is absent without an option leg', () => {
    const later = { ...put, index: 2, expiry: '2027-01-26' };
    expect(basketPayoff([call, later], Date.UTC(2026, 11, 1, 4, 30))?.legIndexes).toEqual([0]);
    expect(basketPayoff([{ ...call, kind: 'future', option_type: null, strike: null }], Date.UTC(2026, 11, 1))).toBeUndefined();
  });
});
