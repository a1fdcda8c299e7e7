import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  daysEndingYesterday, formatIstDate, formatIstTime, istDate, istEpochDay, istMidnightMs, istMinuteOfDay, istYesterday,
  monthStart, weekStart,
} from './ist-dates';
import { daysBetween, dateOfEpochDay, epochDayOf, formatIstDateTime, isoDate, weekday, type IsoDate } from './time';

// The reference: the platform's time-zone database, which knows Asia/Kolkata independently of
// our fixed-offset arithmetic (en-CA writes dates as YYYY-MM-DD).
const REFERENCE_DATE = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata', year: 'numeric', month: '2-digit', day: '2-digit' });
const REFERENCE_TIME = new Intl.DateTimeFormat('en-GB', { timeZone: 'Asia/Kolkata', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
const REFERENCE_WEEKDAY = new Intl.DateTimeFormat('en-US', { timeZone: 'Asia/Kolkata', weekday: 'short' });
const referenceDate = (epochMs: number): string => REFERENCE_DATE.format(epochMs);
const referenceTime = (epochMs: number): string => REFERENCE_TIME.format(epochMs);
const MS_PER_DAY = 86_400_000;

// 1950-01-01 .. 2150-12-31 (Asia/Kolkata has been UTC+05:30 since 1945), fractions of a ms included.
const instants = fc.integer({ min: Date.UTC(1950, 0, 1), max: Date.UTC(2150, 11, 31) });
const fractionalInstants = fc.tuple(instants, fc.double({ min: 0, max: 0.999, noNaN: true })).map(([ms, fraction]) => ms + fraction);
// The last and first seconds around IST midnight of every new year, where date bugs live.
const yearBoundaries = fc.integer({ min: 1951, max: 2150 }).chain((year) => fc.integer({ min: -2_000, max: 2_000 })
  .map((offset) => Date.UTC(year, 0, 1) - 19_800_000 + offset));

describe('istDate and formatIstDate', () => {
  it('agree with the time-zone database on any instant', () => {
    fc.assert(fc.property(fc.oneof(instants, fractionalInstants, yearBoundaries), (epochMs) => {
      expect(istDate(epochMs)).toBe(referenceDate(Math.floor(epochMs)));
      expect(formatIstDate(epochMs)).toBe(referenceDate(Math.floor(epochMs)));
    }), { numRuns: 20_000 });
  });

  it('turns the date at 18:30 UTC', () => {
    expect(istDate(Date.UTC(2025, 11, 31, 18, 29, 59, 999))).toBe('2025-12-31');
    expect(istDate(Date.UTC(2025, 11, 31, 18, 30))).toBe('2026-01-01');
  });
});

describe('istYesterday and daysEndingYesterday', () => {
  it('end the day before today in IST, across year boundaries', () => {
    fc.assert(fc.property(fc.oneof(instants, yearBoundaries), fc.integer({ min: 1, max: 800 }), (now, days) => {
      const yesterday = referenceDate(now - MS_PER_DAY);
      expect(istYesterday(now)).toBe(yesterday);
      const range = daysEndingYesterday(istDate(now), days);
      expect(range).toEqual({ from: referenceDate(now - days * MS_PER_DAY), to: yesterday });
      expect(daysBetween(range.from, range.to)).toBe(days - 1);
    }), { numRuns: 5_000 });
  });

  it('gives the spec\'s default: 90 days back to yesterday', () => {
    expect(daysEndingYesterday(isoDate('2025-04-01'), 90)).toEqual({ from: '2025-01-01', to: '2025-03-31' });
    expect(daysEndingYesterday(isoDate('2024-03-01'), 1)).toEqual({ from: '2024-02-29', to: '2024-02-29' });
  });

  it('refuses a range of no days', () => {
    expect(() => daysEndingYesterday(isoDate('2025-04-01'), 0)).toThrow(RangeError);
    expect(() => daysEndingYesterday(isoDate('2025-04-01'), 1.5)).toThrow(RangeError);
  });
});

describe('weekStart and monthStart', () => {
  it('find the Monday and the first of the month the time-zone database agrees on', () => {
    fc.assert(fc.property(fc.oneof(instants, yearBoundaries), (now) => {
      const date = istDate(now);
      const monday = weekStart(date);
      expect(REFERENCE_WEEKDAY.format(istMidnightMs(monday))).toBe('Mon');
      expect(daysBetween(monday, date)).toBeGreaterThanOrEqual(0);
      expect(daysBetween(monday, date)).toBeLessThan(7);
      expect(monthStart(date)).toBe(`${referenceDate(now).slice(0, 7)}-01`);
    }), { numRuns: 5_000 });
  });

  it('cross year boundaries', () => {
    expect(weekStart(isoDate('2026-01-01'))).toBe('2025-12-29');
    expect(weekStart(isoDate('2025-11-30'))).toBe('2025-11-24');
    expect(weekStart(isoDate('2025-11-24'))).toBe('2025-11-24');
    expect(weekday(weekStart(isoDate('2024-03-01')))).toBe(1);
    expect(monthStart(isoDate('2024-02-29'))).toBe('2024-02-01');
  });
});

describe('istMidnightMs', () => {
  it('is the first instant of the date in IST', () => {
    fc.assert(fc.property(instants, (now) => {
      const date = istDate(now) as IsoDate;
      const midnight = istMidnightMs(date);
      expect(referenceDate(midnight)).toBe(date);
      expect(referenceTime(midnight)).toBe('00:00:00');
      expect(referenceDate(midnight - 1)).not.toBe(date);
    }), { numRuns: 5_000 });
  });
});

describe('formatIstTime, istMinuteOfDay and istEpochDay', () => {
  it('agree with the time-zone database', () => {
    fc.assert(fc.property(fc.oneof(instants, fractionalInstants, yearBoundaries), (epochMs) => {
      const whole = Math.floor(epochMs);
      const [hh, mm] = referenceTime(whole).split(':').map(Number) as [number, number];
      expect(formatIstTime(epochMs)).toBe(referenceTime(whole).slice(0, 5));
      expect(istMinuteOfDay(whole)).toBe(hh * 60 + mm);
      expect(dateOfEpochDay(istEpochDay(whole))).toBe(referenceDate(whole));
      expect(epochDayOf(istDate(whole))).toBe(istEpochDay(whole));
      expect(formatIstDateTime(whole)).toBe(`${referenceDate(whole)} ${referenceTime(whole)}`);
    }), { numRuns: 20_000 });
  });

  it('drops seconds, never rounds up', () => {
    expect(formatIstTime(1_704_080_759_999)).toBe('09:15');
  });
});
