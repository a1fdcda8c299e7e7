// The sweep jobs' threads (jobs/sweep-threads.ts): one pool for every sweep of the process. Jobs
// of different sweeps, over different series, take turns on the same threads and each equals the
// serial chunk over its own bars; a failed job drops the pool and the next starts a new one; an
// idle pool is closed; closed threads refuse jobs.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { algorithmFromExpressions, parameterGrid, runSweepChunk, SweepError } from '@vyuha/engine';
import type { AlgorithmParameter, BacktestConfigInput } from '@vyuha/engine';
import { SweepThreads } from '../../src/jobs/sweep-threads';
import { SweepPool } from '../../src/sweep/run-pool';
import { sessionBars } from '../helpers/session-bars';

const FAST: AlgorithmParameter = { name: 'fast', default: 3, from: 3, to: 12, step: 3 };
const SLOW: AlgorithmParameter = { name: 'slow', default: 10, from: 10, to: 40, step: 10 };
const document = {
  ...algorithmFromExpressions({ entry: 'crossover(sma(close, $fast), sma(close, $slow))', exit: 'crossunder(sma(close, $fast), sma(close, $slow))' }),
  parameters: [FAST, SLOW],
  constraints: ['$fast < $slow'],
};
const config: BacktestConfigInput = { type: 'swing', sizing: { kind: 'quantity', quantity: 50 }, charges: { kind: 'schedule', exchange: 'NSE', instrument: 'future' } };
const grid = parameterGrid([FAST, SLOW], ['$fast < $slow']);
if (!grid.ok) throw new Error('the grid is valid');
const combinations = grid.value;
const job = { document, config, combinations, metric: 'sharpe' as const };
const first = sessionBars({ days: 30, seed: 21 });
const second = sessionBars({ days: 25, seed: 22 });

afterEach(() => {
  vi.restoreAllMocks();
});

describe('SweepThreads', () => {
  it('runs the jobs of sweeps over different series in turn on one pool, each equal to the serial chunk over its bars', async () => {
    const starts = vi.spyOn(SweepPool, 'start');
    const threads = new SweepThreads({ threads: 2 });
    try {
      // Asked for at once: the second waits for the first, then the threads get its series.
      const [a, b] = await Promise.all([
        threads.rows({ series: first, job, from: 0, to: 9 }),
        threads.rows({ series: second, job, from: 4, to: 15 }),
      ]);
      expect(a).toStrictEqual(runSweepChunk({ series: first, ...job, from: 0, to: 9 }));
      expect(b).toStrictEqual(runSweepChunk({ series: second, ...job, from: 4, to: 15 }));
      expect(b).not.toStrictEqual(runSweepChunk({ series: first, ...job, from: 4, to: 15 }));
      // Back to the first series, on the same threads still.
      expect(await threads.rows({ series: first, job, from: 9, to: 15 })).toStrictEqual(runSweepChunk({ series: first, ...job, from: 9, to: 15 }));
      expect(starts).toHaveBeenCalledTimes(1);
    } finally {
      await threads.close();
    }
    await expect(threads.rows({ series: first, job, from: 0, to: 1 })).rejects.toThrow('the sweep threads are closed');
  });

  it('drops the pool of a failed job (the serial error) and runs the next job on a new one; closes an idle pool', async () => {
    const starts = vi.spyOn(SweepPool, 'start');
    const threads = new SweepThreads({ threads: 2, idleMs: 50 });
    try {
      const halfSteps = { ...document, parameters: [{ name: 'fast', default: 2, from: 2, to: 3.5, step: 0.5 }, { ...SLOW, to: 10 }], constraints: [] };
      const halves = parameterGrid(halfSteps.parameters, []);
      if (!halves.ok) throw new Error('the grid is valid');
      const failing = threads.rows({ series: first, job: { ...job, document: halfSteps, combinations: halves.value }, from: 0, to: halves.value.length });
      await expect(failing).rejects.toBeInstanceOf(SweepError);
      await expect(failing).rejects.toThrow(/^combination 1: /);
      expect(await threads.rows({ series: second, job, from: 0, to: 3 })).toStrictEqual(runSweepChunk({ series: second, ...job, from: 0, to: 3 }));
      expect(starts).toHaveBeenCalledTimes(2);
      const pool = starts.mock.results[1]?.value as SweepPool;
      const closed = vi.spyOn(pool, 'close');
      await vi.waitFor(() => expect(closed).toHaveBeenCalledTimes(1), { timeout: 5_000 });
      expect(await threads.rows({ series: second, job, from: 3, to: 6 })).toStrictEqual(runSweepChunk({ series: second, ...job, from: 3, to: 6 }));
      expect(starts).toHaveBeenCalledTimes(3);
    } finally {
      await threads.close();
    }
  });
});
