// Black-76: a European option on a future or forward F, discounted at the continuous rate r.
// Used for index options priced off the future of the same expiry, and by the payoff module.
import { blackTerms, expiryDelta, intrinsicValue, undiscountedBlack } from './black-formula';
import { DAYS_PER_YEAR, POINT, type OptionGreeks } from './greeks';
import { normalCdf, normalPdf } from './normal';
import { checkContractTerms, checkNonNegative, type OptionType } from './option-input';

/** Inputs of Black-76: forward and strike in rupees, years to expiry, annual vol and rate as decimals. */
export interface Black76Input {
  readonly forward: number;
  readonly strike: number;
  readonly years: number;
  readonly vol: number;
  readonly rate: number;
  readonly type: OptionType;
}

function checkBlack76(input: Black76Input): void {
  checkContractTerms(input, { field: 'forward', value: input.forward });
  checkNonNegative(input.vol, 'vol');
}

/**
 * The Black-76 price alone (the fast path). years = 0 gives the intrinsic value.
 * @example black76Price({ forward: 20, strike: 20, years: 4 / 12, vol: 0.25, rate: 0.09, type: 'put' }) // 1.1166...
 */
export function black76Price(input: { forward: number; strike: number; years: number; vol: number; rate: number; type: 'call' | 'put' }): number {
  checkBlack76(input);
  const { forward, strike, years, type } = input;
  if (years === 0) return intrinsicValue(forward, strike, type);
  const totalVol = input.vol * Math.sqrt(years);
  if (totalVol === 0) return Math.exp(-input.rate * years) * undiscountedBlack({ forward, strike, totalVol, type });
  // The hot path, inlined (no intermediate objects): it runs a million times per option chain sweep.
  const d1 = Math.log(forward / strike) / totalVol + totalVol / 2;
  const d2 = d1 - totalVol;
  const undiscounted = type === 'call' ? forward * normalCdf(d1) - strike * normalCdf(d2) : strike * normalCdf(-d2) - forward * normalCdf(-d1);
  return Math.exp(-input.rate * years) * Math.max(0, undiscounted);
}

/**
 * Black-76 price and greeks in one pass. Delta and gamma are with respect to the forward; theta
 * holds the forward fixed (only discounting and decay move); rho holds the forward fixed too, so
 * it is -years * price per unit rate.
 * @example black76PriceAndGreeks({ forward: 100, strike: 100, years: 1, vol: 0.2, rate: 0, type: 'call' }).delta // 0.5398...
 */
export function black76PriceAndGreeks(input: Black76Input): OptionGreeks {
  checkBlack76(input);
  const { forward, strike, years, vol, rate, type } = input;
  if (years === 0) {
    return { price: intrinsicValue(forward, strike, type), delta: expiryDelta(forward, strike, type), gamma: 0, theta: 0, vega: 0, rho: 0 };
  }
  const rootYears = Math.sqrt(years);
  const totalVol = vol * rootYears;
  const discount = Math.exp(-rate * years);
  const { d1, d2 } = blackTerms(forward, strike, totalVol);
  const density = normalPdf(d1);
  const undiscounted = type === 'call'
    ? forward * normalCdf(d1) - strike * normalCdf(d2)
    : strike * normalCdf(-d2) - forward * normalCdf(-d1);
  const price = discount * Math.max(0, undiscounted);
  const delta = type === 'call' ? discount * normalCdf(d1) : -discount * normalCdf(-d1);
  // With zero total volatility the gamma is a point mass at the strike: not a number we can return, so 0.
  const gamma = totalVol === 0 ? 0 : (discount * density) / (forward * totalVol);
  const decay = (-discount * forward * density * vol) / (2 * rootYears);
  return {
    price,
    delta,
    gamma,
    theta: (decay + rate * price) / DAYS_PER_YEAR,
    vega: discount * forward * density * rootYears * POINT,
    rho: -years * price * POINT,
  };
}
