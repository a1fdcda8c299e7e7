// Implied volatility for Black-76 and Black-Scholes. Both reduce to one problem: find the total
// volatility s = vol * sqrt(T) at which the undiscounted Black price on forward F equals the
// undiscounted market price.
//
// Method: by put-call parity the in-the-money option becomes the out-of-the-money one of the
// other type (its time value), whose price rises strictly with s from 0 towards F or K. On that
// price we run Newton's method on ln(price), safeguarded by a shrinking bracket [1e-4, 10] x sqrt(T)
// with geometric bisection whenever a Newton step would leave it. ln(price) is concave in s, so once
// Newton lands left of the root it climbs to it monotonically; the bracket catches the one
// overshoot from the right. Convergence is to ~1e-14 relative in s.
//
// When the price cannot carry the information (a deep in-the-money option whose time value is
// lost in the rounding of its intrinsic value, or a price whose rounding moves the implied vol by
// more than `precision`) the result says so instead of returning a number.
import { blackTerms, undiscountedBlack } from './black-formula';
import { normalPdf } from './normal';
import { checkContractTerms, checkedDividendYield, checkNonNegative, type OptionType } from './option-input';

/** Why no volatility fits a price. */
export type ImpliedVolatilityFailure =
  | 'expired'
  | 'below-intrinsic'
  | 'no-time-value'
  | 'above-maximum'
  | 'below-volatility-range'
  | 'above-volatility-range'
  | 'vega-too-small';

/** A solved volatility, or a clear reason why none fits. */
export type ImpliedVolatilityResult =
  | { readonly ok: true; readonly vol: number; readonly iterations: number }
  | { readonly ok: false; readonly reason: ImpliedVolatilityFailure; readonly message: string };

/** Solver settings; both optional. */
export interface ImpliedVolatilityOptions {
  /** Largest acceptable uncertainty of the answer caused by the rounding of the price (default 1e-6 vol). */
  readonly precision?: number;
  /** Iteration cap (default 100; the grid in the tests needs under 20). */
  readonly maxIterations?: number;
}

/** Inputs of Black-76 implied volatility: the option's market price and its contract. */
export interface Black76ImpliedVolatilityInput extends ImpliedVolatilityOptions {
  readonly price: number;
  readonly forward: number;
  readonly strike: number;
  readonly years: number;
  readonly rate: number;
  readonly type: OptionType;
}

/** Inputs of Black-Scholes implied volatility. */
export interface BlackScholesImpliedVolatilityInput extends ImpliedVolatilityOptions {
  readonly price: number;
  readonly spot: number;
  readonly strike: number;
  readonly years: number;
  readonly rate: number;
  readonly dividendYield?: number;
  readonly type: OptionType;
}

export const MINIMUM_VOLATILITY = 1e-4;
export const MAXIMUM_VOLATILITY = 10;
const EPSILON = Number.EPSILON;
/** Relative rounding noise we assume in a computed price: a few ulps of the largest term in its formula. */
const NOISE_ULPS = 8;
/** Below this a price is at the edge of the subnormal range and carries no reliable digits. */
const NOISE_FLOOR = 1e-300;

interface Problem {
  readonly undiscountedPrice: number;
  readonly forward: number;
  readonly strike: number;
  readonly years: number;
  readonly type: OptionType;
  readonly options: ImpliedVolatilityOptions;
}

/**
 * The Black-76 volatility that reproduces `price`.
 * @example black76ImpliedVolatility({ price: 1.1166, forward: 20, strike: 20, years: 1 / 3, rate: 0.09, type: 'put' }) // { ok: true, vol: 0.2499..., iterations: 3 }
 */
export function black76ImpliedVolatility(input: Black76ImpliedVolatilityInput): ImpliedVolatilityResult {
  checkNonNegative(input.price, 'price');
  checkContractTerms(input, { field: 'forward', value: input.forward });
  const discount = Math.exp(-input.rate * input.years);
  return solve({ undiscountedPrice: input.price / discount, forward: input.forward, strike: input.strike, years: input.years, type: input.type, options: input });
}

/**
 * The Black-Scholes volatility that reproduces `price`.
 * @example blackScholesImpliedVolatility({ price: 4.7594, spot: 42, strike: 40, years: 0.5, rate: 0.1, type: 'call' }) // { ok: true, vol: 0.2000..., iterations: 4 }
 */
export function blackScholesImpliedVolatility(input: BlackScholesImpliedVolatilityInput): ImpliedVolatilityResult {
  checkNonNegative(input.price, 'price');
  checkContractTerms(input, { field: 'spot', value: input.spot });
  const dividendYield = checkedDividendYield(input.dividendYield);
  const discount = Math.exp(-input.rate * input.years);
  const forward = input.spot * Math.exp((input.rate - dividendYield) * input.years);
  return solve({ undiscountedPrice: input.price / discount, forward, strike: input.strike, years: input.years, type: input.type, options: input });
}

function failure(reason: ImpliedVolatilityFailure, message: string): ImpliedVolatilityResult {
  return { ok: false, reason, message };
}

