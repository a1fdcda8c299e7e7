import { describe, expect, it } from 'vitest';
import { compileAlgorithm } from '../algorithm/compile';
import type { ParameterBindings } from '../algorithm/parameters';
import type { BarSeries, Signal } from '../algorithm/program';
import { SIGNAL_BUY, SIGNAL_NONE } from '../algorithm/program';
import { flatPosition } from '../language/series-test-support';
import { parameterGrid } from './grid';
import { mergeSweepChunks, runSweep, runSweepChunk } from './run-sweep';
import { BARS_PER_DAY, crossoverDocument, FAST, replacedAfter, sessionSeries, SLOW, SWEEP_CONFIG } from './sweep-test-support';
import type { WalkForwardWindow } from './walk-forward';
import { gatedProgram, inSampleSeries, runWalkForward, sliceSeries, walkForwardFromSweeps, walkForwardWindows } from './walk-forward';

const series = sessionSeries({ days: 40, seed: 5 });
const document = crossoverDocument();
const grid = parameterGrid([FAST, SLOW], ['$fast < $slow']);
if (!grid.ok) throw new Error('the grid is valid');
const combinations = grid.value;
const base = { document, config: SWEEP_CONFIG, combinations, metric: 'netPnl' as const };

function windowsOf(bars: BarSeries, spec: Parameters<typeof walkForwardWindows>[1]): WalkForwardWindow[] {
  const windows = walkForwardWindows(bars, spec);
  if (!windows.ok) throw new Error(JSON.stringify(windows.error));
  return windows.value;
}

const windows = windowsOf(series, { inSampleDays: 15, outOfSampleDays: 5 });

describe('walkForwardWindows', () => {
  it('rolls over IST trading days by the out-of-sample length', () => {
    // 40 days: in-sample starts 0, 5, ..., 20 (20 + 15 + 5 = 40).
    expect(windows.map((window) => [window.inSample.fromDay, window.inSample.toDay, window.outOfSample.fromDay, window.outOfSample.toDay])).toEqual([
      [0, 15, 15, 20], [5, 20, 20, 25], [10, 25, 25, 30], [15, 30, 30, 35], [20, 35, 35, 40],
    ]);
    const first = windows[0] as WalkForwardWindow;
    expect(first.inSample).toEqual({ fromDay: 0, toDay: 15, fromBar: 0, toBar: 15 * BARS_PER_DAY, fromDate: '2024-01-01', toDate: '2024-01-19' });
    expect(first.outOfSample.fromDate).toBe('2024-01-22');
  });

  it('anchors, steps and refuses bad specs', () => {
    const anchored = windowsOf(series, { inSampleDays: 10, outOfSampleDays: 10, stepDays: 15, anchored: true });
    expect(anchored.map((window) => [window.inSample.fromDay, window.inSample.toDay, window.outOfSample.toDay])).toEqual([[0, 10, 20], [0, 25, 35]]);
    expect(walkForwardWindows(series, { inSampleDays: 10, outOfSampleDays: 5, stepDays: 3 })).toEqual({
      ok: false,
      error: [{ field: 'stepDays', message: 'must be at least outOfSampleDays (5) so out-of-sample windows do not overlap, got 3' }],
    });
    expect(walkForwardWindows(series, { inSampleDays: 0, outOfSampleDays: 2.5 }).ok).toBe(false);
    expect(walkForwardWindows(series, { inSampleDays: 30, outOfSampleDays: 11 })).toEqual({
      ok: false,
      error: [{ field: 'inSampleDays', message: 'the series has 40 trading days; one window needs 41 (in-sample + out-of-sample)' }],
    });
  });
});

/** The windows the look-ahead check replaces the future of (three keep the file fast). */
const CHECKED_WINDOWS = windows.slice(0, 3);
// The look-ahead checks run 2 x 3 walk-forward windows (8 backtests each): about 2 s alone, more on a busy machine.
const SLOW_TEST = { timeout: 20_000 };

type Choose = (bars: BarSeries, window: WalkForwardWindow) => { chosen: ParameterBindings; inSampleNetPnl: number };

/**
 * Windows whose in-sample choice changes when every bar after the in-sample end is replaced by
 * other data: `metric` counts a change of the chosen bindings or the in-sample metric, `bindings`
 * a change of the chosen bindings alone.
 */
function windowsSeeingTheFuture(choose: Choose): { metric: number[]; bindings: number[] } {
  const changed = { metric: [] as number[], bindings: [] as number[] };
  for (const window of CHECKED_WINDOWS) {
    const future = replacedAfter(series, window.inSample.toBar, { seed: 1000 + window.index, volatility: 6 });
    const before = choose(series, window);
    const after = choose(future, window);
    if (JSON.stringify(before) !== JSON.stringify(after)) changed.metric.push(window.index);
    if (JSON.stringify(before.chosen) !== JSON.stringify(after.chosen)) changed.bindings.push(window.index);
  }
  return changed;
}

const walkForwardChoice: Choose = (bars, window) => {
  const result = runWalkForward({ ...base, series: bars, windows: [window] }).windows[0];
  if (result === undefined) throw new Error('one window');
  return { chosen: result.chosen, inSampleNetPnl: result.inSampleMetrics.netPnl };
};

/** A planted look-ahead: the choice is made on the in-sample and out-of-sample days together. */
const leakyChoice: Choose = (bars, window) => {
  const sweep = runSweep({ ...base, series: sliceSeries(bars, window.inSample.fromBar, window.outOfSample.toBar) });
  if (sweep.best === undefined) throw new Error('a best row');
  return { chosen: sweep.best.bindings, inSampleNetPnl: sweep.best.metrics.netPnl };
};

