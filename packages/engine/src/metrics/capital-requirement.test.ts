import { istEpochMs, isoDate, rupeesToPaise } from '@vyuha/core';
import { describe, expect, it } from 'vitest';
import { capitalRequirement, marginRatesOn, positionsRequirement } from './capital-requirement';
import type { MarginLeg } from './capital-requirement';

// NIFTY at 24,000 on Thursday 2-Jan-2025, weekly expiry 9-Jan-2025, lot 75. Rates in force:
// price scan 7%, exposure 2%, short option minimum 3%.
const tradeDate = isoDate('2025-01-02');
const expiry = isoDate('2025-01-09');

/** A NIFTY option leg with a signed quantity (+ long, - short). */
function option(leg: { optionType: 'CE' | 'PE'; strike: number; quantity: number; premium: number }): MarginLeg {
  return { kind: 'option', underlying: 'NIFTY', expiry, underlyingPrice: 24_000, ...leg };
}

describe('capital requirement estimate', () => {
  it('a long option needs its premium', () => {
    expect(positionsRequirement({ legs: [option({ optionType: 'CE', strike: 24_000, quantity: 75, premium: 150 })], tradeDate })).toBe(rupeesToPaise(11_250));
  });

  it('a naked ATM short call: its value after a 7% rise, plus 2% exposure', () => {
    // Moved spot 25,680: intrinsic 1,680, scan loss 1,680 - 150 = 1,530; + premium 150 + exposure 480 = 2,160 per unit.
    expect(positionsRequirement({ legs: [option({ optionType: 'CE', strike: 24_000, quantity: -75, premium: 150 })], tradeDate })).toBe(rupeesToPaise(2_160 * 75));
  });

  it('a naked ATM short put: its value after a 7% fall', () => {
    // Moved spot 22,320: intrinsic 1,680; scan loss 1,540; + 140 + 480 = 2,160 per unit.
    expect(positionsRequirement({ legs: [option({ optionType: 'PE', strike: 24_000, quantity: -75, premium: 140 })], tradeDate })).toBe(rupeesToPaise(2_160 * 75));
  });

  it('a far out-of-the-money short call pays the short option minimum charge (3%)', () => {
    // No intrinsic value after the move: 720 minimum + 5 premium + 480 exposure.
    expect(positionsRequirement({ legs: [option({ optionType: 'CE', strike: 26_000, quantity: -75, premium: 5 })], tradeDate })).toBe(rupeesToPaise(1_205 * 75));
  });

  it('a bear call spread needs its width plus the long premium', () => {
    const legs = [option({ optionType: 'CE', strike: 24_000, quantity: -75, premium: 150 }), option({ optionType: 'CE', strike: 24_200, quantity: 75, premium: 80 })];
    expect(positionsRequirement({ legs, tradeDate })).toBe(rupeesToPaise(200 * 75 + 80 * 75));
  });

  it('a long leg on the wrong side, another expiry or type is no hedge', () => {
    const naked = 2_160 * 75;
    const lowerCall = [option({ optionType: 'CE', strike: 24_000, quantity: -75, premium: 150 }), option({ optionType: 'CE', strike: 23_800, quantity: 75, premium: 300 })];
    expect(positionsRequirement({ legs: lowerCall, tradeDate })).toBe(rupeesToPaise(naked + 300 * 75));
    const nextWeek: MarginLeg = { kind: 'option', underlying: 'NIFTY', optionType: 'CE', strike: 24_200, expiry: isoDate('2025-01-16'), quantity: 75, premium: 120, underlyingPrice: 24_000 };
    expect(positionsRequirement({ legs: [option({ optionType: 'CE', strike: 24_000, quantity: -75, premium: 150 }), nextWeek], tradeDate })).toBe(rupeesToPaise(naked + 120 * 75));
  });

  it('a partly covered short: the covered units at the width, the rest naked', () => {
    const legs = [option({ optionType: 'CE', strike: 24_000, quantity: -150, premium: 150 }), option({ optionType: 'CE', strike: 24_200, quantity: 75, premium: 80 })];
    expect(positionsRequirement({ legs, tradeDate })).toBe(rupeesToPaise(200 * 75 + 2_160 * 75 + 80 * 75));
  });

  it('adds 2% on a short option on its expiry day from 20-Nov-2024, not before', () => {
    const onExpiry = positionsRequirement({ legs: [option({ optionType: 'CE', strike: 24_000, quantity: -75, premium: 150 })], tradeDate: expiry });
    expect(onExpiry).toBe(rupeesToPaise((2_160 + 480) * 75));
    expect(marginRatesOn(isoDate('2024-11-19')).expiryDayExtraRate).toBe(0);
    expect(marginRatesOn(isoDate('2024-11-20')).expiryDayExtraRate).toBe(0.02);
    expect(() => marginRatesOn(isoDate('2015-01-01'))).toThrow(/before the margin schedule starts/);
  });

  it('futures at 9% of notional, the cash underlying in full', () => {
    expect(positionsRequirement({ legs: [{ kind: 'future', quantity: -75, price: 24_000 }], tradeDate })).toBe(rupeesToPaise(75 * 24_000 * 0.09));
    expect(positionsRequirement({ legs: [{ kind: 'underlying', quantity: 10, price: 1_234.5 }], tradeDate })).toBe(rupeesToPaise(12_345));
  });

  it('takes the peak of each day and the overall maximum', () => {
    const at = (date: string, time: string) => istEpochMs(isoDate(date), time);
    const result = capitalRequirement({
      snapshots: [
        { time: at('2025-01-02', '09:20'), legs: [option({ optionType: 'CE', strike: 24_000, quantity: 75, premium: 150 })] },
        { time: at('2025-01-02', '10:00'), legs: [option({ optionType: 'CE', strike: 24_000, quantity: -75, premium: 150 })] },
        { time: at('2025-01-02', '15:15'), legs: [] },
        { time: at('2025-01-03', '09:20'), legs: [option({ optionType: 'CE', strike: 24_000, quantity: -75, premium: 150 }), option({ optionType: 'CE', strike: 24_200, quantity: 75, premium: 80 })] },
      ],
    });
    expect(result.days.map((day) => [day.date, day.peak])).toEqual([
      ['2025-01-02', rupeesToPaise(162_000)],
      ['2025-01-03', rupeesToPaise(21_000)],
    ]);
    expect(result.days[0]?.peakTime).toBe(at('2025-01-02', '10:00'));
    expect(result.maximum).toBe(rupeesToPaise(162_000));
    expect(result.maximumDate).toBe('2025-01-02');
    expect(capitalRequirement({ snapshots: [] })).toEqual({ days: [], maximum: 0, maximumDate: null });
  });

  it('names the bad field', () => {
    const snapshots = [{ time: istEpochMs(tradeDate, '09:20'), legs: [option({ optionType: 'CE', strike: 24_000, quantity: 0, premium: 150 })] }];
    expect(() => capitalRequirement({ snapshots })).toThrow(/snapshots\[0\]\.legs\[0\]\.quantity: must be a whole non-zero/);
    expect(() => positionsRequirement({ legs: [option({ optionType: 'PE', strike: 24_000, quantity: -75, premium: Number.NaN })], tradeDate })).toThrow(/legs\[0\]\.premium/);
  });
});
