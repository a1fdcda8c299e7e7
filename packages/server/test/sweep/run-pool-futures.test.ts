// A sweep pool over an index traded as its futures: the threads build the chain from its recipe
// over the shared series (and cut it to a walk-forward window's bars, as the engine does), so the
// rows equal the serial sweep with the chain, and a walk-forward equals the serial one, also with
// imported futures candles (sent to the threads as columns); a chain object itself is refused (it
// cannot cross to a thread).
import type { Paise } from '@vyuha/core';
import { afterAll, describe, expect, it } from 'vitest';
import { algorithmFromExpressions, parameterGrid, runSweep, runWalkForward, walkForwardWindows } from '@vyuha/engine';
import type { AlgorithmParameter, BacktestConfigInput } from '@vyuha/engine';
import { ContractCandles, futuresChainOf, recipeData } from '../../src/backtest/prepared-run';
import type { FuturesRecipe } from '../../src/backtest/prepared-run';
import type { LegCandleColumns } from '../../src/backtest/leg-candles';
import { SweepPool } from '../../src/sweep/run-pool';
import { walkForwardInPool } from '../../src/sweep/walk-forward-pool';
import { sessionBars } from '../helpers/session-bars';

const FAST: AlgorithmParameter = { name: 'fast', default: 3, from: 3, to: 9, step: 3 };
const SLOW: AlgorithmParameter = { name: 'slow', default: 10, from: 10, to: 30, step: 10 };
const document = {
  ...algorithmFromExpressions({ entry: 'crossover(sma(close, $fast), sma(close, $slow))', exit: 'crossunder(sma(close, $fast), sma(close, $slow))' }),
  parameters: [FAST, SLOW],
};
const config: BacktestConfigInput = { type: 'swing', capital: 5_000_000 as Paise, instrument: 'NIFTY', charges: { kind: 'schedule', exchange: 'NSE', instrument: 'future' } };
const grid = parameterGrid([FAST, SLOW], []);
if (!grid.ok) throw new Error('the grid is valid');
const combinations = grid.value;
const series = sessionBars({ days: 40, seed: 29 });
const recipe: FuturesRecipe = { schedule: { underlying: 'NIFTY', type: 'swing', rollTime: '15:15' }, candles: new ContractCandles(new Map()) };
const chain = futuresChainOf(recipe, series);
const pool = SweepPool.start(series, { workers: 2 });

/**
 * Imported candles for every other contract the chain trades, each over its own bars: the index's
 * close in paise plus a premium that grows bar by bar (unlike the model's), so a run priced from
 * them trades other prices than one priced by the model.
 */
function importedCandles(): ContractCandles {
  const columns = new Map<string, LegCandleColumns>();
  chain.runs.filter((_run, index) => index % 2 === 0).forEach((run) => {
    const length = run.to - run.from;
    const time = new Float64Array(length);
    const close = new Int32Array(length);
    for (let row = 0; row < length; row += 1) {
      time[row] = series.time[run.from + row] as number;
      close[row] = Math.round((series.close[run.from + row] as number) * 100) + 5 * (20 * row + 3_000);
    }
    columns.set(run.tradingSymbol, { length, time, open: close.slice(), high: close.map((value) => value + 500), low: close.map((value) => value - 500), close });
  });
  return new ContractCandles(columns);
}

afterAll(async () => {
  await pool.close();
});

describe('a sweep pool over an index\'s futures', () => {
  it('gives the serial sweep with the chain, row by row', async () => {
    const serial = runSweep({ series, document, config, combinations, metric: 'netPnl', contracts: chain });
    expect(new Set(serial.rows.map((row) => row.metrics.netPnl)).size).toBeGreaterThan(2);
    const pooled = await pool.sweep({ document, config, combinations, metric: 'netPnl', futures: recipeData(recipe) }, { chunkSize: 2 });
    expect(pooled).toStrictEqual(serial);
    // Without the recipe the threads would trade the index itself: a different sweep.
    const plain = await pool.sweep({ document, config: { ...config, sizing: { kind: 'quantity', quantity: 50 } }, combinations, metric: 'netPnl' });
    expect(plain.rows.map((row) => row.metrics.netPnl)).not.toEqual(serial.rows.map((row) => row.metrics.netPnl));
  });

  it('prices from imported futures candles on the threads as the serial sweep and walk-forward do', async () => {
    const imported: FuturesRecipe = { ...recipe, candles: importedCandles() };
    const importedChain = futuresChainOf(imported, series);
    expect(importedChain.runs.filter((run) => run.candleBars > 0).length).toBeGreaterThanOrEqual(1);
    const serial = runSweep({ series, document, config, combinations, metric: 'netPnl', contracts: importedChain });
    const modelled = runSweep({ series, document, config, combinations, metric: 'netPnl', contracts: chain });
    expect(serial.rows.map((row) => row.metrics.netPnl)).not.toEqual(modelled.rows.map((row) => row.metrics.netPnl));
    const data = recipeData(imported);
    // The candles go as typed arrays, not as maps of candle objects.
    expect([...data.columns.values()].every((columns) => columns.close instanceof Int32Array)).toBe(true);
    expect(await pool.sweep({ document, config, combinations, metric: 'netPnl', futures: data }, { chunkSize: 2 })).toStrictEqual(serial);
    const windows = walkForwardWindows(series, { inSampleDays: 10, outOfSampleDays: 5 });
    if (!windows.ok) throw new Error('windows');
    const request = { series, document, config, combinations, metric: 'sharpe' as const, windows: windows.value, contracts: importedChain };
    expect(await walkForwardInPool(pool, request, { futures: data })).toStrictEqual(runWalkForward(request));
  });

  it('walks forward as the serial run does, the chain cut to each window', async () => {
    const windows = walkForwardWindows(series, { inSampleDays: 10, outOfSampleDays: 5 });
    if (!windows.ok) throw new Error('windows');
    const request = { series, document, config, combinations, metric: 'sharpe' as const, windows: windows.value, contracts: chain };
    const serial = runWalkForward(request);
    expect(serial.windows.length).toBeGreaterThanOrEqual(5);
    expect(await walkForwardInPool(pool, request, { futures: recipeData(recipe) })).toStrictEqual(serial);
    await expect(walkForwardInPool(pool, request)).rejects.toThrow(/pass options.futures/);
  });

  it('refuses a chain object', async () => {
    const job = { document, config, combinations, metric: 'netPnl' as const, contracts: chain };
    await expect(pool.sweep(job as unknown as Parameters<SweepPool['sweep']>[0])).rejects.toThrow(/cannot run a contract chain or a trader factory/);
  });
});
