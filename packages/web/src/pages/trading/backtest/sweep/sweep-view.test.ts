import type { SweepMetrics } from '@vyuha/engine';
import { bestCell, stability } from '@vyuha/engine';
import { describe, expect, it } from 'vitest';
import { bestFirst, cellColor, metricText, nextOrder, parameterNames, sortRows, stabilityText, sweepRows, sweepSummary } from './sweep-view';
import type { SweepRowRecord } from './sweep-view';

function metrics(sharpe: number | null, netPnl: number, profitFactor: number | 'infinite' | null = 1): SweepMetrics {
  return { netPnl, returnPercent: netPnl / 50_000_000 * 100, maxDrawdown: 100_000, maxDrawdownPercent: 2, sharpe, winRate: 0.5, trades: 10, profitFactor, candlesProcessed: 375, tradingDays: 20 };
}

// A 3 x 2 grid of $fast (5, 10, 15) x $slow (20, 30), fast slowest; row 4 ties row 1's Sharpe.
const ROWS: SweepRowRecord[] = [
  { position: 0, bindings: { fast: 5, slow: 20 }, metrics: metrics(0.4, 10_000) },
  { position: 1, bindings: { fast: 5, slow: 30 }, metrics: metrics(1.2, 90_000) },
  { position: 2, bindings: { fast: 10, slow: 20 }, metrics: metrics(null, 0, null) },
  { position: 3, bindings: { fast: 10, slow: 30 }, metrics: metrics(-0.3, -5_000) },
  { position: 4, bindings: { fast: 15, slow: 20 }, metrics: metrics(1.2, 80_000, 'infinite') },
  { position: 5, bindings: { fast: 15, slow: 30 }, metrics: metrics(0.9, 40_000) },
];

describe('the sweep table', () => {
  it('puts the engine best cell on top: best first, ties in grid order, no value last', () => {
    const sorted = sortRows(ROWS, bestFirst('sharpe'));
    expect(sorted.map((row) => row.position)).toEqual([1, 4, 5, 0, 3, 2]);
    expect(sorted[0]?.position).toBe(bestCell(ROWS, 'sharpe')?.position);
  });

  it('ranks an infinite profit factor above every number, as bestCell does', () => {
    expect(sortRows(ROWS, bestFirst('profitFactor'))[0]?.position).toBe(4);
    expect(bestCell(ROWS, 'profitFactor')?.position).toBe(4);
  });

  it('sorts a lower-is-better metric ascending first and flips on a second click', () => {
    expect(bestFirst('maxDrawdown')).toEqual({ column: { kind: 'metric', metric: 'maxDrawdown' }, direction: 'asc' });
    const order = nextOrder(bestFirst('sharpe'), { kind: 'metric', metric: 'sharpe' });
    expect(order.direction).toBe('asc');
    expect(sortRows(ROWS, order).map((row) => row.position)).toEqual([3, 0, 5, 1, 4, 2]);
    expect(sortRows(ROWS, nextOrder(order, { kind: 'parameter', name: 'slow' })).map((row) => row.position)).toEqual([0, 2, 4, 1, 3, 5]);
  });

  it('keeps the declared parameter order and reads stored rows', () => {
    expect(parameterNames(ROWS, ['slow', 'fast'])).toEqual(['slow', 'fast']);
    expect(sweepRows([{ position: 1, bindings: { a: 1 }, metrics: {} }, { position: 'x' }]).length).toBe(1);
  });
});

describe('metric text and colour', () => {
  it('writes paise as rupees, percent and ratios as the results screen does', () => {
    expect(metricText('netPnl', 1_234_550)).toBe('₹12,345.50');
    expect(metricText('maxDrawdown', 10_000_000)).toBe('₹1,00,000.00');
    expect(metricText('returnPercent', 3.14159)).toBe('3.14%');
    expect(metricText('winRate', 0.625)).toBe('62.50%');
    expect(metricText('profitFactor', 'infinite')).toBe('∞');
    expect(metricText('sharpe', null)).toBe('—');
    expect(metricText('trades', 123_456)).toBe('1,23,456');
  });

  it('colours best green and worst red, flipped where lower is better', () => {
    expect(cellColor(2, { min: 0, max: 2, metric: 'sharpe' })).toBe('hsl(130, 55%, 42%)');
    expect(cellColor(0, { min: 0, max: 2, metric: 'sharpe' })).toBe('hsl(0, 55%, 42%)');
    expect(cellColor(0, { min: 0, max: 2, metric: 'maxDrawdown' })).toBe('hsl(130, 55%, 42%)');
    expect(cellColor(null, { min: 0, max: 2, metric: 'sharpe' })).toBe('var(--mantine-color-default-border)');
  });
});

describe('the summary', () => {
  it('reads the best cell and says whether it sits on a plateau or a lone peak', () => {
    const best = bestCell(ROWS, 'sharpe') as SweepRowRecord;
    const parameters = [{ name: 'fast', default: 5, from: 5, to: 15, step: 5 }, { name: 'slow', default: 20, from: 20, to: 30, step: 10 }];
    const figures = stability(ROWS, { best, metric: 'sharpe', parameters });
    const summary = sweepSummary({ metric: 'sharpe', best: { position: best.position, bindings: best.bindings, metrics: best.metrics }, stability: figures }, 'sharpe');
    expect(summary?.best?.position).toBe(1);
    // Neighbours of ($fast 5, $slow 30): rows 0, 1, 2, 3; Sharpe 0.4, 1.2, -0.3 (row 2 has none): mean 0.433, 0.767 short of 1.2 (64%).
    expect(stabilityText(summary?.stability as NonNullable<typeof figures>, 'sharpe', 1.2))
      .toBe('Within one step of every parameter (4 combinations, the best included), Sharpe averages 0.43 (from -0.30 to 1.20), 0.77 short of the best on average (64%): a lone peak: one step away is clearly worse, so the best may be luck.');
  });

  it('judges a plateau by the shortfall against the best, negative values too', () => {
    // Best Sharpe -4.78, neighbours average -5.53: 0.75 short, 16% of 4.78: a plateau (a ratio mean / best, 1.16, would say nothing).
    const text = stabilityText({ neighbours: 4, count: 4, mean: -5.53, min: -6.42, max: -4.78, meanOverBest: 1.16 }, 'sharpe', -4.78);
    expect(text).toContain('0.75 short of the best on average (16%): a plateau');
    // Lower is better: drawdowns of ₹1,000 at best and ₹2,000 on average around it: a lone dip.
    expect(stabilityText({ neighbours: 3, count: 3, mean: 200_000, min: 100_000, max: 300_000, meanOverBest: 2 }, 'maxDrawdown', 100_000))
      .toContain('₹1,000.00 short of the best on average (100%): a lone dip');
  });
});
