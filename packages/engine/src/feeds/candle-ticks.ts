// A stored candle as the four ticks a feed plays: prices in the order of the one tick path
// (execution/tick-path.ts: open, then low and high in the order the candle implies, then close)
// at the times that file defines, inside the bar's window (bar-window.ts: from the later of the
// bar's start and the session's open to the bar's close, never after the session's close).
// The bar's volume rides on the close tick, so ticks summed back give the bar's volume.
import { candleTickPath, tickTime, TICKS_PER_CANDLE } from '../execution/tick-path';
import type { CandlePrices } from '../execution/tick-path';
import type { BarWindow } from './bar-window';

export { TICKS_PER_CANDLE };

/** Caller-owned columns the four ticks of one candle are written into (reused per candle). */
export interface CandleTickColumns {
  readonly time: Float64Array;
  readonly price: Float64Array;
  readonly volume: Float64Array;
}

/** Fresh columns for `candleTicks`. */
export function candleTickColumns(): CandleTickColumns {
  return { time: new Float64Array(TICKS_PER_CANDLE), price: new Float64Array(TICKS_PER_CANDLE), volume: new Float64Array(TICKS_PER_CANDLE) };
}

/**
 * Writes the four ticks of `candle` (its bar's window `window`) into `out`.
 * @example candleTicks({ open: 100, high: 104, low: 97, close: 101, volume: 9 }, { start: 0, end: 60_000, tickStart: 0 }, out)
 *   // out.time = [0, 15000, 30000, 45000], out.price = [100, 97, 104, 101], out.volume = [0, 0, 0, 9]
 */
export function candleTicks(candle: CandlePrices & { readonly volume: number }, window: BarWindow, out: CandleTickColumns): void {
  candleTickPath(candle, out.price);
  const span = { start: window.tickStart, end: window.end };
  for (let tick = 0; tick < TICKS_PER_CANDLE; tick += 1) {
    out.time[tick] = tickTime(span, tick);
    out.volume[tick] = tick === TICKS_PER_CANDLE - 1 ? candle.volume : 0;
  }
}
