// Expectations are worked out by hand: IST = UTC + 05:30, so an instant written with Date.UTC
// below reads 5 h 30 min later on an Indian clock, and 18:30 UTC is IST midnight.
import { describe, expect, it } from 'vitest';
import { downloadFileName, formatDate, formatDateTime, formatRupees, formatTime, MISSING_VALUE, parseTimestamp, percent } from './format';

describe('formatRupees', () => {
  it('writes paise as rupees with Indian grouping and two decimals', () => {
    expect(formatRupees(123456789)).toBe('₹12,34,567.89');
    expect(formatRupees(100)).toBe('₹1.00');
    expect(formatRupees(99)).toBe('₹0.99');
    expect(formatRupees(100_000_00)).toBe('₹1,00,000.00'); // one lakh
    expect(formatRupees(1_00_00_000_00)).toBe('₹1,00,00,000.00'); // one crore
    expect(formatRupees(1_00_00_00_000_00)).toBe('₹1,00,00,00,000.00'); // a hundred crore
  });

  it('puts the minus sign before the rupee sign', () => {
    expect(formatRupees(-123456789)).toBe('-₹12,34,567.89');
    expect(formatRupees(-5)).toBe('-₹0.05');
  });

  it('shows zero, and negative zero, without a sign', () => {
    expect(formatRupees(0)).toBe('₹0.00');
    expect(formatRupees(-0)).toBe('₹0.00');
    expect(formatRupees(-0.4)).toBe('₹0.00');
  });

  it('rounds a fraction of a paisa half away from zero', () => {
    expect(formatRupees(12.5)).toBe('₹0.13');
    expect(formatRupees(-12.5)).toBe('-₹0.13');
  });

  it('shows a dash for a value that is not a number', () => {
    expect(formatRupees(Number.NaN)).toBe(MISSING_VALUE);
    expect(formatRupees(Number.POSITIVE_INFINITY, { compact: true })).toBe(MISSING_VALUE);
  });

  // What Node 20's Intl.NumberFormat('en-IN', { notation: 'compact', maximumFractionDigits: 2 })
  // writes (ICU 7x; Chromium's ICU agrees): K for thousands, L for lakhs, Cr for crores, trailing
  // zeros dropped, and above 999 crore the suffixes stack ('KCr' = thousand crore, 'LCr' = lakh crore).
  // Rounding can carry into the next unit: ₹99,99,999 is '₹1Cr', not '₹100L'.
  it('compacts to K, L and Cr with at most two decimals', () => {
    expect(formatRupees(1234567800, { compact: true })).toBe('₹1.23Cr'); // ₹1,23,45,678
    expect(formatRupees(12345678900, { compact: true })).toBe('₹12.35Cr'); // ₹12,34,56,789
    expect(formatRupees(123456789000, { compact: true })).toBe('₹123.46Cr');
    expect(formatRupees(1234567890100, { compact: true })).toBe('₹1.23KCr'); // ₹12,34,56,78,901
    expect(formatRupees(12345600, { compact: true })).toBe('₹1.23L'); // ₹1,23,456
    expect(formatRupees(123400, { compact: true })).toBe('₹1.23K'); // ₹1,234
    expect(formatRupees(1_00_00_000_00, { compact: true })).toBe('₹1Cr');
    expect(formatRupees(9_99_99_99_00, { compact: true })).toBe('₹1Cr'); // ₹99,99,999 rounds up a unit
  });

  it('keeps small compact amounts in rupees', () => {
    expect(formatRupees(99900, { compact: true })).toBe('₹999');
    expect(formatRupees(50, { compact: true })).toBe('₹0.5');
    expect(formatRupees(1, { compact: true })).toBe('₹0.01');
    expect(formatRupees(0, { compact: true })).toBe('₹0');
  });

  it('compacts negative amounts with the sign first', () => {
    expect(formatRupees(-1234567800, { compact: true })).toBe('-₹1.23Cr');
    expect(formatRupees(-250000, { compact: true })).toBe('-₹2.5K');
  });
});

