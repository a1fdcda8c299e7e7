// Worked example: intraday rules on 15-minute bars (a bar is stamped with its start time).
// Defaults: no entry on a bar stamped at or after 15:00 (nor filled at such a bar's open), and
// everything is closed at the OPEN of the first bar stamped at or after 15:15 (the first price at
// 15:15). A session without such a bar is closed at its last bar's close.
//
// Bar k of a day opens at 100 + k and closes at 100 + k + 0.50 (high/low 0.25 beyond), so a
// price names its bar: 106 is the open of bar 6, 104.50 the close of bar 4.
import { describe, expect, it } from 'vitest';
import { SIGNAL_BUY, SIGNAL_SELL } from '../../algorithm/program';
import type { Signal } from '../../algorithm/program';
import { runBacktest } from '../run-backtest';
import { barsFromRows, scriptedProgram } from '../test-support';
import type { BarRow } from '../test-support';

function day(date: string, times: readonly string[]): BarRow[] {
  return times.map((time, k) => [`${date} ${time}`, 100 + k, 100 + k + 0.75, 100 + k - 0.25, 100 + k + 0.5]);
}

function run(rows: readonly BarRow[], signals: ReadonlyArray<readonly [number, Signal]>, type: 'intraday' | 'swing' = 'intraday') {
  return runBacktest({
    series: barsFromRows(rows),
    program: scriptedProgram(new Map(signals)),
    config: { type, sizing: { kind: 'quantity', quantity: 10 }, direction: 'both' },
  });
}

//                                  0        1        2        3        4        5        6        7
const AFTERNOON = day('2024-03-04', ['13:45', '14:00', '14:15', '14:30', '14:45', '15:00', '15:15', '15:30']);

describe('intraday square-off at 15:15', () => {
  it('closes a position still open at 15:15 at the open of the 15:15 bar', () => {
    // BUY at the close of 13:45 (bar 0) -> buy at the open of 14:00 (bar 1) = 101.
    // Still long at 15:15: sold at the open of the 15:15 bar (bar 6) = 106. Gross (106 - 101) x 10 = Rs 50.
    const result = run(AFTERNOON, [[0, SIGNAL_BUY]]);
    expect(result.trades).toHaveLength(1);
    expect(result.trades[0]).toMatchObject({ entryIndex: 1, entryPrice: 10_100, exitIndex: 6, exitPrice: 10_600, gross: 5_000, exitReason: 'square-off' });
    expect(result.fills[1]?.time).toBe(Date.UTC(2024, 2, 4, 9, 45)); // 15:15 IST
  });

  it('squares off at the 15:15 open even when a stop lies inside that bar: at the open nobody knows the rest of the bar', () => {
    // Long from bar 1's open (101) with a 5-point stop at 96. Bar 6 (15:15) opens at 106 and, here,
    // falls to 90 inside the bar: the stop would be hit there, but the square-off at the open
    // (106) comes first, as it would live. (Before, the kernel checked the bar's stops first.)
    const rows = AFTERNOON.map((row, k): BarRow => (k === 6 ? [row[0], 106, 106.5, 90, 91] : row));
    const result = runBacktest({
      series: barsFromRows(rows),
      program: scriptedProgram(new Map([[0, SIGNAL_BUY]])),
      config: { type: 'intraday', sizing: { kind: 'quantity', quantity: 10 }, direction: 'both', stopLoss: { kind: 'points', points: 5 } },
    });
    expect(result.trades).toHaveLength(1);
    expect(result.trades[0]).toMatchObject({ entryPrice: 10_100, exitIndex: 6, exitPrice: 10_600, exitReason: 'square-off' });
  });

  it('opens nothing from a signal at or after the 15:00 cut-off, nor fills an earlier order at a 15:00 open', () => {
    // SELL at 14:45's close (bar 4) would fill at 15:00's open (bar 5): the cut-off cancels it.
    // BUY at 15:00's close (bar 5) and at 15:15's close (bar 6): bars at or after the cut-off, no order at all.
    const result = run(AFTERNOON, [[4, SIGNAL_SELL], [5, SIGNAL_BUY], [6, SIGNAL_BUY]]);
    expect(result.fills).toEqual([]);
    expect(result.orders.map((o) => [o.side, o.placedIndex, o.status])).toEqual([['sell', 4, 'cancelled']]);
  });

  it('uses the first bar after a gap in the data that passes 15:15', () => {
    // No 15:15 bar on this day: the first bar stamped after it (15:20, bar 4) squares off at its open, 104.
    const rows = day('2024-03-04', ['14:30', '14:45', '15:05', '15:10', '15:20', '15:25']);
    const result = run(rows, [[0, SIGNAL_BUY]]);
    expect(result.trades[0]).toMatchObject({ entryPrice: 10_100, exitIndex: 4, exitPrice: 10_400, exitReason: 'square-off' });
  });

  it('closes at the last bar of a shortened session, at its close, and carries nothing overnight', () => {
    // The session of 4-Mar ends at 12:45 here (bar 2); the long from 12:15 (bar 1, open 101)
    // is sold at bar 2's close, 102.50. Next day the position is flat.
    const rows = [...day('2024-03-04', ['12:00', '12:15', '12:30']), ...day('2024-03-05', ['09:15', '09:30'])];
    const result = run(rows, [[0, SIGNAL_BUY]]);
    expect(result.trades).toHaveLength(1);
    expect(result.trades[0]).toMatchObject({ entryIndex: 1, exitIndex: 2, exitPrice: 10_250, exitReason: 'square-off' });
    expect(result.days.map((d) => [d.date, d.net, d.orders])).toEqual([['2024-03-04', 1_500, 2], ['2024-03-05', 0, 0]]);
  });

  it('drops an entry order placed at the last bar of a day instead of filling it next morning', () => {
    // A BUY at the close of 4-Mar's last bar cannot open anything (the session is ending); a
    // swing strategy fills it at the next session's open (bar 3, 100).
    const rows = [...day('2024-03-04', ['12:00', '12:15', '12:30']), ...day('2024-03-05', ['09:15', '09:30'])];
    expect(run(rows, [[2, SIGNAL_BUY]]).fills).toEqual([]);
    const swing = run(rows, [[2, SIGNAL_BUY]], 'swing');
    expect(swing.fills.map((f) => [f.index, f.price, f.date])).toEqual([[3, 10_000, '2024-03-05'], [4, 10_150, '2024-03-05']]);
    expect(swing.trades[0]?.exitReason).toBe('end-of-data');
  });

  it('respects a configured cut-off and square-off time', () => {
    // Cut-off 14:30, square-off 14:45. A BUY at 14:00's close fills at 14:15's open (102) and is
    // squared off at 14:45's open (104). A BUY at 14:15's close would fill at 14:30's open, which
    // is at the cut-off: cancelled.
    const series = barsFromRows(AFTERNOON);
    const result = runBacktest({
      series,
      program: scriptedProgram(new Map([[1, SIGNAL_BUY]])),
      config: { type: 'intraday', sizing: { kind: 'quantity', quantity: 10 }, entryCutoff: '14:30', squareOff: '14:45' },
    });
    expect(result.trades[0]).toMatchObject({ entryPrice: 10_200, exitIndex: 4, exitPrice: 10_400, exitReason: 'square-off' });
    const late = runBacktest({
      series,
      program: scriptedProgram(new Map([[2, SIGNAL_BUY]])),
      config: { type: 'intraday', sizing: { kind: 'quantity', quantity: 10 }, entryCutoff: '14:30', squareOff: '14:45' },
    });
    expect(late.fills).toEqual([]);
  });
});
