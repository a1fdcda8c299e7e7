// The parity the paper runtime stands on: a run stepped one appended bar at a time
// (startSteppedRun, kernel/incremental-kernel.ts) gives exactly runBacktest's orders, fills,
// trades, day rows, equity, drawdown and summary over the same bars, for random rules and
// configurations, for the underlying trader, the futures chain and the option-legs trader (a short
// straddle with per-leg stops). Bars follow the NSE session calendar (holidays, special sessions,
// the session's shorter last bar); the day's last bar comes from the calendar alone, except where
// a stored day stops before the session's close, where the replay says `endOfDay`.
import fc from 'fast-check';
import { dateOfEpochDay, istEpochDay, IST_OFFSET_MS } from '@vyuha/core';
import type { Paise } from '@vyuha/core';
import { sessionOf } from '@vyuha/market';
import { describe, expect, it } from 'vitest';
import { algorithmFromExpressions } from '../algorithm/from-expressions';
import { compileAlgorithm } from '../algorithm/compile';
import type { CompiledAlgorithm } from '../algorithm/compile';
import type { BarSeries, SignalProgram } from '../algorithm/program';
import { SIGNAL_NONE } from '../algorithm/program';
import { FuturesChain } from '../futures/futures-chain';
import { GrowingBarSeries } from '../kernel/growing-series';
import { parseOptionsLegsConfig } from '../options-legs/config';
import { optionsLegsTraderFactory } from '../options-legs/options-legs-trader';
import type { BacktestConfigInput } from './config';
import { runBacktest } from './run-backtest';
import type { BacktestResult, RunBacktestRequest } from './run-backtest';
import { startSteppedRun } from './run-stepped';
import type { SteppedRunRequest } from './run-stepped';

const MINUTE = 60_000;
const DAY = 86_400_000;

/**
 * `days` NSE sessions from `first` (closed days skipped), bars of `intervalMinutes` from the
 * session's open to its close (1440: one bar at 09:15), a seeded walk around `price`. With `holes`,
 * a bar is left out with that probability (a day may then stop before its close).
 */
function sessionWalk(options: { seed: number; first: string; days: number; intervalMinutes: number; price: number; holes?: number }): BarSeries {
  let state = options.seed >>> 0;
  const uniform = (): number => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 4_294_967_296;
  };
  const times: number[] = [];
  let day = istEpochDay(Date.parse(`${options.first}T12:00:00Z`));
  for (let sessions = 0; sessions < options.days; day += 1) {
    const session = sessionOf('NSE', dateOfEpochDay(day));
    if (session === undefined) continue;
    sessions += 1;
    const midnight = day * DAY - IST_OFFSET_MS;
    const step = options.intervalMinutes >= 1440 ? session.close - session.open : options.intervalMinutes;
    for (let minute = session.open; minute < session.close; minute += step) {
      if (options.holes === undefined || uniform() >= options.holes) times.push(midnight + minute * MINUTE);
    }
  }
  const length = times.length;
  const columns = { time: Float64Array.from(times), open: new Float64Array(length), high: new Float64Array(length), low: new Float64Array(length), close: new Float64Array(length) };
  let price = options.price;
  const move = options.price / 2_000;
  for (let index = 0; index < length; index += 1) {
    const open = price;
    price = Math.max(10, Math.round((price + (uniform() - 0.5) * move) * 20) / 20);
    columns.open[index] = open;
    columns.close[index] = price;
    columns.high[index] = Math.round((Math.max(open, price) + uniform() * move * 0.3) * 20) / 20;
    columns.low[index] = Math.round((Math.min(open, price) - uniform() * move * 0.3) * 20) / 20;
  }
  return { length, ...columns, volume: new Float64Array(length).fill(100), oi: new Float64Array(length).fill(Number.NaN) };
}

