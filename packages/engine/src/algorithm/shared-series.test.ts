import { describe, expect, it } from 'vitest';
import { seriesOfShared, shareSeries } from './shared-series';
import type { BarSeries } from './program';

describe('shareSeries', () => {
  it('copies every column once into shared memory, read back as views of it', () => {
    const length = 5;
    const column = (offset: number): Float64Array => Float64Array.from({ length: length + 2 }, (_, index) => offset + index);
    // Columns longer than the series (a buffer with room to grow): only `length` values are shared.
    const series: BarSeries = { length, time: column(0), open: column(10), high: column(20), low: column(30), close: column(40), volume: column(50), oi: column(60) };
    const shared = shareSeries(series);
    expect(shared.buffer).toBeInstanceOf(SharedArrayBuffer);
    const views = seriesOfShared(shared);
    for (const name of ['time', 'open', 'high', 'low', 'close', 'volume', 'oi'] as const) {
      expect([name, Array.from(views[name])]).toEqual([name, Array.from(series[name].subarray(0, length))]);
      expect(views[name].buffer).toBe(shared.buffer);
    }
    // Views, not copies: a write through one view shows in another made later.
    views.close[2] = -1;
    expect(seriesOfShared(shared).close[2]).toBe(-1);
  });
});
