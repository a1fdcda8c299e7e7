// Worked example: a swing position held through its expiry settles at intrinsic value.
//
// Wednesday 8-Jan-2025, a Buy signal at the close of the 14:59 bar (NIFTY 23,540.00, ATM 23,550):
//   buy  75 NIFTY2510923550CE (current weekly, Thursday 9-Jan-2025) at the 15:00 open, 80.00
//   sell 75 NIFTY2510923450PE (ATM - 2 steps)                       at the 15:00 open, 15.00
// Nothing closes them (swing: no square-off). NIFTY closes Thursday's session at 23,650.55, the
// expiry's settlement level:
//   CE 23,550: in the money by 100.55 -> exercised: the long receives 100.55 x 75 = 7,541.25
//   PE 23,450: out of the money -> expires worthless, no charges
// The settlement is booked at the close of Thursday's last bar (15:29, ending 15:30 at the expiry
// close), on Thursday: both legs close with exit reason `expiry`, and Thursday's day row holds
// the settlement's P&L, charges and two orders. (Before the kernel had an end-of-bar hook it was
// booked at Friday's first bar; only the bar and the day it lands on changed, not the figures.)
//   CE gross (100.55 - 80.00) x 75 = +1,541.25; PE gross (15.00 - 0) x 75 = +1,125.00
// Thursday's row: Wednesday closed marked at CE 85.00 x 75 - PE 13.00 x 75 = 5,400.00; Thursday
// ends with both settled: 7,541.25 - 32.60 = 7,508.65 in cash, so net = +2,108.65, charges 32.60,
// gross 2,141.25, orders 2 (the exercise and the worthless expiry). Friday: nothing open, all 0.
// Exercise charges (9-Jan-2025): STT 0.125% of 7,541.25 = 9.43 -> Rs 9; brokerage 20.00; GST 18% of
// 20.00 = 3.60; total 32.60. No exchange, SEBI or stamp charges on an exercise.
import { describe, expect, it } from 'vitest';
import { SIGNAL_BUY } from '../../algorithm/program';
import { parseOptionsLegsConfig } from '../config';
import { barSeriesOf, candleSourceOf, runExample, SWING_RULES, timeOf } from './example-support';

const series = barSeriesOf([
  ['2025-01-08 14:59', 23_535, 23_545, 23_530, 23_540],
  ['2025-01-08 15:00', 23_541, 23_550, 23_535, 23_545],
  ['2025-01-08 15:29', 23_560, 23_565, 23_555, 23_560],
  ['2025-01-09 09:15', 23_600, 23_620, 23_590, 23_610],
  ['2025-01-09 15:29', 23_640, 23_655, 23_640, 23_650.55],
  ['2025-01-10 09:15', 23_700, 23_710, 23_690, 23_705],
]);

const candles = candleSourceOf({
  NIFTY2510923550CE: { '2025-01-08 15:00': [80, 82, 79, 81], '2025-01-08 15:29': [85, 86, 84, 85], '2025-01-09 09:15': [70, 75, 68, 72], '2025-01-09 15:29': [99, 101, 98, 100.5] },
  NIFTY2510923450PE: { '2025-01-08 15:00': [15, 15.5, 14.5, 15], '2025-01-08 15:29': [13, 13.5, 12.5, 13], '2025-01-09 09:15': [6, 6.5, 5, 5.5], '2025-01-09 15:29': [0.1, 0.15, 0.05, 0.05] },
});

const config = parseOptionsLegsConfig({
  underlying: 'NIFTY',
  onBuy: [
    { option: 'CE', side: 'buy', strike: { by: 'atm-offset', steps: 0 }, expiry: 'current-weekly', lots: 1 },
    { option: 'PE', side: 'sell', strike: { by: 'atm-offset', steps: -2 }, expiry: 'current-weekly', lots: 1 },
  ],
});

describe('a swing position held across its expiry (8 to 10-Jan-2025)', () => {
  const { ledger, trader } = runExample({ series, config, candles, signals: new Map([[0, SIGNAL_BUY]]), rules: SWING_RULES });

  it('settles the in-the-money long at intrinsic and lets the short put expire worthless', () => {
    expect(trader.settlements).toEqual([
      { tradingSymbol: 'NIFTY2510923550CE', date: '2025-01-09', event: 'exercise', settlementSpot: 23_650.55, intrinsic: 10_055, quantity: 75, charges: 3_260 },
      { tradingSymbol: 'NIFTY2510923450PE', date: '2025-01-09', event: 'expire-worthless', settlementSpot: 23_650.55, intrinsic: 0, quantity: 75, charges: 0 },
    ]);
  });

  it('books the round trips at the expiry close with the hand-computed P&L', () => {
    const expiryClose = timeOf('2025-01-09 15:30');
    expect(ledger.trades.map((trade) => [trade.instrument, trade.direction, trade.entryPrice, trade.exitPrice, trade.exitTime, trade.gross])).toEqual([
      ['NIFTY2510923550CE', 'long', 8_000, 10_055, expiryClose, 154_125],
      ['NIFTY2510923450PE', 'short', 1_500, 0, expiryClose, 112_500],
    ]);
    const settlementFill = ledger.fills.find((fill) => fill.instrument === 'NIFTY2510923550CE' && fill.side === 'sell');
    expect(settlementFill?.charges).toEqual({ brokerage: 2_000, stt: 900, exchangeTransaction: 0, investorProtection: 0, sebiFee: 0, stampDuty: 0, gst: 360 });
  });

  it('settles on the expiry day: the 15:29 bar, exit reason expiry, and Thursday\'s row holds it', () => {
    const settlementFills = ledger.fills.filter((fill) => fill.reason === 'expiry');
    expect(settlementFills.map((fill) => [fill.instrument, fill.index, fill.date, fill.price, fill.chargesTotal])).toEqual([
      ['NIFTY2510923550CE', 4, '2025-01-09', 10_055, 3_260],
      ['NIFTY2510923450PE', 4, '2025-01-09', 0, 0],
    ]);
    expect(ledger.trades.map((trade) => trade.exitReason)).toEqual(['expiry', 'expiry']);
    const day = (date: string): unknown => ledger.days.find((row) => row.date === date);
    expect(day('2025-01-09')).toEqual({ date: '2025-01-09', gross: 214_125, charges: 3_260, net: 210_865, orders: 2 });
    expect(day('2025-01-10')).toEqual({ date: '2025-01-10', gross: 0, charges: 0, net: 0, orders: 0 });
  });

  it('leaves nothing open and no roll into the next expiry', () => {
    expect(trader.isActive()).toBe(false);
    expect(ledger.fills.filter((fill) => fill.reason === 'entry')).toHaveLength(2);
  });
});
