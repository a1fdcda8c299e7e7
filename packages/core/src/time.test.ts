import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  addDays, dateFromParts, dateParts, daysBetween, daysInMonth, formatIstDateTime, formatMinuteOfDay, isIsoDate, isoDate,
  istEpochMs, istParts, lastWeekdayOfMonth, minuteOfDay, parseIstDateTime, secondsOfDay, weekday, InvalidTimeError,
} from './time';
import type { IsoDate } from './time';

const MS_PER_DAY = 86_400_000;
/** The UTC date of a day count, computed by the platform's Date as an independent reference. */
const referenceDate = (epochDay: number): string => new Date(epochDay * MS_PER_DAY).toISOString().slice(0, 10);
// 1900-01-01 .. 2199-12-31 in epoch days.
const epochDays = fc.integer({ min: -25_567, max: 83_965 });
const dates = epochDays.map((day) => isoDate(referenceDate(day)));
// 1950 .. 2150 in epoch milliseconds.
const instants = fc.integer({ min: -631_152_000_000, max: 5_680_281_600_000 });

describe('isoDate', () => {
  it('accepts real dates, leap days included', () => {
    expect(isoDate('2024-02-29')).toBe('2024-02-29');
    expect(isoDate('2000-02-29')).toBe('2000-02-29');
  });

  it.each(['2025-02-30', '2023-02-29', '1900-02-29', '2024-13-01', '2024-00-10', '2024-04-31', '2024-4-1', '20240401', ' 2024-04-01', ''])(
    'refuses %j with an error quoting it', (text) => {
      expect(() => isoDate(text)).toThrow(InvalidTimeError);
      expect(() => isoDate(text)).toThrow(`"${text}"`);
      expect(isIsoDate(text)).toBe(false);
    });

  it('agrees with the platform calendar on every day of three centuries', () => {
    fc.assert(fc.property(epochDays, (day) => {
      const text = referenceDate(day);
      expect(isIsoDate(text)).toBe(true);
      const { year, month, day: dayOfMonth } = dateParts(isoDate(text));
      expect(dateFromParts({ year, month, day: dayOfMonth })).toBe(text);
      expect(dayOfMonth).toBeLessThanOrEqual(daysInMonth(year, month));
    }));
  });
});

describe('day arithmetic', () => {
  it('matches the platform calendar for addDays, daysBetween and weekday', () => {
    fc.assert(fc.property(epochDays, fc.integer({ min: -5_000, max: 5_000 }), (day, step) => {
      const date = isoDate(referenceDate(day));
      expect(addDays(date, step)).toBe(referenceDate(day + step));
      expect(daysBetween(date, addDays(date, step))).toBe(step);
      expect(weekday(date)).toBe(new Date(day * MS_PER_DAY).getUTCDay());
    }));
  });

  it('adding then subtracting days is the identity', () => {
    fc.assert(fc.property(dates, fc.integer({ min: -100_000, max: 100_000 }), (date, step) => {
      expect(addDays(addDays(date, step), -step)).toBe(date);
    }));
  });

  it('knows known weekdays and the leap year', () => {
    expect(weekday(isoDate('2024-04-11'))).toBe(4);
    expect(weekday(isoDate('2025-02-01'))).toBe(6);
    expect(daysBetween(isoDate('2024-01-01'), isoDate('2025-01-01'))).toBe(366);
    expect(addDays(isoDate('2024-02-28'), 2)).toBe('2024-03-01');
  });

  it('refuses fractional day counts', () => {
    expect(() => addDays(isoDate('2024-01-01'), 1.5)).toThrow(InvalidTimeError);
  });
});

describe('lastWeekdayOfMonth', () => {
  it('finds real month-end expiry weekdays', () => {
    expect(lastWeekdayOfMonth(isoDate('2024-04-01'), 4)).toBe('2024-04-25');
    expect(lastWeekdayOfMonth(isoDate('2024-02-10'), 4)).toBe('2024-02-29');
    expect(lastWeekdayOfMonth(isoDate('2024-03-31'), 3)).toBe('2024-03-27');
    expect(lastWeekdayOfMonth(isoDate('2025-09-15'), 2)).toBe('2025-09-30');
  });

  it('is that weekday, in the same month, with no later one in the month', () => {
    fc.assert(fc.property(dates, fc.integer({ min: 0, max: 6 }), (date, day) => {
      const last = lastWeekdayOfMonth(date, day as 0 | 1 | 2 | 3 | 4 | 5 | 6);
      expect(weekday(last)).toBe(day);
      expect(last.slice(0, 7)).toBe(date.slice(0, 7));
      expect(addDays(last, 7).slice(0, 7)).not.toBe(date.slice(0, 7));
    }));
  });
});

