// Sweeps and walk-forwards that trade something other than the signal bars: an index's futures
// (a ContractChain) and option legs (a TraderFactory), one chain / factory shared by every run.
import type { Paise } from '@vyuha/core';
import { describe, expect, it } from 'vitest';
import type { BarSeries } from '../algorithm/program';
import { runBacktest } from '../backtest/run-backtest';
import { FuturesChain } from '../futures/futures-chain';
import type { TraderFactory } from '../kernel/trader';
import { parseOptionsLegsConfig } from '../options-legs/config';
import { optionsLegsTraderFactory, optionsLegsWindowTraders } from '../options-legs/options-legs-trader';
import type { OptionCandle, OptionCandleSource } from '../options-legs/leg-pricing';
import { parameterGrid } from './grid';
import { compileCombination, runSweep } from './run-sweep';
import { sliceContractChain } from './sliced-chain';
import { seriesDays, sweepMetricsOf } from './sweep-metrics';
import { crossoverDocument, FAST, sessionSeries, SLOW } from './sweep-test-support';
import { inSampleRequest, inSampleSweep, runWalkForward, sliceSeries, walkForwardWindows } from './walk-forward';

// 2024-01-01 onwards: the January and February NIFTY contracts, one roll on 25-Jan.
const series = sessionSeries({ days: 30, seed: 23 });
const document = crossoverDocument();
const grid = parameterGrid([FAST, SLOW], ['$fast < $slow']);
if (!grid.ok) throw new Error('the grid is valid');
const combinations = grid.value;
const futuresConfig = { type: 'swing', capital: 5_000_000 as Paise, instrument: 'NIFTY', charges: { kind: 'schedule', exchange: 'NSE', instrument: 'future' } } as const;
const chainOver = (bars: BarSeries): FuturesChain => new FuturesChain({ underlying: 'NIFTY', index: bars, type: 'swing', rollTime: '15:15' });

describe('a sweep over a contract chain', () => {
  const chain = chainOver(series);
  const sweep = runSweep({ series, document, config: futuresConfig, combinations, metric: 'netPnl', contracts: chain });

  it('equals runBacktest one by one with the same chain, and trades the futures', () => {
    const days = seriesDays(series);
    const traded = new Set<string>();
    sweep.rows.forEach((row, index) => {
      const result = runBacktest({ series, program: compileCombination(document, row.bindings, index), config: futuresConfig, contracts: chain });
      for (const fill of result.fills) traded.add(fill.instrument);
      expect(row.metrics).toEqual(sweepMetricsOf(result, { days }));
    });
    expect([...traded].sort()).toEqual(['NIFTY24FEBFUT', 'NIFTY24JANFUT']);
    expect(new Set(sweep.rows.map((row) => row.metrics.netPnl)).size).toBeGreaterThan(2);
    // Not the index's own candles: the same sweep without the chain differs.
    const plain = runSweep({ series, document, config: { ...futuresConfig, sizing: { kind: 'quantity', quantity: 50 } }, combinations, metric: 'netPnl' });
    expect(plain.rows.map((row) => row.metrics.netPnl)).not.toEqual(sweep.rows.map((row) => row.metrics.netPnl));
  });

  it('is the same run after run: the chain keeps no state between runs', () => {
    expect(runSweep({ series, document, config: futuresConfig, combinations: [...combinations].reverse(), metric: 'netPnl', contracts: chain }).rows.map((row) => row.metrics))
      .toEqual([...sweep.rows].reverse().map((row) => row.metrics));
  });
});

