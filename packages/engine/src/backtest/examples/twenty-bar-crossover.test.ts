// Worked example: an SMA(3) / SMA(5) crossover on twenty 1-minute bars of a future on
// 5-Nov-2024, swing, long-only, 1,000 units per trade, signals at the close and fills at the next
// open. Every number below is computed by hand from the table.
//
// bar time   open    close  SMA3     SMA5    SMA3-SMA5  signal
//  7  09:22   99.50  102    99.333   98.2    +1.133     BUY   (last non-zero difference was -0.067 at bar 6)
//  8  09:23  102.50  104                                       -> buy 1,000 at the open, Rs 102.50
// 12  09:27  102.50   99   101.667  102.8    -1.133     SELL  (bar 11 was +0.267)
// 13  09:28   99.50   97                                       -> sell 1,000 at the open, Rs 99.50
// 16  09:31   98.50  101    98.333   98.2    +0.133     BUY   (bar 15 was -1.4)
// 17  09:32  101.50  104                                       -> buy 1,000 at the open, Rs 101.50
// 19  09:34  106.50  107                                       end of data: sell 1,000 at the close, Rs 107
//
// Trade 1: (99.50 - 102.50) x 1,000 = -Rs 3,000      Trade 2: (107 - 101.50) x 1,000 = +Rs 5,500
import { paise } from '@vyuha/core';
import { describe, expect, it } from 'vitest';
import type { BacktestConfigInput } from '../config';
import { runBacktest } from '../run-backtest';
import { smaCrossoverProgram } from '../sma-crossover-program';
import { barsFromRows, minuteAfter } from '../test-support';
import type { BarRow } from '../test-support';

const CLOSES = [100, 99, 98, 97, 96, 97, 99, 102, 104, 105, 104, 102, 99, 97, 96, 98, 101, 104, 106, 107];
// Each bar opens 0.50 above the previous close; high and low are 1 beyond the body.
const ROWS: BarRow[] = CLOSES.map((close, index) => {
  const open = index === 0 ? 100 : (CLOSES[index - 1] as number) + 0.5;
  return [`2024-11-05 ${minuteAfter('09:15', index)}`, open, Math.max(open, close) + 1, Math.min(open, close) - 1, close];
});

function run(config: BacktestConfigInput) {
  const series = barsFromRows(ROWS);
  return runBacktest({ series, program: smaCrossoverProgram(series, { fast: 3, slow: 5 }), config });
}

const BASE: BacktestConfigInput = { type: 'swing', capital: paise(20_000_000), sizing: { kind: 'quantity', quantity: 1_000 } };

