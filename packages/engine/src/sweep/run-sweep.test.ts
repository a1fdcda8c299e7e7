import type { IsoDate } from '@vyuha/core';
import { istParts } from '@vyuha/core';
import { describe, expect, it } from 'vitest';
import { compileAlgorithm } from '../algorithm/compile';
import type { ParameterBindings } from '../algorithm/parameters';
import { BacktestConfigError } from '../backtest/config';
import { runBacktest } from '../backtest/run-backtest';
import { computeMetrics } from '../metrics/compute-metrics';
import { parameterGrid } from './grid';
import { IndicatorCache } from '../language/indicator-cache';
import { combinationCompiler, mergeSweepChunks, runSweep, runSweepChunk, SweepError, SweepScratch } from './run-sweep';
import { dailyResultOf, measure, roundTripOf, seriesDays, SweepMetricBuffers, sweepMetricsOf } from './sweep-metrics';
import { crossoverDocument, FAST, sessionSeries, SLOW, SWEEP_CONFIG } from './sweep-test-support';

const series = sessionSeries({ days: 15, seed: 11 });
const document = crossoverDocument();
const grid = parameterGrid([FAST, SLOW], ['$fast < $slow']);
if (!grid.ok) throw new Error('the grid is valid');
const combinations = grid.value;

