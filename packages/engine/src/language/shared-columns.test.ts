// The indicator arena the threads of a sweep pool share (shared-columns.ts), seen from several
// views of one arena as the threads see it: a key computed once and read by the others from the
// same memory, several outputs of one indicator, no room (columns, keys, entries), a computation
// that throws, an arena emptied for another series; and IndicatorCaches over one arena giving
// the values a cache of their own gives. The pool's threads racing for one arena:
// server test/sweep/run-pool.test.ts.
import { describe, expect, it, vi } from 'vitest';
import { IndicatorCache } from './indicator-cache';
import { evaluate, seriesOf } from './indicator-cache-test-support';
import { emptySharedColumns, SharedColumns, sharedColumnsData, sharedColumnsUse } from './shared-columns';

const BARS = 50;
const COLUMN_BYTES = BARS * Float64Array.BYTES_PER_ELEMENT;

/** A compute that writes `value + bar` into each column it is given (column k: value + k * 1000 + bar), counting its calls. */
function writer(value: number) {
  return vi.fn((columns: readonly Float64Array[]) => {
    columns.forEach((column, k) => {
      for (let bar = 0; bar < column.length; bar += 1) column[bar] = value + k * 1000 + bar;
    });
  });
}

describe('SharedColumns', () => {
  it('computes a key once, into zeroed columns of the arena, and every other view reads that memory', () => {
    const data = sharedColumnsData(BARS, 10 * COLUMN_BYTES);
    const [first, second] = [new SharedColumns(data), new SharedColumns(data)];
    expect(first.capacity).toBe(10);
    let zeroed = false;
    const compute = vi.fn((columns: readonly Float64Array[]) => {
      zeroed = columns.every((column) => column.length === BARS && column.every((value) => value === 0));
      writer(7)(columns);
    });
    const computed = first.outputs(['sma|close|20|0'], compute);
    expect(compute).toHaveBeenCalledTimes(1);
    expect(zeroed).toBe(true);
    const unused = writer(0);
    const read = second.outputs(['sma|close|20|0'], unused);
    expect(unused).not.toHaveBeenCalled();
    expect(read?.[0]?.buffer).toBe(data.values);
    expect(read?.[0]?.byteOffset).toBe(computed?.[0]?.byteOffset);
    expect(Array.from(read?.[0] ?? [])).toEqual(Array.from({ length: BARS }, (_, bar) => 7 + bar));
    expect(sharedColumnsUse(data)).toEqual({ indicators: 1, columns: 1 });
  });

  it('keeps an indicator\'s outputs together under their keys in order, apart from any other set of keys', () => {
    const data = sharedColumnsData(BARS, 10 * COLUMN_BYTES);
    const view = new SharedColumns(data);
    const macd = view.outputs(['macd|close|12,26,9|0', 'macd|close|12,26,9|1'], writer(1));
    expect(macd).toHaveLength(2);
    expect(macd?.[1]?.[0]).toBe(1001);
    const other = writer(2);
    expect(new SharedColumns(data).outputs(['macd|close|12,26,9|1'], other)?.[0]?.[0]).toBe(2);
    expect(other).toHaveBeenCalledTimes(1);
    expect(sharedColumnsUse(data)).toEqual({ indicators: 2, columns: 3 });
  });

  it('answers undefined, computing nothing, when the arena has no room: the caller computes its own, and so does every other view', () => {
    const data = sharedColumnsData(BARS, 2 * COLUMN_BYTES + 8);
    const view = new SharedColumns(data);
    expect(view.capacity).toBe(2);
    expect(view.outputs(['a'], writer(1))).toHaveLength(1);
    const tooMany = writer(2);
    expect(view.outputs(['b', 'c'], tooMany)).toBeUndefined();
    expect(tooMany).not.toHaveBeenCalled();
    expect(new SharedColumns(data).outputs(['b', 'c'], tooMany)).toBeUndefined();
    expect(tooMany).not.toHaveBeenCalled();
    // Room left for one more column: a single output still fits.
    expect(view.outputs(['d'], writer(3))?.[0]?.[0]).toBe(3);
    // A series longer than the arena: no room at all.
    expect(new SharedColumns(sharedColumnsData(BARS, COLUMN_BYTES - 8)).outputs(['a'], tooMany)).toBeUndefined();
    // Two entries of the hash table hold two indicators; a third finds none free.
    const small = sharedColumnsData(BARS, 10 * COLUMN_BYTES, 2);
    const view2 = new SharedColumns(small);
    expect(view2.outputs(['x'], writer(1))).toBeDefined();
    expect(view2.outputs(['y'], writer(2))).toBeDefined();
    expect(view2.outputs(['z'], tooMany)).toBeUndefined();
    expect(view2.outputs(['y'], tooMany)?.[0]?.[0]).toBe(2);
    expect(tooMany).not.toHaveBeenCalled();
    // Keys longer than the text it keeps: the first fits, the second does not, and nobody matches it later.
    const long = (letter: string): string => letter.repeat(100_000);
    const fresh = new SharedColumns(sharedColumnsData(BARS, 10 * COLUMN_BYTES));
    expect(fresh.outputs([long('p')], writer(4))?.[0]?.[0]).toBe(4);
    expect(fresh.outputs([long('q')], tooMany)).toBeUndefined();
    expect(fresh.outputs([long('q')], tooMany)).toBeUndefined();
    expect(tooMany).not.toHaveBeenCalled();
  });

  it('passes on what a computation throws, and the others then compute their own instead of waiting', () => {
    const data = sharedColumnsData(BARS, 10 * COLUMN_BYTES);
    const failing = vi.fn(() => {
      throw new RangeError('no such indicator');
    });
    expect(() => new SharedColumns(data).outputs(['bad'], failing)).toThrow(new RangeError('no such indicator'));
    const other = writer(1);
    expect(new SharedColumns(data).outputs(['bad'], other)).toBeUndefined();
    expect(other).not.toHaveBeenCalled();
    expect(sharedColumnsUse(data)).toEqual({ indicators: 0, columns: 0 });
  });

  it('is emptied for another series: the same memory, every key computed again into zeroed columns', () => {
    const data = sharedColumnsData(BARS, 10 * COLUMN_BYTES);
    const before = new SharedColumns(data).outputs(['sma|close|5|0'], writer(9));
    const next = emptySharedColumns(data, 40);
    expect(next.values).toBe(data.values);
    expect(sharedColumnsUse(next)).toEqual({ indicators: 0, columns: 0 });
    const view = new SharedColumns(next);
    expect(view.capacity).toBe(Math.floor((10 * BARS) / 40));
    let zeroed = false;
    const again = view.outputs(['sma|close|5|0'], (columns) => {
      zeroed = columns.every((column) => column.every((value) => value === 0));
      writer(3)(columns);
    });
    expect(zeroed).toBe(true);
    expect(again?.[0]).toHaveLength(40);
    expect(again?.[0]?.byteOffset).toBe(before?.[0]?.byteOffset);
    expect(again?.[0]?.[0]).toBe(3);
  });

  it('refuses a size that is not one', () => {
    expect(() => sharedColumnsData(-1, 100)).toThrow(new RangeError('bars must be a whole number >= 0, got -1'));
    expect(() => sharedColumnsData(10, 1.5)).toThrow(new RangeError('maxBytes must be a whole number of bytes >= 0, got 1.5'));
    expect(() => sharedColumnsData(10, 100, 3)).toThrow(new RangeError('entries must be a power of two, got 3'));
    expect(() => emptySharedColumns(sharedColumnsData(10, 100), Number.NaN)).toThrow(new RangeError('bars must be a whole number >= 0, got NaN'));
  });
});