describe('IST time', () => {
  it('puts 09:15 IST at 03:45 UTC', () => {
    expect(istEpochMs(isoDate('2024-01-01'), '09:15')).toBe(Date.UTC(2024, 0, 1, 3, 45));
    expect(istEpochMs(isoDate('2024-01-01'), '00:00:30')).toBe(Date.UTC(2023, 11, 31, 18, 30, 30));
  });

  it('reads an instant as its IST date and time of day', () => {
    expect(istParts(Date.UTC(2024, 3, 10, 10, 0, 59, 999))).toEqual({ date: '2024-04-10', minuteOfDay: 930, hh: 15, mm: 30, ss: 59 });
    // 20:00 UTC is already the next day in India.
    expect(istParts(Date.UTC(2024, 3, 10, 20, 0)).date).toBe('2024-04-11');
    expect(formatIstDateTime(Date.UTC(1969, 11, 31, 23, 59, 59))).toBe('1970-01-01 05:29:59');
  });

  it('round-trips instants through parts, format and parse (to the second)', () => {
    fc.assert(fc.property(instants, (ms) => {
      const whole = ms - (((ms % 1_000) + 1_000) % 1_000);
      const parts = istParts(ms);
      const time = `${String(parts.hh).padStart(2, '0')}:${String(parts.mm).padStart(2, '0')}:${String(parts.ss).padStart(2, '0')}`;
      expect(istEpochMs(parts.date, time)).toBe(whole);
      expect(parseIstDateTime(formatIstDateTime(ms))).toBe(whole);
      expect(parts.minuteOfDay).toBe(parts.hh * 60 + parts.mm);
      expect(new Date(whole + 19_800_000).toISOString().slice(0, 19).replace('T', ' ')).toBe(formatIstDateTime(ms));
    }));
  });

  it('round-trips dates and times through istEpochMs', () => {
    fc.assert(fc.property(dates, fc.integer({ min: 0, max: 86_399 }), (date: IsoDate, second) => {
      const time = `${String(Math.floor(second / 3600)).padStart(2, '0')}:${String(Math.floor(second / 60) % 60).padStart(2, '0')}:${String(second % 60).padStart(2, '0')}`;
      const parts = istParts(istEpochMs(date, time));
      expect(parts.date).toBe(date);
      expect(parts.hh * 3600 + parts.mm * 60 + parts.ss).toBe(second);
    }));
  });

  it.each(['24:00', '09:60', '9:15', '09:15:60', '09:15:00.5', 'noon'])('refuses the time %j', (time) => {
    expect(() => istEpochMs(isoDate('2024-01-01'), time)).toThrow(`"${time}"`);
  });

  it('refuses bad datetimes and instants', () => {
    expect(() => parseIstDateTime('2024-01-01T09:15:00')).toThrow(InvalidTimeError);
    expect(() => parseIstDateTime('2024-02-30 09:15:00')).toThrow('"2024-02-30"');
    expect(() => istParts(Number.NaN)).toThrow(InvalidTimeError);
    expect(() => istParts(1.5)).toThrow(InvalidTimeError);
  });

  it('converts minutes of the day both ways', () => {
    expect(minuteOfDay('09:15')).toBe(555);
    expect(minuteOfDay('15:30:00')).toBe(930);
    expect(secondsOfDay('00:00:01')).toBe(1);
    expect(formatMinuteOfDay(555)).toBe('09:15');
    expect(() => minuteOfDay('09:15:30')).toThrow(InvalidTimeError);
    expect(() => formatMinuteOfDay(1_440)).toThrow(InvalidTimeError);
    fc.assert(fc.property(fc.integer({ min: 0, max: 1_439 }), (minute) => {
      expect(minuteOfDay(formatMinuteOfDay(minute))).toBe(minute);
    }));
  });
});
