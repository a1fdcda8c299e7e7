// The adoption seam of option legs, on a stepped run fed as a live runner feeds it (each bar opened
// at its first tick, closed at its close) over a short ATM call, priced from option candles:
//
//   09:19 Buy signal at the close; the ATM strike of 23,612.40 is 23,600, weekly expiry 9-Jan-2025
//   09:20 sell 75 NIFTY2510923600CE at 148.00 (the candle's open); stop 25% -> 185.00
//   09:21 CE candle 170, 186.50, 168, 184 (closed up): its four-tick path 170 -> 168 -> 186.50 -> 184
//         crosses 185.00 at tick 2, 09:21:30, so the trader's own match buys back at 185.00 then.
//
// Adopting, the kernel records what the venue says instead: a stop the venue filled at 186.20 at
// 09:21:17 (a tick the four-tick path never shows), or no exit at all when the venue's ticks never
// reached the stop in that bar.
import { describe, expect, it } from 'vitest';
import { SIGNAL_BUY } from '../algorithm/program';
import { startSteppedRun } from '../backtest/run-stepped';
import { GrowingBarSeries } from '../kernel/growing-series';
import type { LedgerFill } from '../kernel/ledger';
import { ProtectiveLevels } from '../kernel/protective-levels';
import { AdoptedLegExits } from './adopted-leg-exits';
import type { AdoptedLegExit } from './adopted-leg-exits';
import { parseOptionsLegsConfig } from './config';
import { barSeriesOf, candleSourceOf, scriptedProgram, timeOf } from './examples/example-support';
import { optionsLegsTraderFactory } from './options-legs-trader';

const CE = 'NIFTY2510923600CE';
const bars = barSeriesOf([
  ['2025-01-06 09:19', 23_610, 23_620, 23_605, 23_612.4],
  ['2025-01-06 09:20', 23_612, 23_625, 23_600, 23_615],
  ['2025-01-06 09:21', 23_700, 23_760, 23_690, 23_750],
  ['2025-01-06 09:22', 23_740, 23_745, 23_700, 23_720],
]);
const candles = candleSourceOf({
  [CE]: {
    '2025-01-06 09:19': [149, 150, 148, 148.5], '2025-01-06 09:20': [148, 150.5, 147, 149.6],
    '2025-01-06 09:21': [170, 186.5, 168, 184], '2025-01-06 09:22': [181, 190, 175, 178],
  },
});
const config = parseOptionsLegsConfig({
  underlying: 'NIFTY', onBuy: [{ option: 'CE', side: 'sell', strike: { by: 'atm-offset', steps: 0 }, expiry: 'current-weekly', lots: 1, stopLoss: { percent: 25 } }],
});

/** Steps the four bars live; before each close, `venueAt(index)` is what the venue did in that bar (undefined: nothing adopted). */
function runLive(adopted: AdoptedLegExits | undefined, venueAt: (index: number) => AdoptedLegExit | undefined = () => undefined): readonly LedgerFill[] {
  const series = new GrowingBarSeries(bars.length);
  const run = startSteppedRun({
    series, program: scriptedProgram(new Map([[0, SIGNAL_BUY]])), intervalMinutes: 1, config: { type: 'intraday' },
    trader: optionsLegsTraderFactory({ config, vix: 14, fill: 'next-open', slippage: { kind: 'none' }, candles, ...(adopted === undefined ? {} : { adopted }) }),
  });
  for (let index = 0; index < bars.length; index += 1) {
    const bar = { time: bars.time[index] as number, open: bars.open[index] as number, high: bars.high[index] as number, low: bars.low[index] as number, close: bars.close[index] as number };
    run.openBar({ time: bar.time, open: bar.open });
    const exit = venueAt(index);
    adopted?.adopt(exit === undefined ? [] : [{ symbol: CE, exitSide: 'buy', exit }]);
    run.closeBar(bar);
  }
  return run.ledger.fills;
}

function summary(fills: readonly LedgerFill[]): Array<[string, string, number, number]> {
  return fills.map((fill) => [fill.reason, fill.side, fill.price, fill.time]);
}

describe('a live run of option legs adopts the venue\'s exits', () => {
  const entry: [string, string, number, number] = ['entry', 'sell', 14_800, timeOf('2025-01-06 09:20')];

  it('without the seam, the trader matches its four-tick path: the stop at 185.00 at 09:21:30', () => {
    expect(summary(runLive(undefined))).toEqual([entry, ['stop', 'buy', 18_500, timeOf('2025-01-06 09:21') + 30_000]]);
  });

  it('records the venue\'s stop at the venue\'s price and time', () => {
    const time = timeOf('2025-01-06 09:21') + 17_000;
    const fills = runLive(new AdoptedLegExits(), (index) => (index === 2 ? { kind: 'stop', price: 18_620, time } : undefined));
    expect(summary(fills)).toEqual([entry, ['stop', 'buy', 18_620, time]]);
  });

  it('keeps the leg open through a bar whose path crosses the stop when the venue filled nothing, and takes the later exit', () => {
    const time = timeOf('2025-01-06 09:22') + 41_000;
    const fills = runLive(new AdoptedLegExits(), (index) => (index === 3 ? { kind: 'trailing', price: 18_900, time } : undefined));
    expect(summary(fills)).toEqual([entry, ['trailing', 'buy', 18_900, time]]);
  });

  it('gives a leg the venue\'s levels, and forgets the bar once its path step has read it', () => {
    const adopted = new AdoptedLegExits();
    const venue = new ProtectiveLevels({ tickSize: 5, stopLoss: { kind: 'percent', percent: 25 }, trailingStop: { kind: 'percent', percent: 10 } });
    venue.open(-1, 14_800);
    venue.trail(12_000);
    const mine = venue.blank();
    mine.open(-1, 14_800);
    adopted.adopt([{ symbol: CE, exitSide: 'buy', levels: venue }]);
    expect(adopted.exitOf({ symbol: CE, exitSide: 'buy' }, mine)).toBeUndefined();
    expect(mine.stop).toBe(venue.stop);
    expect(mine.stopIsTrailing).toBe(true);
    // Another side of the same contract is another leg.
    adopted.adopt([{ symbol: CE, exitSide: 'sell', exit: { kind: 'target', price: 9_000, time: 1 } }]);
    expect(adopted.exitOf({ symbol: CE, exitSide: 'buy' }, mine)).toBeUndefined();
    expect(adopted.exitOf({ symbol: CE, exitSide: 'sell' }, mine)).toEqual({ kind: 'target', price: 9_000, time: 1 });
    adopted.spend();
    expect(adopted.exitOf({ symbol: CE, exitSide: 'sell' }, mine)).toBeUndefined();
  });

  it('refuses two exits for one contract and side in one bar', () => {
    const exit: AdoptedLegExit = { kind: 'stop', price: 18_500, time: 1 };
    expect(() => new AdoptedLegExits().adopt([{ symbol: CE, exitSide: 'buy', exit }, { symbol: CE, exitSide: 'buy', exit }])).toThrow(/two exits/);
  });
});