describe('formatDate, formatDateTime, formatTime (Asia/Kolkata)', () => {
  it('reads an instant on the Indian clock', () => {
    const opening = Date.UTC(2024, 0, 1, 3, 45); // 03:45 UTC = 09:15 IST
    expect(formatDate(opening)).toBe('2024-01-01');
    expect(formatDateTime(opening)).toBe('2024-01-01 09:15:00');
    expect(formatTime(opening)).toBe('09:15');
    expect(opening).toBe(1704080700000);
  });

  it('rolls the date over at 18:30 UTC, IST midnight', () => {
    const lastSecond = Date.UTC(2026, 10, 24, 18, 29, 59);
    expect(formatDate(lastSecond)).toBe('2026-11-24');
    expect(formatDateTime(lastSecond)).toBe('2026-11-24 23:59:59');
    expect(formatTime(lastSecond)).toBe('23:59');
    const midnight = Date.UTC(2026, 10, 24, 18, 30, 0);
    expect(formatDate(midnight)).toBe('2026-11-25');
    expect(formatDateTime(midnight)).toBe('2026-11-25 00:00:00');
    expect(formatTime(midnight)).toBe('00:00');
  });

  it('rolls over month and year ends the same way', () => {
    expect(formatDateTime(Date.UTC(2024, 1, 28, 18, 30))).toBe('2024-02-29 00:00:00');
    expect(formatDateTime(Date.UTC(2025, 11, 31, 18, 30))).toBe('2026-01-01 00:00:00');
  });

  it('drops milliseconds instead of rounding them up', () => {
    const instant = Date.UTC(2024, 0, 1, 3, 45, 59, 999);
    expect(formatDateTime(instant)).toBe('2024-01-01 09:15:59');
    expect(formatTime(instant)).toBe('09:15');
  });

  it('handles the epoch and the instants before it', () => {
    expect(formatDateTime(0)).toBe('1970-01-01 05:30:00');
    expect(formatDateTime(Date.UTC(1969, 11, 31, 18, 29))).toBe('1969-12-31 23:59:00');
  });

  it('shows a dash for a value that is not an instant', () => {
    expect(formatDate(Number.NaN)).toBe(MISSING_VALUE);
    expect(formatDateTime(Number.POSITIVE_INFINITY)).toBe(MISSING_VALUE);
    expect(formatTime(Number.NaN)).toBe(MISSING_VALUE);
  });
});

describe('parseTimestamp', () => {
  const opening = Date.UTC(2024, 0, 1, 3, 45); // 2024-01-01 09:15 IST

  it('takes 13-digit millisecond stamps as number or text', () => {
    expect(parseTimestamp(1704080700000)).toBe(opening);
    expect(parseTimestamp('1704080700000')).toBe(opening);
    expect(parseTimestamp(' 1704080700000 ')).toBe(opening);
  });

  it('refuses stamps of any other length, including 10-digit seconds', () => {
    expect(parseTimestamp(1704080700)).toBeUndefined();
    expect(parseTimestamp('1704080700')).toBeUndefined();
    expect(parseTimestamp('170408070000')).toBeUndefined();
    expect(parseTimestamp(1704080700000.5)).toBeUndefined();
    expect(parseTimestamp(Number.NaN)).toBeUndefined();
  });

  it('reads ISO timestamps with a zone', () => {
    expect(parseTimestamp('2024-01-01T03:45:00Z')).toBe(opening);
    expect(parseTimestamp('2024-01-01T03:45:00+00:00')).toBe(opening); // how PostgreSQL's timestamptz arrives
    expect(parseTimestamp('2024-01-01T09:15:00+05:30')).toBe(opening);
    expect(parseTimestamp('2024-01-01T09:15:00+0530')).toBe(opening);
    expect(parseTimestamp('2023-12-31T22:45:00-05:00')).toBe(opening); // 22:45 + 5 h = 03:45 UTC next day
    expect(parseTimestamp('2024-01-01t03:45z')).toBe(opening);
  });

  it('reads a fraction to the millisecond and drops finer digits', () => {
    expect(parseTimestamp('2024-01-01T03:45:00.5Z')).toBe(opening + 500);
    expect(parseTimestamp('2024-01-01T03:45:00.123Z')).toBe(opening + 123);
    expect(parseTimestamp('2024-01-01T09:15:00.123456+05:30')).toBe(opening + 123);
  });

  it('reads a timestamp without a zone as Indian time', () => {
    expect(parseTimestamp('2024-01-01 09:15')).toBe(opening);
    expect(parseTimestamp('2024-01-01T09:15:00')).toBe(opening);
    expect(parseTimestamp('2024-01-01 00:00:00')).toBe(Date.UTC(2023, 11, 31, 18, 30));
  });

  it('refuses impossible dates and times', () => {
    expect(parseTimestamp('2024-02-29 10:00')).toBe(Date.UTC(2024, 1, 29, 4, 30));
    expect(parseTimestamp('2023-02-29 10:00')).toBeUndefined();
    expect(parseTimestamp('2024-04-31 10:00')).toBeUndefined();
    expect(parseTimestamp('2024-13-01 10:00')).toBeUndefined();
    expect(parseTimestamp('2024-01-01 24:00')).toBeUndefined();
    expect(parseTimestamp('2024-01-01 09:60')).toBeUndefined();
    expect(parseTimestamp('2024-01-01T09:15:00+15:00')).toBeUndefined();
  });

  it('refuses text that is not a timestamp', () => {
    expect(parseTimestamp('')).toBeUndefined();
    expect(parseTimestamp('yesterday')).toBeUndefined();
    expect(parseTimestamp('2024-01-01')).toBeUndefined(); // a date, not a timestamp
    expect(parseTimestamp('01/01/2024 09:15')).toBeUndefined();
  });

  it('round-trips through formatDateTime', () => {
    expect(formatDateTime(parseTimestamp('2026-11-24 09:30:15') ?? Number.NaN)).toBe('2026-11-24 09:30:15');
  });
});

