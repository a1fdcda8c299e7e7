import { describe, expect, it } from 'vitest';
import { comparisonRows } from './metric-table';

const runA = { runId: 'a', title: 'A', metrics: { capital: 50_000_000, netPnl: 120_000, returnPercent: 0.24, sharpe: 1.234, profitFactor: 'infinite', trades: 12, winRate: 0.5 } };
const runB = { runId: 'b', title: 'B', metrics: { capital: 50_000_000, netPnl: -30_000, returnPercent: -0.06, sharpe: null, trades: 3 } };
const empty = { runId: 'c', title: 'C', metrics: null };

describe('side-by-side metric columns', () => {
  it('gives one value per run in the order of the runs', () => {
    const rows = comparisonRows([runA, runB, empty], { computeInvestment: true });
    const byKey = new Map(rows.map((row) => [row.key, row.values]));
    expect(byKey.get('netPnl')).toEqual(['₹1,200.00', '-₹300.00', '—']);
    expect(byKey.get('returnPercent')).toEqual(['0.24%', '-0.06%', '—']);
    expect(byKey.get('sharpe')).toEqual(['1.23', '—', '—']);
    expect(byKey.get('profitFactor')).toEqual(['∞', '—', '—']);
    expect(byKey.get('winRate')).toEqual(['50.00%', '—', '—']);
    expect(byKey.get('trades')).toEqual(['12', '3', '—']);
  });

  it('leaves out the rows computed on the investment when compute-investment is off', () => {
    const keys = comparisonRows([runA], { computeInvestment: false }).map((row) => row.key);
    expect(keys).toContain('netPnl');
    expect(keys).not.toContain('returnPercent');
    expect(keys).not.toContain('cagrPercent');
    expect(keys).not.toContain('sharpe');
  });
});
