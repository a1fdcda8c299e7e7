// Stored or parsed candles (integer paise columns) as the engine's bar series (rupee columns).
// Shared by the backtest worker, the CLI and the candle readers of tests.
import { paiseToRupees } from '@vyuha/core';
import type { BarSeries } from '@vyuha/engine';
import type { CandleColumns } from '@vyuha/market';

/**
 * Paise columns -> the kernel's rupee columns (exact: paise / 100 round-trips through rupeesToPaise).
 * @example seriesOf(candles).close[0] // 24512.3 for a close of 2_451_230 paise
 */
export function seriesOf(candles: CandleColumns): BarSeries {
  const rupees = (column: Int32Array): Float64Array => {
    const out = new Float64Array(column.length);
    for (let index = 0; index < column.length; index += 1) out[index] = paiseToRupees(column[index] as number);
    return out;
  };
  return {
    length: candles.length, time: candles.time, open: rupees(candles.open), high: rupees(candles.high), low: rupees(candles.low),
    close: rupees(candles.close), volume: candles.volume, oi: candles.oi ?? new Float64Array(candles.length).fill(Number.NaN),
  };
}