describe('IndicatorCache over a shared arena', () => {
  const sources = ['sma(close, 10) > sma(close, 20)', 'macd_signal(close, 12, 26, 9) - macd(close, 12, 26, 9)', 'atr(14)', 'sma(rsi(close, 5), 3)'];

  it('gives what a cache of its own gives, each indicator computed by one cache and read by the others', () => {
    const series = seriesOf(21, { count: 400 });
    const own = evaluate(sources, series, { blocks: [64], indicators: new IndicatorCache(series) });
    const data = sharedColumnsData(series.length, 64 * series.length * 8);
    const first = new IndicatorCache(series, { shared: new SharedColumns(data) });
    const second = new IndicatorCache(series, { shared: new SharedColumns(data) });
    expect(evaluate(sources, series, { blocks: [64], indicators: first })).toEqual(own);
    // sma 10, sma 20, macd (two outputs), atr, rsi; the sma of rsi reads a slot, not the series: never kept.
    expect(sharedColumnsUse(data)).toEqual({ indicators: 5, columns: 6 });
    expect(first.stats).toMatchObject({ hits: 0, misses: 5, shared: 0, bytes: 0, entries: 0 });
    expect(evaluate(sources, series, { blocks: [64], indicators: second })).toEqual(own);
    expect(second.stats).toMatchObject({ hits: 5, misses: 0, shared: 5, bytes: 0 });
    // Read again from the columns it borrowed, without asking the arena.
    expect(evaluate(sources, series, { blocks: [64], indicators: second })).toEqual(own);
    expect(second.stats).toMatchObject({ hits: 10, misses: 0, shared: 5 });
    expect(sharedColumnsUse(data)).toEqual({ indicators: 5, columns: 6 });
  });

  it('computes and keeps its own where the arena has no room, or holds columns of another length', () => {
    const series = seriesOf(22, { count: 300 });
    const own = evaluate(sources, series, { blocks: [64], indicators: new IndicatorCache(series) });
    const full = sharedColumnsData(series.length, 2 * series.length * 8);
    const cache = new IndicatorCache(series, { shared: new SharedColumns(full) });
    expect(evaluate(sources, series, { blocks: [64], indicators: cache })).toEqual(own);
    // sma 10 and sma 20 in the arena; macd's two columns, atr and rsi kept by the cache.
    expect(sharedColumnsUse(full)).toEqual({ indicators: 2, columns: 2 });
    expect(cache.stats).toMatchObject({ misses: 5, entries: 4, bytes: 4 * 300 * 8 });
    const otherLength = new IndicatorCache(series, { shared: new SharedColumns(sharedColumnsData(299, 64 * 300 * 8)) });
    expect(evaluate(sources, series, { blocks: [64], indicators: otherLength })).toEqual(own);
    expect(otherLength.stats).toMatchObject({ misses: 5, shared: 0, entries: 6 });
  });

  it('never hands the arena\'s columns out as spares to the cache that reuses it', () => {
    const series = seriesOf(23, { count: 200 });
    const data = sharedColumnsData(series.length, 4 * series.length * 8);
    const first = new IndicatorCache(series, { shared: new SharedColumns(data) });
    evaluate(['sma(close, 5)', 'sma(close, 6)'], series, { blocks: [64], indicators: first });
    const arena = new Float64Array(data.values);
    const before = Array.from(arena);
    const next = new IndicatorCache(seriesOf(24, { count: 200 }), { reuse: first });
    const spare = next.column(200);
    spare.fill(42);
    expect(spare.buffer).not.toBe(data.values);
    expect(Array.from(arena)).toEqual(before);
  });
});
