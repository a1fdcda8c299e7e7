import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { BarSeries } from '../algorithm/program';
import { createIndicator } from '../indicators/factory';
import { BlockPaise, columnIndicatorStep, SeriesPaise, seriesIndicatorStep } from './window-steps';

const NO_POSITION = { position: 0, entryPrice: Number.NaN, barsSinceEntry: Number.NaN, dayPnl: 0 };

function seriesOf(close: Float64Array, length = close.length): BarSeries {
  return { length, time: close, open: close, high: close, low: close, close, volume: close, oi: close };
}

/** Values from the block-computed column step and from the bar-by-bar step, bar by bar. */
function both(options: { close: Float64Array; indicator: string; parameters: number[]; grow?: boolean }): { column: number[]; streamed: number[] } {
  const { close, indicator, parameters } = options;
  // `grow`: a live series, one more closed bar visible at each call.
  const series = { ...seriesOf(close), length: options.grow === true ? 0 : close.length };
  const columnSlots = new Float64Array(1);
  const streamedSlots = new Float64Array(1);
  const column = columnIndicatorStep({ series, column: 'close', slots: columnSlots }, createIndicator(indicator, parameters), { outputs: [[0, 0]] });
  const streamed = seriesIndicatorStep({ values: close, source: -1, slots: streamedSlots }, createIndicator(indicator, parameters), { outputs: [[0, 0]] });
  const result = { column: [] as number[], streamed: [] as number[] };
  for (let index = 0; index < close.length; index += 1) {
    if (options.grow === true) series.length = index + 1;
    column(index, NO_POSITION);
    streamed(index, NO_POSITION);
    result.column.push(columnSlots[0] as number);
    result.streamed.push(streamedSlots[0] as number);
  }
  return result;
}

describe('columnIndicatorStep', () => {
  it('gives the bar-by-bar values of sma over prices, across blocks, with an off-grid value and a NaN late in the series', () => {
    const close = Float64Array.from({ length: 10_000 }, (_, index) => 20_000 + ((index * 37) % 101) / 4);
    close[6_000] = 20_000.123_4;
    close[8_000] = Number.NaN;
    const { column, streamed } = both({ close, indicator: 'sma', parameters: [10] });
    expect(column).toEqual(streamed);
    expect(Number.isNaN(column[5] as number)).toBe(true);
    expect(column[9]).toBeCloseTo(close.slice(0, 10).reduce((a, b) => a + b, 0) / 10, 9);
  });

  it('equals the streamed values for any prices, periods and indicators, whole or growing live', () => {
    fc.assert(fc.property(
      fc.array(fc.oneof(fc.integer({ min: 1, max: 5_000_000 }).map((p) => p / 100), fc.double({ min: 1, max: 50_000, noNaN: true })), { minLength: 1, maxLength: 300 }),
      fc.record({ period: fc.integer({ min: 1, max: 30 }), indicator: fc.constantFrom('sma', 'ema', 'wma'), grow: fc.boolean() }),
      (values, { period, indicator, grow }) => {
        const { column, streamed } = both({ close: Float64Array.from(values), indicator, parameters: [period], grow });
        expect(column).toEqual(streamed);
      },
    ), { numRuns: 200 });
  });
});

describe('SeriesPaise', () => {
  /** A block's paise as plain numbers up to its first bar off the grid, with that bar and the largest. */
  const read = (block: { paise: Float64Array; onGridEnd: number; largest: number }, start: number): unknown => ({
    paise: Array.from(block.paise.subarray(0, block.onGridEnd - start)), onGridEnd: block.onGridEnd, largest: block.largest,
  });

  it("gives every block a BlockPaise gives, asked once or again, and another column's blocks too", () => {
    const close = Float64Array.from({ length: 10_000 }, (_, index) => 20_000 + ((index * 37) % 101) / 4 - (index % 7) * 0.05);
    close[6_000] = 20_000.123_4;
    const other = Float64Array.from(close, (value) => value + 1);
    const whole = new SeriesPaise(close);
    const ranges = [[0, 4_096], [4_096, 8_192], [8_192, 10_000], [0, 4_096], [8_192, 10_000], [4_096, 4_100]] as const;
    for (const [start, end] of ranges) {
      expect(read(whole.of(close, { start, end }), start)).toEqual(read(new BlockPaise().of(close, { start, end }), start));
      expect(read(whole.of(other, { start, end }), start)).toEqual(read(new BlockPaise().of(other, { start, end }), start));
    }
    // The block holding bar 6,000 ends at it; the others hold every bar.
    expect(whole.of(close, { start: 4_096, end: 8_192 }).onGridEnd).toBe(6_000);
    expect(whole.of(close, { start: 0, end: 4_096 }).onGridEnd).toBe(4_096);
  });
});
