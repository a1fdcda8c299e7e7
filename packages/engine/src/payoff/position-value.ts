// Valuing legs before expiry. Each option leg is priced with its own IV by Black-Scholes on the spot
// with dividend yield q, which is Black-76 on the forward F = spot * e^((r - q) T) of that leg's
// expiry: the same number, with greeks quoted against the spot so legs of any expiry add up.
// A future leg is worth its fair price F, so it moves e^((r - q) T) per rupee of spot.
import { blackScholesPriceAndGreeks } from '../options/black-scholes';
import { DAYS_PER_YEAR, POINT, type OptionGreeks } from '../options/greeks';
import { OptionInputError, checkFinite, checkPositive } from '../options/option-input';
import { yearsToExpiry } from '../options/time-to-expiry';
import { checkLegs, isOptionLeg, type PayoffLeg } from './payoff-leg';

/** The market a position is valued in: now, the underlying's spot, the rate and yield, and a fallback vol. */
export interface MarketState {
  readonly nowEpochMs: number;
  readonly spot: number;
  readonly rate: number;
  /** Continuous dividend yield of the index; 0 when absent. */
  readonly dividendYield?: number;
  /** Volatility for legs that carry no `iv` of their own. */
  readonly vol?: number;
}

/** Sensitivities of a whole position in rupees: per rupee of spot, per calendar day, per vol point, per 1% rate. */
export interface NetGreeks {
  /** Mark-to-market P&L: quantity x (model value - entry price), summed. */
  readonly profitAndLoss: number;
  readonly delta: number;
  readonly gamma: number;
  readonly theta: number;
  readonly vega: number;
  readonly rho: number;
}

/** One leg's model value and greeks per unit. */
type LegValuation = OptionGreeks;

/**
 * The position's P&L in rupees at `market` (any time before or after expiry; expired legs are at intrinsic value).
 * @example positionValue([{ kind: 'future', expiry: '2026-01-27', quantity: 65, entryPrice: 25000 }], { nowEpochMs: Date.UTC(2026, 0, 27, 10), spot: 25010, rate: 0 }) // 650
 */
export function positionValue(legs: readonly PayoffLeg[], market: MarketState): number {
  return netGreeks(legs, market).profitAndLoss;
}

/**
 * The position's P&L and net greeks: each leg's greeks times its signed quantity, summed.
 * @example netGreeks(shortStraddle, market).delta // close to 0 at the money
 */
export function netGreeks(legs: readonly PayoffLeg[], market: MarketState): NetGreeks {
  checkLegs(legs);
  checkMarket(market);
  const totals = { profitAndLoss: 0, delta: 0, gamma: 0, theta: 0, vega: 0, rho: 0 };
  legs.forEach((leg, index) => {
    const valuation = valueLeg({ leg, index, market });
    totals.profitAndLoss += leg.quantity * (valuation.price - leg.entryPrice);
    totals.delta += leg.quantity * valuation.delta;
    totals.gamma += leg.quantity * valuation.gamma;
    totals.theta += leg.quantity * valuation.theta;
    totals.vega += leg.quantity * valuation.vega;
    totals.rho += leg.quantity * valuation.rho;
  });
  return totals;
}

function valueLeg(input: { leg: PayoffLeg; index: number; market: MarketState }): LegValuation {
  const { leg, index, market } = input;
  const years = yearsToExpiry(market.nowEpochMs, leg.expiry);
  const dividendYield = market.dividendYield ?? 0;
  if (!isOptionLeg(leg)) {
    const forward = market.spot * Math.exp((market.rate - dividendYield) * years);
    const carry = market.rate - dividendYield;
    // dF/dt with the spot fixed is -(r - q) F per year as the carry runs off; dF/dr = T F.
    return { price: forward, delta: forward / market.spot, gamma: 0, theta: (-carry * forward) / DAYS_PER_YEAR, vega: 0, rho: years * forward * POINT };
  }
  const vol = leg.iv ?? market.vol;
  if (vol === undefined) throw new OptionInputError(`legs[${index}].iv`, 'is required to value the leg before expiry (or give market.vol)');
  return blackScholesPriceAndGreeks({
    spot: market.spot,
    strike: leg.strike,
    years,
    vol,
    rate: market.rate,
    dividendYield,
    type: leg.optionType === 'CE' ? 'call' : 'put',
  });
}

function checkMarket(market: MarketState): void {
  checkFinite(market.nowEpochMs, 'market.nowEpochMs');
  checkPositive(market.spot, 'market.spot');
  checkFinite(market.rate, 'market.rate');
  if (market.dividendYield !== undefined) checkFinite(market.dividendYield, 'market.dividendYield');
  if (market.vol !== undefined && !(Number.isFinite(market.vol) && market.vol >= 0)) {
    throw new OptionInputError('market.vol', `must be a finite volatility >= 0, got ${String(market.vol)}`);
  }
}
