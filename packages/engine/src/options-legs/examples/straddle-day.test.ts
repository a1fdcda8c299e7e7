// Worked example: a short ATM straddle on NIFTY on Monday 6-Jan-2025, priced from option candles.
//
// The rule fires at the close of the 09:19 bar (a Buy signal), so both legs are sold at the open
// of the 09:20 bar. NIFTY closed the 09:19 bar at 23,612.40: the ATM strike (step 50) is 23,600.
// The current weekly expiry on 6-Jan-2025 is Thursday 9-Jan-2025, so the contracts are
// NIFTY2510923600CE and NIFTY2510923600PE; one lot is 75 units (lot of contracts expiring from
// 1-Jan-2025), below the freeze quantity (1,800), so each leg is one order.
//
//   09:20 sell 75 CE at 148.00 (candle open)   stop 25% -> 148.00 x 1.25 = 185.00
//   09:20 sell 75 PE at 132.00 (candle open)   stop 25% -> 132.00 x 1.25 = 165.00
//   10:30 CE candle 170, 186.50, 168, 184 closed up, so its tick path is 170 -> 168 -> 186.50 -> 184:
//         tick 2 (10:30:30, a 1-minute bar's ticks are 15 s apart) crosses 185.00: bought back at the stop, 185.00
//   15:15 first bar at the square-off time: PE bought back at that bar's open, 98.40
//
// Gross: CE (148.00 - 185.00) x 75 = -2,775.00; PE (132.00 - 98.40) x 75 = +2,520.00; total -255.00
//
// Charges, schedule on 6-Jan-2025 (NSE options): brokerage Rs 20/order; STT 0.1% of sell premium,
// rounded to the rupee; exchange 0.03503%; IPF 0.0005%; SEBI 0.0001%; stamp 0.003% of buy premium;
// GST 18% of (brokerage + exchange + SEBI); each rounded to the paisa.
//   sell CE, value 11,100.00: 20 + STT 11 (11.10) + exch 3.89 (3.88833) + IPF 0.06 (0.0555) + SEBI 0.01 + GST 4.30 (18% of 23.90) = 39.26
//   sell PE, value  9,900.00: 20 + STT 10 (9.90)  + exch 3.47 (3.46797) + IPF 0.05 (0.0495) + SEBI 0.01 + GST 4.23 (18% of 23.48) = 37.76
//   buy CE,  value 13,875.00: 20 + exch 4.86 (4.8604) + IPF 0.07 (0.0694) + SEBI 0.01 + stamp 0.42 (0.41625) + GST 4.48 (18% of 24.87) = 29.84
//   buy PE,  value  7,380.00: 20 + exch 2.59 (2.5852) + IPF 0.04 (0.0369) + SEBI 0.01 + stamp 0.22 (0.2214) + GST 4.07 (18% of 22.60) = 26.93
//   total 133.79; net -255.00 - 133.79 = -388.79
import { describe, expect, it } from 'vitest';
import { SIGNAL_BUY } from '../../algorithm/program';
import { parseOptionsLegsConfig } from '../config';
import { barSeriesOf, candleSourceOf, INTRADAY_RULES, runExample, timeOf } from './example-support';

const series = barSeriesOf([
  ['2025-01-06 09:15', 23_600, 23_630, 23_590, 23_610],
  ['2025-01-06 09:19', 23_610, 23_620, 23_605, 23_612.4],
  ['2025-01-06 09:20', 23_612, 23_625, 23_600, 23_615],
  ['2025-01-06 10:30', 23_700, 23_760, 23_690, 23_750],
  ['2025-01-06 12:00', 23_740, 23_745, 23_700, 23_720],
  ['2025-01-06 15:15', 23_730, 23_735, 23_725, 23_728],
  ['2025-01-06 15:29', 23_728, 23_730, 23_720, 23_725],
]);