describe('twenty-bar SMA(3)/SMA(5) crossover', () => {
  it('makes the two hand-computed trades without charges', () => {
    const result = run(BASE);
    expect(result.trades.map((t) => [t.entryIndex, t.entryPrice, t.exitIndex, t.exitPrice, t.gross, t.net, t.exitReason])).toEqual([
      [8, 10_250, 13, 9_950, -300_000, -300_000, 'signal'],
      [17, 10_150, 19, 10_700, 550_000, 550_000, 'end-of-data'],
    ]);
    expect(result.fills.map((f) => [f.side, f.quantity, f.price, f.reason])).toEqual([
      ['buy', 1_000, 10_250, 'entry'], ['sell', 1_000, 9_950, 'signal'], ['buy', 1_000, 10_150, 'entry'], ['sell', 1_000, 10_700, 'end-of-data'],
    ]);
    // -3,000 + 5,500 = Rs 2,500 = 250,000 paise, all on one day
    expect(result.summary.netPnl).toBe(250_000);
    expect(result.days).toEqual([{ date: '2024-11-05', gross: 250_000, charges: 0, net: 250_000, orders: 4 }]);
    // Equity at bar 8's close: Rs 2,00,000 - 102,500 (cash) + 1,000 x 104 (position) = Rs 2,01,500
    expect(result.equity[8]).toBe(20_150_000);
    expect(result.equity[19]).toBe(20_250_000);
  });

  it('charges each fill as a futures order on NSE on 5-Nov-2024, paise exact', () => {
    // Rates on 5-Nov-2024 (futures): brokerage Rs 20/order; STT 0.02% on sells, rounded to the
    // rupee; NSE 0.00173%; IPF 0.0001%; SEBI 0.0001%; stamp 0.002% on buys; GST 18% of
    // (brokerage + NSE + SEBI). Values in paise:
    // buy  102.50 x 1,000 = 10,250,000: NSE 177.325->177, IPF 10, SEBI 10, stamp 205,
    //      GST 0.18 x 2,187 = 393.66->394; total 2,000+177+10+10+205+394 = 2,796
    // sell  99.50 x 1,000 =  9,950,000: STT 1,990 -> Rs 20 = 2,000, NSE 172.135->172, IPF 10, SEBI 10,
    //      GST 0.18 x 2,182 = 392.76->393; total 2,000+2,000+172+10+10+393 = 4,585
    // buy  101.50 x 1,000 = 10,150,000: NSE 175.595->176, IPF 10, SEBI 10, stamp 203,
    //      GST 0.18 x 2,186 = 393.48->393; total 2,000+176+10+10+203+393 = 2,792
    // sell 107.00 x 1,000 = 10,700,000: STT 2,140 -> Rs 21 = 2,100, NSE 185.11->185, IPF 11, SEBI 11,
    //      GST 0.18 x 2,196 = 395.28->395; total 2,000+2,100+185+11+11+395 = 4,702
    const result = run({ ...BASE, charges: { kind: 'schedule', exchange: 'NSE', instrument: 'future' } });
    expect(result.fills.map((f) => f.chargesTotal)).toEqual([2_796, 4_585, 2_792, 4_702]);
    expect(result.fills[1]?.charges).toEqual({ brokerage: 2_000, stt: 2_000, exchangeTransaction: 172, investorProtection: 10, sebiFee: 10, stampDuty: 0, gst: 393 });
    // trade 1: -300,000 - (2,796 + 4,585) = -307,381;  trade 2: 550,000 - (2,792 + 4,702) = 542,506
    expect(result.trades.map((t) => [t.gross, t.charges, t.net])).toEqual([[-300_000, 7_381, -307_381], [550_000, 7_494, 542_506]]);
    expect(result.summary).toMatchObject({ netPnl: 235_125, grossPnl: 250_000, charges: 14_875, trades: 2, wins: 1, losses: 1 });
    expect(result.days).toEqual([{ date: '2024-11-05', gross: 250_000, charges: 14_875, net: 235_125, orders: 4 }]);
  });

  it('fills at the signal bar close with fill: close', () => {
    // buy at bar 7's close 102, sell at bar 12's close 99: -3,000; buy at bar 16's close 101, out at 107: +6,000
    const result = run({ ...BASE, fill: 'close' });
    expect(result.trades.map((t) => [t.entryIndex, t.entryPrice, t.exitIndex, t.exitPrice, t.gross])).toEqual([
      [7, 10_200, 12, 9_900, -300_000], [16, 10_100, 19, 10_700, 600_000],
    ]);
    expect(result.summary.netPnl).toBe(300_000);
  });

  it('sizes all-in at the fill price on the cash left', () => {
    // Rs 1,00,000 at 102.50: floor(100,000 / 102.5) = 975 units (Rs 99,937.50); the trade loses 975 x 3 = Rs 2,925.
    // Cash is then Rs 97,075; at 101.50: floor(97,075 / 101.5) = 956 units; they gain 956 x 5.50 = Rs 5,258.
    const result = run({ type: 'swing', capital: paise(10_000_000), sizing: { kind: 'all-in' } });
    expect(result.trades.map((t) => [t.quantity, t.gross])).toEqual([[975, -292_500], [956, 525_800]]);
    expect(result.summary.endingEquity).toBe(10_000_000 - 292_500 + 525_800);
  });
});
