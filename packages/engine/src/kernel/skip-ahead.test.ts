// The kernel's skip-ahead (Kernel.run with SignalProgram.nextSignalBar and Trader.isQuiescent)
// must not change a single result: every backtest here runs twice, once with the compiled
// program as it is and once with the same program stripped of nextSignalBar (bar by bar), and
// the two results must be equal field by field.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { algorithmFromExpressions } from '../algorithm/from-expressions';
import { compileAlgorithm } from '../algorithm/compile';
import { SIGNAL_BUY, SIGNAL_NONE, SIGNAL_SELL } from '../algorithm/program';
import type { BarSeries, SignalProgram } from '../algorithm/program';
import type { BacktestConfigInput } from '../backtest/config';
import { runBacktest } from '../backtest/run-backtest';
import { deepestDrawdown } from '../metrics/drawdown';

const MINUTE = 60_000;
const FIRST_SESSION_MS = Date.UTC(2024, 0, 1, 3, 45); // 09:15 IST

/** Sessions of `minutesPerDay` 1-minute bars from 09:15 IST, days apart, a seeded random walk. */
function walk(options: { seed: number; days: number; minutesPerDay: number }): BarSeries {
  const length = options.days * options.minutesPerDay;
  let state = options.seed >>> 0;
  const uniform = (): number => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 4_294_967_296;
  };
  const columns = { time: new Float64Array(length), open: new Float64Array(length), high: new Float64Array(length), low: new Float64Array(length), close: new Float64Array(length) };
  let price = 1_000;
  for (let index = 0; index < length; index += 1) {
    const day = Math.floor(index / options.minutesPerDay);
    columns.time[index] = FIRST_SESSION_MS + day * 86_400_000 + (index % options.minutesPerDay) * MINUTE;
    const open = price;
    price = Math.max(10, Math.round((price + (uniform() - 0.5) * 8) * 20) / 20);
    columns.open[index] = open;
    columns.close[index] = price;
    columns.high[index] = Math.round((Math.max(open, price) + uniform() * 2) * 20) / 20;
    columns.low[index] = Math.round((Math.min(open, price) - uniform() * 2) * 20) / 20;
  }
  return { length, ...columns, volume: new Float64Array(length).fill(100), oi: new Float64Array(length).fill(Number.NaN) };
}

const RULES = [
  { entry: 'crossover(sma(close, 5), sma(close, 12))', exit: 'crossunder(sma(close, 5), sma(close, 12))' },
  { entry: 'rsi(close, 7) < 35', exit: 'rsi(close, 7) > 60' },
  { entry: 'close > ema(close, 9) and time() >= "09:40"', exit: 'close < ema(close, 9)' },
  // Rare signals: the next one is often blocks of bars (and days) away, beyond an intraday square-off.
  { entry: 'crossover(sma(close, 40), sma(close, 250))', exit: 'crossunder(sma(close, 40), sma(close, 250))' },
] as const;

function programs(rules: { readonly entry: string; readonly exit: string }, series: BarSeries): { skipping: SignalProgram; barByBar: SignalProgram } {
  const compiled = compileAlgorithm(algorithmFromExpressions(rules));
  if (!compiled.ok) throw new Error(compiled.error.map((error) => error.message).join('; '));
  const skipping = compiled.value.createProgram(series);
  const plain = compiled.value.createProgram(series);
  return { skipping, barByBar: { warmup: plain.warmup, onBar: (index, position) => plain.onBar(index, position) } };
}

const configArbitrary: fc.Arbitrary<BacktestConfigInput> = fc.record({
  type: fc.constantFrom('intraday', 'swing'),
  fill: fc.constantFrom('next-open', 'close'),
  direction: fc.constantFrom('long-only', 'short-only', 'both'),
  reverse: fc.boolean(),
  sizing: fc.constantFrom({ kind: 'quantity', quantity: 3 }, { kind: 'percent', percent: 50 }, { kind: 'all-in' }),
  stopLoss: fc.constantFrom(undefined, { kind: 'points', points: 4 }),
  trailingStop: fc.constantFrom(undefined, { kind: 'percent', percent: 0.5 }),
  dailyMaxLoss: fc.constantFrom(undefined, 50_000),
}) as fc.Arbitrary<BacktestConfigInput>;

