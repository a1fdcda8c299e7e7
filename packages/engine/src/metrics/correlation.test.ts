import { isoDate, paise } from '@vyuha/core';
import type { IsoDate } from '@vyuha/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alignReturns, buyAndHoldReturns, correlationMatrix, pearsonCorrelation, returnsCorrelation, runReturnSeries } from './correlation';
import type { ReturnSeries } from './correlation';

function series(id: string, range: [string, string], values: Record<string, number>): ReturnSeries {
  return { id, from: isoDate(range[0]), to: isoDate(range[1]), returns: new Map(Object.entries(values).map(([date, value]) => [isoDate(date), value])) };
}

describe('Pearson correlation', () => {
  it('matches a hand computation', () => {
    // x = 1, 2, 3 (mean 2), y = 2, 4, 7 (mean 13/3): cov = 5, var x = 2, var y = 38/3.
    expect(pearsonCorrelation([1, 2, 3], [2, 4, 7])).toBeCloseTo(5 / Math.sqrt(2 * (38 / 3)), 14);
    expect(pearsonCorrelation([1, 2, 3], [3, 2, 1])).toBeCloseTo(-1, 14);
  });

  it('is undefined (null) without spread or with fewer than 2 points', () => {
    expect(pearsonCorrelation([1, 1, 1], [1, 2, 3])).toBeNull();
    expect(pearsonCorrelation([1], [2])).toBeNull();
    expect(() => pearsonCorrelation([1, 2], [1])).toThrow(/b: must have as many values/);
  });

  it('stays within [-1, 1] and is symmetric', () => {
    const samples = fc.array(fc.tuple(fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true })), { minLength: 2, maxLength: 50 });
    fc.assert(fc.property(samples, (pairs) => {
      const a = pairs.map(([x]) => x);
      const b = pairs.map(([, y]) => y);
      const r = pearsonCorrelation(a, b);
      expect(r).toBe(pearsonCorrelation(b, a));
      if (r !== null) expect(Math.abs(r)).toBeLessThanOrEqual(1);
    }));
  });
});

describe('aligning runs and benchmarks on dates', () => {
  it('uses the dates inside both ranges, a missing day as 0', () => {
    const a = series('a', ['2024-01-01', '2024-01-10'], { '2024-01-02': 0.01, '2024-01-03': -0.02, '2024-01-09': 0.03 });
    const b = series('b', ['2024-01-03', '2024-01-31'], { '2024-01-03': 0.5, '2024-01-04': 0.1, '2024-01-20': 0.9 });
    const aligned = alignReturns(a, b);
    expect(aligned.dates).toEqual(['2024-01-03', '2024-01-04', '2024-01-09']);
    expect([...aligned.a]).toEqual([-0.02, 0, 0.03]);
    expect([...aligned.b]).toEqual([0.5, 0.1, 0]);
  });

  it('builds a run series over every trading day, flat days 0', () => {
    const run = runReturnSeries('run', {
      capital: 1_000_000,
      days: [{ date: isoDate('2024-01-02'), netPnl: paise(10_000), grossPnl: paise(10_000), charges: paise(0), orders: 2 }],
      period: { from: isoDate('2024-01-01'), to: isoDate('2024-01-05') },
    });
    expect([...run.returns.entries()]).toEqual([['2024-01-01', 0], ['2024-01-02', 0.01], ['2024-01-03', 0], ['2024-01-04', 0], ['2024-01-05', 0]]);
  });

  it('turns benchmark closes into buy-and-hold returns', () => {
    const closes = [100, 110, 99, 99].map((close, index) => ({ date: isoDate(`2024-01-0${index + 1}`), close }));
    const nifty = buyAndHoldReturns('NIFTY 50', closes);
    expect(nifty.from).toBe('2024-01-02');
    expect(nifty.returns.get('2024-01-02' as IsoDate)).toBeCloseTo(0.1, 15);
    expect(nifty.returns.get('2024-01-03' as IsoDate)).toBeCloseTo(-0.1, 15);
    expect(nifty.returns.get('2024-01-04' as IsoDate)).toBe(0);
    expect(() => buyAndHoldReturns('x', [closes[0]!])).toThrow(/closes: need at least 2/);
    expect(() => buyAndHoldReturns('x', [closes[1]!, closes[0]!])).toThrow(/closes\[1\]\.date/);
  });

  it('a run that is 2x the benchmark correlates 1, its mirror -1', () => {
    const closes = [100, 102, 101, 104, 103].map((close, index) => ({ date: isoDate(`2024-01-0${index + 1}`), close }));
    const nifty = buyAndHoldReturns('NIFTY 50', closes);
    const double = { ...nifty, id: 'double', returns: new Map([...nifty.returns].map(([date, value]) => [date, value * 2])) };
    const mirror = { ...nifty, id: 'mirror', returns: new Map([...nifty.returns].map(([date, value]) => [date, -value])) };
    expect(returnsCorrelation(nifty, double)).toBeCloseTo(1, 12);
    const matrix = correlationMatrix([double, mirror, nifty]);
    expect(matrix.ids).toEqual(['double', 'mirror', 'NIFTY 50']);
    expect(matrix.matrix[0]?.[1]).toBeCloseTo(-1, 12);
    expect(matrix.matrix[1]?.[0]).toBe(matrix.matrix[0]?.[1]);
    expect(matrix.matrix[2]?.[2]).toBeCloseTo(1, 12);
    expect(() => correlationMatrix([nifty, nifty])).toThrow(/series\[1\]\.id: must be unique/);
  });
});
