import { describe, expect, it } from 'vitest';
import { barsFromRows } from '../backtest/test-support';
import type { OptionCandle, OptionCandleSource } from '../options-legs/leg-pricing';
import { futuresContractRuns } from './contract-schedule';
import { futuresPrices } from './futures-prices';

const INDEX = barsFromRows([
  ['2024-12-24 09:15', 23_750, 23_800, 23_700, 23_780], // 0
  ['2024-12-24 09:30', 23_780, 23_790, 23_760, 23_770], // 1
  ['2024-12-26 15:15', 23_800, 23_810, 23_790, 23_800], // 2: the expiry day, 15 minutes before the close
]);
const RUNS = futuresContractRuns({ underlying: 'NIFTY', time: INDEX.time, length: INDEX.length, type: 'intraday', rollTime: '15:15' });

/** Candles of one contract by bar index (paise). */
function candles(symbol: string, byBar: ReadonlyMap<number, OptionCandle>): OptionCandleSource {
  return { hasContract: (candidate) => candidate === symbol, candleAt: (_symbol, bar) => byBar.get(bar) };
}

describe('futures prices', () => {
  it('prices a contract without candles at its cost-of-carry fair value, on the 0.05 tick', () => {
    // Bar 0 starts 24-Dec-2024 09:15 IST; NIFTY24DECFUT expires 26-Dec-2024 15:30 IST:
    // t = 2 days 6 h 15 min = 3,255 minutes = 3,255 / 525,600 years = 0.00619292
    // growth = e^(0.065 x 0.00619292) = e^0.00040254 = 1.00040262
    // open  23,750 x 1.00040262 = 23,759.5622 -> 23,759.55
    // high  23,800 x 1.00040262 = 23,809.5824 -> 23,809.60
    // low   23,700 x 1.00040262 = 23,709.5421 -> 23,709.55
    // close 23,780 x 1.00040262 = 23,789.5743 -> 23,789.55
    const { prices, runs } = futuresPrices({ index: INDEX, runs: RUNS });
    expect([prices.open[0], prices.high[0], prices.low[0], prices.close[0]]).toEqual([23_759.55, 23_809.6, 23_709.55, 23_789.55]);
    // 15 minutes before expiry the future is the index to the tick: 23,800 x e^(0.065 x 15 / 525,600) = 23,800.044 -> 23,800.05.
    expect(prices.close[2]).toBe(23_800.05);
    expect(runs.map((run) => [run.tradingSymbol, run.candleBars, run.modelBars])).toEqual([['NIFTY24DECFUT', 0, 3]]);
    expect(prices.time).toBe(INDEX.time);
  });

  it('prices a contract with candles from them, carries the last close over a bar without one, and models bars before the first', () => {
    const source = candles('NIFTY24DECFUT', new Map([[1, { open: 2_378_000, high: 2_379_500, low: 2_377_000, close: 2_378_500 }]]));
    const { prices, runs } = futuresPrices({ index: INDEX, runs: RUNS, candles: source });
    expect(prices.open[0]).toBe(23_759.55); // before the first candle: the model
    expect([prices.open[1], prices.high[1], prices.low[1], prices.close[1]]).toEqual([23_780, 23_795, 23_770, 23_785]);
    expect([prices.open[2], prices.high[2], prices.low[2], prices.close[2]]).toEqual([23_785, 23_785, 23_785, 23_785]);
    expect(runs.map((run) => [run.candleBars, run.modelBars])).toEqual([[2, 1]]);
  });
});
