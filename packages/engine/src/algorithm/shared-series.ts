// A series in one SharedArrayBuffer, so that worker threads read one copy of the bars: the sweep
// pool's threads (server sweep-protocol.ts) and the kernel benchmark's.
//
// Invariants:
// - The seven columns lie one after the other, `length` values each, in the order of COLUMNS.
// - The buffer is written once, when shared; every thread then only reads it.
import type { BarSeries } from './program';

const COLUMNS = ['time', 'open', 'high', 'low', 'close', 'volume', 'oi'] as const;

/** The series as a thread receives it (workerData, or a message). */
export interface SharedSeries {
  readonly buffer: SharedArrayBuffer;
  readonly length: number;
}

/**
 * The series copied once into shared memory.
 * @example seriesOfShared(shareSeries(series)).close[0] === series.close[0] // true
 */
export function shareSeries(series: BarSeries): SharedSeries {
  const shared = { buffer: new SharedArrayBuffer(COLUMNS.length * series.length * Float64Array.BYTES_PER_ELEMENT), length: series.length };
  const views = seriesOfShared(shared);
  for (const column of COLUMNS) views[column].set(series[column].subarray(0, series.length));
  return shared;
}

/** Float64Array views over the shared columns (no copy). */
export function seriesOfShared(shared: SharedSeries): BarSeries {
  const column = (index: number): Float64Array => new Float64Array(shared.buffer, index * shared.length * Float64Array.BYTES_PER_ELEMENT, shared.length);
  return {
    length: shared.length,
    time: column(0), open: column(1), high: column(2), low: column(3), close: column(4), volume: column(5), oi: column(6),
  };
}
