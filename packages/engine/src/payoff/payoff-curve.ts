// Points for a payoff chart: the P&L at expiry and, given a market, the P&L today, over a range of
// settlement prices. The strikes inside the range are added so the expiry line bends exactly there.
import { OptionInputError } from '../options/option-input';
import { kinkPoints, payoffAtExpiry } from './expiry-payoff';
import type { PayoffLeg } from './payoff-leg';
import { positionValue, type MarketState } from './position-value';

/** One chart point: the settlement price, the P&L at expiry, and (with a market) the P&L at the market's time. */
export interface PayoffPoint {
  readonly spot: number;
  readonly atExpiry: number;
  readonly beforeExpiry?: number;
}

/** The range to chart: `steps` equal intervals from `from` to `to`, plus the strikes between them. */
export interface PayoffCurveOptions {
  readonly from: number;
  readonly to: number;
  readonly steps: number;
  /** When given, each point also carries the position's value at this market (its spot replaced by the point's). */
  readonly market?: Omit<MarketState, 'spot'>;
}

/** Largest number of points a curve may ask for, so a typo cannot allocate millions. */
const MAXIMUM_STEPS = 100_000;

/**
 * The payoff curve, ascending in spot.
 * @example payoffCurve(longCall100At5, { from: 90, to: 110, steps: 2 }).map((p) => p.atExpiry) // [-5, -5, 5]
 */
export function payoffCurve(legs: readonly PayoffLeg[], options: PayoffCurveOptions): PayoffPoint[] {
  const { from, to, steps, market } = options;
  if (!(Number.isFinite(from) && from >= 0)) throw new OptionInputError('from', `must be a finite price >= 0, got ${String(from)}`);
  if (!(Number.isFinite(to) && to > from)) throw new OptionInputError('to', `must be a finite price above from (${from}), got ${String(to)}`);
  if (!(Number.isInteger(steps) && steps >= 1 && steps <= MAXIMUM_STEPS)) throw new OptionInputError('steps', `must be a whole number from 1 to ${MAXIMUM_STEPS}, got ${String(steps)}`);
  const grid = Array.from({ length: steps + 1 }, (_, i) => (i === steps ? to : from + ((to - from) * i) / steps));
  const strikes = kinkPoints(legs).filter((point) => point > from && point < to);
  const spots = [...new Set([...grid, ...strikes])].sort((a, b) => a - b);
  return spots.map((spot) => {
    const atExpiry = payoffAtExpiry(legs, spot);
    // The value today needs a positive spot; at 0 the position is worth what it is at expiry.
    if (!market) return { spot, atExpiry };
    return { spot, atExpiry, beforeExpiry: spot > 0 ? positionValue(legs, { ...market, spot }) : atExpiry };
  });
}
