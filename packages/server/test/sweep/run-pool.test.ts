// The sweep pool against the engine's serial runs: the same rows field by field (2 threads, odd
// chunk sizes and the default shrinking chunks), the serial run's error (class and message)
// when a combination or the config is refused, and runs over another series given to the same
// threads between runs.
import { afterAll, describe, expect, it } from 'vitest';
import { BacktestConfigError, runSweep, sliceSeries, SweepError } from '@vyuha/engine';
import type { BacktestConfigInput } from '@vyuha/engine';
import { guidedRanges, SweepAborted, SweepPool } from '../../src/sweep/run-pool';
import { sessionBars } from '../helpers/session-bars';
import { config, document, FAST, gridOf, SLOW } from './crossover-grid';

const series = sessionBars({ days: 30, seed: 11 });
const combinations = gridOf(document.parameters, document.constraints);
const pool = SweepPool.start(series, { workers: 2 });

afterAll(async () => {
  await pool.close();
});

describe('SweepPool', () => {
  it('gives the serial sweep, row by row, whatever the chunk size', async () => {
    // 4 x 4 minus (12, 10).
    expect(combinations).toHaveLength(15);
    const serial = runSweep({ series, document, config, combinations, metric: 'sharpe' });
    expect(serial.rows.some((row) => row.metrics.trades > 0)).toBe(true);
    // Remaining / 8, rounded up: 15 -> 2, 13 -> 2, 11 -> 2, 9 -> 2, then 1 each.
    expect(guidedRanges(15, 8)).toEqual([[0, 2], [2, 4], [4, 6], [6, 8], [8, 9], [9, 10], [10, 11], [11, 12], [12, 13], [13, 14], [14, 15]]);
    for (const chunkSize of [2, 7, 15, undefined]) {
      const pooled = await pool.sweep({ document, config, combinations, metric: 'sharpe' }, chunkSize === undefined ? {} : { chunkSize });
      expect(pooled.rows.map((row) => row.index)).toEqual(combinations.map((_combination, index) => index));
      pooled.rows.forEach((row, index) => expect(row).toStrictEqual(serial.rows[index]));
      expect(pooled).toStrictEqual(serial);
    }
    const byDrawdown = await pool.sweep({ document, config, combinations, metric: 'maxDrawdown' }, { chunkSize: 5 });
    expect(byDrawdown).toStrictEqual(runSweep({ series, document, config, combinations, metric: 'maxDrawdown' }));
    // The grid's eight SMAs ($fast 3, 6, 9, 12; $slow 10 .. 40), computed once for both threads and every run.
    expect(pool.sharedIndicators).toEqual({ indicators: 8, columns: 8 });
  });

  it('computes each indicator once for all its threads, however they race for them, and every run reads the same values', async () => {
    const racing = SweepPool.start(series, { workers: 4 });
    try {
      // sma(close, n) for n 2..41 as $fast and 50..290 by 10 as $slow: 65 indicators, chunks of one combination.
      const wide = { ...document, parameters: [{ ...FAST, default: 2, from: 2, to: 41, step: 1 }, { ...SLOW, default: 50, from: 50, to: 290, step: 10 }] };
      const grid = gridOf(wide.parameters, wide.constraints).filter((_combination, index) => index % 5 === 0 || index < 60);
      const job = { document: wide, config, combinations: grid, metric: 'netPnl' as const };
      expect(await racing.sweep(job, { chunkSize: 1 })).toStrictEqual(runSweep({ series, ...job }));
      const used = new Set(grid.flatMap((combination) => [combination.fast, combination.slow]));
      expect(racing.sharedIndicators).toEqual({ indicators: used.size, columns: used.size });
    } finally {
      await racing.close();
    }
  });

  it('reports each task done, stops dealing once its caller aborts, and then takes the next run', async () => {
    const job = { document, config, combinations, metric: 'sharpe' as const };
    const whole = [{ fromBar: 0, toBar: series.length }];
    const serial = runSweep({ series, ...job });
    const seen: Array<[number, number]> = [];
    const [rows] = await pool.sweepRanges(job, whole, { chunkSize: 1, onTaskDone: (done, total) => seen.push([done, total]) });
    expect(rows).toStrictEqual(serial.rows);
    expect(seen).toEqual(combinations.map((_combination, index) => [index + 1, combinations.length]));

    // Two threads, one task each in flight: the abort after the first lets the second finish, and nothing more is dealt.
    const controller = new AbortController();
    let done = 0;
    const stopped = pool.sweepRanges(job, whole, {
      chunkSize: 1, signal: controller.signal,
      onTaskDone: (count) => {
        done = count;
        if (count === 1) controller.abort();
      },
    });
    await expect(stopped).rejects.toBeInstanceOf(SweepAborted);
    expect(done).toBe(2);
    await expect(pool.sweepRanges(job, whole, { signal: controller.signal })).rejects.toThrow('the sweep was stopped before it started');
    expect(await pool.sweep(job)).toStrictEqual(serial);
  });

  it('rejects with the serial error: the first refused combination, or the refused config', async () => {
    // $fast = 2.5 is not a whole SMA period: combinations 1 (2.5) and 3 (3.5) are refused; serial stops at 1.
    const halfSteps = { ...document, parameters: [{ name: 'fast', default: 2, from: 2, to: 3.5, step: 0.5 }, { ...SLOW, to: 10 }] };
    const halves = gridOf(halfSteps.parameters, []);
    const serialError = (() => {
      try {
        runSweep({ series, document: halfSteps, config, combinations: halves, metric: 'netPnl' });
      } catch (error) {
        return error as Error;
      }
      throw new Error('the serial sweep should fail');
    })();
    expect(serialError).toBeInstanceOf(SweepError);
    expect(serialError.message).toMatch(/^combination 1: /);
    const pooled = pool.sweep({ document: halfSteps, config, combinations: halves, metric: 'netPnl' }, { chunkSize: 1 });
    await expect(pooled).rejects.toThrow(serialError.message);
    await expect(pooled).rejects.toBeInstanceOf(SweepError);

    const badConfig = { ...config, capital: -5 } as BacktestConfigInput;
    const serialConfig = (() => {
      try {
        runSweep({ series, document, config: badConfig, combinations, metric: 'netPnl' });
      } catch (error) {
        return error as Error;
      }
      throw new Error('the serial sweep should fail');
    })();
    expect(serialConfig).toBeInstanceOf(BacktestConfigError);
    const refused = pool.sweep({ document, config: badConfig, combinations, metric: 'netPnl' }, { chunkSize: 4 });
    await expect(refused).rejects.toBeInstanceOf(BacktestConfigError);
    await expect(refused).rejects.toThrow(serialConfig.message);
    // The pool still works after a refused run.
    expect((await pool.sweep({ document, config, combinations: combinations.slice(0, 2), metric: 'netPnl' })).rows).toHaveLength(2);
  });

  it('runs over another series given between runs: the serial sweep of the new bars, none of the last series\' indicators kept', async () => {
    const other = SweepPool.start(series, { workers: 2 });
    try {
      const job = { document, config, combinations, metric: 'netPnl' as const };
      expect(await other.sweep(job)).toStrictEqual(runSweep({ series, ...job }));
      // Another year of bars, and then a shorter series: each sweep equals the serial one over its own bars.
      for (const next of [sessionBars({ days: 30, seed: 12 }), sessionBars({ days: 12, seed: 13 })]) {
        other.useSeries(next);
        expect(other.series).toBe(next);
        expect(other.sharedIndicators).toEqual({ indicators: 0, columns: 0 });
        const serial = runSweep({ series: next, ...job });
        expect(serial).not.toStrictEqual(runSweep({ series, ...job }));
        expect(await other.sweep(job, { chunkSize: 4 })).toStrictEqual(serial);
        expect(other.sharedIndicators).toEqual({ indicators: 8, columns: 8 });
        const [window] = await other.sweepRanges(job, [{ fromBar: 75, toBar: next.length }]);
        expect(window).toStrictEqual(runSweep({ series: sliceSeries(next, 75, next.length), ...job }).rows);
      }
      // Not in the middle of a run.
      const running = other.sweep(job);
      expect(() => other.useSeries(series)).toThrow('the sweep pool cannot change its series during a run');
      await running;
    } finally {
      await other.close();
    }
  });
});
