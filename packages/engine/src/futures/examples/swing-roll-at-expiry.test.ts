// Worked example: a swing long in NIFTY's December 2024 future, held into its expiry day and
// rolled into January at the roll time (the square-off time, 15:15) as a trader would, with the
// stop-loss carried over at the same distance.
//
// Bars (15-minute, stamped with their start):
//   0  24-Dec 09:15   BUY signal at the close
//   1  24-Dec 09:30   buy NIFTY24DECFUT at the open, 23,800.00; stop 100 points below: 23,700.00
//   2  26-Dec 15:00   expiry day, the last December bar: its close is 23,840.00
//   3  26-Dec 15:15   the roll: sell December at its last price, 23,840.00 (reason `roll`), buy
//                     NIFTY25JANFUT at this open, 23,990.00; the stop moves by the spread
//                     23,990 - 23,840 = +150 to 23,850.00
//   4  27-Dec 09:15   January opens 23,950 and trades down to 23,840: the stop at 23,850 fills
//                     (the unmoved stop, 23,700, would not have)
// Sizing by margin on Rs 3,00,000:
//   December (lot 25 until it expires): 25 x 23,800 x 9% = Rs 53,550 a lot -> 5 lots = 125 units
//   January (lot 75 from the January 2025 expiry): 75 x 23,990 x 9% = Rs 1,61,932.50 a lot;
//   the capital after the December trade (3,00,000 + 5,000 gross - 150.33 - 686.93 of charges =
//   Rs 3,04,162.74) covers 1 lot = 75 units.
import { describe, expect, it } from 'vitest';
import { SIGNAL_BUY } from '../../algorithm/program';
import { barsFromRows } from '../../backtest/test-support';
import { contractCandles, runNiftyFutures } from './example-support';

const INDEX = barsFromRows([
  ['2024-12-24 09:15', 23_770, 23_800, 23_760, 23_790],
  ['2024-12-24 09:30', 23_791, 23_840, 23_770, 23_810],
  ['2024-12-26 15:00', 23_820, 23_850, 23_800, 23_835],
  ['2024-12-26 15:15', 23_836, 23_850, 23_820, 23_845],
  ['2024-12-27 09:15', 23_800, 23_810, 23_690, 23_750],
]);
const CANDLES = contractCandles({
  NIFTY24DECFUT: { 0: [23_780, 23_810, 23_770, 23_800], 1: [23_800, 23_850, 23_780, 23_820], 2: [23_830, 23_860, 23_810, 23_840] },
  NIFTY25JANFUT: { 3: [23_990, 24_010, 23_960, 24_000], 4: [23_950, 23_960, 23_840, 23_900] },
});

describe('a swing future rolled at expiry', () => {
  const { result, seen } = runNiftyFutures({
    index: INDEX, signals: [[0, SIGNAL_BUY]], capitalRupees: 300_000, type: 'swing', candles: CANDLES,
    config: { stopLoss: { kind: 'points', points: 100 } },
  });

  it('sells the expiring contract at its last price and buys the next month at the roll bar\'s open', () => {
    expect(result.fills.map((fill) => [fill.index, fill.instrument, fill.side, fill.quantity, fill.price, fill.reason])).toEqual([
      [1, 'NIFTY24DECFUT', 'buy', 125, 2_380_000, 'entry'],
      [3, 'NIFTY24DECFUT', 'sell', 125, 2_384_000, 'roll'],
      [3, 'NIFTY25JANFUT', 'buy', 75, 2_399_000, 'entry'],
      [4, 'NIFTY25JANFUT', 'sell', 75, 2_385_000, 'stop'],
    ]);
    // Both roll fills are stamped 26-Dec-2024 15:15 IST and charged on that day.
    expect(result.fills[1]?.time).toBe(Date.UTC(2024, 11, 26, 9, 45));
    expect(result.fills[2]?.time).toBe(Date.UTC(2024, 11, 26, 9, 45));
    expect(result.fills.every((fill) => fill.chargesTotal > 0)).toBe(true);
  });

  it('books the December trade as closed by the roll and January\'s by the moved stop', () => {
    expect(result.trades.map((trade) => [trade.instrument, trade.quantity, trade.gross, trade.exitReason])).toEqual([
      ['NIFTY24DECFUT', 125, 40 * 125 * 100, 'roll'],
      ['NIFTY25JANFUT', 75, -140 * 75 * 100, 'stop'],
    ]);
    expect(result.days.map((day) => [day.date, day.orders])).toEqual([['2024-12-24', 1], ['2024-12-26', 2], ['2024-12-27', 1]]);
  });

  it('is one position for the program: entry_price and bars_since_entry carry on through the roll', () => {
    expect(seen.slice(0, 4).map((position) => [position.position, position.entryPrice, position.barsSinceEntry])).toEqual([
      [0, Number.NaN, Number.NaN], [1, 23_791, 0], [1, 23_791, 1], [1, 23_791, 2],
    ]);
    expect(seen[4]?.position).toBe(0); // stopped out inside bar 4
  });
});
