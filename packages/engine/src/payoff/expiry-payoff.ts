// The P&L at expiry of legs that all expire together is piecewise linear in the settlement price,
// with kinks only at the strikes. Breakevens, maximum profit and maximum loss are therefore exact:
// evaluate at 0 and at each strike, and read the slope beyond the last strike.
import { OptionInputError } from '../options/option-input';
import { checkLegs, isOptionLeg, legPayoffAtExpiry, type PayoffLeg } from './payoff-leg';

/** Highest and lowest P&L at expiry; 'unlimited' when the slope beyond the last strike makes it so. */
export interface ProfitAndLossBounds {
  readonly maxProfit: number | 'unlimited';
  /** The lowest P&L (negative when the position can lose), or 'unlimited'. */
  readonly maxLoss: number | 'unlimited';
}

/** P&L in rupees at expiry with the underlying settling at `spot`. @example payoffAtExpiry([{ kind: 'option', optionType: 'CE', strike: 100, expiry: '2026-01-27', quantity: 1, entryPrice: 5 }], 110) // 5 */
export function payoffAtExpiry(legs: readonly PayoffLeg[], spot: number): number {
  checkExpiryGroup(legs);
  checkSpot(spot);
  return sumPayoff(legs, spot);
}

/**
 * The settlement prices where the expiry P&L is exactly zero, ascending. A segment that is flat at
 * zero contributes both of its ends.
 * @example breakevens(shortStraddleAt100For10) // [90, 110]
 */
export function breakevens(legs: readonly PayoffLeg[]): number[] {
  checkExpiryGroup(legs);
  const points = kinkPoints(legs);
  const values = points.map((point) => sumPayoff(legs, point));
  const roots: number[] = [];
  const add = (root: number): void => {
    if (roots[roots.length - 1] !== root) roots.push(root);
  };
  for (let i = 0; i < points.length; i += 1) {
    const point = points[i]!;
    const value = values[i]!;
    if (value === 0) add(point);
    const next = values[i + 1];
    const slope = i + 1 < points.length ? slopeBetween(legs, point, points[i + 1]!) : slopeAtInfinity(legs);
    const crossesInside = next === undefined ? value * slope < 0 : value * next < 0;
    if (value !== 0 && crossesInside) add(point - value / slope);
  }
  return roots;
}

/** Maximum profit and maximum loss at expiry. The settlement price cannot fall below 0, so that end is always finite. */
export function profitAndLossBounds(legs: readonly PayoffLeg[]): ProfitAndLossBounds {
  checkExpiryGroup(legs);
  const values = kinkPoints(legs).map((point) => sumPayoff(legs, point));
  const slope = slopeAtInfinity(legs);
  return {
    maxProfit: slope > 0 ? 'unlimited' : Math.max(...values),
    maxLoss: slope < 0 ? 'unlimited' : Math.min(...values),
  };
}

/** 0 and the distinct strikes, ascending: the only places the expiry P&L can bend. */
export function kinkPoints(legs: readonly PayoffLeg[]): number[] {
  const strikes = legs.filter(isOptionLeg).map((leg) => leg.strike);
  return [...new Set([0, ...strikes])].sort((a, b) => a - b);
}

/** d(P&L)/d(spot) beyond the last strike: futures and calls count, puts are worth nothing there. */
export function slopeAtInfinity(legs: readonly PayoffLeg[]): number {
  return legs.reduce((sum, leg) => sum + (!isOptionLeg(leg) || leg.optionType === 'CE' ? leg.quantity : 0), 0);
}

/** The exact slope on the open segment (left, right) between two consecutive kink points. */
function slopeBetween(legs: readonly PayoffLeg[], left: number, right: number): number {
  let slope = 0;
  for (const leg of legs) {
    if (!isOptionLeg(leg)) slope += leg.quantity;
    else if (leg.optionType === 'CE' && leg.strike <= left) slope += leg.quantity;
    else if (leg.optionType === 'PE' && leg.strike >= right) slope -= leg.quantity;
  }
  return slope;
}

function sumPayoff(legs: readonly PayoffLeg[], spot: number): number {
  let total = 0;
  for (const leg of legs) total += legPayoffAtExpiry(leg, spot);
  return total;
}

/** The expiry functions need every leg to settle on the same day; a calendar spread has no single expiry payoff. */
export function checkExpiryGroup(legs: readonly PayoffLeg[]): void {
  checkLegs(legs);
  const expiry = legs[0]!.expiry;
  const other = legs.findIndex((leg) => leg.expiry !== expiry);
  if (other >= 0) throw new OptionInputError(`legs[${other}].expiry`, `must equal legs[0].expiry (${expiry}): the expiry payoff needs one expiry`);
}

function checkSpot(spot: number): void {
  if (!(Number.isFinite(spot) && spot >= 0)) throw new OptionInputError('spot', `must be a finite price >= 0, got ${String(spot)}`);
}
