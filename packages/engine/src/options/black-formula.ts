// The undiscounted Black formula on a forward, shared by Black-76 and Black-Scholes (which is
// Black's formula on the forward S*exp((r-q)T) discounted at r). Not exported from the package.
import { normalCdf } from './normal';
import type { OptionType } from './option-input';

/** d1 and d2 for total volatility `totalVol` = vol * sqrt(years). */
export interface BlackTerms {
  readonly d1: number;
  readonly d2: number;
}

/**
 * d1 = ln(F/K)/s + s/2, d2 = d1 - s. With zero total volatility the option is a certainty, so the
 * terms go to +-infinity (or 0 exactly at the money), which makes N(d) the 1/0/0.5 step.
 */
export function blackTerms(forward: number, strike: number, totalVol: number): BlackTerms {
  if (totalVol === 0) {
    const limit = forward > strike ? Number.POSITIVE_INFINITY : forward < strike ? Number.NEGATIVE_INFINITY : 0;
    return { d1: limit, d2: limit };
  }
  const d1 = Math.log(forward / strike) / totalVol + totalVol / 2;
  return { d1, d2: d1 - totalVol };
}

/** The undiscounted Black price; the put uses N(-d) directly so a deep out-of-the-money put keeps its precision. */
export function undiscountedBlack(input: { forward: number; strike: number; totalVol: number; type: OptionType }): number {
  const { forward, strike, type } = input;
  const { d1, d2 } = blackTerms(forward, strike, input.totalVol);
  // Floating error can push a price a hair below zero; an option is never worth less than nothing.
  if (type === 'call') return Math.max(0, forward * normalCdf(d1) - strike * normalCdf(d2));
  return Math.max(0, strike * normalCdf(-d2) - forward * normalCdf(-d1));
}

/** What the option pays at expiry on an underlying at `underlying`. */
export function intrinsicValue(underlying: number, strike: number, type: OptionType): number {
  return type === 'call' ? Math.max(0, underlying - strike) : Math.max(0, strike - underlying);
}

/** Delta of an option at expiry: the 1/0 step, with one half exactly at the strike (the mean of both sides). */
export function expiryDelta(underlying: number, strike: number, type: OptionType): number {
  const sign = type === 'call' ? 1 : -1;
  if (underlying === strike) return sign * 0.5;
  return (type === 'call' ? underlying > strike : underlying < strike) ? sign : 0;
}
