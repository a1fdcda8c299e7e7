// Worked example: stop-loss, target and trailing stop matched inside each bar as its tick path
// (ARCHITECTURE.md, decisions: "a bar matched as its tick path"): the open; then the low and the
// high, low first when the bar closed at or above its open, high first when it closed below; then
// the close. A BUY at bar 0's close fills 10 units at bar 1's open, Rs 100. Rules:
// - the open comes first: a gap through the stop fills at the open (worse than the stop), a gap
//   through the target fills at the open (better than the target);
// - otherwise the path moves continuously from tick to tick: whichever level it reaches first
//   fills, at the level (before this rule, a bar touching both always gave the stop);
// - the trailing stop moves after every tick that fills nothing, so a later tick of the same bar
//   can hit it;
// - a fill inside the bar is stamped with its tick's time: tick k of a 1-minute bar at k x 15 s.
import { describe, expect, it } from 'vitest';
import { SIGNAL_BUY, SIGNAL_SELL } from '../../algorithm/program';
import type { Signal } from '../../algorithm/program';
import type { BacktestConfigInput } from '../config';
import { runBacktest } from '../run-backtest';
import { barsFromRows, scriptedProgram } from '../test-support';
import type { BarRow } from '../test-support';

/** Bar 0 is the signal bar, bar 1 the entry bar (opens at 100); the test supplies bars 2 onward. */
function run(later: ReadonlyArray<readonly [number, number, number, number]>, options: { config: BacktestConfigInput; signal?: Signal }) {
  const quotes = [[100, 100.5, 99.5, 100], [100, 100.5, 99.5, 100], ...later];
  const rows: BarRow[] = quotes.map((q, index) => [`2024-06-03 ${`0${9 + Math.floor((15 + index) / 60)}`.slice(-2)}:${`0${(15 + index) % 60}`.slice(-2)}`, q[0]!, q[1]!, q[2]!, q[3]!]);
  return runBacktest({
    series: barsFromRows(rows),
    program: scriptedProgram(new Map([[0, options.signal ?? SIGNAL_BUY]])),
    config: { type: 'swing', direction: 'both', sizing: { kind: 'quantity', quantity: 10 }, ...options.config },
  });
}

const STOP_AND_TARGET: BacktestConfigInput = { stopLoss: { kind: 'percent', percent: 2 }, target: { kind: 'percent', percent: 3 } };

describe('stops and targets inside a bar', () => {
  it('takes the stop when a bar that closed up touches both: its path reaches the low first', () => {
    // stop 100 x (1 - 2%) = 98, target 100 x (1 + 3%) = 103; bar 2: open 100, high 104, low 97,
    // close 101 (up): path 100 -> 97 -> 104 -> 101. The move to 97 crosses 98 on tick 1: sold at 98.
    const result = run([[100, 104, 97, 101]], { config: STOP_AND_TARGET });
    expect(result.trades[0]).toMatchObject({ entryPrice: 10_000, exitIndex: 2, exitPrice: 9_800, gross: -2_000, exitReason: 'stop' });
    expect(result.trades[0]!.exitTime - result.trades[0]!.entryTime).toBe(60_000 + 15_000);
  });

  it('takes the target when a bar that closed down touches both: its path reaches the high first', () => {
    // Same range, close 99 (down): path 100 -> 104 -> 97 -> 99. The move to 104 crosses 103 on
    // tick 1: sold at 103, gain Rs 30. (The former rule, "the stop wins", gave a loss of Rs 20 here;
    // a live tick stream cannot know at 103 that the bar will later fall to 98.)
    const result = run([[100, 104, 97, 99]], { config: STOP_AND_TARGET });
    expect(result.trades[0]).toMatchObject({ exitIndex: 2, exitPrice: 10_300, gross: 3_000, exitReason: 'target' });
  });

  it('fills a gap through the stop at the open, the worse price', () => {
    // bar 2 opens at 96, below the 98 stop: sold at 96, not 98. Loss (96 - 100) x 10 = Rs 40.
    const result = run([[96, 97, 95, 96.5]], { config: STOP_AND_TARGET });
    expect(result.trades[0]).toMatchObject({ exitPrice: 9_600, gross: -4_000, exitReason: 'stop' });
  });

  it('fills a gap through the target at the open, the better price', () => {
    const result = run([[104, 105, 103.5, 104]], { config: STOP_AND_TARGET });
    expect(result.trades[0]).toMatchObject({ exitPrice: 10_400, gross: 4_000, exitReason: 'target' });
  });

  it('checks the entry bar itself after a next-open fill, from the tick after the open', () => {
    // Entry at bar 1's open 100 (tick 0); bar 1 closes down at 99: path 100 -> 100.50 -> 97.50 -> 99.
    // The levels watch ticks 1-3: the move to 97.50 crosses 98 on tick 2: stopped at 98 in the entry bar.
    const rows: BarRow[] = [['2024-06-03 09:15', 100, 100.5, 99.5, 100], ['2024-06-03 09:16', 100, 100.5, 97.5, 99]];
    const result = runBacktest({
      series: barsFromRows(rows), program: scriptedProgram(new Map([[0, SIGNAL_BUY]])),
      config: { type: 'swing', sizing: { kind: 'quantity', quantity: 10 }, ...STOP_AND_TARGET },
    });
    expect(result.trades[0]).toMatchObject({ entryIndex: 1, exitIndex: 1, exitPrice: 9_800, exitReason: 'stop' });
    expect(result.trades[0]!.exitTime - result.trades[0]!.entryTime).toBe(30_000);
  });

  it('slips a stop (a market order once triggered) but not a target (a limit order)', () => {
    // 2 ticks of Rs 0.05: the entry buys at 100 + 0.10 = 100.10, and the levels come from that
    // fill: stop 100.10 x 0.98 = 98.098 -> 98.10 on the tick; triggered, it sells at 98.10 - 0.10 = 98.00.
    const stopped = run([[100, 104, 97, 101]], { config: { ...STOP_AND_TARGET, slippage: { kind: 'ticks', ticks: 2 } } });
    expect(stopped.trades[0]).toMatchObject({ entryPrice: 10_010, exitPrice: 9_800, exitReason: 'stop' });
    // Target 100.10 x 1.03 = 103.103 -> 103.10 on the tick; path 101 -> 100.50 -> 104 -> 103: filled there exactly.
    const target = run([[101, 104, 100.5, 103]], { config: { ...STOP_AND_TARGET, slippage: { kind: 'ticks', ticks: 2 } } });
    expect(target.trades[0]).toMatchObject({ exitPrice: 10_310, exitReason: 'target' });
  });

  it('stops a short above the entry', () => {
    // SELL short at 100; stop 102, target 97. Bar 2 closed up: path 100.50 -> 99 -> 102.50 -> 101;
    // the move to 102.50 crosses 102: bought back at 102. Loss Rs 20.
    const result = run([[100.5, 102.5, 99, 101]], { config: STOP_AND_TARGET, signal: SIGNAL_SELL });
    expect(result.trades[0]).toMatchObject({ direction: 'short', exitPrice: 10_200, gross: -2_000, exitReason: 'stop' });
  });
});

