import { istEpochMs, isoDate, paise } from '@vyuha/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DeepestFall, deepestDrawdown, equityAndDrawdown } from './drawdown';

describe('equity and drawdown curves', () => {
  it('daily: one point per trading day at its close, flat days repeat', () => {
    const tradingDays = ['2024-01-01', '2024-01-02', '2024-01-03'].map(isoDate);
    const days = [
      { date: isoDate('2024-01-01'), netPnl: paise(-5_000), grossPnl: paise(-4_000), charges: paise(1_000), orders: 2 },
      { date: isoDate('2024-01-03'), netPnl: paise(10_000), grossPnl: paise(10_000), charges: paise(0), orders: 2 },
    ];
    const curve = equityAndDrawdown({ capital: paise(100_000), days, tradingDays });
    expect(curve.kind).toBe('daily');
    expect([...curve.equity]).toEqual([95_000, 95_000, 105_000]);
    expect([...curve.drawdown]).toEqual([5_000, 5_000, 0]);
    expect([...curve.drawdownPercent]).toEqual([5, 5, 0]);
    expect(curve.times[0]).toBe(istEpochMs(isoDate('2024-01-01'), '15:30'));
  });

  it('per bar: the running peak over bars', () => {
    const curve = equityAndDrawdown({ capital: paise(100), bars: { times: Float64Array.of(1, 2, 3, 4), equity: Float64Array.of(120, 90, 130, 125) } });
    expect([...curve.drawdown]).toEqual([0, 30, 0, 5]);
    expect(curve.drawdownPercent[1]).toBeCloseTo(25, 12);
    expect(() => equityAndDrawdown({ capital: paise(100), bars: { times: Float64Array.of(2, 1), equity: Float64Array.of(1, 1) } })).toThrow(/equity\.times\[1\]/);
  });

  it('the deepest drawdown is the largest fall under the running peak', () => {
    fc.assert(fc.property(fc.array(fc.oneof(fc.integer({ min: 1, max: 1_000_000 }), fc.double({ min: 1, max: 1_000_000, noNaN: true })), { maxLength: 60 }), (values) => {
      const equity = Float64Array.from(values);
      const deepest = deepestDrawdown(equity, 500_000);
      let peak = 500_000;
      let expected = 0;
      let expectedPercent = 0;
      for (const value of values) {
        peak = Math.max(peak, value);
        expected = Math.max(expected, peak - value);
        expectedPercent = Math.max(expectedPercent, ((peak - value) / peak) * 100);
      }
      expect(deepest.depth).toBe(expected);
      // The percentage taken once per peak equals the per-bar one exactly.
      expect(deepest.depthPercent).toBe(expectedPercent);
      expect(deepest.depth).toBeGreaterThanOrEqual(0);
      if (deepest.recoveryPosition !== null) expect(equity[deepest.recoveryPosition]).toBeGreaterThanOrEqual(deepest.peakPosition < 0 ? 500_000 : equity[deepest.peakPosition]!);
    }));
  });

  it('DeepestFall fed value by value gives deepestDrawdown\'s depth and percentage, a repeated value fed once or every time', () => {
    fc.assert(fc.property(fc.array(fc.tuple(fc.integer({ min: 1, max: 1_000_000 }), fc.integer({ min: 1, max: 4 })), { maxLength: 60 }), (runs) => {
      const values = runs.flatMap(([value, repeat]) => Array.from({ length: repeat }, () => value));
      const expected = deepestDrawdown(Float64Array.from(values), 500_000);
      const everyValue = new DeepestFall(500_000);
      for (const value of values) everyValue.add(value);
      const oncePerRun = new DeepestFall(500_000);
      for (const [value] of runs) oncePerRun.add(value);
      for (const fall of [everyValue, oncePerRun]) expect([fall.depth, fall.depthPercent]).toEqual([expected.depth, expected.depthPercent]);
    }));
  });
});