describe('runSweep', () => {
  const sweep = runSweep({ series, document, config: SWEEP_CONFIG, combinations, metric: 'netPnl' });

  it('equals the same runs made one by one, field by field', () => {
    expect(sweep.rows).toHaveLength(combinations.length);
    const dates = [...new Set(Array.from(series.time, (time) => istParts(time).date))];
    sweep.rows.forEach((row, index) => {
      // One run, the numbers written into the expressions (no parameters at all).
      const fast = combinations[index]?.['fast'] as number;
      const slow = combinations[index]?.['slow'] as number;
      expect(row.index).toBe(index);
      expect(row.bindings).toEqual({ fast, slow });
      const written = compileAlgorithm({
        ...crossoverDocument({ entry: `crossover(sma(close, ${fast}), sma(close, ${slow}))`, exit: `crossunder(sma(close, ${fast}), sma(close, ${slow}))` }),
        parameters: [], constraints: [],
      });
      if (!written.ok) throw new Error('compiles');
      const result = runBacktest({ series, program: written.value, config: SWEEP_CONFIG });
      const metrics = computeMetrics({
        capital: result.config.capital,
        period: { from: dates[0] as IsoDate, to: dates[dates.length - 1] as IsoDate, tradingDays: dates },
        days: result.days.map((day) => ({ date: day.date, netPnl: day.net, grossPnl: day.gross, charges: day.charges, orders: day.orders })),
        trades: result.trades.map((trade) => ({ entryTime: trade.entryTime, exitTime: trade.exitTime, netPnl: trade.net, charges: trade.charges })),
        equity: { times: series.time, equity: result.equity },
        barsInMarket: result.barsInMarket,
        totalBars: series.length,
        candlesProcessed: result.candlesProcessed,
      });
      expect(row.metrics).toEqual({
        netPnl: result.summary.netPnl,
        returnPercent: metrics.returnPercent,
        maxDrawdown: metrics.maxDrawdown,
        maxDrawdownPercent: metrics.maxDrawdownPercent,
        sharpe: metrics.sharpe,
        winRate: metrics.winRate,
        trades: result.trades.length,
        profitFactor: metrics.profitFactor,
        candlesProcessed: series.length,
        tradingDays: 15,
      });
    });
    // The parameters matter on this series: not every row is the same.
    expect(new Set(sweep.rows.map((row) => row.metrics.netPnl)).size).toBeGreaterThan(3);
    expect(sweep.candlesProcessed).toBe(series.length * combinations.length);
  });

  it('picks the best row by the metric, ties to the first', () => {
    const best = Math.max(...sweep.rows.map((row) => row.metrics.netPnl));
    expect(sweep.best?.index).toBe(sweep.rows.findIndex((row) => row.metrics.netPnl === best));
  });

  it('chunks run in any order and merged by index equal the serial sweep', () => {
    const request = { series, document, config: SWEEP_CONFIG, combinations, metric: 'netPnl' as const };
    const cuts = [0, 2, 3, 3, 6, combinations.length];
    const chunks = cuts.slice(1).map((to, k) => runSweepChunk({ ...request, from: cuts[k] as number, to })).reverse();
    expect(mergeSweepChunks(combinations.length, chunks)).toEqual(sweep.rows);
    expect(() => mergeSweepChunks(combinations.length, chunks.slice(1))).toThrow(/is in no chunk/);
    expect(() => mergeSweepChunks(combinations.length, [...chunks, chunks[0] ?? []])).toThrow(/is in two chunks/);
    expect(() => runSweepChunk({ ...request, from: 2, to: 99 })).toThrow(RangeError);
  });

  it('chunks sharing one IndicatorCache (as a pool thread keeps one) compute each SMA period once and equal the serial sweep', () => {
    const request = { series, document, config: SWEEP_CONFIG, combinations, metric: 'netPnl' as const };
    const indicators = new IndicatorCache(series);
    const chunks = [[0, 4], [4, combinations.length]].map(([from, to]) => runSweepChunk({ ...request, from: from as number, to: to as number, indicators }));
    expect(mergeSweepChunks(combinations.length, chunks)).toEqual(sweep.rows);
    // 7 runs of two SMAs each over the periods 5, 10, 15, 20 and 30.
    expect(indicators.stats).toMatchObject({ misses: 5, hits: 2 * combinations.length - 5 });
    // A cache made over other bars is left alone: the runs compute their own.
    const elsewhere = new IndicatorCache(sessionSeries({ days: 15, seed: 12 }));
    expect(runSweepChunk({ ...request, from: 0, to: 2, indicators: elsewhere })).toEqual(sweep.rows.slice(0, 2));
    expect(elsewhere.stats).toMatchObject({ misses: 0, hits: 0 });
  });

  it('chunks sharing one SweepScratch (as a pool thread keeps one) reuse its buffers and equal the serial sweep', () => {
    const request = { series, document, config: SWEEP_CONFIG, combinations, metric: 'netPnl' as const };
    const scratch = new SweepScratch(series);
    // Chunks out of order, each run after a longer or shorter one: nothing of a run shows in the next.
    const chunks = [[3, combinations.length], [0, 3]].map(([from, to]) => runSweepChunk({ ...request, from: from as number, to: to as number, scratch }));
    expect(mergeSweepChunks(combinations.length, chunks)).toEqual(sweep.rows);
    expect(scratch.ledgerColumns.owner).toBeDefined();
    // A scratch made over other bars is left alone.
    const elsewhere = new SweepScratch(sessionSeries({ days: 15, seed: 12 }));
    expect(runSweepChunk({ ...request, from: 0, to: 2, scratch: elsewhere })).toEqual(sweep.rows.slice(0, 2));
    expect(elsewhere.ledgerColumns.owner).toBeUndefined();
  });

  it('a scratch made with the buffers of a dropped one (as a pool thread given another series) equals a new one', () => {
    const request = { series, document, config: SWEEP_CONFIG, combinations, metric: 'netPnl' as const };
    const dropped = new SweepScratch(sessionSeries({ days: 15, seed: 12 }));
    runSweepChunk({ ...request, series: dropped.series, from: 0, to: 3, scratch: dropped });
    const scratch = new SweepScratch(series, dropped);
    expect(scratch.ledgerColumns).toBe(dropped.ledgerColumns);
    expect(scratch.blockColumns).toBe(dropped.blockColumns);
    expect(scratch.equitySegments).toBe(dropped.equitySegments);
    expect(scratch.equityBuffer).toBe(dropped.equityBuffer);
    expect(runSweepChunk({ ...request, from: 0, to: combinations.length, scratch })).toEqual(sweep.rows);
    // A buffer of another length is not taken.
    expect(new SweepScratch(sessionSeries({ days: 10, seed: 12 }), scratch).equityBuffer).not.toBe(scratch.equityBuffer);
  });

  it('chunks sharing one compiler (as a pool thread keeps one per job) compile every combination with it and equal the serial sweep', () => {
    const request = { series, document, config: SWEEP_CONFIG, combinations, metric: 'netPnl' as const };
    const made = combinationCompiler(document);
    const compiled: number[] = [];
    const compile = (bindings: ParameterBindings, combination: number): ReturnType<typeof made> => {
      compiled.push(combination);
      return made(bindings, combination);
    };
    const chunks = [[4, combinations.length], [0, 4]].map(([from, to]) => runSweepChunk({ ...request, from: from as number, to: to as number, compile }));
    expect(mergeSweepChunks(combinations.length, chunks)).toEqual(sweep.rows);
    expect(compiled).toEqual([...combinations.keys()].slice(4).concat([0, 1, 2, 3]));
    // It throws what the chunk's own compiler would: the combination the document refuses, named.
    const refused = { ...request, combinations: [{ fast: 5, slow: 10 }, { fast: 7, slow: 10 }], from: 0, to: 2 };
    expect(() => runSweepChunk({ ...refused, compile: combinationCompiler(document) })).toThrow('combination 1: parameters[0]: $fast = 7 is not on its grid');
  });

  it('checks the config with the document\'s exit rules once, and each run uses them', () => {
    // A stop loss in the document: every run stops out as the same run made alone does.
    const withStop = { ...document, exits: { stopLoss: { unit: 'percent' as const, value: 0.1 } } };
    const rows = runSweep({ series, document: withStop, config: SWEEP_CONFIG, combinations, metric: 'netPnl' }).rows;
    expect(rows.map((row) => row.metrics.netPnl)).not.toEqual(sweep.rows.map((row) => row.metrics.netPnl));
    rows.forEach((row, index) => {
      const compiled = compileAlgorithm(withStop, { parameters: combinations[index] as ParameterBindings });
      if (!compiled.ok) throw new Error('compiles');
      const result = runBacktest({ series, program: compiled.value, config: SWEEP_CONFIG });
      expect(row.metrics.netPnl).toBe(result.summary.netPnl);
      expect(row.metrics.trades).toBe(result.summary.trades);
    });
    // A bad config stops the sweep before any run, naming the field.
    expect(() => runSweep({ series, document, config: { ...SWEEP_CONFIG, capital: -1 } as never, combinations, metric: 'netPnl' })).toThrow(BacktestConfigError);
  });

  it('stops on a combination the document refuses, naming it', () => {
    const request = { series, document, config: SWEEP_CONFIG, combinations: [{ fast: 5, slow: 10 }, { fast: 7, slow: 10 }], metric: 'sharpe' as const };
    expect(() => runSweep(request)).toThrow(SweepError);
    expect(() => runSweep(request)).toThrow('combination 1: parameters[0]: $fast = 7 is not on its grid 5 to 15 by 5 (the nearest value below is 5)');
  });
});