describe('downloadFileName', () => {
  const morning = Date.UTC(2026, 10, 24, 4, 0, 15); // 2026-11-24 09:30:15 IST

  it('writes PREFIX_base_YYYYMMDD-HHmmss.extension with the IST time', () => {
    expect(downloadFileName({ profileName: 'Ravi Kumar', base: 'pnl-heatmap', extension: 'csv', nowMs: morning })).toBe('RA_pnl-heatmap_20261124-093015.csv');
  });

  it('takes the first two letters of the profile name, skipping spaces, digits and marks', () => {
    expect(downloadFileName({ profileName: '  anita', base: 'orders', extension: 'csv', nowMs: morning })).toBe('AN_orders_20261124-093015.csv');
    expect(downloadFileName({ profileName: '42 Traders', base: 'orders', extension: 'csv', nowMs: morning })).toBe('TR_orders_20261124-093015.csv');
    expect(downloadFileName({ profileName: 'K. Iyer', base: 'orders', extension: 'csv', nowMs: morning })).toBe('KI_orders_20261124-093015.csv');
    expect(downloadFileName({ profileName: 'a', base: 'orders', extension: 'csv', nowMs: morning })).toBe('A_orders_20261124-093015.csv');
  });

  it('leaves the prefix out when the name has no letters', () => {
    expect(downloadFileName({ profileName: '', base: 'orders', extension: 'csv', nowMs: morning })).toBe('orders_20261124-093015.csv');
  });

  it('uses the IST date after 18:30 UTC', () => {
    expect(downloadFileName({ profileName: 'Ravi', base: 'orders', extension: 'csv', nowMs: Date.UTC(2026, 10, 24, 18, 30, 0) })).toBe('RA_orders_20261125-000000.csv');
  });

  it('makes base and extension safe for a file system', () => {
    expect(downloadFileName({ profileName: 'Ravi', base: 'P&L / report', extension: '.csv', nowMs: morning })).toBe('RA_P-L-report_20261124-093015.csv');
    expect(downloadFileName({ profileName: 'Ravi', base: 'chart', extension: '', nowMs: morning })).toBe('RA_chart_20261124-093015');
  });

  it('refuses a clock that is not a number', () => {
    expect(() => downloadFileName({ profileName: 'Ravi', base: 'orders', extension: 'csv', nowMs: Number.NaN })).toThrow(RangeError);
  });
});

describe('percent', () => {
  it('writes a percentage with two decimals by default', () => {
    expect(percent(33.3333)).toBe('33.33%');
    expect(percent(75)).toBe('75.00%');
    expect(percent(0)).toBe('0.00%');
  });

  it('takes the number of decimals', () => {
    expect(percent(-4.2, 1)).toBe('-4.2%');
    expect(percent(12.5, 0)).toBe('13%');
    expect(percent(59.3407, 3)).toBe('59.341%');
  });

  it('groups large values the Indian way and hides the sign of a rounded zero', () => {
    expect(percent(100000)).toBe('1,00,000.00%');
    expect(percent(-0.001)).toBe('0.00%');
  });

  it('shows a dash for a value that is not a number', () => {
    expect(percent(Number.NaN)).toBe(MISSING_VALUE);
  });
});
