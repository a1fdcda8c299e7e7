// The sweep jobs' threads (jobs/sweep-threads.ts): one pool for every sweep of the process. Jobs
// of different sweeps, over different series, take turns on the same threads and each equals the
// serial chunk over its own bars; a job failing for its own reasons leaves the pool to the next,
// a dead thread gets the next job a new pool; an idle pool is closed; closed threads refuse jobs.
import type { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runSweepChunk, SweepError } from '@vyuha/engine';
import { SweepThreads } from '../../src/jobs/sweep-threads';
import { SweepPool } from '../../src/sweep/run-pool';
import { sessionBars } from '../helpers/session-bars';
import { config, document, gridOf, SLOW } from './crossover-grid';

const combinations = gridOf(document.parameters, document.constraints);
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

  it('keeps the pool after a job that fails with the serial error; starts a new one after a thread died; closes an idle pool', async () => {
    const starts = vi.spyOn(SweepPool, 'start');
    const threads = new SweepThreads({ threads: 2, idleMs: 50 });
    try {
      const halfSteps = { ...document, parameters: [{ name: 'fast', default: 2, from: 2, to: 3.5, step: 0.5 }, { ...SLOW, to: 10 }], constraints: [] };
      const halves = gridOf(halfSteps.parameters, []);
      const failing = threads.rows({ series: first, job: { ...job, document: halfSteps, combinations: halves }, from: 0, to: halves.length });
      await expect(failing).rejects.toBeInstanceOf(SweepError);
      await expect(failing).rejects.toThrow(/^combination 1: /);
      // A refused combination is the job's own failure: the next job runs on the same, warm threads.
      expect(await threads.rows({ series: second, job, from: 0, to: 3 })).toStrictEqual(runSweepChunk({ series: second, ...job, from: 0, to: 3 }));
      expect(starts).toHaveBeenCalledTimes(1);

      // A thread of the pool dies between jobs: the next job runs on a new pool.
      const pool = starts.mock.results[0]?.value as SweepPool;
      const [thread] = (pool as unknown as { threads: Worker[] }).threads;
      await thread?.terminate();
      await vi.waitFor(() => expect(pool.usable).toBe(false));
      expect(await threads.rows({ series: second, job, from: 3, to: 6 })).toStrictEqual(runSweepChunk({ series: second, ...job, from: 3, to: 6 }));
      expect(starts).toHaveBeenCalledTimes(2);

      // Idle for longer than idleMs: closed, and the next job starts another.
      const idlePool = starts.mock.results[1]?.value as SweepPool;
      const closed = vi.spyOn(idlePool, 'close');
      await vi.waitFor(() => expect(closed).toHaveBeenCalledTimes(1), { timeout: 5_000 });
      expect(await threads.rows({ series: second, job, from: 6, to: 9 })).toStrictEqual(runSweepChunk({ series: second, ...job, from: 6, to: 9 }));
      expect(starts).toHaveBeenCalledTimes(3);
    } finally {
      await threads.close();
    }
  });
});
