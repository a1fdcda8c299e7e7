// Probability that the position ends in profit at expiry, with the settlement price lognormal:
// ln(S_T / S) ~ N((r - vol^2/2) T, vol^2 T) (risk-neutral drift at the rate). The expiry P&L is
// piecewise linear, so the profitable set is a union of intervals between breakevens, and the
// probability is a sum of normal-distribution differences, exact up to the cdf's accuracy.
import { normalCdf } from '../options/normal';
import { checkFinite, checkNonNegative, checkPositive } from '../options/option-input';
import { breakevens, payoffAtExpiry, slopeAtInfinity } from './expiry-payoff';
import type { PayoffLeg } from './payoff-leg';

/** The lognormal model: today's spot, annual vol and rate (decimals), and calendar days to expiry. */
export interface LognormalModel {
  readonly spot: number;
  readonly vol: number;
  readonly rate: number;
  readonly days: number;
}

/**
 * P(P&L at expiry > 0), between 0 and 1.
 * @example probabilityOfProfit(longCall100At5, { spot: 100, vol: 0, rate: 0, days: 30 }) // 0
 */
export function probabilityOfProfit(legs: readonly PayoffLeg[], model: LognormalModel): number {
  checkPositive(model.spot, 'spot');
  checkNonNegative(model.vol, 'vol');
  checkFinite(model.rate, 'rate');
  checkNonNegative(model.days, 'days');
  const years = model.days / 365;
  const drift = Math.log(model.spot) + (model.rate - (model.vol * model.vol) / 2) * years;
  const spread = model.vol * Math.sqrt(years);
  if (spread === 0) return payoffAtExpiry(legs, Math.exp(drift)) > 0 ? 1 : 0;
  // P(S_T <= x) for the lognormal settlement price.
  const below = (x: number): number => (x <= 0 ? 0 : x === Number.POSITIVE_INFINITY ? 1 : normalCdf((Math.log(x) - drift) / spread));
  const edges = [0, ...breakevens(legs).filter((root) => root > 0), Number.POSITIVE_INFINITY];
  let probability = 0;
  for (let i = 0; i + 1 < edges.length; i += 1) {
    const left = edges[i]!;
    const right = edges[i + 1]!;
    if (isProfitable(legs, left, right)) probability += below(right) - below(left);
  }
  return Math.min(1, Math.max(0, probability));
}

/** The sign of the P&L inside an interval between consecutive breakevens is constant; test one inner point. */
function isProfitable(legs: readonly PayoffLeg[], left: number, right: number): boolean {
  if (right === Number.POSITIVE_INFINITY) {
    const slope = slopeAtInfinity(legs);
    if (slope !== 0) return slope > 0;
    return payoffAtExpiry(legs, left * 2 + 1) > 0;
  }
  return payoffAtExpiry(legs, (left + right) / 2) > 0;
}
