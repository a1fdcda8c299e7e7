// A sweep pool whose thread dies in the middle of a run: the run rejects with the reason (it never
// resolves with the rows the other thread made, nor hangs), and the pool refuses every later run
// rather than dealing chunks to a thread that is gone.
import type { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { algorithmFromExpressions, parameterGrid } from '@vyuha/engine';
import type { AlgorithmParameter, BacktestConfigInput } from '@vyuha/engine';
import { SweepPool } from '../../src/sweep/run-pool';
import { sessionBars } from '../helpers/session-bars';

const FAST: AlgorithmParameter = { name: 'fast', default: 2, from: 2, to: 30, step: 1 };
const SLOW: AlgorithmParameter = { name: 'slow', default: 10, from: 10, to: 60, step: 5 };
const document = {
  ...algorithmFromExpressions({ entry: 'crossover(sma(close, $fast), sma(close, $slow))', exit: 'crossunder(sma(close, $fast), sma(close, $slow))' }),
  parameters: [FAST, SLOW],
};
const config: BacktestConfigInput = { type: 'swing', sizing: { kind: 'quantity', quantity: 50 } };
const grid = parameterGrid(document.parameters, []);
if (!grid.ok) throw new Error(JSON.stringify(grid.error));
const combinations = grid.value;
const series = sessionBars({ days: 60, seed: 5 });
const pool = SweepPool.start(series, { workers: 2 });

afterAll(async () => {
  await pool.close();
});

describe('a sweep pool thread that dies mid-run', () => {
  it('rejects the run with the reason and refuses later runs', async () => {
    await pool.ready();
    // 29 x 11 = 319 runs of 22,500 bars, in chunks of one: the threads are busy when one is killed.
    expect(combinations).toHaveLength(319);
    let answered = 0;
    const run = pool.sweep({ document, config, combinations, metric: 'netPnl' }, { chunkSize: 1 }).then(
      () => 'resolved', (error: unknown) => (error instanceof Error ? error.message : String(error)));
    const threads = (pool as unknown as { threads: Worker[] }).threads;
    threads[1]?.on('message', () => (answered += 1));
    while (answered < 3) await new Promise((resolve) => setTimeout(resolve, 5));
    await threads[0]?.terminate();
    expect(await run).toMatch(/^a sweep worker thread stopped \(exit code \d+\)$/);
    await expect(pool.sweep({ document, config, combinations: combinations.slice(0, 2), metric: 'netPnl' })).rejects.toThrow(/a sweep worker thread stopped/);
  });
});
