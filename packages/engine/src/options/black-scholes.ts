// Black-Scholes(-Merton) on a spot S with continuous rate r and dividend yield q: Black's formula
// on the forward S*exp((r-q)T). Greeks are with respect to the spot, and theta lets the forward
// drift as calendar time passes with the spot held fixed.
import { blackTerms, expiryDelta, intrinsicValue, undiscountedBlack } from './black-formula';
import { DAYS_PER_YEAR, POINT, type OptionGreeks } from './greeks';
import { normalCdf, normalPdf } from './normal';
import { checkContractTerms, checkedDividendYield, checkNonNegative, type OptionType } from './option-input';

/** Inputs of Black-Scholes: spot and strike in rupees, years, annual vol, rate and dividend yield as decimals. */
export interface BlackScholesInput {
  readonly spot: number;
  readonly strike: number;
  readonly years: number;
  readonly vol: number;
  readonly rate: number;
  /** Continuous dividend yield; 0 when absent. */
  readonly dividendYield?: number;
  readonly type: OptionType;
}

function checkBlackScholes(input: BlackScholesInput): number {
  checkContractTerms(input, { field: 'spot', value: input.spot });
  checkNonNegative(input.vol, 'vol');
  return checkedDividendYield(input.dividendYield);
}

/**
 * The Black-Scholes price alone. years = 0 gives the intrinsic value.
 * @example blackScholesPrice({ spot: 42, strike: 40, years: 0.5, vol: 0.2, rate: 0.1, type: 'call' }) // 4.759...
 */
export function blackScholesPrice(input: BlackScholesInput): number {
  const dividendYield = checkBlackScholes(input);
  const { spot, strike, years, rate, type } = input;
  if (years === 0) return intrinsicValue(spot, strike, type);
  const forward = spot * Math.exp((rate - dividendYield) * years);
  return Math.exp(-rate * years) * undiscountedBlack({ forward, strike, totalVol: input.vol * Math.sqrt(years), type });
}

/**
 * Black-Scholes price and greeks in one pass (d1, d2 and the densities computed once).
 * @example blackScholesPriceAndGreeks({ spot: 49, strike: 50, years: 0.3846, vol: 0.2, rate: 0.05, type: 'call' }).delta // 0.5216...
 */
export function blackScholesPriceAndGreeks(input: BlackScholesInput): OptionGreeks {
  const dividendYield = checkBlackScholes(input);
  const { spot, strike, years, vol, rate, type } = input;
  if (years === 0) {
    return { price: intrinsicValue(spot, strike, type), delta: expiryDelta(spot, strike, type), gamma: 0, theta: 0, vega: 0, rho: 0 };
  }
  const rootYears = Math.sqrt(years);
  const totalVol = vol * rootYears;
  const discount = Math.exp(-rate * years);
  const carry = Math.exp(-dividendYield * years);
  const forward = (spot * carry) / discount;
  const { d1, d2 } = blackTerms(forward, strike, totalVol);
  const density = normalPdf(d1);
  const sign = type === 'call' ? 1 : -1;
  const assetProbability = normalCdf(sign * d1);
  const strikeProbability = normalCdf(sign * d2);
  const price = Math.max(0, sign * (spot * carry * assetProbability - strike * discount * strikeProbability));
  const decay = (-spot * carry * density * vol) / (2 * rootYears);
  return {
    price,
    delta: sign * carry * assetProbability,
    gamma: totalVol === 0 ? 0 : (carry * density) / (spot * totalVol),
    theta: (decay - sign * rate * strike * discount * strikeProbability + sign * dividendYield * spot * carry * assetProbability) / DAYS_PER_YEAR,
    vega: spot * carry * density * rootYears * POINT,
    rho: sign * strike * years * discount * strikeProbability * POINT,
  };
}
