import { describe, expect, it } from 'vitest';
import type { AlgorithmParameter } from '../algorithm/document';
import type { MeasuredRow } from './heatmap';
import { bestCell, stability, sweepHeatmap } from './heatmap';
import type { SweepMetrics } from './sweep-metrics';

const FAST: AlgorithmParameter = { name: 'fast', default: 5, from: 5, to: 20, step: 5 };
const SLOW: AlgorithmParameter = { name: 'slow', default: 30, from: 10, to: 40, step: 10 };

function metrics(sharpe: number | null): SweepMetrics {
  return {
    netPnl: 100, returnPercent: 1, maxDrawdown: 0, maxDrawdownPercent: 0, sharpe, winRate: null, trades: 0, profitFactor: null,
    candlesProcessed: 10, tradingDays: 1,
  };
}

// Sharpe by (fast, slow); fast < slow, so (10, 10), (15, 10), (20, 10), (20, 20) are constrained out.
const TABLE: ReadonlyArray<[number, number, number | null]> = [
  [5, 10, 0.1], [5, 20, 1], [5, 30, 1.5], [5, 40, 0.5],
  [10, 20, 2], [10, 30, 3], [10, 40, 2.5],
  [15, 20, 1], [15, 30, 2], [15, 40, null],
  [20, 30, -1], [20, 40, 0],
];
const rows: MeasuredRow[] = TABLE.map(([fast, slow, sharpe]) => ({ bindings: { fast, slow, pct: 1 }, metrics: metrics(sharpe) }));

describe('sweepHeatmap', () => {
  it('lays the metric out over two parameters, null where a cell is constrained out or has no value', () => {
    const heatmap = sweepHeatmap(rows, { x: 'fast', y: 'slow', metric: 'sharpe', fixed: { pct: 1 } });
    expect(heatmap.xValues).toEqual([5, 10, 15, 20]);
    expect(heatmap.yValues).toEqual([10, 20, 30, 40]);
    expect(heatmap.cells).toEqual([
      [0.1, null, null, null],
      [1, 2, 1, null],
      [1.5, 3, 2, -1],
      [0.5, 2.5, null, 0],
    ]);
  });

  it('keeps the other parameters at their fixed values', () => {
    const heatmap = sweepHeatmap(rows, { x: 'slow', y: 'fast', metric: 'sharpe', fixed: { pct: 2 } });
    expect(heatmap.cells.flat().every((cell) => cell === null)).toBe(true);
    expect(() => sweepHeatmap(rows, { x: 'fast', y: 'slow', metric: 'sharpe' })).toThrow('fixed: give a value for $pct');
    expect(() => sweepHeatmap(rows, { x: 'fast', y: 'fast', metric: 'sharpe', fixed: { pct: 1 } })).toThrow(RangeError);
  });
});

describe('bestCell and stability', () => {
  it('finds the best cell in either direction, ties to the first, nulls never best', () => {
    expect(bestCell(rows, 'sharpe')?.bindings).toEqual({ fast: 10, slow: 30, pct: 1 });
    expect(bestCell(rows, 'sharpe', 'min')?.bindings).toEqual({ fast: 20, slow: 30, pct: 1 });
    expect(bestCell(rows, 'netPnl')).toBe(rows[0]);
    expect(bestCell(rows.slice(9, 10), 'sharpe')).toBeUndefined();
  });

  it('summarises the one-step neighbourhood of the best cell', () => {
    const best = bestCell(rows, 'sharpe') as MeasuredRow;
    // fast 5..15 x slow 20..40: 9 rows, 8 with a value: 1 + 1.5 + 0.5 + 2 + 3 + 2.5 + 1 + 2 = 13.5.
    expect(stability(rows, { best, metric: 'sharpe', parameters: [FAST, SLOW] })).toEqual({ neighbours: 9, count: 8, mean: 13.5 / 8, min: 0.5, max: 3, meanOverBest: 13.5 / 8 / 3 });
    // At the grid's corner (5, 10): itself, (5, 20), (10, 20); (10, 10) is constrained out.
    const corner = rows[0] as MeasuredRow;
    expect(stability(rows, { best: corner, metric: 'sharpe', parameters: [FAST, SLOW] })).toEqual({ neighbours: 3, count: 3, mean: 3.1 / 3, min: 0.1, max: 2, meanOverBest: 3.1 / 3 / 0.1 });
  });
});