describe('kernel skip-ahead', () => {
  it('gives exactly the results of evaluating every bar, for any rules and configuration', () => {
    fc.assert(
      fc.property(
        fc.record({
          seed: fc.integer({ min: 1, max: 1_000_000 }), rules: fc.constantFrom(...RULES), config: configArbitrary,
          // 361 bars end at 15:15 (the square-off bar is the day's last); 200 end before it.
          minutesPerDay: fc.constantFrom(60, 200, 361, 375), days: fc.constantFrom(6, 15),
        }),
        ({ seed, rules, config, minutesPerDay, days }) => {
          const series = walk({ seed, days, minutesPerDay });
          const { skipping, barByBar } = programs(rules, series);
          const skipped = runBacktest({ series, program: skipping, config });
          const reference = runBacktest({ series, program: barByBar, config });
          expect(skipped.trades).toEqual(reference.trades);
          expect(skipped.orders).toEqual(reference.orders);
          expect(skipped.fills).toEqual(reference.fills);
          expect(skipped.days).toEqual(reference.days);
          expect(skipped.equity).toEqual(reference.equity);
          expect(skipped.drawdown).toEqual(reference.drawdown);
          expect(skipped.barsInMarket).toBe(reference.barsInMarket);
          expect(skipped.summary).toEqual(reference.summary);
        },
      ),
      { numRuns: 80 },
    );
    // 160 backtests: about 4 s alone, longer beside other test files on a busy machine.
  }, 60_000);

  it('measures the deepest fall from any bar without its column, and builds the column into a caller\'s buffer', () => {
    const buffer = new Float64Array(15 * 375).fill(Number.NaN);
    fc.assert(
      fc.property(
        fc.record({
          seed: fc.integer({ min: 1, max: 1_000_000 }), rules: fc.constantFrom(...RULES), config: configArbitrary,
          minutesPerDay: fc.constantFrom(200, 375), days: fc.constantFrom(6, 15), starts: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 6 }),
        }),
        ({ seed, rules, config, minutesPerDay, days, starts }) => {
          const series = walk({ seed, days, minutesPerDay });
          const { skipping, barByBar } = programs(rules, series);
          // Skipping keeps its equity as runs of bars (unless a daily limit makes it write every bar).
          const skipped = runBacktest({ series, program: skipping, config, equityBuffer: buffer });
          const reference = runBacktest({ series, program: barByBar, config });
          const capital = reference.config.capital;
          for (const from of [0, series.length, ...starts.map((start) => Math.floor(start * series.length))]) {
            const expected = deepestDrawdown(reference.equity.subarray(from), capital);
            for (const fall of [skipped.deepestFallFrom(from), reference.deepestFallFrom(from)]) expect([fall.depth, fall.depthPercent]).toEqual([expected.depth, expected.depthPercent]);
          }
          expect(skipped.equity).toEqual(reference.equity);
          expect(skipped.equity.buffer).toBe(buffer.buffer);
          expect(skipped.summary).toEqual(reference.summary);
        },
      ),
      { numRuns: 40 },
    );
  }, 60_000);

  it('measures the fall from bar 0 below the capital, when a fill at bar 0\'s close leaves the equity under it', () => {
    // Bought at bar 0's close (its charges put bar 0's equity below the capital), then a rise to
    // ten times the price, sold at the data's end: the first fall, from the capital, is the deepest
    // in percent, and a fall whose first peak is bar 0's equity would miss it.
    const length = 40;
    const close = Float64Array.from({ length }, (_, index) => 1_000 + (9_000 * index) / (length - 1));
    const series: BarSeries = {
      length, time: Float64Array.from({ length }, (_, index) => FIRST_SESSION_MS + index * MINUTE), open: close.slice(), high: close.slice(), low: close.slice(), close,
      volume: new Float64Array(length).fill(100), oi: new Float64Array(length).fill(Number.NaN),
    };
    const config: BacktestConfigInput = { type: 'swing', fill: 'close', sizing: { kind: 'quantity', quantity: 50 }, charges: { kind: 'schedule', exchange: 'NSE', instrument: 'future' } };
    const { skipping, barByBar } = programs({ entry: 'close > 0', exit: 'close < 0' }, series);
    const capital = runBacktest({ series, program: barByBar, config }).config.capital;
    for (const program of [skipping, barByBar]) {
      const result = runBacktest({ series, program, config });
      const equity = result.equity;
      expect(equity[0]).toBeLessThan(capital);
      const expected = deepestDrawdown(equity, capital);
      expect(expected.depthPercent).not.toBe(deepestDrawdown(equity, equity[0] as number).depthPercent);
      const fall = result.deepestFallFrom(0);
      expect([fall.depth, fall.depthPercent]).toEqual([expected.depth, expected.depthPercent]);
    }
  });

  it('nextSignalBar names the first bar from `from` (before `before`) whose signal acts on the position, as onBar bar by bar says (an entry in the direction held does not act)', () => {
    fc.assert(
      fc.property(
        fc.record({
          seed: fc.integer({ min: 1, max: 1_000_000 }), rules: fc.constantFrom(...RULES),
          // Steps between the calls (1-3 reach every alignment of a bar within its block's words) and their bounds.
          calls: fc.array(fc.record({ step: fc.integer({ min: 0, max: 700 }), position: fc.constantFrom(-1, 0, 1), span: fc.integer({ min: 0, max: 5_000 }) }), { minLength: 1, maxLength: 40 }),
        }),
        ({ seed, rules, calls }) => {
          const series = walk({ seed, days: 12, minutesPerDay: 375 });
          const { skipping, barByBar } = programs(rules, series);
          const context = { position: 0, entryPrice: Number.NaN, barsSinceEntry: Number.NaN, dayPnl: 0 };
          let from = 0;
          for (const call of calls) {
            from += call.step;
            if (from >= series.length) break;
            const before = Math.min(series.length, from + call.span);
            context.position = call.position;
            // The entry in the direction held: BUY while long, SELL while short.
            const held = call.position > 0 ? SIGNAL_BUY : call.position < 0 ? SIGNAL_SELL : SIGNAL_NONE;
            let expected = from;
            for (; expected < before; expected += 1) {
              const signal = barByBar.onBar(expected, context);
              if (signal !== SIGNAL_NONE && signal !== held) break;
            }
            const next = (skipping.nextSignalBar as (f: number, p: number, b?: number) => number)(from, call.position, before);
            expect(next).toBe(expected);
            from = next;
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  /** The bars the program is asked about in a backtest of `rules` (RULES[0]) over 20 full sessions. */
  function barsAsked(config: BacktestConfigInput, rules: { readonly entry: string; readonly exit: string } = RULES[0]): { asked: number; bars: number; trades: number; squaredOff: number } {
    const series = walk({ seed: 7, days: 20, minutesPerDay: 375 });
    const compiled = compileAlgorithm(algorithmFromExpressions(rules));
    if (!compiled.ok) throw new Error('compile');
    const program = compiled.value.createProgram(series);
    let asked = 0;
    const counting: SignalProgram = {
      warmup: program.warmup,
      onBar: (index, position) => {
        asked += 1;
        return program.onBar(index, position);
      },
      nextSignalBar: (from, position, before) => (program.nextSignalBar as (f: number, p: number, b?: number) => number)(from, position, before),
    };
    const result = runBacktest({ series, program: counting, config });
    const squaredOff = result.trades.filter((trade) => trade.exitReason === 'square-off').length;
    return { asked, bars: series.length, trades: result.trades.length, squaredOff };
  }

  it('skips: the program is asked for far fewer bars than the series holds when signals are rare', () => {
    const { asked, bars, trades } = barsAsked({ type: 'swing' });
    expect(trades).toBeGreaterThan(10);
    expect(asked).toBeLessThan(bars / 5);
  });

  it('skips intraday while a position is held too, stopping at the square-off bar', () => {
    const { asked, bars, trades, squaredOff } = barsAsked({ type: 'intraday' });
    expect(trades).toBeGreaterThan(10);
    // Positions held into 15:15 are squared off there: the skip stopped on that bar and processed it.
    expect(squaredOff).toBeGreaterThan(0);
    expect(asked).toBeLessThan(bars / 5);
  });

  it('skips past entries in the direction held: an entry that fires on every bar is asked about at the bar it enters and the data\'s last', () => {
    const { asked, bars, trades } = barsAsked({ type: 'swing' }, { entry: 'close > 0', exit: 'close < 0' });
    expect(trades).toBe(1);
    // Bar 0 (the entry's signal), bar 1 (its fill at the open), the last bar (end of data).
    expect(asked).toBeLessThanOrEqual(3);
    expect(bars).toBe(7_500);
  });
});
