import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoDate } from '@vyuha/core';
import { barSessionProblem, createBarSessionGuard, isSpecialSessionRefusal, tradeDateProblem, type SessionRules } from './session-check';

/** 2025-01-15 11:30 IST = 06:00 UTC. */
const NOW = Date.UTC(2025, 0, 15, 6, 0);
const nse: SessionRules = { exchange: 'NSE', now: NOW, specialSessions: false };
const nseWithSpecial: SessionRules = { ...nse, specialSessions: true };

/** Epoch ms of an IST wall time, computed through UTC (IST = UTC + 05:30). */
function ist(date: string, time: string): number {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const [hour, minute] = time.split(':').map(Number) as [number, number];
  return Date.UTC(year, month - 1, day, hour, minute) - 330 * 60_000;
}

describe('barSessionProblem: a 1-minute bar must open inside a session, never in the future', () => {
  it('accepts the first and last bar of a normal NSE session (stamped with their opening minute)', () => {
    expect(barSessionProblem(nse, ist('2024-01-05', '09:15'))).toBeUndefined();
    expect(barSessionProblem(nse, ist('2024-01-05', '15:29'))).toBeUndefined();
  });

  it('names the session for a bar at 03:00 and before the open', () => {
    expect(barSessionProblem(nse, ist('2024-01-05', '03:00'))).toBe('2024-01-05 03:00 is outside the NSE session 09:15-15:30');
    expect(barSessionProblem(nse, ist('2024-01-05', '09:14'))).toBe('2024-01-05 09:14 is outside the NSE session 09:15-15:30');
  });

  it('explains a bar stamped 15:30: the file is probably stamped at the close', () => {
    expect(barSessionProblem(nse, ist('2024-01-05', '15:30')))
      .toBe('2024-01-05 15:30 is outside the NSE session 09:15-15:30 (a bar is stamped with its opening minute: the last one opens at 15:29)');
  });

  it('refuses weekends and names holidays', () => {
    expect(barSessionProblem(nse, ist('2024-01-07', '10:00'))).toBe('2024-01-07 is a Sunday, when NSE has no session');
    expect(barSessionProblem(nse, ist('2024-01-26', '10:00'))).toBe('2024-01-26 is a holiday on NSE (Republic Day)');
    expect(barSessionProblem({ ...nse, exchange: 'NFO' }, ist('2024-01-26', '10:00'))).toBe('2024-01-26 is a holiday on NFO (Republic Day)');
  });

  it('refuses the future, even on a day the calendar does not cover yet', () => {
    expect(barSessionProblem(nse, ist('2031-01-06', '09:15'))).toBe('2031-01-06 09:15 is in the future (now: 2025-01-15 11:30 IST)');
    expect(barSessionProblem(nse, NOW + 60_000)).toBe('2025-01-15 11:31 is in the future (now: 2025-01-15 11:30 IST)');
    expect(barSessionProblem(nse, NOW)).toBeUndefined();
  });

  it('refuses special sessions unless allowed, and then only within their hours', () => {
    const muhurat = barSessionProblem(nse, ist('2024-11-01', '18:15'));
    expect(muhurat).toBe('2024-11-01 is a holiday on NSE (Diwali Laxmi Pujan (Muhurat trading session held)): its only session is '
      + 'the NSE muhurat session 18:00-19:00; special sessions are refused unless allowed');
    expect(isSpecialSessionRefusal(muhurat ?? '')).toBe(true);
    expect(barSessionProblem(nse, ist('2024-01-20', '09:15')))
      .toBe('2024-01-20 is a Saturday: its only session is the NSE special session 09:15-15:30; special sessions are refused unless allowed');
    expect(barSessionProblem(nseWithSpecial, ist('2024-11-01', '18:15'))).toBeUndefined();
    expect(barSessionProblem(nseWithSpecial, ist('2024-01-20', '15:29'))).toBeUndefined();
    expect(barSessionProblem(nseWithSpecial, ist('2024-11-01', '10:00'))).toBe('2024-11-01 10:00 is outside the NSE muhurat session 18:00-19:00');
    expect(barSessionProblem(nseWithSpecial, ist('2024-03-02', '12:30'))).toMatch(/^2024-03-02 12:30 is outside the NSE special session 09:15-12:30 \(/);
    expect(isSpecialSessionRefusal('2024-01-26 is a holiday on NSE (Republic Day)')).toBe(false);
  });

  it('keeps a weekend closed when the calendar lists a special session without its hours', () => {
    expect(barSessionProblem({ ...nseWithSpecial, now: Date.UTC(2027, 0, 1) }, ist('2026-11-08', '18:15'))).toBe('2026-11-08 is a Sunday, when NSE has no session');
  });
});

describe('tradeDateProblem: a whole day (a bhavcopy) must have a session and be over', () => {
  it('accepts a trading day up to today and refuses later days', () => {
    const nfo: SessionRules = { ...nse, exchange: 'NFO' };
    expect(tradeDateProblem(nfo, isoDate('2024-03-14'))).toBeUndefined();
    expect(tradeDateProblem(nfo, isoDate('2025-01-15'))).toBeUndefined();
    expect(tradeDateProblem(nfo, isoDate('2025-01-16'))).toBe('2025-01-16 is in the future (today is 2025-01-15 IST)');
    expect(tradeDateProblem(nfo, isoDate('2024-01-26'))).toBe('2024-01-26 is a holiday on NFO (Republic Day)');
    expect(tradeDateProblem(nfo, isoDate('2024-03-16'))).toBe('2024-03-16 is a Saturday, when NFO has no session');
    expect(tradeDateProblem(nfo, isoDate('2024-01-20'))).toMatch(/special sessions are refused unless allowed$/);
    expect(tradeDateProblem({ ...nfo, specialSessions: true }, isoDate('2024-01-20'))).toBeUndefined();
  });
});

describe('createBarSessionGuard', () => {
  it('agrees with barSessionProblem on any minute of 2020-2026, with or without special sessions', () => {
    const firstMidnight = ist('2020-01-01', '00:00');
    // Minutes of the day: any, or one either side of a session edge (09:00, 09:15, 12:30, 13:45, 15:30, 17:00, 18:00, 18:15, 19:00, 19:15).
    const edges = [540, 555, 750, 825, 930, 1020, 1080, 1095, 1140, 1155].flatMap((edge) => [edge - 1, edge]);
    const minute = fc.oneof(fc.integer({ min: 0, max: 1439 }), fc.constantFrom(...edges));
    const bar = fc.tuple(fc.integer({ min: 0, max: 2556 }), minute).map(([day, ofDay]) => firstMidnight + day * 86_400_000 + ofDay * 60_000);
    fc.assert(
      fc.property(
        fc.array(bar, { minLength: 1, maxLength: 40 }),
        fc.boolean(),
        fc.constantFrom('NSE', 'NFO', 'BSE', 'CDS'),
        (times, specialSessions, exchange) => {
          const rules: SessionRules = { exchange: exchange as SessionRules['exchange'], now: Date.UTC(2026, 5, 1), specialSessions };
          const guard = createBarSessionGuard(rules);
          // In time order, as a file's bars come, so the guard's per-day cache is exercised.
          for (const time of [...times].sort((a, b) => a - b)) {
            expect(guard.accepts(time), new Date(time).toISOString()).toBe(barSessionProblem(rules, time) === undefined);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
