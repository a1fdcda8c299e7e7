// Option candles of one contract as columns, and the same by bar time: how the job's store
// (stored-candles.ts) keeps what it loaded and how a worker thread's copy (../sweep/sweep-legs.ts)
// rebuilds it. No database here, so a thread loads nothing more than this.
import type { OptionCandle } from '@vyuha/engine';
import type { CandleColumns } from '@vyuha/market';

/** One contract's candles as columns (paise; times strictly increasing): what a worker thread's copy is sent. */
export type LegCandleColumns = Pick<CandleColumns, 'length' | 'time' | 'open' | 'high' | 'low' | 'close'>;

/** The candles of `columns` by bar start time (paise). */
export function candlesByTimeOf(columns: LegCandleColumns): Map<number, OptionCandle> {
  const byTime = new Map<number, OptionCandle>();
  for (let row = 0; row < columns.length; row += 1) {
    byTime.set(columns.time[row] as number, { open: columns.open[row] as number, high: columns.high[row] as number, low: columns.low[row] as number, close: columns.close[row] as number });
  }
  return byTime;
}