describe('sliceContractChain', () => {
  it('runs as a chain built over the sliced bars', () => {
    const chain = chainOver(series);
    const program = compileCombination(document, { fast: 5, slow: 20 }, 0);
    for (const [from, to] of [[0, 900], [600, 1800], [1500, series.length]] as const) {
      const bars = sliceSeries(series, from, to);
      const sliced = runBacktest({ series: bars, program, config: futuresConfig, contracts: sliceContractChain(chain, bars, from) });
      const built = runBacktest({ series: bars, program, config: futuresConfig, contracts: chainOver(bars) });
      expect(sliced.summary).toEqual(built.summary);
      expect(sliced.fills).toEqual(built.fills);
    }
  });

  it('holds none of the chain\'s later bars and refuses bars outside it', () => {
    const chain = chainOver(series);
    const bars = sliceSeries(series, 75, 300);
    const view = sliceContractChain(chain, bars, 75);
    expect(view.prices.length).toBe(225);
    expect(view.prices.close.length).toBe(225);
    expect(view.prices.time).toBe(bars.time);
    expect(view.prices.close[0]).toBe(chain.prices.close[75]);
    expect(() => view.symbolAt(225)).toThrow('bar 225 is outside the sliced futures chain (225 bars)');
    expect(() => sliceContractChain(chain, sliceSeries(series, 0, 300), series.length - 100)).toThrow(/outside the chain's 2250 bars/);
  });
});

describe('a walk-forward over a contract chain', () => {
  const windows = walkForwardWindows(series, { inSampleDays: 10, outOfSampleDays: 5 });
  if (!windows.ok) throw new Error('the series has windows');
  const base = { series, document, config: futuresConfig, combinations, metric: 'netPnl' as const, windows: windows.value };
  const request = { ...base, contracts: chainOver(series) };

  it('sweeps each in-sample window as a chain built over its bars alone', () => {
    const window = windows.value[1];
    if (window === undefined) throw new Error('two windows at least');
    const bars = sliceSeries(series, window.inSample.fromBar, window.inSample.toBar);
    const expected = runSweep({ series: bars, document, config: futuresConfig, combinations, metric: 'netPnl', contracts: chainOver(bars) });
    expect(inSampleSweep(request, window).rows).toEqual(expected.rows);
    expect(inSampleRequest(request, window).contracts?.prices.length).toBe(window.inSample.toBar - window.inSample.fromBar);
  });

  it('runs every window and trades the futures out of sample', () => {
    const result = runWalkForward(request);
    expect(result.windows).toHaveLength(windows.value.length);
    const plain = runWalkForward({ ...base, config: { ...futuresConfig, sizing: { kind: 'quantity', quantity: 50 } } });
    expect(result.windows.map((window) => window.outOfSampleNetPnl)).not.toEqual(plain.windows.map((window) => window.outOfSampleNetPnl));
  });

  it('refuses a trader factory', () => {
    const trader: TraderFactory = () => {
      throw new Error('never built');
    };
    expect(() => runWalkForward({ ...base, trader } as typeof base)).toThrow(/^trader: a walk-forward cuts the bars into windows/);
  });
});

describe('a sweep with option legs', () => {
  const legs = parseOptionsLegsConfig({
    underlying: 'NIFTY',
    onBuy: [{ option: 'CE', side: 'buy', strike: { by: 'atm-offset', steps: 0 }, expiry: 'current-weekly', lots: 1 }],
  });
  const config = { type: 'swing', capital: 10_000_000 as Paise, instrument: 'NIFTY', charges: { kind: 'schedule', exchange: 'NSE', instrument: 'option' } } as const;
  const factory = (): TraderFactory => optionsLegsTraderFactory({ config: legs, vix: 14, fill: 'next-open', slippage: { kind: 'none' } });

  it('builds a fresh trader per run: rows equal runs one by one, each with its own factory', () => {
    const shared = factory();
    let built = 0;
    const counting: TraderFactory = (context) => {
      built += 1;
      return shared(context);
    };
    const sweep = runSweep({ series, document, config, combinations, metric: 'netPnl', trader: counting });
    expect(built).toBe(combinations.length);
    const days = seriesDays(series);
    sweep.rows.forEach((row, index) => {
      const result = runBacktest({ series, program: compileCombination(document, row.bindings, index), config, trader: factory() });
      expect(row.metrics).toEqual(sweepMetricsOf(result, { days }));
    });
    expect(sweep.rows.some((row) => row.metrics.trades > 0)).toBe(true);
  });
});

describe('a walk-forward with option legs', () => {
  const legs = parseOptionsLegsConfig({
    underlying: 'NIFTY',
    onBuy: [{ option: 'CE', side: 'buy', strike: { by: 'atm-offset', steps: 0 }, expiry: 'current-weekly', lots: 1 }],
  });
  const config = { type: 'swing', capital: 10_000_000 as Paise, instrument: 'NIFTY', charges: { kind: 'schedule', exchange: 'NSE', instrument: 'option' } } as const;
  const windows = walkForwardWindows(series, { inSampleDays: 10, outOfSampleDays: 5 });
  if (!windows.ok) throw new Error('the series has windows');
  /** INDIA VIX per bar, moving with the bar so that a reading from the wrong bar changes prices. */
  const vix = Float64Array.from({ length: series.length }, (_, bar) => 12 + (bar % 97) / 10);
  /** A premium per bar of `bars` (paise), from that bar's close: a candle read at the wrong bar prices differently. */
  const candleOf = (bars: BarSeries, bar: number): OptionCandle => {
    const close = Math.round((bars.close[bar] as number) * 7) % 9_000 + 1_000;
    return { open: close - 50, high: close + 100, low: close - 100, close };
  };
  /** Candles for every contract over `bars`, and what was asked: the latest time, and any (bar, time) pair that disagrees with `bars`. */
  const recordingSource = (bars: BarSeries): OptionCandleSource & { latest: number; mismatches: number } => {
    const source = {
      latest: Number.NEGATIVE_INFINITY,
      mismatches: 0,
      hasContract: () => true,
      candleAt: (_symbol: string, bar: number, time: number): OptionCandle => {
        if (bars.time[bar] !== time) source.mismatches += 1;
        source.latest = Math.max(source.latest, time);
        return candleOf(bars, bar);
      },
    };
    return source;
  };
  const options = { config: legs, fill: 'next-open', slippage: { kind: 'none' } } as const;
  const base = { series, document, config, combinations, metric: 'netPnl' as const, windows: windows.value };

  it('sweeps each in-sample window with a trader made for its bars alone: VIX and option candles of those bars', () => {
    const window = windows.value[1];
    if (window === undefined) throw new Error('two windows at least');
    const { fromBar, toBar } = window.inSample;
    const whole = recordingSource(series);
    const request = { ...base, traders: optionsLegsWindowTraders({ ...options, vix, candles: whole }) };
    const bars = sliceSeries(series, fromBar, toBar);
    const own = optionsLegsTraderFactory({ ...options, vix: vix.slice(fromBar, toBar), candles: recordingSource(bars) });
    const expected = runSweep({ series: bars, document, config, combinations, metric: 'netPnl', trader: own });
    const rows = inSampleSweep(request, window).rows;
    expect(rows).toEqual(expected.rows);
    expect(rows.some((row) => row.metrics.trades > 0)).toBe(true);
    expect(whole.mismatches).toBe(0);
    expect(whole.latest).toBeLessThan(series.time[toBar] as number);
  });

  it('lets nothing after a window\'s in-sample end into its choice: changing later VIX and candles changes no in-sample row', () => {
    const window = windows.value[0];
    if (window === undefined) throw new Error('one window at least');
    const end = window.inSample.toBar;
    const future = Float64Array.from(vix, (level, bar) => (bar < end ? level : 80));
    const planted: OptionCandleSource = {
      hasContract: () => true,
      candleAt: (_symbol, bar) => (bar < end ? candleOf(series, bar) : { open: 1, high: 1, low: 1, close: 1 }),
    };
    const honest = inSampleSweep({ ...base, traders: optionsLegsWindowTraders({ ...options, vix, candles: recordingSource(series) }) }, window).rows;
    const changed = inSampleSweep({ ...base, traders: optionsLegsWindowTraders({ ...options, vix: future, candles: planted }) }, window).rows;
    expect(changed).toEqual(honest);
    // The same change inside the in-sample bars does show: the check can fail.
    const early = Float64Array.from(vix, (level, bar) => (bar < end ? 80 : level));
    const moved = inSampleSweep({ ...base, traders: optionsLegsWindowTraders({ ...options, vix: early }) }, window).rows;
    const synthetic = inSampleSweep({ ...base, traders: optionsLegsWindowTraders({ ...options, vix }) }, window).rows;
    expect(moved).not.toEqual(synthetic);
  });

  it('runs every window and trades the legs out of sample, each out-of-sample run with its own bars\' VIX and candles', () => {
    const whole = recordingSource(series);
    const result = runWalkForward({ ...base, traders: optionsLegsWindowTraders({ ...options, vix, candles: whole }) });
    expect(result.windows).toHaveLength(windows.value.length);
    expect(result.windows.some((window) => window.outOfSampleMetrics.trades > 0)).toBe(true);
    expect(whole.mismatches).toBe(0);
    const synthetic = runWalkForward({ ...base, traders: optionsLegsWindowTraders({ ...options, vix }) });
    expect(result.windows.map((window) => window.outOfSampleNetPnl)).not.toEqual(synthetic.windows.map((window) => window.outOfSampleNetPnl));
  });

  it('refuses bars outside the VIX readings', () => {
    const traders = optionsLegsWindowTraders({ ...options, vix: vix.slice(0, 100) });
    expect(() => traders({ from: 50, to: 150 })).toThrow(/^vix: one reading per bar is needed up to bar 149, got 100/);
    expect(() => traders({ from: 10, to: 5 })).toThrow(RangeError);
  });
});
