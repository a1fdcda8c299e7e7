// Worked example: how many NIFTY futures lots an investment buys, from the margin estimate for
// the date (the engine's capital estimator: 9% of the contract value) plus the entry's charges,
// and what happens when it does not cover one lot.
//
// 2-Sep-2024, NIFTY24SEPFUT (expiry 26-Sep-2024), lot 25, entry at 25,000.00:
//   margin per lot = 25 x 25,000 x 9% = Rs 56,250.00
//   Rs 1,50,000 -> floor(1,50,000 / 56,250) = 2 lots (Rs 1,12,500 + the buy's charges)
//   2 lots need Rs 1,12,500 + the charges of a 50-unit buy, Rs 80.83 (below): Rs 1,12,580.83, so
//   Rs 1,12,550 buys 1 lot and Rs 1,12,600 buys 2
//   (a 50-unit buy of 1,25,00,000 p before 1-Oct-2024: brokerage 2,000; exchange 0.002% = 2,500;
//   IPF, SEBI 125 each; stamp 0.002% = 2,500; GST 18% x (2,000 + 2,500 + 125) = 832.5 -> 833; 8,083 p)
//   Rs 50,000   -> not one lot: no order at all
import { isoDate } from '@vyuha/core';
import { describe, expect, it } from 'vitest';
import { SIGNAL_BUY } from '../../algorithm/program';
import { barsFromRows } from '../../backtest/test-support';
import { chargeModelOf } from '../../kernel/charges-model';
import { futuresLotCost } from '../futures-chain';
import { contractCandles, runNiftyFutures } from './example-support';

const INDEX = barsFromRows([
  ['2024-09-02 09:15', 24_950, 24_990, 24_940, 24_980],
  ['2024-09-02 09:30', 24_985, 25_010, 24_970, 25_000],
  ['2024-09-02 09:45', 25_000, 25_020, 24_990, 25_010],
]);
const CANDLES = contractCandles({ NIFTY24SEPFUT: { 0: [25_000, 25_000, 25_000, 25_000], 1: [25_000, 25_020, 24_990, 25_010], 2: [25_010, 25_030, 25_000, 25_020] } });
const buyUnits = (capitalRupees: number): number[] => runNiftyFutures({ index: INDEX, signals: [[0, SIGNAL_BUY]], capitalRupees, type: 'intraday', candles: CANDLES })
  .result.fills.filter((fill) => fill.reason === 'entry').map((fill) => fill.quantity);

describe('futures lots from the margin for the date', () => {
  it('buys the most whole lots whose margin and charges fit', () => {
    expect(buyUnits(150_000)).toEqual([50]);
    expect(buyUnits(112_550)).toEqual([25]);
    expect(buyUnits(112_600)).toEqual([50]);
  });

  it('buys nothing when the investment does not cover one lot', () => {
    expect(buyUnits(50_000)).toEqual([]);
  });

  it('says what one lot costs at a bar: the estimate a run is refused with', () => {
    const { chain } = runNiftyFutures({ index: INDEX, signals: [], capitalRupees: 50_000, type: 'intraday', candles: CANDLES });
    const cost = chain.oneLotCost(0, chargeModelOf({ kind: 'schedule', exchange: 'NSE', instrument: 'future' }));
    // A buy of 25 at 25,000 = 62,500,000 p: brokerage 2,000; exchange 0.002% = 1,250; IPF and SEBI
    // 62.5 -> 63 each; stamp 0.002% = 1,250; GST 18% x (2,000 + 1,250 + 63) = 596.34 -> 596: 5,222 p.
    expect(cost).toEqual({ tradingSymbol: 'NIFTY24SEPFUT', lotSize: 25, price: 2_500_000, margin: 5_625_000, charges: 5222 });
    // The same figure for a date and a price alone (what run_backtest checks an investment against).
    const chargeModel = chargeModelOf({ kind: 'schedule', exchange: 'NSE', instrument: 'future' });
    expect(futuresLotCost({ underlying: 'NIFTY', date: isoDate('2024-09-02'), price: 2_500_000, chargeModel })).toEqual(cost);
  });

  it('trades a fixed number of lots when asked to, whatever the capital', () => {
    const { result } = runNiftyFutures({ index: INDEX, signals: [[0, SIGNAL_BUY]], capitalRupees: 50_000, type: 'intraday', candles: CANDLES, sizing: { kind: 'lots', lots: 3 } });
    expect(result.fills[0]?.quantity).toBe(75);
  });
});
