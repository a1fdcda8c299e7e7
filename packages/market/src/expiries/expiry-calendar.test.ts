import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { addDays, isoDate, istEpochMs, weekday } from '@vyuha/core';
import { holidayOn } from '../calendar/holidays';
import { isRegularTradingDay } from '../calendar/sessions';
import { OPTION_UNDERLYINGS, derivativesExchangeOf } from '../index-configs';
import { expiriesBetween, expiryKindOn, nextExpiry, nextOpenExpiry } from './expiry-calendar';
import { EXPIRY_RULES } from './expiry-rules';

const d = isoDate;
const dates = (symbol: Parameters<typeof expiriesBetween>[0], from: string, to: string) =>
  expiriesBetween(symbol, d(from), d(to)).map((e) => e.date);
const monthlyDates = (symbol: Parameters<typeof expiriesBetween>[0], from: string, to: string) =>
  expiriesBetween(symbol, d(from), d(to)).filter((e) => e.kind === 'monthly').map((e) => e.date);

describe('NIFTY', () => {
  it('lists Q1-2024: Thursday weeklies and the last Thursday as monthly', () => {
    expect(expiriesBetween('NIFTY', d('2024-01-01'), d('2024-03-31'))).toEqual([
      ...['2024-01-04', '2024-01-11', '2024-01-18'].map((date) => ({ date, kind: 'weekly' })),
      { date: '2024-01-25', kind: 'monthly' },
      ...['2024-02-01', '2024-02-08', '2024-02-15', '2024-02-22'].map((date) => ({ date, kind: 'weekly' })),
      { date: '2024-02-29', kind: 'monthly' },
      ...['2024-03-07', '2024-03-14', '2024-03-21'].map((date) => ({ date, kind: 'weekly' })),
      { date: '2024-03-28', kind: 'monthly' },
    ]);
  });

  it('moves the weekly of Thu 11-Apr-2024 (Id-ul-Fitr) to Wed 10-Apr-2024', () => {
    expect(holidayOn('NFO', d('2024-04-11'))).toBeDefined();
    expect(dates('NIFTY', '2024-04-01', '2024-04-30')).toEqual(['2024-04-04', '2024-04-10', '2024-04-18', '2024-04-25']);
  });

  it('moves monthlies off Thursday holidays in 2023 (Republic Day, Ram Navami, Bakri Id)', () => {
    for (const holiday of ['2023-01-26', '2023-03-30', '2023-06-29']) expect(holidayOn('NFO', d(holiday))).toBeDefined();
    expect(monthlyDates('NIFTY', '2023-01-01', '2023-06-30')).toEqual(
      ['2023-01-25', '2023-02-23', '2023-03-29', '2023-04-27', '2023-05-25', '2023-06-28']);
  });

  it('switches to Tuesdays from September 2025', () => {
    expect(expiriesBetween('NIFTY', d('2025-08-25'), d('2025-09-30'))).toEqual([
      { date: '2025-08-28', kind: 'monthly' },
      ...['2025-09-02', '2025-09-09', '2025-09-16', '2025-09-23'].map((date) => ({ date, kind: 'weekly' })),
      { date: '2025-09-30', kind: 'monthly' },
    ]);
  });
});

describe('BANKNIFTY', () => {
  it('moved weeklies to Wednesday in Sep-2023 while the monthly stayed on the last Thursday', () => {
    expect(expiriesBetween('BANKNIFTY', d('2023-08-28'), d('2023-09-30'))).toEqual([
      { date: '2023-08-31', kind: 'monthly' },
      ...['2023-09-06', '2023-09-13', '2023-09-20'].map((date) => ({ date, kind: 'weekly' })),
      { date: '2023-09-28', kind: 'monthly' },
    ]);
  });

  it('had monthlies on the last Wednesday from March 2024, weeklies until 13-Nov-2024, and Christmas moved December', () => {
    expect(monthlyDates('BANKNIFTY', '2024-03-01', '2024-03-31')).toEqual(['2024-03-27']);
    expect(expiriesBetween('BANKNIFTY', d('2024-11-01'), d('2025-01-31'))).toEqual([
      { date: '2024-11-06', kind: 'weekly' },
      { date: '2024-11-13', kind: 'weekly' },
      { date: '2024-11-27', kind: 'monthly' },
      { date: '2024-12-24', kind: 'monthly' },
      { date: '2025-01-30', kind: 'monthly' },
    ]);
  });
});

