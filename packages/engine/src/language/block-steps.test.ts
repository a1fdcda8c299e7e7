// Block evaluation against the per-bar steps, bit for bit: `and` / `or` chains with their
// comparisons computed inline (generated or interpreted), and indicators fed a block at a time
// through their own loop (Indicator.updateBlock).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { BarSeries } from '../algorithm/program';
import { createIndicator } from '../indicators/factory';
import { randomBars } from '../indicators/indicator-test-support';
import { checkExpression } from './checker';
import { ExpressionPlan } from './expression-plan';

const NO_POSITION = { position: 0, entryPrice: Number.NaN, barsSinceEntry: Number.NaN, dayPnl: 0 };

function seriesOfBars(bars: ReturnType<typeof randomBars>): BarSeries {
  const column = (read: (bar: (typeof bars)[number]) => number): Float64Array => Float64Array.from(bars, read);
  return {
    length: bars.length, time: column((bar) => bar.time), open: column((bar) => bar.open), high: column((bar) => bar.high),
    low: column((bar) => bar.low), close: column((bar) => bar.close), volume: column((bar) => bar.volume), oi: column(() => Number.NaN),
  };
}

/** NaN as one value, so two arrays compare equal when every bar is the same double (signed zeros apart). */
function comparable(values: Float64Array): number[] {
  return Array.from(values, (value) => (value !== value ? Number.NaN : value));
}

/** The expression's value at every bar: per-bar steps, or blocks of the given sizes in turn. */
function evaluate(source: string, series: BarSeries, mode: { blocks?: readonly number[]; generateCode?: boolean }): Float64Array {
  const checked = checkExpression(source);
  if (!checked.ok) throw new Error(checked.error.map((error) => error.message).join('; '));
  const plan = new ExpressionPlan();
  const root = plan.add(checked.value.root);
  const values = new Float64Array(series.length);
  if (mode.blocks === undefined) {
    const { slots, expressionSteps } = plan.instantiate(series, { intervalMinutes: 1 });
    for (let index = 0; index < series.length; index += 1) {
      for (const step of expressionSteps) step(index, NO_POSITION);
      values[index] = slots[root] as number;
    }
    return values;
  }
  const program = plan.instantiateBlocks(series, { intervalMinutes: 1, generateCode: mode.generateCode ?? true });
  if (program === undefined) throw new Error(`${source}: no block form`);
  const sizes = mode.blocks;
  let start = 0;
  for (let block = 0; start < series.length; block += 1) {
    const end = Math.min(series.length, start + (sizes[block % sizes.length] as number));
    for (const step of program.expressionSteps) step(start, end, start);
    for (let index = start; index < end; index += 1) values[index] = (program.columns[root] as Float64Array)[index - start] as number;
    start = end;
  }
  return values;
}

const CHAINS = [
  'close > open and high >= low and close < high and low <= open and close == close and close != open',
  'close > open and close < open[1] or high == high[1] or (close - open) / (close - open) != 1 or close >= high[1] or close <= low[1]',
  'close[3] > open and (close - open) / (close - open) != 0 and close > open[2]',
  '(high - high) / (high - high) == 0 or close > open or (close - close) / (close - close) != 0',
  'close[2] != close or (close - open) / (high - high) > 0 or not (close > open) or close < 0',
  'close > open and (high > high[1] or low < low[1]) and not (close[1] > open[1] and close > close[1])',
  'rsi(close, 3) > 50 and stoch_k(4, 2) < 80 and cci(3) != 0 and adx(2) >= 10 and close > vwap()',
];

describe('crossover and crossunder over blocks', () => {
  /** Closes and opens of two values only: equal on about half the bars, so ties (which keep the last side) come often. */
  function tiedSeries(seed: number, length: number): BarSeries {
    let state = seed >>> 0;
    const pick = (): number => {
      state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
      return state < 2_147_483_648 ? 100 : 100.05;
    };
    const close = Float64Array.from({ length }, pick);
    const open = Float64Array.from({ length }, pick);
    const time = Float64Array.from({ length }, (_, index) => Date.UTC(2024, 0, 1, 3, 45) + index * 60_000);
    return { length, time, open, high: close.map((value, index) => Math.max(value, open[index] as number)), low: close.map((value, index) => Math.min(value, open[index] as number)), close, volume: new Float64Array(length).fill(1), oi: new Float64Array(length).fill(Number.NaN) };
  }

  it('give the per-bar values through ties (a tie keeps the side it follows), for any block sizes', () => {
    let firedAfterTie = 0;
    fc.assert(fc.property(
      fc.integer({ min: 1, max: 1_000_000 }),
      // The last: where close = open (so high = low) the right side is 0 / 0, NaN, which keeps the last side too.
      fc.constantFrom('crossover(close, open)', 'crossunder(close, open)', 'crossover(sma(close, 2), sma(open, 2))', 'crossover(close, close + (close - open) / (high - low))'),
      fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 4 }),
      (seed, source, blocks) => {
        const series = tiedSeries(seed, 150);
        const reference = evaluate(source, series, {});
        expect(comparable(evaluate(source, series, { blocks, generateCode: true }))).toEqual(comparable(reference));
        expect(comparable(evaluate(source, series, { blocks, generateCode: false }))).toEqual(comparable(reference));
        // A crossing right after a tie: the side before the tie decides it.
        for (let index = 1; index < series.length; index += 1) if (reference[index] === 1 && series.close[index - 1] === series.open[index - 1]) firedAfterTie += 1;
      },
    ), { numRuns: 60 });
    expect(firedAfterTie).toBeGreaterThan(0);
  });
});

