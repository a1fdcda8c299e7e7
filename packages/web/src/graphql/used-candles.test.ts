// The BACKTEST credits used, as the header and the backtest form count them: runs and sweeps (the
// server's licences view), unknown until both subscriptions have answered.
import { describe, expect, it } from 'vitest';
import { usedCandles } from './documents';

const runs = (candles: number | string | null) => ({ strategy_runs_aggregate: { aggregate: { sum: { candles } } } });
const sweeps = (candles: number | string | null) => ({ sweeps_aggregate: { aggregate: { sum: { candles } } } });

describe('usedCandles', () => {
  it('adds the sweeps\' candles to the runs\' (bigint sums may come as text)', () => {
    expect(usedCandles(runs(80_000), sweeps('1425000'))).toBe(1_505_000);
    expect(usedCandles(runs(null), sweeps(null))).toBe(0);
    expect(usedCandles({ strategy_runs_aggregate: { aggregate: null } }, sweeps(12))).toBe(12);
  });

  it('is unknown until both have answered', () => {
    expect(usedCandles(undefined, sweeps(5))).toBeUndefined();
    expect(usedCandles(runs(5), undefined)).toBeUndefined();
  });
});