const RULES = [
  { entry: 'crossover(sma(close, 5), sma(close, 12))', exit: 'crossunder(sma(close, 5), sma(close, 12))' },
  { entry: 'rsi(close, 7) < 35', exit: 'rsi(close, 7) > 60' },
  { entry: 'close > ema(close, 9) and time() >= "09:40"', exit: 'close < ema(close, 9)' },
  { entry: 'position == 0 and close > highest(high, 10)[1]', exit: 'bars_since_entry >= 6' },
] as const;
/** Enter and never exit on a signal: swing legs reach their expiry and settle. */
const HOLD = { entry: 'close > 0', exit: 'close < 0' } as const;

function compiled(rules: { entry: string; exit: string }): CompiledAlgorithm {
  const result = compileAlgorithm(algorithmFromExpressions(rules));
  if (!result.ok) throw new Error(result.error.map((error) => error.message).join('; '));
  return result.value;
}

/**
 * Appends the stored bars one at a time and steps each as it closes: `endOfData` on the last;
 * `endOfDay` only where `hintDayEnds` and the next stored bar is on a later day.
 */
function stepped(request: Omit<SteppedRunRequest, 'series'> & { stored: BarSeries; series: GrowingBarSeries; hintDayEnds?: boolean }): BacktestResult {
  const { stored, series, hintDayEnds, ...rest } = request;
  const run = startSteppedRun({ ...rest, series });
  const last = stored.length - 1;
  // Odd bars go in as a live runner gives them: opened at their first tick, closed at their
  // close (the kernel's open step sees only the open); even bars whole.
  for (let index = 0; index <= last; index += 1) {
    const bar = { time: stored.time[index] as number, open: stored.open[index] as number, high: stored.high[index] as number, low: stored.low[index] as number, close: stored.close[index] as number, volume: stored.volume[index] as number };
    const endOfDay = hintDayEnds === true && index < last && istEpochDay(stored.time[index + 1] as number) !== istEpochDay(stored.time[index] as number);
    if (endOfDay) seen.dayEndsHinted += 1;
    const ending = { endOfData: index === last, endOfDay };
    if (index % 2 === 1) {
      run.openBar(bar, ending);
      seen.splitBars += 1;
      run.closeBar(bar);
    } else {
      run.append(bar);
      run.step(ending);
    }
  }
  return run.result();
}

/** What the runs of one property did, so a property that stopped trading fails instead of passing vacuously. */
const seen = { trades: 0, squareOffs: 0, rolls: 0, stops: 0, expiries: 0, dayEndsHinted: 0, splitBars: 0 };
function startCounting(): void {
  for (const key of Object.keys(seen) as Array<keyof typeof seen>) seen[key] = 0;
}

function expectSameRun(actual: BacktestResult, expected: BacktestResult): void {
  seen.trades += expected.trades.length;
  for (const fill of expected.fills) {
    if (fill.reason === 'square-off') seen.squareOffs += 1;
    if (fill.reason === 'roll') seen.rolls += 1;
    if (fill.reason === 'stop') seen.stops += 1;
    if (fill.reason === 'expiry') seen.expiries += 1;
  }
  expect(actual.orders).toEqual(expected.orders);
  expect(actual.fills).toEqual(expected.fills);
  expect(actual.trades).toEqual(expected.trades);
  expect(actual.days).toEqual(expected.days);
  expect(actual.equity).toEqual(expected.equity);
  expect(actual.drawdown).toEqual(expected.drawdown);
  expect(actual.barsInMarket).toBe(expected.barsInMarket);
  expect(actual.candlesProcessed).toBe(expected.candlesProcessed);
  expect(actual.summary).toEqual(expected.summary);
}

const configArbitrary: fc.Arbitrary<BacktestConfigInput> = fc.record({
  type: fc.constantFrom('intraday', 'swing'),
  fill: fc.constantFrom('next-open', 'close'),
  direction: fc.constantFrom('long-only', 'short-only', 'both'),
  reverse: fc.boolean(),
  sizing: fc.constantFrom({ kind: 'quantity', quantity: 3 }, { kind: 'percent', percent: 50 }, { kind: 'all-in' }),
  stopLoss: fc.constantFrom(undefined, { kind: 'points', points: 4 }),
  target: fc.constantFrom(undefined, { kind: 'percent', percent: 0.4 }),
  trailingStop: fc.constantFrom(undefined, { kind: 'percent', percent: 0.5 }),
  dailyMaxLoss: fc.constantFrom(undefined, 50_000),
}) as fc.Arbitrary<BacktestConfigInput>;