describe('and / or chains over blocks', () => {
  it('give the per-bar 1/0 at every bar, generated or interpreted, for any block sizes', () => {
    fc.assert(fc.property(
      fc.integer({ min: 1, max: 1_000_000 }),
      fc.constantFrom(...CHAINS),
      fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 4 }),
      (seed, source, blocks) => {
        const series = seriesOfBars(randomBars({ count: 120, seed: String(seed) }));
        const reference = comparable(evaluate(source, series, {}));
        expect(comparable(evaluate(source, series, { blocks, generateCode: true }))).toEqual(reference);
        expect(comparable(evaluate(source, series, { blocks, generateCode: false }))).toEqual(reference);
      },
    ), { numRuns: 60 });
  });

  it('are each 1 on some bars and 0 on others (the property above is not vacuous)', () => {
    const series = seriesOfBars(randomBars({ count: 600, seed: 'chains' }));
    for (const source of CHAINS) {
      const values = comparable(evaluate(source, series, { blocks: [50] }));
      expect([source, values.includes(1), values.includes(0)]).toEqual([source, true, true]);
    }
  });

  it('keep a comparison of a chain that is also used alone', () => {
    const series = seriesOfBars(randomBars({ count: 200, seed: 'shared comparison' }));
    const source = '(close > open and high > high[1]) == (close > open)';
    expect(comparable(evaluate(source, series, { blocks: [64] }))).toEqual(comparable(evaluate(source, series, {})));
  });
});

describe('grid SMAs of one column over blocks', () => {
  it('share the block\'s paise and give the per-bar values, the column on the grid, off it from some bar, or NaN there', () => {
    const sources = ['sma(close, 3) - sma(close, 5)', 'sma(close, 1) + sma(close, 7) * sma(close, 3)', 'sma(close, 4) - sma(open, 4) + sma(close, 2)'];
    fc.assert(fc.property(
      fc.record({ seed: fc.integer({ min: 1, max: 1_000_000 }), source: fc.constantFrom(...sources) }),
      fc.record({ at: fc.integer({ min: 0, max: 119 }), planted: fc.constantFrom(undefined, 0.001, Number.NaN, 1e15) }),
      fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 4 }),
      ({ seed, source }, { at, planted }, blocks) => {
        const series = seriesOfBars(randomBars({ count: 120, seed: String(seed) }));
        if (planted !== undefined) series.close[at] = Number.isNaN(planted) || planted > 1 ? planted : (series.close[at] as number) + planted;
        expect(comparable(evaluate(source, series, { blocks }))).toEqual(comparable(evaluate(source, series, {})));
      },
    ), { numRuns: 150 });
  });
});

describe('highest / lowest over blocks', () => {
  it('give the per-bar values for any block sizes, with zeros, ties, negatives and NaN in the window', () => {
    const sources = [
      'highest(high, 5) - lowest(low, 7)', 'highest(close - open, 4) + lowest(close - open, 1)', 'highest(close - close[1], 3)',
      'lowest(abs(close - open), 6)', 'highest((close - open) / (close - open), 2)', 'highest(close, 30) - lowest(close, 30)',
    ];
    fc.assert(fc.property(
      fc.record({ seed: fc.integer({ min: 1, max: 1_000_000 }), source: fc.constantFrom(...sources) }),
      fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 4 }),
      ({ seed, source }, blocks) => {
        const series = seriesOfBars(randomBars({ count: 150, seed: String(seed) }));
        expect(comparable(evaluate(source, series, { blocks }))).toEqual(comparable(evaluate(source, series, {})));
      },
    ), { numRuns: 200 });
  });
});

/**
 * The indicator's outputs over the whole series, fed through `updateBlock` in uneven blocks, each
 * written at an offset (as block steps write a block's column); `values` gives a block's input.
 */
