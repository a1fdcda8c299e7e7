// Worked example: an entry of 100 NIFTY lots (2,500 units of NIFTY24SEPFUT, lot 25) on
// 2-Sep-2024, above NSE's freeze quantity of 1,800 units: it goes out as two orders, 1,800 and
// 700 units (72 and 28 lots), each an executed order with its own Rs 20 brokerage, and the exit
// closes each slice with a slice of the same size, so the run books two round trips.
import { describe, expect, it } from 'vitest';
import { SIGNAL_BUY, SIGNAL_EXIT } from '../../algorithm/program';
import { barsFromRows } from '../../backtest/test-support';
import { contractCandles, runNiftyFutures } from './example-support';

const INDEX = barsFromRows([
  ['2024-09-02 09:15', 24_950, 24_990, 24_940, 24_980],
  ['2024-09-02 09:30', 24_985, 25_010, 24_970, 25_000],
  ['2024-09-02 09:45', 25_000, 25_020, 24_990, 25_010],
  ['2024-09-02 10:00', 25_010, 25_030, 25_000, 25_020],
]);
const CANDLES = contractCandles({ NIFTY24SEPFUT: { 1: [25_000, 25_020, 24_990, 25_010], 3: [25_040, 25_050, 25_030, 25_045] } });

describe('an entry above the freeze quantity', () => {
  const { result } = runNiftyFutures({
    index: INDEX, signals: [[0, SIGNAL_BUY], [2, SIGNAL_EXIT]], capitalRupees: 10_000_000, type: 'intraday', candles: CANDLES, sizing: { kind: 'lots', lots: 100 },
  });

  it('is sent as slices of at most 1,800 units, and closed slice by slice', () => {
    expect(result.orders.map((order) => [order.side, order.quantity, order.reason, order.status])).toEqual([
      ['buy', 1800, 'entry', 'filled'], ['buy', 700, 'entry', 'filled'], ['sell', 1800, 'signal', 'filled'], ['sell', 700, 'signal', 'filled'],
    ]);
    expect(result.fills.map((fill) => [fill.quantity, fill.price, fill.charges.brokerage])).toEqual([
      [1800, 2_500_000, 2000], [700, 2_500_000, 2000], [1800, 2_504_000, 2000], [700, 2_504_000, 2000],
    ]);
  });

  it('books a round trip per slice: (25,040 - 25,000) x 1,800 and x 700', () => {
    expect(result.trades.map((trade) => [trade.quantity, trade.gross])).toEqual([[1800, 40 * 1800 * 100], [700, 40 * 700 * 100]]);
    expect(result.summary.grossPnl).toBe(40 * 2500 * 100);
  });
});