describe('a stepped run', () => {
  it('gives exactly runBacktest\'s results for the underlying trader, bar by bar on the session calendar', () => {
    startCounting();
    fc.assert(fc.property(
      fc.record({
        seed: fc.integer({ min: 1, max: 1_000_000 }), rules: fc.constantFrom(...RULES, HOLD), config: configArbitrary,
        intervalMinutes: fc.constantFrom(1, 5, 60, 1440), first: fc.constantFrom('2024-01-17', '2024-03-20', '2024-10-28'),
        slack: fc.integer({ min: 0, max: 40 }), holes: fc.constantFrom(undefined, 0.2),
      }),
      ({ seed, rules, config, intervalMinutes, first, slack, holes }) => {
        const days = intervalMinutes === 1440 ? 60 : intervalMinutes === 60 ? 25 : 5;
        const stored = sessionWalk({ seed, first, days, intervalMinutes, price: 1_000, ...(holes === undefined ? {} : { holes }) });
        const algorithm = compiled(rules);
        const expected = runBacktest({ series: stored, program: algorithm, config });
        const series = new GrowingBarSeries(stored.length + slack);
        // With holes a stored day may stop before its close: the replay says where its day ends.
        const actual = stepped({ stored, series, program: algorithm, config, intervalMinutes, hintDayEnds: holes !== undefined });
        expectSameRun(actual, expected);
      },
    ), { numRuns: 60 });
    expect(seen.trades).toBeGreaterThan(100);
    expect(seen.squareOffs).toBeGreaterThan(0);
    expect(seen.dayEndsHinted).toBeGreaterThan(0);
    expect(seen.splitBars).toBeGreaterThan(1_000);
  }, 120_000);

  it('gives exactly runBacktest\'s results for an index traded as its futures chain, across a roll', () => {
    startCounting();
    const futuresCharges = { kind: 'schedule', exchange: 'NSE', instrument: 'future' } as const;
    // Besides the random cases, always one swing position held across December's expiry (the random ones may all be intraday).
    fc.assert(fc.property(
      fc.record({ seed: fc.integer({ min: 1, max: 1_000_000 }), rules: fc.constantFrom(...RULES), type: fc.constantFrom('intraday' as const, 'swing' as const), fill: fc.constantFrom('next-open' as const, 'close' as const) }),
      ({ seed, rules, type, fill }) => {
        // 19-Dec-2024 .. 3-Jan-2025: December's contract expires 26-Dec (lot 25), January's follows (lot 75).
        const stored = sessionWalk({ seed, first: '2024-12-19', days: 10, intervalMinutes: 15, price: 24_000 });
        const config = { type, fill, direction: 'both' as const, reverse: true, capital: 300_000_000 as Paise, charges: futuresCharges, instrument: 'NIFTY' };
        const chainOf = (index: BarSeries): FuturesChain => new FuturesChain({ underlying: 'NIFTY', index, type, rollTime: '15:15' });
        const algorithm = compiled(rules);
        const expected = runBacktest({ series: stored, program: algorithm, contracts: chainOf(stored), config });
        // A replay: the chain is built over the stored range, the series grows inside its columns.
        const series = GrowingBarSeries.over(stored);
        const actual = stepped({ stored, series, program: algorithm, contracts: chainOf(stored), config, intervalMinutes: 15 });
        expectSameRun(actual, expected);
      },
    ), { numRuns: 20, examples: [[{ seed: 1, rules: RULES[0] as (typeof RULES)[number], type: 'swing', fill: 'next-open' }]] });
    expect(seen.rolls).toBeGreaterThan(0);
  }, 120_000);

  it('gives exactly runBacktest\'s results for an index whose futures chain is priced bar by bar (live), across a roll', () => {
    startCounting();
    const futuresCharges = { kind: 'schedule', exchange: 'NSE', instrument: 'future' } as const;
    // Besides the random cases, always one swing position held across December's expiry (the random ones may all be intraday).
    fc.assert(fc.property(
      fc.record({
        seed: fc.integer({ min: 1, max: 1_000_000 }), rules: fc.constantFrom(...RULES, HOLD), fill: fc.constantFrom('next-open' as const, 'close' as const),
        type: fc.constantFrom('intraday' as const, 'swing' as const), interval: fc.constantFrom(15, 75),
      }),
      ({ seed, rules, fill, type, interval }) => {
        const stored = sessionWalk({ seed, first: '2024-12-19', days: 10, intervalMinutes: interval, price: 24_000 });
        const config = { type, fill, direction: 'both' as const, reverse: true, capital: 300_000_000 as Paise, charges: futuresCharges, instrument: 'NIFTY' };
        const algorithm = compiled(rules);
        const reference = new FuturesChain({ underlying: 'NIFTY', index: stored, type, rollTime: '15:15' });
        const expected = runBacktest({ series: stored, program: algorithm, contracts: reference, config });
        // Live: an empty series of the range's capacity, the chain knowing nothing ahead of each bar.
        const series = new GrowingBarSeries(stored.length);
        const live = new FuturesChain({ underlying: 'NIFTY', index: series, type, rollTime: '15:15', live: true, intervalMinutes: interval });
        const actual = stepped({ stored, series, program: algorithm, contracts: live, config, intervalMinutes: interval });
        expectSameRun(actual, expected);
        expect(live.runs.map(({ tradingSymbol, from, to }) => ({ tradingSymbol, from, to })))
          .toEqual(reference.runs.map(({ tradingSymbol, from, to }) => ({ tradingSymbol, from, to })));
        for (const column of ['open', 'high', 'low', 'close'] as const) expect(live.prices[column]).toEqual(reference.prices[column]);
        const last = stored.length - 1;
        expect(live.tickPrice(last, Math.round((stored.close[last] as number) * 100)) / 100).toBe(reference.prices.close[last]);
      },
    ), { numRuns: 30, examples: [[{ seed: 1, rules: RULES[0] as (typeof RULES)[number], fill: 'next-open', type: 'swing', interval: 15 }]] });
    expect(seen.trades).toBeGreaterThan(0);
    expect(seen.rolls).toBeGreaterThan(0);
  }, 120_000);

  it('refuses a live swing futures chain without the bar interval (an expiry day\'s last bar rolls it)', () => {
    expect(() => new FuturesChain({ underlying: 'NIFTY', index: new GrowingBarSeries(10), type: 'swing', rollTime: '15:15', live: true })).toThrow(/needs the bar interval/);
  });

  it('gives exactly runBacktest\'s results for a short straddle with per-leg stops on option legs', () => {
    const legs = parseOptionsLegsConfig({
      underlying: 'NIFTY',
      onBuy: [
        { option: 'CE', side: 'sell', strike: { by: 'atm-offset', steps: 0 }, expiry: 'current-weekly', lots: 1, stopLoss: { percent: 25 } },
        { option: 'PE', side: 'sell', strike: { by: 'atm-offset', steps: 0 }, expiry: 'current-weekly', lots: 1, stopLoss: { percent: 25 } },
      ],
    });
    const optionCharges = { kind: 'schedule', exchange: 'NSE', instrument: 'option' } as const;
    startCounting();
    const straddle = (request: { seed: number; rules: { entry: string; exit: string }; type: 'intraday' | 'swing'; intervalMinutes: number }): void => {
      const { seed, rules, type, intervalMinutes } = request;
      // 6-Jan-2025 .. 10-Jan-2025: the weekly expiry of 9-Jan settles what a swing run holds.
      const stored = sessionWalk({ seed, first: '2025-01-06', days: 5, intervalMinutes, price: 23_600 });
      const config = { type, capital: 100_000_000 as Paise, charges: optionCharges, instrument: 'NIFTY' };
      const trader = optionsLegsTraderFactory({ config: legs, vix: 14, fill: 'next-open', slippage: { kind: 'none' } });
      const algorithm = compiled(rules);
      const expected = runBacktest({ series: stored, program: algorithm, trader, config } satisfies RunBacktestRequest);
      const actual = stepped({ stored, series: new GrowingBarSeries(stored.length), program: algorithm, trader, config, intervalMinutes });
      expectSameRun(actual, expected);
    };
    fc.assert(fc.property(
      fc.record({ seed: fc.integer({ min: 1, max: 1_000_000 }), rules: fc.constantFrom(...RULES, HOLD), type: fc.constantFrom('intraday' as const, 'swing' as const), intervalMinutes: fc.constantFrom(1, 5) }),
      straddle,
    ), { numRuns: 15 });
    // Always one swing straddle held into its expiry, so the settlement path is compared every run.
    straddle({ seed: 11, rules: HOLD, type: 'swing', intervalMinutes: 5 });
    expect(seen.stops).toBeGreaterThan(0);
    expect(seen.expiries).toBeGreaterThan(0);
    expect(seen.trades).toBeGreaterThan(15);
  }, 120_000);

  it('warms up on history: bars before signalsFrom run the program but trade nothing', () => {
    fc.assert(fc.property(
      fc.record({ seed: fc.integer({ min: 1, max: 1_000_000 }), rules: fc.constantFrom(...RULES), config: configArbitrary, warmup: fc.integer({ min: 0, max: 900 }) }),
      ({ seed, rules, config, warmup }) => {
        const stored = sessionWalk({ seed, first: '2024-03-20', days: 4, intervalMinutes: 1, price: 1_000 });
        const algorithm = compiled(rules);
        // The reference: the same program over the whole range, its signals before `warmup` dropped.
        const whole = algorithm.createProgram(stored);
        const muted: SignalProgram = { warmup: whole.warmup, onBar: (index, position) => (index < warmup ? (whole.onBar(index, position), SIGNAL_NONE) : whole.onBar(index, position)) };
        const expected = runBacktest({ series: stored, program: muted, config });
        const series = new GrowingBarSeries(stored.length);
        const run = startSteppedRun({ series, program: algorithm, config, intervalMinutes: 1, signalsFrom: warmup });
        // History arrives at once (a start or a resume), then the live bars one by one.
        const history = Math.min(warmup, stored.length - 1);
        for (let index = 0; index < stored.length; index += 1) {
          run.append({ time: stored.time[index] as number, open: stored.open[index] as number, high: stored.high[index] as number, low: stored.low[index] as number, close: stored.close[index] as number, volume: 100 });
          if (index + 1 === history) run.kernel.catchUp();
          else if (index + 1 > history) run.step({ endOfData: index === stored.length - 1 });
        }
        const actual = run.result();
        expectSameRun(actual, expected);
        for (const fill of actual.fills) expect(fill.time).toBeGreaterThanOrEqual(stored.time[Math.min(warmup, stored.length - 1)] as number);
      },
    ), { numRuns: 30 });
  }, 120_000);

  it('refuses a bar that has not been appended, any bar after the data\'s end, and a series past its capacity', () => {
    const stored = sessionWalk({ seed: 3, first: '2024-03-20', days: 1, intervalMinutes: 60, price: 1_000 });
    const series = new GrowingBarSeries(2);
    const run = startSteppedRun({ series, program: compiled(RULES[0]), intervalMinutes: 60 });
    expect(() => run.step()).toThrow(/has not opened yet/);
    const bar = (index: number): { time: number; open: number; high: number; low: number; close: number } =>
      ({ time: stored.time[index] as number, open: 1, high: 1, low: 1, close: 1 });
    run.append(bar(0));
    run.step();
    expect(() => run.append(bar(0))).toThrow(/does not start after/);
    run.append(bar(1));
    run.step({ endOfData: true });
    expect(() => run.append(bar(2))).toThrow(/full/);
    expect(() => run.kernel.kernel.step({ lastOfDay: true, lastOfData: true })).toThrow(/ended/);
    expect(() => run.kernel.kernel.run()).toThrow(/step\(\)/);
    expect(run.result().equity.length).toBe(2);
  });
});
