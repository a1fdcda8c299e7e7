import fc from 'fast-check';
import { isoDate } from '@vyuha/core';
import { describe, expect, it } from 'vitest';
import { CHARGE_SCHEDULE, CHARGE_SCHEDULE_START, chargeRatesOn, isRowInForce, ratePercentText } from './charge-schedule';
import type { ChargeScheduleRow } from './charge-schedule';

function keyOf(row: ChargeScheduleRow): string {
  return [row.component, row.exchange ?? 'any', row.instrument, row.side, row.basis].join('|');
}

function rateOn(date: string, pick: (row: ChargeScheduleRow) => boolean): number | undefined {
  return chargeRatesOn({ date: isoDate(date), exchange: 'NSE', instrument: 'option' }).find(pick)?.rate;
}

describe('the charges schedule', () => {
  it('chains each rate from the schedule start with no gap or overlap, the last one open-ended', () => {
    const byKey = new Map<string, ChargeScheduleRow[]>();
    for (const row of CHARGE_SCHEDULE) byKey.set(keyOf(row), [...(byKey.get(keyOf(row)) ?? []), row]);
    for (const [key, rows] of byKey) {
      const sorted = [...rows].sort((a, b) => (a.from < b.from ? -1 : 1));
      expect(sorted[0]?.from, key).toBe(CHARGE_SCHEDULE_START);
      sorted.forEach((row, index) => {
        const next = sorted[index + 1];
        expect(row.to, key).toBe(next?.from);
      });
    }
  });

  it('has at most one row per key on any day 2020-2027', () => {
    const dates = fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2027, 11, 31) }).map((ms) => isoDate(new Date(ms).toISOString().slice(0, 10)));
    fc.assert(fc.property(dates, (date) => {
      const keys = CHARGE_SCHEDULE.filter((row) => isRowInForce(row, date)).map(keyOf);
      expect(new Set(keys).size).toBe(keys.length);
    }));
  });

  it('switches option STT on the days docs/MARKET-RULES.md gives', () => {
    const sellStt = (row: ChargeScheduleRow): boolean => row.component === 'stt' && row.basis === 'traded-value';
    expect(rateOn('2023-03-31', sellStt)).toBe(50_000);
    expect(rateOn('2023-04-01', sellStt)).toBe(62_500);
    expect(rateOn('2024-09-30', sellStt)).toBe(62_500);
    expect(rateOn('2024-10-01', sellStt)).toBe(100_000);
    expect(rateOn('2026-03-31', sellStt)).toBe(100_000);
    expect(rateOn('2026-04-01', sellStt)).toBe(150_000);
    expect(rateOn('2027-12-31', sellStt)).toBe(150_000);
  });

  it('uses whole parts per 10^8 for every rate', () => {
    expect(CHARGE_SCHEDULE.every((row) => Number.isSafeInteger(row.rate) && row.rate >= 0)).toBe(true);
  });

  it('prints rates as exact percentages', () => {
    expect(ratePercentText(35_030)).toBe('0.03503%');
    expect(ratePercentText(1_730)).toBe('0.00173%');
    expect(ratePercentText(62_500)).toBe('0.0625%');
    expect(ratePercentText(18_000_000)).toBe('18%');
    expect(ratePercentText(0)).toBe('0%');
  });
});
