import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { addDays, daysBetween, isoDate, weekday } from '@vyuha/core';
import { holidayOn, holidaysOf } from './holidays';
import {
  isRegularTradingDay, isTradingDay, nextTradingDay, previousTradingDay, sessionMinutes, sessionOf, tradingDaysBetween,
} from './sessions';
import { SESSION_EXCHANGES } from './sessions';

const d = isoDate;
const datesIn2020To2026 = fc.integer({ min: 0, max: 2_556 }).map((n) => addDays(d('2020-01-01'), n));
const exchanges = fc.constantFrom(...SESSION_EXCHANGES);

describe('holidays', () => {
  it('lists an exchange year in date order with its events', () => {
    const nse2024 = holidaysOf('NSE', 2024);
    expect(nse2024[0]).toEqual({ date: '2024-01-22', exchange: 'NSE', event: expect.stringContaining('Ram Mandir') });
    expect(nse2024.map((h) => h.date)).toEqual([...nse2024.map((h) => h.date)].sort());
    expect(nse2024.every((h) => h.date.startsWith('2024-'))).toBe(true);
    expect(holidayOn('NFO', d('2024-04-11'))?.event).toBe('Id-Ul-Fitr (Ramzan Id)');
  });

  it('gives the currency segment the bank holidays the equity segment trades through', () => {
    expect(holidayOn('CDS', d('2025-04-01'))).toBeDefined();
    expect(holidayOn('NSE', d('2025-04-01'))).toBeUndefined();
  });
});

describe('sessions', () => {
  it('opens NSE/NFO/BSE/BFO 09:15-15:30 and CDS 09:00-17:00 on a plain weekday', () => {
    for (const exchange of ['NSE', 'NFO', 'BSE', 'BFO'] as const) {
      expect(sessionOf(exchange, d('2024-04-10'))).toEqual({ open: 555, close: 930, kind: 'normal' });
    }
    expect(sessionOf('CDS', d('2024-04-10'))).toEqual({ open: 540, close: 1020, kind: 'normal' });
  });

  it('closes weekends and weekday holidays', () => {
    expect(sessionOf('NSE', d('2024-04-13'))).toBeUndefined();
    expect(sessionOf('NFO', d('2024-04-11'))).toBeUndefined();
    expect(isTradingDay('BSE', d('2024-12-25'))).toBe(false);
  });

  it('opens weekend budget and special Saturday sessions for the exchange and its derivatives segment', () => {
    expect(sessionOf('NFO', d('2025-02-01'))).toEqual({ open: 555, close: 930, kind: 'special' });
    expect(sessionOf('BFO', d('2026-02-01'))).toEqual({ open: 555, close: 930, kind: 'special' });
    expect(sessionOf('NSE', d('2024-01-20'))?.kind).toBe('special');
    // The currency segment was closed on those Saturdays.
    expect(sessionOf('CDS', d('2025-02-01'))).toBeUndefined();
  });

  it('opens muhurat sessions on Diwali holidays as short evening (or afternoon) sessions', () => {
    expect(sessionOf('NFO', d('2024-11-01'))).toEqual({ open: 18 * 60, close: 19 * 60, kind: 'muhurat' });
    expect(sessionOf('BSE', d('2025-10-21'))).toEqual({ open: 13 * 60 + 45, close: 14 * 60 + 45, kind: 'muhurat' });
    expect(sessionMinutes('NSE', d('2024-11-01'))).toHaveLength(60);
    expect(isRegularTradingDay('NSE', d('2024-11-01'))).toBe(false);
  });

  it('keeps a muhurat day without announced times closed', () => {
    expect(sessionOf('NSE', d('2026-11-08'))).toBeUndefined();
  });

  it('lists 375 one-minute bar starts for a normal equity session', () => {
    const minutes = sessionMinutes('NSE', d('2024-04-10'));
    expect(minutes).toHaveLength(375);
    expect(minutes[0]).toBe(555);
    expect(minutes.at(-1)).toBe(929);
    expect(sessionMinutes('NSE', d('2024-04-13'))).toEqual([]);
  });
});

describe('trading-day math', () => {
  it('steps over the Id-ul-Fitr holiday and the weekend', () => {
    expect(nextTradingDay('NFO', d('2024-04-10'))).toBe('2024-04-12');
    expect(previousTradingDay('NFO', d('2024-04-12'))).toBe('2024-04-10');
    expect(nextTradingDay('NSE', d('2024-04-12'))).toBe('2024-04-15');
  });

  it('counts the trading days of a week with a holiday', () => {
    expect(tradingDaysBetween('NSE', d('2024-04-08'), d('2024-04-14'))).toEqual(['2024-04-08', '2024-04-09', '2024-04-10', '2024-04-12']);
    expect(tradingDaysBetween('NSE', d('2024-04-14'), d('2024-04-08'))).toEqual([]);
  });

  it('next and previous trading days are trading days with only closed days between', () => {
    fc.assert(fc.property(exchanges, datesIn2020To2026, (exchange, date) => {
      const next = nextTradingDay(exchange, date);
      const previous = previousTradingDay(exchange, date);
      expect(isTradingDay(exchange, next)).toBe(true);
      expect(isTradingDay(exchange, previous)).toBe(true);
      expect(tradingDaysBetween(exchange, addDays(previous, 1), addDays(next, -1))).toEqual(isTradingDay(exchange, date) ? [date] : []);
      if (isTradingDay(exchange, date)) expect(previousTradingDay(exchange, next)).toBe(date);
    }));
  });

  it('a regular trading day is a weekday without a holiday, and always has a session', () => {
    fc.assert(fc.property(exchanges, datesIn2020To2026, (exchange, date) => {
      const regular = isRegularTradingDay(exchange, date);
      expect(regular).toBe(weekday(date) >= 1 && weekday(date) <= 5 && holidayOn(exchange, date) === undefined);
      if (regular) expect(isTradingDay(exchange, date)).toBe(true);
    }));
  });

  it('has about 250 NSE trading days a year', () => {
    for (const year of [2021, 2022, 2023, 2024, 2025]) {
      const days = tradingDaysBetween('NSE', d(`${year}-01-01`), d(`${year}-12-31`));
      expect(days.length).toBeGreaterThanOrEqual(245);
      expect(days.length).toBeLessThanOrEqual(253);
      expect(daysBetween(days[0]!, days.at(-1)!)).toBeLessThan(366);
    }
  });
});
