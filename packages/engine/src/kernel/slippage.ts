// Slippage: always adverse (a buy pays more, a sell gets less), in whole ticks or a percentage
// of the price rounded adversely to the tick grid. No slippage leaves the price as the data has it.
import type { TradeSide } from '@vyuha/market';

export type SlippageModel =
  | { readonly kind: 'none' }
  | { readonly kind: 'ticks'; readonly ticks: number }
  | { readonly kind: 'percent'; readonly percent: number };

/** Slack for binary fractions before rounding to the tick (1e-9 of a tick). */
const EPSILON = 1e-9;

/**
 * The price after adverse slippage, in paise.
 * @example slippedPrice({ model: { kind: 'percent', percent: 0.1 }, tickSize: 5, side: 'buy' }, 10_000) // 10010 (Rs 100.10)
 */
export function slippedPrice(options: { model: SlippageModel; tickSize: number; side: TradeSide }, price: number): number {
  const { model, tickSize, side } = options;
  const sign = side === 'buy' ? 1 : -1;
  if (model.kind === 'none') return price;
  if (model.kind === 'ticks') return Math.max(tickSize, price + sign * model.ticks * tickSize);
  const raw = (price * (100 + sign * model.percent)) / 100 / tickSize;
  const ticks = side === 'buy' ? Math.ceil(raw - EPSILON) : Math.floor(raw + EPSILON);
  return Math.max(tickSize, ticks * tickSize);
}

/** Rounds a level (stop, target) to the nearest tick. @example roundToTick(9_503, 5) // 9505 */
export function roundToTick(price: number, tickSize: number): number {
  return Math.round(price / tickSize) * tickSize;
}
