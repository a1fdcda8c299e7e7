import { expect, test } from 'vitest';
import { addDays, daysBetween, isDateString, istDate, presetRange, weekdayIndex } from './ist-dates';

test('the IST date turns at 18:30 UTC', () => {
  expect(istDate(Date.UTC(2025, 0, 1, 18, 29, 59))).toBe('2025-01-01');
  expect(istDate(Date.UTC(2025, 0, 1, 18, 30))).toBe('2025-01-02');
});

test('day arithmetic crosses months and leap days', () => {
  expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
  expect(addDays('2024-12-31', 1)).toBe('2025-01-01');
  expect(daysBetween('2024-01-01', '2025-01-01')).toBe(366);
});

test('weeks start on Monday', () => {
  expect(weekdayIndex('2025-11-24')).toBe(0);
  expect(weekdayIndex('2025-11-30')).toBe(6);
});

test('date strings must be real dates', () => {
  expect(isDateString('2021-01-01')).toBe(true);
  expect(isDateString('2021-02-30')).toBe(false);
  expect(isDateString('2021-1-1')).toBe(false);
});

test('the default range is the 90 days ending yesterday (spec section 9)', () => {
  // 2025-04-01 10:00 IST
  const range = presetRange(90, Date.UTC(2025, 3, 1, 4, 30));
  expect(range).toEqual({ from: '2025-01-01', to: '2025-03-31' });
  expect(daysBetween(range.from, range.to) + 1).toBe(90);
});
