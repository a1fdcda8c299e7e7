// Walk-forward with the in-sample sweeps on the pool's threads against the serial runWalkForward:
// the same windows, choices, metrics, stitched equity and gap, rolling and anchored.
import { afterAll, describe, expect, it } from 'vitest';
import { algorithmFromExpressions, parameterGrid, runWalkForward, walkForwardWindows } from '@vyuha/engine';
import type { BacktestConfigInput } from '@vyuha/engine';
import { SweepPool } from '../../src/sweep/run-pool';
import { walkForwardInPool } from '../../src/sweep/walk-forward-pool';
import { sessionBars } from '../helpers/session-bars';

const document = {
  ...algorithmFromExpressions({ entry: 'crossover(sma(close, $fast), sma(close, $slow))', exit: 'crossunder(sma(close, $fast), sma(close, $slow))' }),
  parameters: [{ name: 'fast', default: 3, from: 3, to: 12, step: 3 }, { name: 'slow', default: 10, from: 10, to: 40, step: 10 }],
  constraints: ['$fast < $slow'],
};
const config: BacktestConfigInput = { type: 'swing', sizing: { kind: 'quantity', quantity: 50 }, charges: { kind: 'schedule', exchange: 'NSE', instrument: 'future' } };
const grid = parameterGrid(document.parameters, document.constraints);
if (!grid.ok) throw new Error(JSON.stringify(grid.error));
const combinations = grid.value;
const series = sessionBars({ days: 30, seed: 11 });
const pool = SweepPool.start(series, { workers: 2 });

afterAll(async () => {
  await pool.close();
});

describe('walkForwardInPool', () => {
  it('runs walk-forward with its in-sample sweeps on the threads, equal to the serial runWalkForward', async () => {
    for (const spec of [{ inSampleDays: 10, outOfSampleDays: 5 }, { inSampleDays: 8, outOfSampleDays: 4, stepDays: 6, anchored: true }]) {
      const windows = walkForwardWindows(series, spec);
      if (!windows.ok) throw new Error(JSON.stringify(windows.error));
      const request = { series, document, config, combinations, metric: 'netPnl' as const, windows: windows.value };
      const serial = runWalkForward(request);
      const pooled = await walkForwardInPool(pool, request, { chunkSize: 5 });
      expect(pooled.windows.length).toBeGreaterThan(2);
      pooled.windows.forEach((window, index) => expect(window).toStrictEqual(serial.windows[index]));
      expect(pooled).toStrictEqual(serial);
    }
  });
});