function inUnevenBlocks(
  indicator: ReturnType<typeof createIndicator>,
  feed: { series: BarSeries; output: number; values: (start: number, end: number) => { values: Float64Array; valuesOffset: number } },
): Float64Array {
  const { series, output } = feed;
  expect(indicator.updateBlock).toBeDefined();
  const out = new Float64Array(series.length);
  for (let start = 0, size = 1; start < series.length; start += size, size = (size * 7) % 61 + 1) {
    const end = Math.min(series.length, start + size);
    const column = new Float64Array(end - start);
    indicator.updateBlock?.({ bars: series, ...feed.values(start, end), out: column, outOffset: start, output }, start, end);
    out.set(column, start);
  }
  return out;
}

describe('Indicator.updateBlock', () => {
  const cases: ReadonlyArray<readonly [string, readonly number[], number]> = [
    ['stoch_k', [14, 3], 1], ['stoch_k', [1, 1], 1], ['stoch', [5, 3, 3], 2], ['adx', [14], 3], ['adx', [1], 3],
    ['atr', [14], 1], ['atr', [1], 1], ['vwap', [], 1], ['cci', [20], 1], ['cci', [1], 1], ['cci', [2], 1], ['donchian', [20], 3], ['donchian', [1], 3],
  ];
  for (const [name, parameters, outputs] of cases) {
    it(`${name}(${parameters.join(', ')}) writes what update and output give, bar by bar`, () => {
      for (const paise of [true, false]) {
        const bars = randomBars({ count: 900, seed: `${name} ${paise}`, paise });
        const series = seriesOfBars(bars);
        for (let output = 0; output < outputs; output += 1) {
          const streamed = createIndicator(name, parameters);
          const expected = bars.map((bar) => {
            streamed.update(Number.NaN, bar);
            return streamed.output(output);
          });
          const blocked = createIndicator(name, parameters);
          const out = inUnevenBlocks(blocked, { series, output, values: () => ({ values: new Float64Array(0), valuesOffset: 0 }) });
          expect(comparable(out)).toEqual(comparable(Float64Array.from(expected)));
          expect(blocked.ready).toBe(streamed.ready);
          // The same state after: bars fed on one at a time give the same outputs.
          const later = randomBars({ count: 60, seed: `${name} later ${paise}`, paise, start: (bars.at(-1) as (typeof bars)[number]).close });
          const onward = (indicator: typeof streamed): number[] => later.map((bar) => {
            indicator.update(Number.NaN, bar);
            return indicator.output(output);
          });
          expect(comparable(Float64Array.from(onward(blocked)))).toEqual(comparable(Float64Array.from(onward(streamed))));
        }
      }
    });
  }
});

describe('Indicator.updateBlock of a series indicator', () => {
  const cases: ReadonlyArray<readonly [string, readonly number[], number]> = [
    ['ema', [9], 1], ['ema', [1], 1], ['rsi', [14], 1], ['rsi', [1], 1], ['macd', [12, 26, 9], 3], ['macd', [2, 3, 1], 3],
    ['bb', [20, 2], 3], ['bb', [1, 1], 3], ['wma', [30], 1], ['wma', [1], 1],
  ];
  for (const [name, parameters, outputs] of cases) {
    it(`${name}(${parameters.join(', ')}) writes what update and output give, NaN inputs skipped, read from a column or a block`, () => {
      for (const paise of [true, false]) {
        const bars = randomBars({ count: 900, seed: `${name} series ${paise}`, paise });
        // The closes with NaN holes (a series such as close / (close - close[1]) has them), some in a row.
        const inputs = Float64Array.from(bars, (bar, index) => (index % 97 === 5 || index % 131 < 3 ? Number.NaN : bar.close));
        const later = randomBars({ count: 40, seed: `${name} later`, paise, start: (bars.at(-1) as (typeof bars)[number]).close });
        const series = seriesOfBars(bars);
        /** Outputs bar by bar over the bars, then over `later` (the state after, shown by what comes next). */
        const streamed = (output: number): number[] => {
          const indicator = createIndicator(name, parameters);
          const values = bars.map((bar, index) => {
            const input = inputs[index] as number;
            if (input !== input) return Number.NaN;
            indicator.update(input, bar);
            return indicator.output(output);
          });
          return [...values, ...onward(indicator, output)];
        };
        const onward = (indicator: ReturnType<typeof createIndicator>, output: number): number[] => later.map((bar) => {
          indicator.update(bar.close, bar);
          return indicator.output(output);
        });
        for (let output = 0; output < outputs; output += 1) {
          const expected = comparable(Float64Array.from(streamed(output)));
          for (const fromBlock of [false, true]) {
            const blocked = createIndicator(name, parameters);
            const out = inUnevenBlocks(blocked, {
              series, output, values: (start, end) => (fromBlock ? { values: inputs.slice(start, end), valuesOffset: start } : { values: inputs, valuesOffset: 0 }),
            });
            expect(comparable(Float64Array.from([...out, ...onward(blocked, output)]))).toEqual(expected);
          }
        }
      }
    });
  }
});
