import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRupees, rupeesToPaise } from './money';
import { formatPrice, formatRupees, formatRupeesAmount, groupIndianDigits, MISSING_VALUE, paiseToRupeesText } from './money-format';

// The reference for the compact form: en-IN compact notation as the platform's ICU writes it.
const INTL_COMPACT = new Intl.NumberFormat('en-IN', { notation: 'compact', maximumFractionDigits: 2 });
// The reference for grouping: en-IN with two decimals.
const INTL_TWO_DECIMALS = new Intl.NumberFormat('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

describe('formatRupees', () => {
  it('writes the rupee sign, lakh and crore grouping and two decimals', () => {
    expect(formatRupees(123_456_789)).toBe('₹12,34,567.89');
    expect(formatRupees(-1_234_567_890)).toBe('-₹1,23,45,678.90');
    expect(formatRupees(12_345_678)).toBe('₹1,23,456.78');
    expect(formatRupees(-5)).toBe('-₹0.05');
    expect(formatRupees(0)).toBe('₹0.00');
    expect(formatRupees(99_999)).toBe('₹999.99');
    expect(formatRupees(Number.MAX_SAFE_INTEGER)).toBe('₹9,00,71,99,25,47,409.91');
  });

  it('rounds a fraction of a paisa half away from zero, and a negative that rounds to zero has no sign', () => {
    expect(formatRupees(150.5)).toBe('₹1.51');
    expect(formatRupees(-150.5)).toBe('-₹1.51');
    expect(formatRupees(-0.4)).toBe('₹0.00');
  });

  it('shows a dash for what is not a finite, exact amount', () => {
    for (const value of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 2 ** 60]) {
      expect(formatRupees(value)).toBe(MISSING_VALUE);
      expect(formatRupees(value, { compact: true })).toBe(MISSING_VALUE);
    }
  });

  it('agrees with en-IN grouping for every safe whole number of paise', () => {
    fc.assert(fc.property(fc.integer({ min: -(10 ** 15), max: 10 ** 15 }), (amount) => {
      const sign = amount < 0 ? '-' : '';
      expect(formatRupees(amount)).toBe(`${sign}₹${INTL_TWO_DECIMALS.format(Math.abs(amount) / 100)}`);
    }), { numRuns: 5_000 });
  });

  it('round-trips through parseRupees for every safe whole number of paise', () => {
    fc.assert(fc.property(fc.maxSafeInteger(), (amount) => {
      expect(parseRupees(formatRupees(amount), { allowNegative: true })).toEqual({ ok: true, value: amount });
    }), { numRuns: 20_000 });
  });
});

describe('formatRupees compact', () => {
  it('writes K, L, Cr, KCr and LCr with at most two decimals', () => {
    expect(formatRupees(1_234_567_800, { compact: true })).toBe('₹1.23Cr');
    expect(formatRupees(12_345_678_900, { compact: true })).toBe('₹12.35Cr');
    expect(formatRupees(1_234_567_890_100, { compact: true })).toBe('₹1.23KCr');
    expect(formatRupees(123_000_000_000_000, { compact: true })).toBe('₹1.23LCr');
    expect(formatRupees(12_345_600, { compact: true })).toBe('₹1.23L');
    expect(formatRupees(123_400, { compact: true })).toBe('₹1.23K');
    expect(formatRupees(-250_000, { compact: true })).toBe('-₹2.5K');
    expect(formatRupees(99_900, { compact: true })).toBe('₹999');
    expect(formatRupees(50, { compact: true })).toBe('₹0.5');
    expect(formatRupees(0, { compact: true })).toBe('₹0');
  });

  it('moves to the next unit when rounding reaches it', () => {
    expect(formatRupees(9_999_900, { compact: true })).toBe('₹1L'); // ₹99,999
    expect(formatRupees(999_999_900, { compact: true })).toBe('₹1Cr'); // ₹99,99,999
    expect(formatRupees(99_999_900, { compact: true })).toBe('₹10L'); // ₹9,99,999 stays in lakhs
  });

  it('rounds half away from zero at the unit\'s second decimal', () => {
    expect(formatRupees(102_500, { compact: true })).toBe('₹1.03K'); // ₹1,025
    expect(formatRupees(-102_500, { compact: true })).toBe('-₹1.03K');
    expect(formatRupees(102_499, { compact: true })).toBe('₹1.02K');
  });

  it('agrees with en-IN compact notation for every amount a double holds exactly', () => {
    fc.assert(fc.property(fc.integer({ min: -(10 ** 15), max: 10 ** 15 }), (amount) => {
      const sign = amount < 0 && amount !== 0 ? '-' : '';
      expect(formatRupees(amount, { compact: true })).toBe(`${sign}₹${INTL_COMPACT.format(Math.abs(amount) / 100)}`);
    }), { numRuns: 20_000 });
    // Magnitudes spread evenly over the units, not only over the largest ones.
    fc.assert(fc.property(fc.integer({ min: 0, max: 15 }), fc.integer({ min: 1, max: 999_999 }), (power, digits) => {
      const amount = Math.min(10 ** 15, Math.floor(digits * 10 ** power / 1000));
      expect(formatRupees(amount, { compact: true })).toBe(`₹${INTL_COMPACT.format(amount / 100)}`);
    }), { numRuns: 20_000 });
  });
});

describe('formatRupeesAmount', () => {
  it('formats float rupees after rounding them to the paisa as rupeesToPaise does', () => {
    expect(formatRupeesAmount(-1234.565)).toBe('-₹1,234.57');
    expect(formatRupeesAmount(1.005)).toBe('₹1.01');
    expect(formatRupeesAmount(250_000, { compact: true })).toBe('₹2.5L');
    expect(formatRupeesAmount(Number.NaN)).toBe(MISSING_VALUE);
    expect(formatRupeesAmount(1e20)).toBe(MISSING_VALUE);
    fc.assert(fc.property(fc.double({ min: -1e12, max: 1e12, noNaN: true }), (rupees) => {
      expect(formatRupeesAmount(rupees)).toBe(formatRupees(rupeesToPaise(rupees)));
    }));
  });
});

describe('formatPrice', () => {
  it('writes a price or index level like an amount, without the rupee sign', () => {
    expect(formatPrice(2_144_320)).toBe('21,443.20');
    expect(formatPrice(-5)).toBe('-0.05');
    expect(formatPrice(Number.NaN)).toBe(MISSING_VALUE);
  });
});

describe('paiseToRupeesText', () => {
  it('writes plain rupees with two decimals from whole paise', () => {
    expect([0, 5, -5, 100, -12_345_678, Number.MAX_SAFE_INTEGER].map(paiseToRupeesText))
      .toEqual(['0.00', '0.05', '-0.05', '1.00', '-123456.78', '90071992547409.91']);
    expect(paiseToRupeesText(-0)).toBe('0.00');
    expect(() => paiseToRupeesText(0.5)).toThrow('whole number');
  });
});

describe('groupIndianDigits', () => {
  it('groups the last three digits, then pairs', () => {
    expect(['1', '123', '1234', '123456', '1234567', '123456789'].map(groupIndianDigits))
      .toEqual(['1', '123', '1,234', '1,23,456', '12,34,567', '12,34,56,789']);
  });
});
