import { daysBetween, type IsoDate } from '@vyuha/core';
import { describe, expect, it } from 'vitest';
import { asIsoDate, defaultDateRange, istToday, presetOf, presetRange, RANGE_PRESETS } from './date-ranges';

describe('date ranges', () => {
  it('takes today from the clock in IST: the date turns at 18:30 UTC', () => {
    expect(istToday(Date.UTC(2025, 0, 1, 18, 29, 59))).toBe('2025-01-01');
    expect(istToday(Date.UTC(2025, 0, 1, 18, 30))).toBe('2025-01-02');
  });

  it('defaults to the 90 days ending yesterday (docs/PRODUCT.md section 9)', () => {
    const range = defaultDateRange(istToday(Date.UTC(2025, 3, 1, 4, 30)));
    expect(range).toEqual({ from: '2025-01-01', to: '2025-03-31' });
    expect(daysBetween(range.from, range.to) + 1).toBe(90);
    expect(presetOf(range, '2025-04-01' as IsoDate)).toBe('90d');
  });

  it('ends every preset yesterday and knows a range that is none of them', () => {
    for (const preset of RANGE_PRESETS) expect(presetRange(preset.key, '2026-01-01' as IsoDate)?.to).toBe('2025-12-31');
    expect(presetOf({ from: '2025-12-01' as IsoDate, to: '2025-12-31' as IsoDate }, '2026-01-01' as IsoDate)).toBeUndefined();
  });

  it('accepts only real dates as dates', () => {
    expect(asIsoDate('2024-02-29')).toBe('2024-02-29');
    expect(asIsoDate('2021-02-30')).toBeUndefined();
    expect(asIsoDate('2021-1-1')).toBeUndefined();
  });
});
