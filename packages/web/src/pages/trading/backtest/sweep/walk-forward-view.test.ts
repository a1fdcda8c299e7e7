import { describe, expect, it } from 'vitest';
import { equityPoints, meanInSample, meanText, metricGapText, overfittingText, walkForwardRows, walkForwardSummary } from './walk-forward-view';

const metrics = (netPnl: number, sharpe: number | null) => ({
  netPnl, returnPercent: netPnl / 50_000_000 * 100, maxDrawdown: 0, maxDrawdownPercent: 0, sharpe, winRate: null, trades: 4, profitFactor: null, candlesProcessed: 375, tradingDays: 5,
});

// Two windows as sweep-run.ts stores them (position = window number), given out of order.
const STORED = [
  { position: 1, bindings: { fast: 10 }, metrics: {
    chosenIndex: 1, inSample: { fromDate: '2026-08-10', toDate: '2026-08-28', days: 15 }, outOfSample: { fromDate: '2026-08-31', toDate: '2026-09-04', days: 5 },
    inSampleMetrics: metrics(200_000, 2), outOfSampleMetrics: metrics(-10_000, -0.5) } },
  { position: 0, bindings: { fast: 5 }, metrics: {
    chosenIndex: 0, inSample: { fromDate: '2026-08-03', toDate: '2026-08-21', days: 15 }, outOfSample: { fromDate: '2026-08-24', toDate: '2026-08-28', days: 5 },
    inSampleMetrics: metrics(100_000, 1), outOfSampleMetrics: metrics(20_000, null) } },
  { position: 2, bindings: {}, metrics: { inSample: 'broken' } },
];

const SUMMARY = {
  metric: 'sharpe', windows: 2, outOfSampleMetrics: metrics(10_000, 0.3), meanInSampleMetric: 1.5,
  overfitting: { inSampleAnnualReturnPercent: 50.4, outOfSampleAnnualReturnPercent: 2.52, gapPercent: 47.88, efficiency: 0.05, metricGap: 1.2 },
  equity: { dates: ['2026-08-24', '2026-08-25'], equity: [50_020_000, 50_010_050] },
};

describe('a walk-forward', () => {
  it('lists its windows in order and leaves malformed rows out', () => {
    const rows = walkForwardRows(STORED);
    expect(rows.map((row) => [row.position, row.chosen, row.outOfSample.fromDate])).toEqual([[0, { fast: 5 }, '2026-08-24'], [1, { fast: 10 }, '2026-08-31']]);
  });

  it('means the in-sample metrics over the windows that have one', () => {
    const rows = walkForwardRows(STORED);
    expect(meanInSample(rows, 'netPnl')).toBe(150_000);
    expect(meanInSample(rows, 'winRate')).toBeNull();
    expect(meanText('trades', 46 / 3)).toBe('15.3');
    expect(meanText('netPnl', 150_000)).toBe('₹1,500.00');
  });

  it('plots the stitched equity in rupees by date', () => {
    const summary = walkForwardSummary(SUMMARY);
    expect(summary && equityPoints(summary)).toEqual([{ time: '2026-08-24', value: 500_200 }, { time: '2026-08-25', value: 500_100.5 }]);
    expect(walkForwardSummary({ metric: 'sharpe' })).toBeUndefined();
  });

  it('states the overfitting gap in words: returns a year, the gap, and what the efficiency says', () => {
    const text = overfittingText(SUMMARY.overfitting);
    expect(text[0]).toContain('returned 50.40% a year on average (in sample)');
    expect(text[0]).toContain('the same choices returned 2.52% a year (out of sample)');
    expect(text[1]).toBe('The gap: 47.88 points a year lost once the parameters meet new data.');
    expect(text[2]).toContain('kept only 5% of the in-sample return (walk-forward efficiency 0.05)');
    const robust = overfittingText({ inSampleAnnualReturnPercent: 20, outOfSampleAnnualReturnPercent: 24, gapPercent: -4, efficiency: 1.2, metricGap: null });
    expect(robust[1]).toBe('No gap: out of sample did as well or better, by 4.00 points a year.');
    expect(robust[2]).toContain('usually read as robust');
    expect(overfittingText({ ...SUMMARY.overfitting, efficiency: null })[2]).toContain('did not make money');
  });

  it('compares the chosen metric in and out of sample', () => {
    expect(metricGapText(walkForwardSummary(SUMMARY)!)).toBe('Sharpe (the metric the windows chose by): 1.50 in sample on average, 0.30 out of sample, stitched.');
  });
});