describe('sweepMetricsOf', () => {
  // The walk-forward's out-of-sample figures: a run measured from a day on, read from the result's
  // columns, equals `measure` over the day rows, trade objects and equity of those days.
  it('measures from a day on as measure does over the objects of those days, in its own buffers or in reused ones', () => {
    const compiled = compileAlgorithm(document, { parameters: { fast: 5, slow: 10 } });
    if (!compiled.ok) throw new Error('compiles');
    const result = runBacktest({ series, program: compiled.value, config: SWEEP_CONFIG });
    const days = seriesDays(series);
    expect(result.trades.length).toBeGreaterThan(10);
    // Some trade enters on a day's first bar (a signal on the last bar of the day before): the cut keeps it.
    expect(result.trades.some((trade) => days.firstBar.indexOf(trade.entryIndex) > 0)).toBe(true);
    // Buffers a sweep reuses, left with another run's values.
    const buffers = new SweepMetricBuffers();
    buffers.returnsOf(days.dates.length).fill(0.5);
    buffers.netsOf(result.trades.length).fill(7);
    for (let fromDay = 0; fromDay <= days.dates.length + 1; fromDay += 1) {
      const fromBar = days.firstBar[fromDay] ?? series.length;
      const tradingDays = days.dates.slice(fromDay);
      const first = tradingDays[0];
      const expected = measure({
        capital: result.config.capital,
        tradingDays,
        days: first === undefined ? [] : result.days.filter((day) => day.date >= first).map(dailyResultOf),
        trades: result.trades.filter((trade) => trade.entryIndex >= fromBar).map(roundTripOf),
        equity: result.equity.subarray(fromBar),
        candlesProcessed: result.candlesProcessed,
      });
      expect(sweepMetricsOf(result, { days, fromDay }), `from day ${fromDay}`).toEqual(expected);
      expect(sweepMetricsOf(result, { days, fromDay, buffers }), `from day ${fromDay}, reused buffers`).toEqual(expected);
    }
    // The cut matters: a later day drops trades and days.
    expect(sweepMetricsOf(result, { days, fromDay: 6 }).trades).toBeLessThan(sweepMetricsOf(result, { days }).trades);
    // A run over the first 10 of the 15 days, measured over all 15 in the reused buffers: the 5 days without a row return 0.
    const shorter = runBacktest({ series: sessionSeries({ days: 10, seed: 11 }), program: compiled.value, config: SWEEP_CONFIG });
    expect(shorter.days.length).toBe(10);
    const expected = measure({
      capital: shorter.config.capital, tradingDays: days.dates, days: shorter.days.map(dailyResultOf), trades: shorter.trades.map(roundTripOf),
      equity: shorter.equity, candlesProcessed: shorter.candlesProcessed,
    });
    buffers.returnsOf(days.dates.length).fill(0.5);
    expect(sweepMetricsOf(shorter, { days, buffers })).toEqual(expected);
  });

  it('reads the trades and days from the ledger, and is not among the fields a copy of the result takes', () => {
    const compiled = compileAlgorithm(document, { parameters: { fast: 5, slow: 10 } });
    if (!compiled.ok) throw new Error('compiles');
    const result = runBacktest({ series, program: compiled.value, config: SWEEP_CONFIG });
    expect(result.roundTrips.count).toBe(result.trades.length);
    expect(Array.from({ length: result.roundTrips.count }, (_unused, row) => [result.roundTrips.net(row), result.roundTrips.entryIndex(row)]))
      .toEqual(result.trades.map((trade) => [trade.net, trade.entryIndex]));
    expect(result.days.length).toBeGreaterThan(1);
    expect(Array.from({ length: result.dayColumns.count }, (_unused, row) => [result.dayColumns.date(row), result.dayColumns.net(row)]))
      .toEqual(result.days.map((day) => [day.date, day.net]));
    expect(Object.keys(result)).not.toContain('roundTrips');
    expect(Object.keys(result)).not.toContain('dayColumns');
    expect(Object.keys(result)).toContain('days');
  });
});