const candles = candleSourceOf({
  NIFTY2510923600CE: {
    '2025-01-06 09:15': [150, 152, 147, 149], '2025-01-06 09:19': [149, 150, 148, 148.5], '2025-01-06 09:20': [148, 150.5, 147, 149.6],
    '2025-01-06 10:30': [170, 186.5, 168, 184], '2025-01-06 12:00': [181, 183, 175, 178], '2025-01-06 15:15': [180, 181, 179, 180],
  },
  NIFTY2510923600PE: {
    '2025-01-06 09:15': [140, 142, 137, 139], '2025-01-06 09:19': [134, 135, 133, 133.5], '2025-01-06 09:20': [132, 133, 130.2, 131],
    '2025-01-06 10:30': [110, 111, 96.35, 97.1], '2025-01-06 12:00': [98, 100, 95.5, 99], '2025-01-06 15:15': [98.4, 98.9, 97.8, 98.1],
    '2025-01-06 15:29': [98.1, 98.5, 97.9, 98.2],
  },
});

const config = parseOptionsLegsConfig({
  underlying: 'NIFTY',
  onBuy: [
    { option: 'CE', side: 'sell', strike: { by: 'atm-offset', steps: 0 }, expiry: 'current-weekly', lots: 1, stopLoss: { percent: 25 } },
    { option: 'PE', side: 'sell', strike: { by: 'atm-offset', steps: 0 }, expiry: 'current-weekly', lots: 1, stopLoss: { percent: 25 } },
  ],
});

describe('a 09:20 short ATM straddle with a 25% stop per leg (6-Jan-2025)', () => {
  const { ledger } = runExample({ series, config, candles, signals: new Map([[1, SIGNAL_BUY]]), rules: INTRADAY_RULES });

  it('sells both ATM legs of the current weekly at the 09:20 open', () => {
    const entries = ledger.fills.filter((fill) => fill.reason === 'entry');
    expect(entries.map((fill) => [fill.instrument, fill.side, fill.quantity, fill.price, fill.time])).toEqual([
      ['NIFTY2510923600CE', 'sell', 75, 14_800, timeOf('2025-01-06 09:20')],
      ['NIFTY2510923600PE', 'sell', 75, 13_200, timeOf('2025-01-06 09:20')],
    ]);
  });

  it('stops the call at 185.00 at 10:30:30 and squares the put off at 98.40 at 15:15', () => {
    expect(ledger.trades.map((trade) => [trade.instrument, trade.direction, trade.entryPrice, trade.exitPrice, trade.exitReason, trade.gross])).toEqual([
      ['NIFTY2510923600CE', 'short', 14_800, 18_500, 'stop', -277_500],
      ['NIFTY2510923600PE', 'short', 13_200, 9_840, 'square-off', 252_000],
    ]);
    expect(ledger.trades[0]?.exitTime).toBe(timeOf('2025-01-06 10:30') + 30_000);
    expect(ledger.trades[1]?.exitTime).toBe(timeOf('2025-01-06 15:15'));
  });

  it('charges each order to the paisa from the schedule', () => {
    expect(ledger.fills.map((fill) => fill.chargesTotal)).toEqual([3_926, 3_776, 2_984, 2_693]);
    expect(ledger.fills[0]?.charges).toEqual({ brokerage: 2_000, stt: 1_100, exchangeTransaction: 389, investorProtection: 6, sebiFee: 1, stampDuty: 0, gst: 430 });
    expect(ledger.fills[2]?.charges).toEqual({ brokerage: 2_000, stt: 0, exchangeTransaction: 486, investorProtection: 7, sebiFee: 1, stampDuty: 42, gst: 448 });
  });

  it('ends the day at -388.79 net, four orders, flat', () => {
    expect(ledger.days).toEqual([{ date: '2025-01-06', gross: -25_500, charges: 13_379, net: -38_879, orders: 4 }]);
    expect(ledger.trades.reduce((sum, trade) => sum + trade.net, 0)).toBe(-38_879);
  });
});
