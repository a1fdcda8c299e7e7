// Indicators read from an IndicatorCache against the per-bar steps, bit for bit: on and off the
// paise grid, with NaN inputs, several outputs of one indicator, bar indicators, and a cache too
// small to keep everything; and a cache is never read for a series it was not made for.
import { describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import type { BarSeries } from '../algorithm/program';
import { IndicatorCache } from './indicator-cache';
import { evaluate, seriesOf } from './indicator-cache-test-support';

// Programs of a "sweep": the same indicators with other parameters, other outputs of one indicator, indicators of the whole bar.
const PROGRAMS = [
  ['sma(close, 10)', 'sma(close, 3) - sma(high, 4)', 'ema(close, 9)'],
  ['sma(close, 3)', 'sma(close, 10) > sma(close, 20)', 'macd(close, 12, 26, 9)'],
  ['macd_signal(close, 12, 26, 9) - macd(close, 12, 26, 9)', 'atr(14)', 'stoch_k(5, 3)'],
  ['atr(14) + atr(7)', 'rsi(close, 5)', 'sma(rsi(close, 5), 3)', 'stoch_k(5, 3) - stoch_d(5, 3, 3)'],
] as const;

describe('IndicatorCache', () => {
  it('gives every program of a sweep the per-bar values, on and off the paise grid and across NaN, for any block sizes', () => {
    fc.assert(fc.property(
      fc.integer({ min: 1, max: 1_000_000 }),
      fc.integer({ min: 0, max: 300 }),
      fc.array(fc.integer({ min: 1, max: 90 }), { minLength: 1, maxLength: 4 }),
      (seed, offGridFrom, blocks) => {
        const series = seriesOf(seed, { count: 300, offGridFrom, nanAt: [offGridFrom % 97, 150] });
        const indicators = new IndicatorCache(series);
        // Each program twice: the second reads what the first (or an earlier program) computed.
        for (const sources of [...PROGRAMS, ...PROGRAMS]) {
          expect(evaluate(sources, series, { blocks, indicators })).toEqual(evaluate(sources, series, {}));
        }
        const { hits, misses } = indicators.stats;
        expect(misses).toBeGreaterThan(0);
        expect(hits).toBeGreaterThan(misses);
      },
    ), { numRuns: 40 });
  });

  it('computes an indicator once however many programs read it, and an output of one indicator with the others', () => {
    const series = seriesOf(7, { count: 500 });
    const indicators = new IndicatorCache(series);
    evaluate(['sma(close, 10) > sma(close, 20)'], series, { blocks: [128], indicators });
    expect(indicators.stats).toMatchObject({ hits: 0, misses: 2, entries: 2, bytes: 2 * 500 * 8 });
    evaluate(['crossover(sma(close, 10), sma(close, 30))'], series, { blocks: [128], indicators });
    expect(indicators.stats).toMatchObject({ hits: 1, misses: 3, entries: 3 });
    // macd and its signal are one indicator: one computation keeps both outputs, and either alone then hits.
    evaluate(['macd(close, 12, 26, 9) > macd_signal(close, 12, 26, 9)'], series, { blocks: [128], indicators });
    evaluate(['macd_signal(close, 12, 26, 9) > 0'], series, { blocks: [128], indicators });
    expect(indicators.stats).toMatchObject({ hits: 2, misses: 4, entries: 5 });
    // An indicator of an expression is not read from the series: always computed by its program.
    evaluate(['sma(close - open, 5) > 0'], series, { blocks: [128], indicators });
    expect(indicators.stats).toMatchObject({ hits: 2, misses: 4, entries: 5 });
  });

  it('keeps no more than its budget, least recently used out first, and stays exact', () => {
    const series = seriesOf(3, { count: 400, offGridFrom: 200 });
    const column = series.length * 8;
    const indicators = new IndicatorCache(series, { maxBytes: 2 * column });
    const programs = [['sma(close, 5)'], ['sma(close, 6)'], ['sma(close, 5)'], ['sma(close, 7)'], ['sma(close, 6)'], ['sma(close, 5)']];
    for (const sources of programs) expect(evaluate(sources, series, { blocks: [50], indicators })).toEqual(evaluate(sources, series, {}));
    // 5 miss, 6 miss, 5 hit, 7 miss (6 out), 6 miss (5 out), 5 miss.
    expect(indicators.stats).toEqual({ hits: 1, misses: 5, shared: 0, bytes: 2 * column, entries: 2 });
    const none = new IndicatorCache(series, { maxBytes: 0 });
    expect(evaluate(['sma(close, 5)', 'atr(3)'], series, { blocks: [50], indicators: none })).toEqual(evaluate(['sma(close, 5)', 'atr(3)'], series, {}));
    expect(none.stats).toMatchObject({ bytes: 0, entries: 0 });
    expect(() => new IndicatorCache(series, { maxBytes: -1 })).toThrow(/maxBytes must be a whole number of bytes >= 0, got -1/);
  });

  it('is not read for another series, nor for its own once it has grown', () => {
    const series = seriesOf(5, { count: 200 });
    const other = seriesOf(6, { count: 200 });
    const indicators = new IndicatorCache(series);
    evaluate(['sma(close, 10)'], series, { blocks: [64], indicators });
    expect(evaluate(['sma(close, 10)'], other, { blocks: [64], indicators })).toEqual(evaluate(['sma(close, 10)'], other, {}));
    expect(indicators.covers(series)).toBe(true);
    expect(indicators.covers(other)).toBe(false);
    expect(indicators.stats).toMatchObject({ hits: 0, misses: 1 });
    // A series that grows (live bars appended) is no longer the one the cache was made over.
    const growing: { -readonly [K in keyof BarSeries]: BarSeries[K] } = { ...series, length: 150 };
    const early = new IndicatorCache(growing);
    growing.length = 200;
    expect(early.covers(growing)).toBe(false);
    expect(evaluate(['sma(close, 10)'], growing, { blocks: [64], indicators: early })).toEqual(evaluate(['sma(close, 10)'], series, {}));
    expect(early.stats).toMatchObject({ hits: 0, misses: 0 });
  });

  it('writes another series\' indicators into the columns of the cache it reuses, zeroed first, and the values are that series\' own', () => {
    const series = seriesOf(11, { count: 300 });
    const next = seriesOf(12, { count: 300, offGridFrom: 120, nanAt: [40] });
    const sources = ['sma(close, 10) > sma(close, 20)', 'atr(14)', 'sma(high, 5)'];
    // Every column handed out, and whether it held only zeros when it was.
    const original = IndicatorCache.prototype.column;
    const handedOut: Array<{ column: Float64Array; zeros: boolean }> = [];
    const spy = vi.spyOn(IndicatorCache.prototype, 'column').mockImplementation(function (this: IndicatorCache, length: number) {
      const column = original.call(this, length);
      handedOut.push({ column, zeros: column.every((value) => value === 0) });
      return column;
    });
    try {
      const first = new IndicatorCache(series);
      evaluate(sources, series, { blocks: [64], indicators: first });
      const firstColumns = handedOut.splice(0).map(({ column }) => column);
      expect(firstColumns).toHaveLength(4);
      const second = new IndicatorCache(next, { reuse: first });
      expect(first.stats).toMatchObject({ bytes: 0, entries: 0 });
      expect(evaluate(sources, next, { blocks: [50, 90], indicators: second })).toEqual(evaluate(sources, next, {}));
      // The same four arrays, each zeroed before it was written again; then a new one.
      expect(handedOut.map(({ column }) => firstColumns.includes(column))).toEqual([true, true, true, true]);
      expect(handedOut.every(({ zeros }) => zeros)).toBe(true);
      expect(firstColumns).not.toContain(second.column(300));
      // A spare of another length is not handed out for this one.
      const third = new IndicatorCache(seriesOf(13, { count: 100 }), { reuse: second });
      expect(third.column(100)).toHaveLength(100);
      expect(handedOut.at(-1)?.zeros).toBe(true);
    } finally {
      spy.mockRestore();
    }
  });
});
