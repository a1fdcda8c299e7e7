// Worked example: a stepped (paper or live) intraday run on 60-minute bars when a day's data stops
// before the session's close. The calendar's last bar of Wednesday 20-Mar-2024 is 15:15 (it closes
// at 15:30), but the feed stops after the 12:15 bar. Thursday 21-Mar runs to the close.
//
// Bar k of a day opens at 100 + k and closes at 100 + k + 0.50, so a price names its bar.
// BUY at the close of Wed 09:15 (bar 0) -> bought 10 at the open of 10:15 (bar 1) = 101.
// The backtest sees Thursday's bar after Wed 12:15 (bar 3), so bar 3 is the day's last: sold at
// its close, 103.50, as `square-off`. Gross (103.50 - 101) x 10 = Rs 25; no charges.
//
// Stepped, nothing says bar 3 is the day's last when it closes (the calendar waits for 15:15):
// the position is still open and Wednesday has no day row. Then either the runtime calls
// `endDay()` when its clock passes 15:30, or Thursday's first bar ends Wednesday first; both give
// the backtest's square-off at 103.50 and its day rows, equity and drawdown exactly.
import { describe, expect, it } from 'vitest';
import { SIGNAL_BUY } from '../../algorithm/program';
import { GrowingBarSeries } from '../../kernel/growing-series';
import { runBacktest } from '../run-backtest';
import { startSteppedRun } from '../run-stepped';
import type { SteppedRun } from '../run-stepped';
import { barsFromRows, scriptedProgram } from '../test-support';
import type { BarRow } from '../test-support';

function day(date: string, times: readonly string[]): BarRow[] {
  return times.map((time, k) => [`${date} ${time}`, 100 + k, 100 + k + 0.75, 100 + k - 0.25, 100 + k + 0.5]);
}

const rows = [
  ...day('2024-03-20', ['09:15', '10:15', '11:15', '12:15']),
  ...day('2024-03-21', ['09:15', '10:15', '11:15', '12:15', '13:15', '14:15', '15:15']),
];
const stored = barsFromRows(rows);
const config = { type: 'intraday', sizing: { kind: 'quantity', quantity: 10 } } as const;
const signals = new Map([[0, SIGNAL_BUY]] as const);

function start(): SteppedRun {
  return startSteppedRun({ series: new GrowingBarSeries(stored.length), program: scriptedProgram(signals), config, intervalMinutes: 60 });
}

function appendAndStep(run: SteppedRun, index: number): void {
  run.append({ time: stored.time[index] as number, open: stored.open[index] as number, high: stored.high[index] as number, low: stored.low[index] as number, close: stored.close[index] as number });
  run.step({ endOfData: index === stored.length - 1 });
}

describe('a stepped intraday day whose data stops before the session\'s close', () => {
  const expected = runBacktest({ series: stored, program: scriptedProgram(signals), config });

  it('is squared off at the last bar it has in the backtest', () => {
    expect(expected.trades).toHaveLength(1);
    expect(expected.trades[0]).toMatchObject({ entryIndex: 1, entryPrice: 10_100, exitIndex: 3, exitPrice: 10_350, gross: 2_500, exitReason: 'square-off' });
    expect(expected.days.map((row) => row.date)).toEqual(['2024-03-20', '2024-03-21']);
  });

  it('stays open after that bar until the day is ended, then matches the backtest (endDay at the close)', () => {
    const run = start();
    for (let index = 0; index <= 3; index += 1) appendAndStep(run, index);
    expect(run.kernel.kernel.trader.position.position).toBe(1);
    expect(run.result().days).toEqual([]);
    run.endDay();
    run.endDay(); // a second call changes nothing
    expect(run.kernel.kernel.trader.position.position).toBe(0);
    for (let index = 4; index < stored.length; index += 1) appendAndStep(run, index);
    const actual = run.result();
    expect(actual.fills).toEqual(expected.fills);
    expect(actual.trades).toEqual(expected.trades);
    expect(actual.days).toEqual(expected.days);
    expect(actual.equity).toEqual(expected.equity);
    expect(actual.drawdown).toEqual(expected.drawdown);
    expect(actual.summary).toEqual(expected.summary);
    expect(actual.barsInMarket).toBe(expected.barsInMarket);
  });

  it('is ended by the next day\'s first bar when nobody ended it', () => {
    const run = start();
    for (let index = 0; index < stored.length; index += 1) appendAndStep(run, index);
    const actual = run.result();
    expect(actual.orders).toEqual(expected.orders);
    expect(actual.fills).toEqual(expected.fills);
    expect(actual.days).toEqual(expected.days);
    expect(actual.equity).toEqual(expected.equity);
    expect(actual.summary).toEqual(expected.summary);
  });
});
