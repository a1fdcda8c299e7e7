import { describe, expect, it } from 'vitest';
import { benchmarkSeries, comparisonCurve, correlations, dailyCloses, investmentHistory, runSeries, specialDays, type RunDays } from './performance';

const run = (id: string, pnls: number[], investmentPaise = 100_000_00): RunDays => ({
  runId: id, title: id, investmentPaise, from: '2026-08-03', to: '2026-08-07',
  days: pnls.map((pnl, index) => ({ date: `2026-08-0${index + 3}`, pnl_paise: pnl, orders_count: 2 })),
});

describe('performance panel', () => {
  it('returns are P&L over the investment with compute-investment, rupees without', () => {
    expect(runSeries(run('a', [1_000_00]), true).returns.get('2026-08-03' as never)).toBe(0.01);
    expect(runSeries(run('a', [1_000_00]), false).returns.get('2026-08-03' as never)).toBe(1000);
  });

  it('correlates runs with each other and with a buy-and-hold benchmark', () => {
    const a = runSeries(run('a', [100, -200, 300, -50, 80]), true);
    const b = runSeries(run('b', [200, -400, 600, -100, 160], 50_000_00), true);
    const closes = dailyCloses({ time: [Date.UTC(2026, 6, 31, 3, 45), Date.UTC(2026, 7, 3, 3, 45), Date.UTC(2026, 7, 4, 3, 45)], close: [2_400_000, 2_424_000, 2_400_000] });
    expect(closes.map((close) => close.date)).toEqual(['2026-07-31', '2026-08-03', '2026-08-04']);
    const nifty = benchmarkSeries('NIFTY 50', closes);
    expect(nifty?.returns.get('2026-08-03' as never)).toBeCloseTo(0.01, 12);
    const matrix = correlations([a, b, nifty as NonNullable<typeof nifty>]);
    expect(matrix.ids).toEqual(['a', 'b', 'NIFTY 50']);
    expect(matrix.matrix[0]?.[1]).toBeCloseTo(1, 12);
    expect(benchmarkSeries('NIFTY BANK', closes.slice(0, 1))).toBeUndefined();
  });

  it('investment history sums the investments in use where each run starts', () => {
    const history = investmentHistory([{ ...run('b', []), from: '2026-08-10', to: '2026-08-31', investmentPaise: 7 }, { ...run('a', []), to: '2026-08-31', investmentPaise: 5 }]);
    expect(history.map((entry) => [entry.date, entry.totalPaise])).toEqual([['2026-08-03', 5], ['2026-08-10', 12]]);
  });

  it('special days come from the market calendar inside the run range', () => {
    const budget = { ...run('a', []), from: '2025-01-27', to: '2025-02-07', days: [{ date: '2025-02-01', pnl_paise: -5_000, orders_count: 4 }] };
    const found = specialDays(budget, new Map([['2025-02-01', 1_000]]));
    expect(found.map((day) => [day.date, day.kind, day.netPnl, day.traded])).toEqual([['2025-02-01', 'budget_day', -5_000, true]]);
  });

  it('the comparison curve is return % or P&L in rupees', () => {
    const curve = { dates: ['2026-08-03', '2026-08-04'], equityPaise: [101_000_00, 99_000_00] };
    expect(comparisonCurve(curve, 100_000_00, true).map((point) => point.value)).toEqual([1, -1]);
    expect(comparisonCurve(curve, 100_000_00, false).map((point) => point.value)).toEqual([1000, -1000]);
  });
});