describe('runWalkForward', () => {
  const result = runWalkForward({ ...base, series, windows });

  it('never lets bars after the in-sample end into the in-sample choice', SLOW_TEST, () => {
    expect(windowsSeeingTheFuture(walkForwardChoice)).toEqual({ metric: [], bindings: [] });
  });

  it('the same check catches a planted look-ahead', SLOW_TEST, () => {
    const leaky = windowsSeeingTheFuture(leakyChoice);
    expect(leaky.metric).toEqual(CHECKED_WINDOWS.map((window) => window.index));
    // Not only the reported metric: the future data changes which parameters are chosen.
    expect(leaky.bindings.length).toBeGreaterThan(0);
  });

  it('chooses the in-sample best (ties to the first in grid order) and warms up without acting', SLOW_TEST, () => {
    for (const window of result.windows) {
      const sweep = runSweep({ ...base, series: sliceSeries(series, window.inSample.fromBar, window.inSample.toBar) });
      expect(window.chosenIndex).toBe(sweep.best?.index);
      expect(window.inSampleMetrics).toEqual(sweep.best?.metrics);
      expect([window.inSampleMetric, window.outOfSampleMetric]).toEqual([window.inSampleMetrics.netPnl, window.outOfSampleMetrics.netPnl]);
      const compiled = compileAlgorithm(document, { parameters: window.chosen });
      expect(compiled.ok && window.warmupBars).toBe(compiled.ok ? compiled.value.warmup : -1);
      expect(window.outOfSampleMetrics.tradingDays).toBe(5);
    }
    expect(new Set(result.windows.map((window) => JSON.stringify(window.chosen))).size).toBeGreaterThan(1);
  });

  it('stitches the out-of-sample equity window after window and reports the gap', () => {
    const capital = 10_000_000;
    const outOfSampleBars = windows.reduce((sum, window) => sum + window.outOfSample.toBar - window.outOfSample.fromBar, 0);
    expect(result.equity.equity).toHaveLength(outOfSampleBars);
    expect(Array.from(result.equity.times)).toEqual(windows.flatMap((window) => Array.from(series.time.subarray(window.outOfSample.fromBar, window.outOfSample.toBar))));
    let carried = 0;
    let at = 0;
    for (const window of result.windows) {
      at += window.outOfSample.toBar - window.outOfSample.fromBar;
      carried += window.outOfSampleNetPnl;
      expect(result.equity.equity[at - 1]).toBe(capital + carried);
    }
    expect(result.outOfSampleMetrics.netPnl).toBe(carried);
    expect(result.outOfSampleMetrics.tradingDays).toBe(25);
    expect(result.outOfSampleMetrics.trades).toBe(result.windows.reduce((sum, window) => sum + window.outOfSampleMetrics.trades, 0));
    const inSampleAnnual = result.windows.reduce((sum, window) => sum + (window.inSampleMetrics.returnPercent * 252) / 15, 0) / windows.length;
    const outOfSampleAnnual = (result.outOfSampleMetrics.returnPercent * 252) / 25;
    expect(result.overfitting.inSampleAnnualReturnPercent).toBeCloseTo(inSampleAnnual, 9);
    expect(result.overfitting.outOfSampleAnnualReturnPercent).toBeCloseTo(outOfSampleAnnual, 9);
    expect(result.overfitting.gapPercent).toBeCloseTo(inSampleAnnual - outOfSampleAnnual, 9);
    expect(result.meanInSampleMetric).toBe(result.windows.reduce((sum, window) => sum + window.inSampleMetrics.netPnl, 0) / windows.length);
    expect(result.overfitting.metricGap).toBe((result.meanInSampleMetric as number) - carried);
  });
});

describe('walkForwardFromSweeps', () => {
  it('from in-sample sweeps run in chunks and merged, equals the serial walk-forward', SLOW_TEST, () => {
    const some = windows.slice(0, 2);
    const serial = runWalkForward({ ...base, series, windows: some });
    const chunked = walkForwardFromSweeps({ ...base, series, windows: some }, (window) => {
      const inSample = inSampleSeries(series, window);
      const cut = 3;
      const chunks = [
        runSweepChunk({ ...base, series: inSample, from: cut, to: combinations.length }),
        runSweepChunk({ ...base, series: inSample, from: 0, to: cut }),
      ];
      return mergeSweepChunks(combinations.length, chunks);
    });
    expect(chunked).toEqual(serial);
  });
});

describe('gatedProgram', () => {
  it('keeps every signal before the first live bar at NONE and never skips to before it', () => {
    const inner = {
      warmup: 0,
      onBar: (): Signal => SIGNAL_BUY,
      nextSignalBar: (from: number, _position: number, before = Number.POSITIVE_INFINITY): number => Math.min(from, before),
    };
    const gated = gatedProgram(inner, 3);
    expect([0, 1, 2, 3, 4].map((index) => gated.onBar(index, flatPosition()))).toEqual([SIGNAL_NONE, SIGNAL_NONE, SIGNAL_NONE, SIGNAL_BUY, SIGNAL_BUY]);
    expect(gated.nextSignalBar?.(0, 0)).toBe(3);
    expect(gated.nextSignalBar?.(5, 0)).toBe(5);
    // A caller's bound before the first live bar: the search ends there, the inner program is not asked.
    expect(gated.nextSignalBar?.(0, 0, 2)).toBe(2);
    expect(gated.nextSignalBar?.(0, 0, 10)).toBe(3);
    expect(gatedProgram({ warmup: 0, onBar: inner.onBar }, 3).nextSignalBar).toBeUndefined();
  });
});
