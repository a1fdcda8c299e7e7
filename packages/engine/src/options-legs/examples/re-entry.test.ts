// Worked example: re-entry after a stop, NIFTY short ATM call, 13-Jan-2025 (Monday), one lot (75).
// Contract: ATM 23,400 of the current weekly (Thursday 16-Jan-2025): NIFTY2511623400CE.
//
// A. `asap`, at most 1 re-entry, stop 20 points:
//   09:20 sell at 100.00 (stop 120.00)
//   09:30 high 121.00 -> stop, bought at 120.00               gross (100 - 120) x 75 = -1,500.00
//         re-entry order placed at the 09:30 close (strike chosen again: NIFTY still at ATM 23,400)
//   09:31 sell again at the open, 118.00 (stop 138.00)
//   10:00 high 139.00 -> stop, bought at 138.00               gross (118 - 138) x 75 = -1,500.00
//         one re-entry was allowed and is used: no third entry, though the premium falls back later
//
// B. `at-cost`, at most 2 re-entries, stop 20 points: the same contract re-enters when the premium
//   comes back to the first entry premium, 100.00 (a sell stop order at 100.00). Each premium bar
//   is matched as its tick path (open; low then high when it closed up, high then low when it
//   closed down; close), four ticks 15 s apart on these 1-minute bars, and a fill inside a bar is
//   stamped with its tick's time:
//   09:20 sell at 100.00; 09:30 path 110, 109, 121: stop at 120.00 on tick 2 (09:30:30)   gross -1,500.00
//   10:00 path 105, 106, 99: 99.00 <= 100.00 on tick 2 (10:00:30): sold at 100.00; its stop
//         watches the ticks after (the close, 101.00: no stop)
//   10:30 path 110, 108, 125: stop at 120.00 on tick 2 (10:30:30)                         gross -1,500.00
//   11:00 path 101, 103, 95: sold at 100.00 on tick 2 (11:00:30), the second and last re-entry
//   15:15 square-off at the open, 90.00                       gross (100 - 90) x 75 = +750.00
import { describe, expect, it } from 'vitest';
import { SIGNAL_BUY } from '../../algorithm/program';
import { parseOptionsLegsConfig } from '../config';
import { barSeriesOf, candleSourceOf, INTRADAY_RULES, runExample, timeOf } from './example-support';

const TIMES = ['09:15', '09:19', '09:20', '09:30', '09:31', '10:00', '10:30', '11:00', '15:15', '15:29'];
// NIFTY stays near 23,400, so every re-choice of the ATM strike gives 23,400.
const series = barSeriesOf(TIMES.map((time) => [`2025-01-13 ${time}`, 23_405, 23_420, 23_390, 23_410] as const));
const SYMBOL = 'NIFTY2511623400CE';
/** Tick 2 of a 1-minute bar's path comes 30 s after its start. */
const TICK_2 = 30_000;

function shortCall(reEntry: { mode: 'asap' | 'at-cost'; maxTimes: number }): ReturnType<typeof parseOptionsLegsConfig> {
  return parseOptionsLegsConfig({
    underlying: 'NIFTY',
    onBuy: [{ option: 'CE', side: 'sell', strike: { by: 'atm-offset', steps: 0 }, expiry: 'current-weekly', lots: 1, stopLoss: { points: 20 }, reEntry }],
  });
}

describe('re-entry asap, at most once', () => {
  const candles = candleSourceOf({
    [SYMBOL]: {
      '2025-01-13 09:19': [101, 102, 100, 101], '2025-01-13 09:20': [100, 104, 99, 103], '2025-01-13 09:30': [110, 121, 109, 119],
      '2025-01-13 09:31': [118, 125, 117, 124], '2025-01-13 10:00': [130, 139, 128, 135], '2025-01-13 10:30': [100, 101, 90, 92],
      '2025-01-13 11:00': [80, 82, 78, 79], '2025-01-13 15:15': [70, 71, 69, 70],
    },
  });
  const { ledger } = runExample({ series, config: shortCall({ mode: 'asap', maxTimes: 1 }), candles, signals: new Map([[1, SIGNAL_BUY]]), rules: INTRADAY_RULES });

  it('stops, re-enters at the next open, stops again, and enters no third time', () => {
    expect(ledger.trades.map((trade) => [trade.instrument, trade.entryTime, trade.entryPrice, trade.exitPrice, trade.exitReason, trade.gross])).toEqual([
      [SYMBOL, timeOf('2025-01-13 09:20'), 10_000, 12_000, 'stop', -150_000],
      [SYMBOL, timeOf('2025-01-13 09:31'), 11_800, 13_800, 'stop', -150_000],
    ]);
    expect(ledger.fills).toHaveLength(4);
  });
});