describe('FINNIFTY, MIDCPNIFTY and SENSEX', () => {
  it('FINNIFTY: Thursday until mid-Oct 2021, Tuesday from 19-Oct-2021, last weekly 19-Nov-2024', () => {
    expect(dates('FINNIFTY', '2021-10-01', '2021-10-31')).toEqual(['2021-10-07', '2021-10-14', '2021-10-19', '2021-10-26']);
    expect(expiryKindOn('FINNIFTY', d('2021-10-26'))).toBe('monthly');
    expect(dates('FINNIFTY', '2024-11-12', '2025-01-31')).toEqual(['2024-11-12', '2024-11-19', '2024-11-26', '2024-12-31', '2025-01-30']);
    expect(dates('FINNIFTY', '2020-01-01', '2020-12-31')).toEqual([]);
  });

  it('MIDCPNIFTY: Tuesday, then Wednesday from May-2023, then Monday from 21-Aug-2023; last weekly 18-Nov-2024', () => {
    expect(expiriesBetween('MIDCPNIFTY', d('2023-04-17'), d('2023-05-10'))).toEqual([
      { date: '2023-04-18', kind: 'weekly' },
      { date: '2023-04-25', kind: 'monthly' },
      { date: '2023-05-03', kind: 'weekly' },
      { date: '2023-05-10', kind: 'weekly' },
    ]);
    expect(expiriesBetween('MIDCPNIFTY', d('2023-08-07'), d('2023-08-31'))).toEqual([
      { date: '2023-08-09', kind: 'weekly' },
      { date: '2023-08-16', kind: 'weekly' },
      { date: '2023-08-21', kind: 'weekly' },
      { date: '2023-08-28', kind: 'monthly' },
    ]);
    expect(dates('MIDCPNIFTY', '2024-11-11', '2024-12-31')).toEqual(['2024-11-11', '2024-11-18', '2024-11-25', '2024-12-30']);
    expect(dates('MIDCPNIFTY', '2021-01-01', '2021-12-31')).toEqual([]);
  });

  it('SENSEX: relaunched on Fridays in May-2023, Tuesdays in 2025, Thursdays from Sep-2025', () => {
    expect(dates('SENSEX', '2023-01-01', '2023-05-14')).toEqual([]);
    expect(expiriesBetween('SENSEX', d('2023-05-15'), d('2023-05-31'))).toEqual([
      { date: '2023-05-19', kind: 'weekly' },
      { date: '2023-05-26', kind: 'monthly' },
    ]);
    // Fri 1-Nov-2024 was Diwali (a holiday with only a muhurat session): the expiry moved to Thursday.
    expect(dates('SENSEX', '2024-10-28', '2024-11-03')).toEqual(['2024-10-31']);
    expect(dates('SENSEX', '2024-12-23', '2025-01-10')).toEqual(['2024-12-27', '2025-01-07']);
    expect(dates('SENSEX', '2025-08-25', '2025-09-12')).toEqual(['2025-08-26', '2025-09-04', '2025-09-11']);
  });
});

describe('nextExpiry', () => {
  it('counts the expiry day itself and can ask for a kind', () => {
    expect(nextExpiry('NIFTY', d('2024-04-10'))).toEqual({ date: '2024-04-10', kind: 'weekly' });
    expect(nextExpiry('NIFTY', d('2024-04-11'))).toEqual({ date: '2024-04-18', kind: 'weekly' });
    expect(nextExpiry('NIFTY', d('2024-04-11'), 'monthly')).toEqual({ date: '2024-04-25', kind: 'monthly' });
    expect(nextExpiry('BANKNIFTY', d('2024-11-14'))).toEqual({ date: '2024-11-27', kind: 'monthly' });
    expect(nextExpiry('MIDCPNIFTY', d('2021-06-01'))).toEqual({ date: '2022-01-25', kind: 'monthly' });
    expect(nextExpiry('BANKNIFTY', d('2025-01-01'), 'weekly')).toBeUndefined();
  });

  it('refuses dates outside the calendar', () => {
    expect(() => expiriesBetween('NIFTY', d('2019-12-31'), d('2020-01-31'))).toThrow('from 2019-12-31');
    expect(() => nextExpiry('NIFTY', d('2028-01-01'))).toThrow('date 2028-01-01');
  });
});

