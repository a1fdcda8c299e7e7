// Worked example: the strategy's daily max loss, Rs 1,000, on a short call (13-Jan-2025, 75 units).
//   09:20 sold at 100.00; entry charges Rs 34.76 (paid at once, so they count in the day's P&L):
//         value 7,500.00: brokerage 20 + STT 8 (7.50 rounds up) + exchange 2.63 + IPF 0.04 + SEBI 0.01
//         + GST 4.08 (18% of 22.64)
//   10:00 close 112.00: day P&L = (100 - 112) x 75 - 34.76 = -934.76   (above -1,000: holds)
//   10:30 close 114.00: day P&L = (100 - 114) x 75 - 34.76 = -1,084.76 (at or beyond -1,000)
//         -> every leg is bought back at this close (114.00), reason 'daily-limit'
//   11:00 a new Buy signal: no entry for the rest of the day
// The kernel checks the limit at each bar's close, on realised plus open P&L after charges.
import { describe, expect, it } from 'vitest';
import { SIGNAL_BUY } from '../../algorithm/program';
import { dailyLimitsOf, parseOptionsLegsConfig } from '../config';
import { barSeriesOf, candleSourceOf, INTRADAY_RULES, runExample, timeOf } from './example-support';

const TIMES = ['09:19', '09:20', '10:00', '10:30', '11:00', '11:01', '15:15'];
const series = barSeriesOf(TIMES.map((time) => [`2025-01-13 ${time}`, 23_405, 23_420, 23_390, 23_410] as const));
const candles = candleSourceOf({
  NIFTY2511623400CE: {
    '2025-01-13 09:19': [101, 102, 100, 101], '2025-01-13 09:20': [100, 104, 99, 103], '2025-01-13 10:00': [108, 113, 107, 112],
    '2025-01-13 10:30': [112, 115, 111, 114], '2025-01-13 11:00': [110, 111, 108, 109], '2025-01-13 11:01': [109, 110, 108, 109], '2025-01-13 15:15': [100, 101, 99, 100],
  },
});
const config = parseOptionsLegsConfig({
  underlying: 'NIFTY', dailyMaxLossRupees: 1_000, maxEntriesPerDay: 3,
  onBuy: [{ option: 'CE', side: 'sell', strike: { by: 'atm-offset', steps: 0 }, expiry: 'current-weekly', lots: 1 }],
});

describe('daily max loss of Rs 1,000', () => {
  const { ledger } = runExample({ series, config, candles, signals: new Map([[0, SIGNAL_BUY], [4, SIGNAL_BUY]]), rules: { ...INTRADAY_RULES, ...dailyLimitsOf(config) } });

  it('squares off at the first close beyond the limit and enters nothing more that day', () => {
    expect(ledger.fills[0]?.chargesTotal).toBe(3_476);
    expect(ledger.trades.map((trade) => [trade.entryPrice, trade.exitPrice, trade.exitTime, trade.exitReason])).toEqual([
      [10_000, 11_400, timeOf('2025-01-13 10:31'), 'daily-limit'],
    ]);
    expect(ledger.fills).toHaveLength(2);
  });
});
