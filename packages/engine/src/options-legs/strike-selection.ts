// Strike of a leg at its entry. The ATM strike is the strike-grid point nearest the underlying's
// price at the entry (ties up), on the index config's step (NIFTY 50, BANKNIFTY 100, ...).
// - atm-offset: steps count in strike order for both rights: +2 is two steps ABOVE the ATM
//   strike (out of the money for a CE, in the money for a PE), so a short strangle is CE +2 and
//   PE -2.
// - premium / delta: the strike within SEARCH_STEPS steps of the ATM whose premium (or absolute
//   delta) is nearest the target; a tie goes to the strike nearer the ATM, then the lower one.
//   Strikes with no price (no candle, no implied vol) are skipped.
import { atmStrike, indexConfigOf, strikesAround } from '@vyuha/market';
import type { OptionUnderlying } from '@vyuha/market';
import type { StrikeRule } from './config';

/** How far from the ATM the premium and delta searches look, in strike steps either side. */
export const SEARCH_STEPS = 40;

/** A strike's value (premium in rupees, or absolute delta), or undefined when it has none. */
export type StrikeValue = (strike: number) => number | undefined;

/** The chain around the entry: underlying, spot, and how to read a strike's premium and delta. */
export interface StrikeSelectionRequest {
  readonly underlying: OptionUnderlying;
  /** The underlying's price at the entry, rupees. */
  readonly spot: number;
  readonly rule: StrikeRule;
  /** Premium in rupees of a strike of the leg's right and expiry (needed for `premium`). */
  readonly premiumOf?: StrikeValue;
  /** Absolute delta of a strike of the leg's right and expiry (needed for `delta`). */
  readonly deltaOf?: StrikeValue;
}

/**
 * The strike a rule picks, or undefined when no strike in reach has a price.
 * @example selectStrike({ underlying: 'NIFTY', spot: 24_512, rule: { by: 'atm-offset', steps: -2 } }) // 24400
 */
export function selectStrike(request: StrikeSelectionRequest): number | undefined {
  const step = indexConfigOf(request.underlying).ocStep;
  const rule = request.rule;
  if (rule.by === 'atm-offset') {
    const strike = atmStrike(request.spot, step) + rule.steps * step;
    return strike > 0 ? strike : undefined;
  }
  const strikes = strikesAround(request.spot, step, SEARCH_STEPS);
  const atm = atmStrike(request.spot, step);
  if (rule.by === 'premium') return nearestStrike({ strikes, atm, target: rule.rupees, valueOf: required(request.premiumOf, 'premiumOf') });
  return nearestStrike({ strikes, atm, target: rule.delta, valueOf: required(request.deltaOf, 'deltaOf') });
}

function required(valueOf: StrikeValue | undefined, name: string): StrikeValue {
  if (valueOf === undefined) throw new TypeError(`selectStrike needs ${name} for this rule`);
  return valueOf;
}

/**
 * The strike whose value is nearest `target` (ties: nearer the ATM, then lower): the payoff
 * screen's "strike by premium" and "strike by delta" on any chain.
 * @example nearestStrike({ strikes: [100, 200, 300], atm: 200, target: 12, valueOf: (k) => k / 10 }) // 100
 */
export function nearestStrike(request: { readonly strikes: readonly number[]; readonly atm: number; readonly target: number; readonly valueOf: StrikeValue }): number | undefined {
  let best: number | undefined;
  let bestDistance = Infinity;
  for (const strike of request.strikes) {
    const value = request.valueOf(strike);
    if (value === undefined || !Number.isFinite(value)) continue;
    const distance = Math.abs(value - request.target);
    if (best === undefined || distance < bestDistance || (distance === bestDistance && isPreferred(strike, { over: best, atm: request.atm }))) {
      best = strike;
      bestDistance = distance;
    }
  }
  return best;
}

function isPreferred(strike: number, context: { over: number; atm: number }): boolean {
  const away = Math.abs(strike - context.atm);
  const otherAway = Math.abs(context.over - context.atm);
  return away < otherAway || (away === otherAway && strike < context.over);
}