describe('invariants over 2020-2027', () => {
  const symbols = fc.constantFrom(...OPTION_UNDERLYINGS);
  const starts = fc.integer({ min: 0, max: 2_800 }).map((n) => addDays(d('2020-01-01'), n));

  it('shifts a Monday expiry over a Monday holiday into the previous week (MIDCPNIFTY, Gandhi Jayanti 2023)', () => {
    expect(dates('MIDCPNIFTY', '2023-09-25', '2023-10-06')).toEqual(['2023-09-25', '2023-09-29']);
  });

  it('every expiry is a regular trading day, dates strictly increase, one monthly per month at most', () => {
    fc.assert(fc.property(symbols, starts, (symbol, from) => {
      const expiries = expiriesBetween(symbol, from, addDays(from, 120));
      const exchange = derivativesExchangeOf(symbol);
      for (const [i, expiry] of expiries.entries()) if (i > 0) expect(expiry.date > expiries[i - 1]!.date).toBe(true);
      const months = expiries.filter((e) => e.kind === 'monthly').map((e) => e.date.slice(0, 7));
      expect(new Set(months).size).toBe(months.length);
      for (const expiry of expiries) expect(isRegularTradingDay(exchange, expiry.date)).toBe(true);
    }), { numRuns: 200 });
  });

  it('an expiry is on its rule weekday or shifted back over holidays only', () => {
    fc.assert(fc.property(symbols, starts, (symbol, from) => {
      const exchange = derivativesExchangeOf(symbol);
      for (const expiry of expiriesBetween(symbol, from, addDays(from, 60))) {
        const weekdays = new Set(EXPIRY_RULES.filter((r) => r.symbol === symbol && r.kind === expiry.kind).map((r) => r.weekday));
        let nominal = expiry.date;
        while (!weekdays.has(weekday(nominal))) {
          nominal = addDays(nominal, 1);
          expect(isRegularTradingDay(exchange, nominal)).toBe(false);
        }
      }
    }), { numRuns: 200 });
  });

  it('splitting a range does not change the expiries listed', () => {
    fc.assert(fc.property(symbols, starts, fc.integer({ min: 0, max: 90 }), (symbol, from, cut) => {
      const to = addDays(from, 90);
      const whole = expiriesBetween(symbol, from, to);
      const parts = [...expiriesBetween(symbol, from, addDays(from, cut)), ...expiriesBetween(symbol, addDays(from, cut + 1), to)];
      expect(parts).toEqual(whole);
    }), { numRuns: 100 });
  });
});

describe('nextOpenExpiry', () => {
  it('is an expiry day\'s own contract until its 15:30 IST close, then the next one', () => {
    // 2026-12-29 is December 2026's NIFTY monthly expiry (its last Tuesday).
    const at = (date: string, time: string): number => istEpochMs(isoDate(date), time);
    expect(nextOpenExpiry('NIFTY', at('2026-12-29', '10:00'), 'monthly')?.date).toBe('2026-12-29');
    expect(nextOpenExpiry('NIFTY', at('2026-12-29', '15:29:59'), 'monthly')?.date).toBe('2026-12-29');
    expect(nextOpenExpiry('NIFTY', at('2026-12-29', '15:30'), 'monthly')?.date).toBe('2027-01-26');
    expect(nextOpenExpiry('NIFTY', at('2026-12-29', '23:59'), 'monthly')?.date).toBe('2027-01-26');
    expect(nextOpenExpiry('NIFTY', at('2026-12-28', '16:00'), 'monthly')?.date).toBe('2026-12-29');
    // Any kind: the day's weekly or monthly rolls the same way, to the next expiry of any kind.
    const expiry = nextExpiry('NIFTY', isoDate('2026-10-30'));
    if (expiry === undefined) throw new Error('no expiry');
    expect(nextOpenExpiry('NIFTY', at(expiry.date, '15:29'))).toEqual(expiry);
    expect(nextOpenExpiry('NIFTY', at(expiry.date, '15:30'))).toEqual(nextExpiry('NIFTY', addDays(expiry.date, 1)));
  });

  it('is undefined outside the expiry calendar', () => {
    expect(nextOpenExpiry('NIFTY', Date.UTC(2035, 0, 1))).toBeUndefined();
    expect(nextOpenExpiry('NIFTY', Date.UTC(2019, 0, 1))).toBeUndefined();
  });
});
