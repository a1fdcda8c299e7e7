// How a candle becomes ticks: the one definition, used by the backtest's matching (a bar is
// matched as its tick path, matching-core.ts) and by the replay feed that plays stored candles to
// the paper runtime, so both see the same prices in the same order.
//
// The path of a candle is always four ticks:
//   0. the open;
//   1-2. the low then the high when the candle closed at or above its open (it went down before
//        it went up, the shorter way round to its close), else the high then the low;
//   3. the close.
// Equal prices are kept: a doji whose four prices are equal is still four ticks, so a feed built
// from candles and the bar matcher take the same number of steps and a repeated price can act
// where the matcher's state changed between two ticks (a trailing stop moved to that price).
//
// Tick 0 is a jump: it follows the previous candle's close across the bar boundary (or a night),
// so a level it is already beyond fills at the open. Ticks 1-3 are continuous: the price moved
// through every value between the previous tick and this one, so a level crossed on the way
// fills at the level (matching-core.ts).
//
// Tick times split the bar evenly from its start: tick k at start + floor(k x (end - start) / 4),
// where end is when the bar closes (start + its length, never after the session's close). The
// close tick is stamped before the bar ends, so it never shares a time with the next bar's open.

/** Ticks in the path of one candle. */
export const TICKS_PER_CANDLE = 4;

/** A candle's prices (any unit: paise, rupees or a premium). */
export interface CandlePrices {
  readonly open: number;
  readonly high: number;
  readonly low: number;
  readonly close: number;
}

/**
 * Writes the candle's four ticks into `out[0..3]` (a caller-owned array, reused per candle).
 * @example candleTickPath({ open: 100, high: 104, low: 97, close: 101 }, path) // path = [100, 97, 104, 101]
 */
export function candleTickPath(candle: CandlePrices, out: Float64Array | number[]): void {
  const rising = candle.close >= candle.open;
  out[0] = candle.open;
  out[1] = rising ? candle.low : candle.high;
  out[2] = rising ? candle.high : candle.low;
  out[3] = candle.close;
}

/** True when the tick's move to its price is a jump (only the open), false when continuous. */
export function tickIsJump(tick: number): boolean {
  return tick === 0;
}

/**
 * The time of tick `tick` (0-3) of a bar that starts at `bar.start` and closes at `bar.end` (epoch ms).
 * @example tickTime({ start: 0, end: 60_000 }, 2) // 30000
 */
export function tickTime(bar: { readonly start: number; readonly end: number }, tick: number): number {
  return bar.start + Math.floor((tick * (bar.end - bar.start)) / TICKS_PER_CANDLE);
}