function solve(problem: Problem): ImpliedVolatilityResult {
  const { undiscountedPrice: price, forward, strike, years, type } = problem;
  if (years === 0) return failure('expired', 'the option has expired: at expiry every volatility gives the intrinsic value');
  const inTheMoney = type === 'call' ? forward > strike : forward < strike;
  const intrinsic = inTheMoney ? Math.abs(forward - strike) : 0;
  const upperBound = type === 'call' ? forward : strike;
  // An in-the-money price was computed from terms of size F and K, so its rounding is of that size.
  const noise = Math.max(NOISE_FLOOR, NOISE_ULPS * EPSILON * (price + (inTheMoney ? Math.max(forward, strike) : 0)));
  const timeValue = price - intrinsic;
  if (price >= upperBound) {
    return failure('above-maximum', `price ${formatPrice(price)} (undiscounted) is at or above the most the option can be worth, ${formatPrice(upperBound)}`);
  }
  if (timeValue < -noise) return failure('below-intrinsic', `price ${formatPrice(price)} (undiscounted) is below the intrinsic value ${formatPrice(intrinsic)}`);
  if (timeValue <= noise) return failure('no-time-value', 'the price has no time value above its rounding, so it fits any small volatility');
  // Parity turns the in-the-money option into the out-of-the-money option of the other type.
  const otmType: OptionType = inTheMoney ? (type === 'call' ? 'put' : 'call') : type;
  return solveOutOfTheMoney({ forward, strike, years, type: otmType, timeValue, noise, options: problem.options });
}

interface OutOfTheMoneyProblem {
  readonly forward: number;
  readonly strike: number;
  readonly years: number;
  readonly type: OptionType;
  readonly timeValue: number;
  readonly noise: number;
  readonly options: ImpliedVolatilityOptions;
}

function solveOutOfTheMoney(problem: OutOfTheMoneyProblem): ImpliedVolatilityResult {
  const { forward, strike, years, type, timeValue } = problem;
  const rootYears = Math.sqrt(years);
  const priceAt = (totalVol: number): number => undiscountedBlack({ forward, strike, totalVol, type });
  let low = MINIMUM_VOLATILITY * rootYears;
  let high = MAXIMUM_VOLATILITY * rootYears;
  if (timeValue < priceAt(low)) return failure('below-volatility-range', `the price needs a volatility below ${MINIMUM_VOLATILITY}`);
  if (timeValue > priceAt(high)) return failure('above-volatility-range', `the price needs a volatility above ${MAXIMUM_VOLATILITY}`);
  const target = Math.log(timeValue);
  const maxIterations = problem.options.maxIterations ?? 100;
  let totalVol = clamp(initialTotalVol(forward, strike, timeValue), low, high);
  for (let iteration = 1; iteration <= maxIterations; iteration += 1) {
    const value = priceAt(totalVol);
    const gap = Math.log(value) - target;
    if (gap === 0) return finish(problem, totalVol, iteration);
    if (gap < 0) low = totalVol;
    else high = totalVol;
    // d price / d s = F * pdf(d1) for the undiscounted Black price, for both calls and puts.
    const slope = (forward * normalPdf(blackTerms(forward, strike, totalVol).d1)) / value;
    let next = totalVol - gap / slope;
    if (!(next > low && next < high)) next = Math.sqrt(low * high);
    if (Math.abs(next - totalVol) <= 1e-14 * totalVol || high - low <= 1e-15 * high) return finish(problem, next, iteration);
    totalVol = next;
  }
  return failure('vega-too-small', `no convergence in ${maxIterations} iterations: the price barely moves with volatility`);
}

/**
 * A start near the root: Manaster-Koehler's sqrt(2|ln F/K|) (where vega peaks) when the price is
 * at least the at-the-money value there, else the Brenner-Subrahmanyam at-the-money estimate.
 */
function initialTotalVol(forward: number, strike: number, timeValue: number): number {
  const atTheMoney = (Math.sqrt(2 * Math.PI) * timeValue) / Math.sqrt(forward * strike);
  return Math.max(Math.sqrt(2 * Math.abs(Math.log(forward / strike))), atTheMoney);
}

function finish(problem: OutOfTheMoneyProblem, totalVol: number, iterations: number): ImpliedVolatilityResult {
  const rootYears = Math.sqrt(problem.years);
  const vol = totalVol / rootYears;
  // Undiscounted vega per unit of vol; the price's rounding moves the answer by noise / vega.
  const vega = problem.forward * normalPdf(blackTerms(problem.forward, problem.strike, totalVol).d1) * rootYears;
  const uncertainty = problem.noise / vega;
  const precision = problem.options.precision ?? 1e-6;
  if (!(uncertainty <= precision)) {
    return failure('vega-too-small', `vega is too small for the price to fix the volatility: rounding alone moves it by ${uncertainty.toExponential(1)}`);
  }
  return { ok: true, vol, iterations };
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}

function formatPrice(value: number): string {
  return Number(value.toPrecision(10)).toString();
}
