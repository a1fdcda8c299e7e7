// Stored or parsed candles (integer paise columns, or a CSV read straight into rupees) as the
// engine's bar series (rupee columns).
// Shared by the backtest worker, the CLI and the candle readers of tests.
import { paiseToRupees } from '@vyuha/core';
import type { BarSeries } from '@vyuha/engine';
import type { CandleColumns, RupeeCandleColumns } from '@vyuha/market';

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

/**
 * Candles already in rupees (a plain CSV read by createPlainRupeeCandleReader, prices paise / 100)
 * as the bar series: the same series seriesOf makes of the same file's paise candles.
 * @example seriesOfRupees(candles).oi[0] // NaN when the file has no oi column
 */
export function seriesOfRupees(candles: RupeeCandleColumns): BarSeries {
  const { length, time, open, high, low, close, volume, oi } = candles;
  return { length, time, open, high, low, close, volume, oi: oi ?? new Float64Array(length).fill(Number.NaN) };
}
