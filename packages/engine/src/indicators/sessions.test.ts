import { describe, it, expect } from 'vitest';
import { istEpochMs } from '@vyuha/core';
import type { IsoDate } from '@vyuha/core';
import type { IndicatorBar } from './indicator';
import { createIndicator, indicatorWarmup } from './factory';
import { OpeningRange, PivotPoints, PreviousDayOhlc, VolumeWeightedAveragePrice } from './sessions';

/** A bar at `date time` IST. */
function bar(at: string, prices: { open?: number; high: number; low: number; close: number; volume?: number }): IndicatorBar {
  const [date, time] = at.split(' ') as [string, string];
  return { time: istEpochMs(date as IsoDate, time), open: prices.open ?? prices.close, high: prices.high, low: prices.low, close: prices.close, volume: prices.volume ?? 0 };
}

describe('VWAP', () => {
  it('weights typical prices by volume and restarts on a new IST date', () => {
    const vwap = new VolumeWeightedAveragePrice();
    // Typical prices 100 (volume 10) and 103 (volume 30): (1000 + 3090) / 40 = 102.25.
    vwap.update(0, bar('2024-01-01 15:28:00', { high: 102, low: 98, close: 100, volume: 10 }));
    expect(vwap.output(0)).toBe(100);
    vwap.update(0, bar('2024-01-01 15:29:00', { high: 106, low: 100, close: 103, volume: 30 }));
    expect(vwap.output(0)).toBe(102.25);
    // Next morning: only today's bar counts.
    vwap.update(0, bar('2024-01-02 09:15:00', { high: 110, low: 104, close: 107, volume: 5 }));
    expect(vwap.output(0)).toBe(107);
    expect(vwap.ready).toBe(true);
  });

  it('falls back to the mean typical price while the session has no volume (index bars)', () => {
    const vwap = new VolumeWeightedAveragePrice();
    expect(vwap.ready).toBe(false);
    vwap.update(0, bar('2024-01-01 09:15:00', { high: 102, low: 98, close: 100 }));
    vwap.update(0, bar('2024-01-01 09:16:00', { high: 106, low: 100, close: 103 }));
    expect(vwap.output(0)).toBe(101.5);
    expect(indicatorWarmup('vwap', [])).toBe(1);
  });
});

describe('previous-day OHLC and floor pivots', () => {
  const dayOne = [
    bar('2024-01-01 09:15:00', { open: 100, high: 110, low: 95, close: 108 }),
    bar('2024-01-01 12:00:00', { open: 108, high: 120, low: 100, close: 115 }),
    bar('2024-01-01 15:29:00', { open: 115, high: 116, low: 90, close: 105 }),
  ];
  const dayTwo = bar('2024-01-02 09:15:00', { open: 106, high: 107, low: 104, close: 105 });

  it('is not ready during the first day and gives yesterday from the first bar of the next', () => {
    const previousDay = new PreviousDayOhlc();
    for (const item of dayOne) {
      previousDay.update(0, item);
      expect(previousDay.ready).toBe(false);
      expect(previousDay.output(3)).toBeNaN();
    }
    previousDay.update(0, dayTwo);
    expect(previousDay.ready).toBe(true);
    expect([0, 1, 2, 3].map((index) => previousDay.output(index))).toEqual([100, 120, 90, 105]);
  });

  it('computes P, R1-R3 and S1-S3 from H 120, L 90, C 105', () => {
    const pivots = new PivotPoints();
    for (const item of dayOne) pivots.update(0, item);
    expect(pivots.ready).toBe(false);
    pivots.update(0, dayTwo);
    // P = (120 + 90 + 105) / 3 = 105; R1 = 2P - L = 120; R2 = P + (H - L) = 135; R3 = H + 2(P - L) = 150;
    // S1 = 2P - H = 90; S2 = P - (H - L) = 75; S3 = L - 2(H - P) = 60.
    expect([0, 1, 2, 3, 4, 5, 6].map((index) => pivots.output(index))).toEqual([105, 120, 135, 150, 90, 75, 60]);
    // Today's bars do not move today's pivots.
    pivots.update(0, bar('2024-01-02 10:00:00', { high: 200, low: 10, close: 150 }));
    expect(pivots.output(0)).toBe(105);
  });

  it('uses the last trading day across a weekend, and the fewest bars to be ready is 2', () => {
    const pivots = createIndicator('pivot', []);
    pivots.update(0, bar('2024-01-05 15:29:00', { high: 30, low: 0, close: 15 }));
    pivots.update(0, bar('2024-01-08 09:15:00', { high: 16, low: 14, close: 15 }));
    expect(pivots.output(0)).toBe(15);
    expect(indicatorWarmup('pivot', [])).toBe(2);
    expect(indicatorWarmup('prev_day', [])).toBe(2);
  });
});

describe('opening range', () => {
  it('spans the first 15 minutes of 1-minute bars and is ready from the 09:30 bar', () => {
    const range = new OpeningRange(15);
    for (let minute = 0; minute < 15; minute += 1) {
      const time = `09:${String(15 + minute).padStart(2, '0')}:00`;
      // Highs 101..115, lows 99..85: the range is 115 / 85 once complete.
      range.update(0, bar(`2024-01-01 ${time}`, { high: 101 + minute, low: 99 - minute, close: 100 }));
      expect(range.ready).toBe(false);
      expect(range.output(0)).toBeNaN();
    }
    // The 09:30 bar breaks out; it is not part of the range.
    range.update(0, bar('2024-01-01 09:30:00', { high: 130, low: 80, close: 125 }));
    expect(range.ready).toBe(true);
    expect([range.output(0), range.output(1)]).toEqual([115, 85]);
    range.update(0, bar('2024-01-01 11:00:00', { high: 140, low: 70, close: 125 }));
    expect([range.output(0), range.output(1)]).toEqual([115, 85]);
    // A new session: not ready again until its own range is complete.
    range.update(0, bar('2024-01-02 09:15:00', { high: 200, low: 190, close: 195 }));
    expect(range.ready).toBe(false);
    range.update(0, bar('2024-01-02 09:30:00', { high: 300, low: 100, close: 195 }));
    expect([range.output(0), range.output(1)]).toEqual([200, 190]);
  });

  it('with 15-minute bars the range is the first bar, known at the second', () => {
    const range = createIndicator('orb', [15]);
    range.update(0, bar('2024-01-01 09:15:00', { high: 105, low: 95, close: 100 }));
    expect(range.ready).toBe(false);
    range.update(0, bar('2024-01-01 09:30:00', { high: 110, low: 90, close: 100 }));
    expect([range.ready, range.output(0), range.output(1)]).toEqual([true, 105, 95]);
    expect(indicatorWarmup('orb', [15])).toBe(2);
  });
});
