import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { nearestStrike, selectStrike } from './strike-selection';
import { syntheticStrikeByDelta, syntheticStrikeByPremium } from './chain-selection';
import { syntheticOptionQuote } from '../synthetic/option-quote';

describe('selectStrike by ATM offset', () => {
  it('counts steps of the index strike grid from the ATM strike, upward for both rights', () => {
    expect(selectStrike({ underlying: 'NIFTY', spot: 24_512, rule: { by: 'atm-offset', steps: 0 } })).toBe(24_500);
    expect(selectStrike({ underlying: 'NIFTY', spot: 24_512, rule: { by: 'atm-offset', steps: -2 } })).toBe(24_400);
    expect(selectStrike({ underlying: 'NIFTY', spot: 24_525, rule: { by: 'atm-offset', steps: 0 } })).toBe(24_550);
    expect(selectStrike({ underlying: 'BANKNIFTY', spot: 51_234, rule: { by: 'atm-offset', steps: 3 } })).toBe(51_500);
    expect(selectStrike({ underlying: 'MIDCPNIFTY', spot: 12_345.6, rule: { by: 'atm-offset', steps: 1 } })).toBe(12_375);
    expect(selectStrike({ underlying: 'SENSEX', spot: 80_049, rule: { by: 'atm-offset', steps: -20 } })).toBe(78_000);
  });
});

describe('selectStrike by premium and delta', () => {
  // A call's premium falling with the strike: 200 x e^(-(K - 24,500) / 300).
  const premiumOf = (strike: number): number => 200 * Math.exp(-(strike - 24_500) / 300);

  it('takes the strike whose premium is nearest', () => {
    // Rs 50 sits between 24,900 (52.72) and 24,950 (44.63): 24,900 is nearer.
    expect(selectStrike({ underlying: 'NIFTY', spot: 24_500, rule: { by: 'premium', rupees: 50 }, premiumOf })).toBe(24_900);
  });

  it('skips strikes without a price and breaks ties towards the ATM, then down', () => {
    expect(nearestStrike({ strikes: [24_400, 24_450, 24_500, 24_550, 24_600], atm: 24_500, target: 10, valueOf: (strike) => Math.abs(strike - 24_500) / 5 })).toBe(24_450);
    expect(nearestStrike({ strikes: [24_450, 24_550], atm: 24_500, target: 10, valueOf: () => 10 })).toBe(24_450);
    expect(nearestStrike({ strikes: [24_450, 24_550], atm: 24_500, target: 10, valueOf: () => undefined })).toBeUndefined();
  });

  it('finds the delta target with the absolute delta the caller gives', () => {
    const deltaOf = (strike: number): number => 1 / (1 + Math.exp((strike - 24_500) / 200));
    expect(selectStrike({ underlying: 'NIFTY', spot: 24_500, rule: { by: 'delta', delta: 0.5 }, deltaOf })).toBe(24_500);
    // |delta| 0.25 at 24,500 + 200 ln 3 = 24,719.7: the grid strike nearest in delta is 24,700.
    expect(selectStrike({ underlying: 'NIFTY', spot: 24_500, rule: { by: 'delta', delta: 0.25 }, deltaOf })).toBe(24_700);
  });

  it('never returns a strike farther from the target than its neighbours (property)', () => {
    fc.assert(fc.property(fc.double({ min: 1, max: 190, noNaN: true }), fc.integer({ min: 20_000, max: 26_000 }), (target, spot) => {
      const strike = selectStrike({ underlying: 'NIFTY', spot, rule: { by: 'premium', rupees: Math.round(target * 100) / 100 }, premiumOf });
      expect(strike).toBeDefined();
      const distance = (k: number): number => Math.abs(premiumOf(k) - Math.round(target * 100) / 100);
      const atm = Math.floor(spot / 50 + 0.5) * 50;
      for (const neighbour of [strike! - 50, strike! + 50]) {
        if (Math.abs(neighbour - atm) <= 40 * 50) expect(distance(strike!)).toBeLessThanOrEqual(distance(neighbour));
      }
    }));
  });
});

describe('synthetic chain helpers (payoff screen)', () => {
  const chain = { underlying: 'NIFTY' as const, spot: 23_150, vix: 16, expiry: '2025-01-30', at: Date.UTC(2025, 0, 23, 4, 0) };

  it('picks the strike of the synthetic chain nearest a premium', () => {
    const strike = syntheticStrikeByPremium({ ...chain, option: 'CE' }, 50)!;
    const premium = (k: number): number => syntheticOptionQuote({ ...chain, strike: k, type: 'CE' }).mid / 100;
    expect(strike).toBeGreaterThan(23_150);
    expect(Math.abs(premium(strike) - 50)).toBeLessThanOrEqual(Math.abs(premium(strike + 50) - 50));
    expect(Math.abs(premium(strike) - 50)).toBeLessThanOrEqual(Math.abs(premium(strike - 50) - 50));
  });

  it('puts a 0.25-delta call above and a 0.25-delta put below the money', () => {
    expect(syntheticStrikeByDelta({ ...chain, option: 'CE' }, 0.25)!).toBeGreaterThan(23_200);
    expect(syntheticStrikeByDelta({ ...chain, option: 'PE' }, 0.25)!).toBeLessThan(23_100);
  });
});
