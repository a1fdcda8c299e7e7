// Worked example: one long NIFTY future round trip, intraday on 24-Dec-2024, sized by margin,
// priced from the contract's imported candles, with its charges to the paisa.
//
// The near month on 24-Dec-2024 is NIFTY24DECFUT (expiry Thursday 26-Dec-2024). Its lot is 25:
// the lot of 75 applies only to contracts expiring from 1-Jan-2025 (lots.ts), so December's
// contract keeps its old lot until it expires.
//
// Sizing, capital Rs 2,00,000, entry at 23,800.00:
//   margin per lot = 25 x 23,800 x 9% = Rs 53,550.00; floor(2,00,000 / 53,550) = 3 lots = 75 units
//   3 lots need 1,60,650.00 + the buy's charges (Rs 99.64) <= 2,00,000
//
// Buy 75 at 23,800.00, value 75 x 23,800.00 = Rs 17,85,000 = 178,500,000 p (rates of 24-Dec-2024):
//   brokerage Rs 20                                         = 2,000
//   STT       none on a buy                                 = 0
//   exchange  178,500,000 x 0.00173% = 3,088.05            -> 3,088
//   IPF       178,500,000 x 0.0001%  = 178.5               -> 179
//   SEBI      178,500,000 x 0.0001%  = 178.5               -> 179
//   stamp     178,500,000 x 0.002%   = 3,570               = 3,570
//   GST       18% x (2,000 + 3,088 + 179) = 948.06         -> 948
//   total                                                   = 9,964 p (Rs 99.64)
// Sell 75 at 23,900.50, value Rs 17,92,537.50 = 179,253,750 p:
//   brokerage                                               = 2,000
//   STT       179,253,750 x 0.02% = 35,850.75 p = Rs 358.51 -> Rs 359 = 35,900
//   exchange  179,253,750 x 0.00173% = 3,101.09            -> 3,101
//   IPF, SEBI 179.25 each                                  -> 179, 179
//   GST       18% x (2,000 + 3,101 + 179) = 950.4          -> 950
//   total                                                   = 42,309 p (Rs 423.09)
// Gross (23,900.50 - 23,800.00) x 75 = Rs 7,537.50; net 7,537.50 - 99.64 - 423.09 = Rs 7,014.77.
import { describe, expect, it } from 'vitest';
import { SIGNAL_BUY, SIGNAL_EXIT } from '../../algorithm/program';
import { barsFromRows } from '../../backtest/test-support';
import { contractCandles, runNiftyFutures } from './example-support';

const INDEX = barsFromRows([
  ['2024-12-24 09:15', 23_760, 23_790, 23_750, 23_780],
  ['2024-12-24 09:30', 23_782, 23_840, 23_775, 23_830],
  ['2024-12-24 09:45', 23_830, 23_900, 23_820, 23_885],
  ['2024-12-24 10:00', 23_888, 23_900, 23_860, 23_870],
]);
const CANDLES = contractCandles({
  NIFTY24DECFUT: {
    0: [23_778, 23_808, 23_768, 23_798], 1: [23_800, 23_858, 23_793, 23_848],
    2: [23_848, 23_918, 23_838, 23_903], 3: [23_900.5, 23_918, 23_878, 23_888],
  },
});

describe('one long NIFTY future round trip', () => {
  const { result } = runNiftyFutures({ index: INDEX, signals: [[0, SIGNAL_BUY], [2, SIGNAL_EXIT]], capitalRupees: 200_000, type: 'intraday', candles: CANDLES });

  it('buys 3 lots of the near month at the next open and sells them at the open after the exit signal', () => {
    expect(result.fills.map((fill) => [fill.instrument, fill.side, fill.quantity, fill.price, fill.reason])).toEqual([
      ['NIFTY24DECFUT', 'buy', 75, 2_380_000, 'entry'],
      ['NIFTY24DECFUT', 'sell', 75, 2_390_050, 'signal'],
    ]);
  });

  it('charges each fill by the futures schedule of the day, to the paisa', () => {
    expect(result.fills.map((fill) => fill.charges)).toEqual([
      { brokerage: 2000, stt: 0, exchangeTransaction: 3088, investorProtection: 179, sebiFee: 179, stampDuty: 3570, gst: 948 },
      { brokerage: 2000, stt: 35_900, exchangeTransaction: 3101, investorProtection: 179, sebiFee: 179, stampDuty: 0, gst: 950 },
    ]);
    expect(result.fills.map((fill) => fill.chargesTotal)).toEqual([9964, 42_309]);
  });

  it('books the round trip and the day: gross Rs 7,537.50, net Rs 7,014.77', () => {
    expect(result.trades).toHaveLength(1);
    expect(result.trades[0]).toMatchObject({ instrument: 'NIFTY24DECFUT', direction: 'long', quantity: 75, gross: 753_750, charges: 52_273, net: 701_477, exitReason: 'signal' });
    expect(result.summary).toMatchObject({ netPnl: 701_477, charges: 52_273, trades: 1 });
    expect(result.days).toEqual([{ date: '2024-12-24', gross: 753_750, charges: 52_273, net: 701_477, orders: 2 }]);
  });

  it('shows the program entry_price on the index, where its rules live', () => {
    const { seen } = runNiftyFutures({ index: INDEX, signals: [[0, SIGNAL_BUY]], capitalRupees: 200_000, type: 'intraday', candles: CANDLES });
    // Filled at bar 1's open: the future at 23,800.00, the index at 23,782.
    expect(seen.map((position) => [position.position, position.entryPrice, position.barsSinceEntry])).toEqual([
      [0, Number.NaN, Number.NaN], [1, 23_782, 0], [1, 23_782, 1], [1, 23_782, 2],
    ]);
  });
});
