// Worked examples, one NIFTY lot (65 units from January 2026) each, computed by hand in the comments.
import { describe, expect, it } from 'vitest';
import { breakevens, payoffAtExpiry, profitAndLossBounds } from './expiry-payoff';
import type { PayoffLeg } from './payoff-leg';

const EXPIRY = '2026-01-27';
const LOT = 65;

function option(optionType: 'CE' | 'PE', strike: number, trade: { quantity: number; entryPrice: number }): PayoffLeg {
  return { kind: 'option', optionType, strike, expiry: EXPIRY, ...trade };
}
/** One lot bought (or sold) at `premium` rupees a unit. */
const buy = (optionType: 'CE' | 'PE', strike: number, premium: number) => option(optionType, strike, { quantity: LOT, entryPrice: premium });
const sell = (optionType: 'CE' | 'PE', strike: number, premium: number) => option(optionType, strike, { quantity: -LOT, entryPrice: premium });

describe('short straddle: sell 25000 CE at 180 and 25000 PE at 170', () => {
  const legs = [sell('CE', 25_000, 180), sell('PE', 25_000, 170)];

  it('keeps the whole credit of 350 x 65 = 22,750 at the strike', () => {
    expect(payoffAtExpiry(legs, 25_000)).toBe(22_750);
    // 500 points away the straddle loses 500 - 350 = 150 a unit.
    expect(payoffAtExpiry(legs, 25_500)).toBe(-150 * LOT);
    expect(payoffAtExpiry(legs, 24_500)).toBe(-150 * LOT);
  });

  it('breaks even at the strike plus and minus the credit: 24,650 and 25,350', () => {
    expect(breakevens(legs)).toEqual([24_650, 25_350]);
  });

  it('has a maximum profit of 22,750 and an unlimited loss (short calls above)', () => {
    expect(profitAndLossBounds(legs)).toEqual({ maxProfit: 22_750, maxLoss: 'unlimited' });
  });
});

describe('iron condor: 24500/24700 put spread and 25300/25500 call spread, credit 110', () => {
  // Buy 24500 PE at 40, sell 24700 PE at 90, sell 25300 CE at 95, buy 25500 CE at 35: 90 + 95 - 40 - 35 = 110.
  const legs = [buy('PE', 24_500, 40), sell('PE', 24_700, 90), sell('CE', 25_300, 95), buy('CE', 25_500, 35)];

  it('keeps 110 x 65 = 7,150 between the short strikes and loses (200 - 110) x 65 = 5,850 beyond the wings', () => {
    expect(profitAndLossBounds(legs)).toEqual({ maxProfit: 7_150, maxLoss: -5_850 });
    expect(payoffAtExpiry(legs, 25_000)).toBe(7_150);
    expect(payoffAtExpiry(legs, 26_000)).toBe(-5_850);
    expect(payoffAtExpiry(legs, 10_000)).toBe(-5_850);
  });

  it('breaks even at 24,700 - 110 = 24,590 and 25,300 + 110 = 25,410', () => {
    expect(breakevens(legs)).toEqual([24_590, 25_410]);
  });
});

describe('bull call spread: buy 25000 CE at 200, sell 25200 CE at 110', () => {
  const legs = [buy('CE', 25_000, 200), sell('CE', 25_200, 110)];

  it('risks the debit 90 x 65 = 5,850 to make (200 - 90) x 65 = 7,150', () => {
    expect(profitAndLossBounds(legs)).toEqual({ maxProfit: 7_150, maxLoss: -5_850 });
  });

  it('breaks even at 25,000 + 90 = 25,090', () => {
    expect(breakevens(legs)).toEqual([25_090]);
    expect(payoffAtExpiry(legs, 25_090)).toBe(0);
  });
});

describe('covered call with a future: long future at 25050, sell 25300 CE at 120', () => {
  const legs: PayoffLeg[] = [{ kind: 'future', expiry: EXPIRY, quantity: LOT, entryPrice: 25_050 }, sell('CE', 25_300, 120)];

  it('caps the profit at (25300 - 25050 + 120) x 65 = 24,050; the loss is bounded by a settlement at 0', () => {
    // Beyond 25300 the future's +65 and the short call's -65 cancel: the slope is 0, so the profit is limited.
    expect(profitAndLossBounds(legs)).toEqual({ maxProfit: 24_050, maxLoss: (0 - 25_050 + 120) * LOT });
    expect(payoffAtExpiry(legs, 30_000)).toBe(24_050);
  });

  it('breaks even at 25,050 - 120 = 24,930', () => {
    expect(breakevens(legs)).toEqual([24_930]);
  });

  it('a naked long future has unlimited profit and the whole entry price at risk', () => {
    expect(profitAndLossBounds(legs.slice(0, 1))).toEqual({ maxProfit: 'unlimited', maxLoss: -25_050 * LOT });
  });
});

describe('breakevens on awkward shapes', () => {
  it('reports both ends of a segment that is flat at zero', () => {
    // Long 100 PE and short 90 PE and long 110 CE, all for nothing: P&L 10 below 90, 100 - S up to
    // 100, exactly 0 from 100 to 110, S - 110 above.
    const legs = [option('PE', 100, { quantity: 1, entryPrice: 0 }), option('PE', 90, { quantity: -1, entryPrice: 0 }), option('CE', 110, { quantity: 1, entryPrice: 0 })];
    expect(breakevens(legs)).toEqual([100, 110]);
    expect(payoffAtExpiry(legs, 105)).toBe(0);
  });

  it('a call bought for nothing is flat at zero from 0 up to its strike', () => {
    expect(breakevens([option('CE', 100, { quantity: 1, entryPrice: 0 })])).toEqual([0, 100]);
    expect(breakevens([{ kind: 'future', expiry: EXPIRY, quantity: 1, entryPrice: 0 }])).toEqual([0]);
  });

  it('a root between kinks is exact even when it is not a round number', () => {
    const legs = [option('CE', 100, { quantity: 3, entryPrice: 7.3 }), option('PE', 95, { quantity: -2, entryPrice: 1.9 })];
    const [root] = breakevens(legs);
    expect(root).toBeCloseTo(100 + (3 * 7.3 - 2 * 1.9) / 3, 12);
    expect(Math.abs(payoffAtExpiry(legs, root!))).toBeLessThan(1e-12);
  });

  it('names the leg whose expiry differs, and the missing strike', () => {
    expect(() => breakevens([option('CE', 100, { quantity: 1, entryPrice: 5 }), { ...option('PE', 100, { quantity: 1, entryPrice: 5 }), expiry: '2026-02-24' }])).toThrow(/^legs\[1\]\.expiry must equal legs\[0\]\.expiry/);
    expect(() => payoffAtExpiry([{ kind: 'option', optionType: 'CE', expiry: EXPIRY, quantity: 1, entryPrice: 5 }], 100)).toThrow(/^legs\[0\]\.strike/);
    expect(() => payoffAtExpiry([option('CE', 100, { quantity: 1, entryPrice: 5 })], -1)).toThrow(/^spot/);
    expect(() => breakevens([{ ...option('CE', 100, { quantity: 1, entryPrice: 5 }), expiry: '2026-13-01' }])).toThrow(/^legs\[0\]\.expiry/);
    expect(() => breakevens([])).toThrow(/^legs must hold at least one leg/);
  });
});
