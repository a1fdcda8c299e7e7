import { describe, expect, it } from 'vitest';
import { OptionInputError } from './option-input';
import { expiryCloseEpochMs, yearsToExpiry } from './time-to-expiry';

const HOUR = 60 * 60 * 1000;
const YEAR = 365 * 24 * HOUR;

describe('yearsToExpiry', () => {
  it('runs to 15:30 IST (10:00 UTC) on the expiry date', () => {
    expect(expiryCloseEpochMs('2026-01-27')).toBe(Date.UTC(2026, 0, 27, 10, 0, 0));
    // 09:15 IST on expiry day is 6h15m before the close.
    const open = Date.UTC(2026, 0, 27, 3, 45);
    expect(yearsToExpiry(open, '2026-01-27') * YEAR).toBeCloseTo(6.25 * HOUR, 3);
  });

  it('counts 365-day years across a leap day', () => {
    const now = Date.UTC(2028, 1, 28, 10, 0);
    expect(yearsToExpiry(now, '2028-03-01')).toBeCloseTo(2 / 365, 15);
  });

  it('is zero at and after the close', () => {
    expect(yearsToExpiry(Date.UTC(2026, 0, 27, 10, 0), '2026-01-27')).toBe(0);
    expect(yearsToExpiry(Date.UTC(2026, 0, 28, 4, 0), '2026-01-27')).toBe(0);
  });

  it('names the field on a bad date or time', () => {
    expect(() => yearsToExpiry(0, '27-01-2026')).toThrow(/expiryDate must be a date YYYY-MM-DD/);
    expect(() => yearsToExpiry(0, '2026-02-30')).toThrow(/expiryDate is not a calendar date/);
    expect(() => yearsToExpiry(Number.NaN, '2026-01-27')).toThrow(OptionInputError);
    expect(() => yearsToExpiry(Number.NaN, '2026-01-27')).toThrow(/nowEpochMs/);
  });
});
