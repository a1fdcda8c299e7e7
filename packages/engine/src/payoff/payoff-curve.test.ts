import { describe, expect, it } from 'vitest';
import { expiryCloseEpochMs } from '../options/time-to-expiry';
import type { PayoffLeg } from './payoff-leg';
import { payoffCurve } from './payoff-curve';

const EXPIRY = '2026-01-27';
const bullCallSpread: PayoffLeg[] = [
  { kind: 'option', optionType: 'CE', strike: 25_000, expiry: EXPIRY, quantity: 65, entryPrice: 200, iv: 0.14 },
  { kind: 'option', optionType: 'CE', strike: 25_200, expiry: EXPIRY, quantity: -65, entryPrice: 110, iv: 0.13 },
];

describe('payoffCurve', () => {
  it('spans the range in equal steps and adds the strikes inside it', () => {
    const curve = payoffCurve(bullCallSpread, { from: 24_900, to: 25_300, steps: 4 });
    expect(curve.map((point) => point.spot)).toEqual([24_900, 25_000, 25_100, 25_200, 25_300]);
    expect(curve.map((point) => point.atExpiry)).toEqual([-5_850, -5_850, 650, 7_150, 7_150]);
    const coarse = payoffCurve(bullCallSpread, { from: 24_900, to: 25_300, steps: 1 });
    expect(coarse.map((point) => point.spot)).toEqual([24_900, 25_000, 25_200, 25_300]);
  });

  it('with a market adds the value today, which lies strictly between the expiry bounds', () => {
    const market = { nowEpochMs: expiryCloseEpochMs(EXPIRY) - 5 * 86_400_000, rate: 0.065 };
    const curve = payoffCurve(bullCallSpread, { from: 24_800, to: 25_400, steps: 6, market });
    for (const point of curve) {
      expect(point.beforeExpiry).toBeGreaterThan(-5_850);
      expect(point.beforeExpiry).toBeLessThan(7_150);
    }
    // Today's value rises with the spot, like the spread itself.
    const values = curve.map((point) => point.beforeExpiry!);
    for (let i = 1; i < values.length; i += 1) expect(values[i]!).toBeGreaterThan(values[i - 1]!);
  });

  it('names a bad range', () => {
    expect(() => payoffCurve(bullCallSpread, { from: 25_000, to: 24_000, steps: 10 })).toThrow(/^to must be a finite price above from/);
    expect(() => payoffCurve(bullCallSpread, { from: 0, to: 1, steps: 0.5 })).toThrow(/^steps/);
  });
});