describe('re-entry at cost, at most twice', () => {
  const candles = candleSourceOf({
    [SYMBOL]: {
      '2025-01-13 09:19': [101, 102, 100, 101], '2025-01-13 09:20': [100, 104, 99, 103], '2025-01-13 09:30': [110, 121, 109, 119],
      '2025-01-13 09:31': [118, 119, 112, 113], '2025-01-13 10:00': [105, 106, 99, 101], '2025-01-13 10:30': [110, 125, 108, 115],
      '2025-01-13 11:00': [101, 103, 95, 96], '2025-01-13 15:15': [90, 91, 89, 90], '2025-01-13 15:29': [88, 89, 87, 88],
    },
  });
  const { ledger } = runExample({ series, config: shortCall({ mode: 'at-cost', maxTimes: 2 }), candles, signals: new Map([[1, SIGNAL_BUY]]), rules: INTRADAY_RULES });

  it('re-enters the same contract each time the premium returns to 100.00, twice at most', () => {
    expect(ledger.trades.map((trade) => [trade.entryTime, trade.entryPrice, trade.exitTime, trade.exitPrice, trade.exitReason, trade.gross])).toEqual([
      [timeOf('2025-01-13 09:20'), 10_000, timeOf('2025-01-13 09:30') + TICK_2, 12_000, 'stop', -150_000],
      [timeOf('2025-01-13 10:00') + TICK_2, 10_000, timeOf('2025-01-13 10:30') + TICK_2, 12_000, 'stop', -150_000],
      [timeOf('2025-01-13 11:00') + TICK_2, 10_000, timeOf('2025-01-13 15:15'), 9_000, 'square-off', 75_000],
    ]);
  });
});

describe('an at-cost re-entry is watched from the tick after its fill', () => {
  // 09:30 stop at 120.00 (tick 2), as in B. The re-entry (a sell stop at 100.00) rests from the
  // next bar. 09:31 candle 105, 125, 99, 110 closed up: path 105 -> 99 -> 125 -> 110. The move to
  // 99 crosses 100.00 on tick 1 (09:31:15): sold at 100.00, stop 120.00; the move to 125 on tick 2
  // (09:31:30) crosses the stop in the same bar: bought back at 120.00, a second -1,500.00. A paper
  // venue watching the same ticks does the same. The one re-entry allowed is then used up.
  const candles = candleSourceOf({
    [SYMBOL]: {
      '2025-01-13 09:19': [101, 102, 100, 101], '2025-01-13 09:20': [100, 104, 99, 103], '2025-01-13 09:30': [110, 121, 109, 119],
      '2025-01-13 09:31': [105, 125, 99, 110], '2025-01-13 10:00': [98, 99, 90, 95], '2025-01-13 15:15': [90, 91, 89, 90],
    },
  });
  const { ledger } = runExample({ series, config: shortCall({ mode: 'at-cost', maxTimes: 1 }), candles, signals: new Map([[1, SIGNAL_BUY]]), rules: INTRADAY_RULES });

  it('fills on tick 1 and stops on tick 2 of the same bar', () => {
    expect(ledger.trades.map((trade) => [trade.entryTime, trade.entryPrice, trade.exitTime, trade.exitPrice, trade.exitReason, trade.gross])).toEqual([
      [timeOf('2025-01-13 09:20'), 10_000, timeOf('2025-01-13 09:30') + TICK_2, 12_000, 'stop', -150_000],
      [timeOf('2025-01-13 09:31') + 15_000, 10_000, timeOf('2025-01-13 09:31') + TICK_2, 12_000, 'stop', -150_000],
    ]);
  });
});