describe('trailing stop', () => {
  const TRAIL = { trailingStop: { kind: 'points', points: 2 } } as const;

  it('moves after each tick of the path, so a later tick of the same bar can hit it', () => {
    // entry 100 -> trailing level 98.
    // bar 2: open 101, high 105, low 99, close 104 (up): path 101 -> 99 -> 105 -> 104. The open
    //        101 moves the level to 99; the move down to 99 then reaches it on tick 1: sold at 99,
    //        reason trailing, loss Rs 10. (The former rule checked the whole bar with the level
    //        of its open, 98, and only then trailed by the high: it kept the trade to bar 3 and
    //        sold at 103. A paper venue on ticks trails at 101 before it sees 99.)
    const result = run([[101, 105, 99, 104], [104, 104.5, 102.5, 103]], { config: TRAIL });
    expect(result.trades[0]).toMatchObject({ exitIndex: 2, exitPrice: 9_900, gross: -1_000, exitReason: 'trailing' });
  });

  it('follows the high in the path order and is hit by a later bar', () => {
    // bar 2: open 101, low 100.50, high 105, close 104 (up): path 101 -> 100.50 -> 105 -> 104.
    //        101 moves the level to 99, 100.50 stays above it, 105 moves it to 103, 104 stays above.
    // bar 3: open 104, high 104.50, low 102.50, close 103 (down): path 104 -> 104.50 -> 102.50:
    //        104.50 would trail to 102.50, below 103, so the level stays; the move to 102.50
    //        crosses 103: sold at 103, reason trailing. Gain Rs 30.
    const result = run([[101, 105, 100.5, 104], [104, 104.5, 102.5, 103]], { config: TRAIL });
    expect(result.trades[0]).toMatchObject({ exitIndex: 3, exitPrice: 10_300, gross: 3_000, exitReason: 'trailing' });
  });

  it('never loosens and reports the fixed stop while it is the tighter one', () => {
    // fixed stop 2% (98) with a 3-point trail (97): path 100 -> 100.50 (trail 97.50) -> 97.50 -> 98;
    // the fixed stop is still the tighter one and the move to 97.50 crosses it first: 98.
    const fixed = run([[100, 100.5, 97.5, 98]], { config: { stopLoss: { kind: 'percent', percent: 2 }, trailingStop: { kind: 'points', points: 3 } } });
    expect(fixed.trades[0]).toMatchObject({ exitPrice: 9_800, exitReason: 'stop' });
    // bar 2 (up: 101 -> 100.50 -> 106 -> 105) lifts the trail to 106 - 3 = 103 (tighter than 98);
    // bar 3 (down: 105 -> 105 -> 102 -> 102) crosses it on the way to 102: trailing at 103.
    const trailed = run([[101, 106, 100.5, 105], [105, 105, 102, 102]], { config: { stopLoss: { kind: 'percent', percent: 2 }, trailingStop: { kind: 'points', points: 3 } } });
    expect(trailed.trades[0]).toMatchObject({ exitIndex: 3, exitPrice: 10_300, exitReason: 'trailing' });
  });

  it('follows a short by its lows', () => {
    // short at 100, trail 2 points -> 102. bar 2 (down: 99 -> 100 -> 95 -> 96): 99 moves the level
    // to 101, 100 stays below it, 95 moves it to 97. bar 3 (up: 96 -> 95.50 -> 97.50 -> 97): 95.50
    // trails to 97.50, not tighter than 97; the rise to 97.50 crosses 97: bought back at 97.
    const result = run([[99, 100, 95, 96], [96, 97.5, 95.5, 97]], { config: TRAIL, signal: SIGNAL_SELL });
    expect(result.trades[0]).toMatchObject({ direction: 'short', exitIndex: 3, exitPrice: 9_700, gross: 3_000, exitReason: 'trailing' });
  });
});
