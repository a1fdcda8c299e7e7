// Strike by premium or by delta on the synthetic chain, for screens without a backtest (the
// payoff screen's "add leg by premium / delta"). Same search as the backtest's legs.
import { atmStrike, indexConfigOf, strikesAround } from '@vyuha/market';
import type { OptionUnderlying } from '@vyuha/market';
import { black76PriceAndGreeks } from '../options/black76';
import { SYNTHETIC_RATE, syntheticOptionQuote } from '../synthetic/option-quote';
import { SEARCH_STEPS, nearestStrike } from './strike-selection';

/** A synthetic chain of one right and expiry at one moment. */
export interface SyntheticChainRequest {
  readonly underlying: OptionUnderlying;
  /** Index level, rupees. */
  readonly spot: number;
  /** INDIA VIX, points. */
  readonly vix: number;
  /** Expiry date `YYYY-MM-DD`. */
  readonly expiry: string;
  /** Epoch ms of the quote. */
  readonly at: number;
  readonly option: 'CE' | 'PE';
}

/**
 * The strike whose synthetic mid premium is nearest `rupees`.
 * @example syntheticStrikeByPremium({ underlying: 'NIFTY', spot: 24_000, vix: 14, expiry: '2025-01-30', at, option: 'CE' }, 50) // an OTM call strike
 */
export function syntheticStrikeByPremium(chain: SyntheticChainRequest, rupees: number): number | undefined {
  const step = indexConfigOf(chain.underlying).ocStep;
  return nearestStrike({
    strikes: strikesAround(chain.spot, step, SEARCH_STEPS), atm: atmStrike(chain.spot, step), target: rupees,
    valueOf: (strike) => syntheticOptionQuote({ spot: chain.spot, vix: chain.vix, strike, expiry: chain.expiry, at: chain.at, type: chain.option }).mid / 100,
  });
}

/**
 * The strike whose absolute Black-76 delta (on the synthetic surface's vol) is nearest `delta`.
 * @example syntheticStrikeByDelta({ underlying: 'NIFTY', spot: 24_000, vix: 14, expiry: '2025-01-30', at, option: 'PE' }, 0.25) // an OTM put strike
 */
export function syntheticStrikeByDelta(chain: SyntheticChainRequest, delta: number): number | undefined {
  const step = indexConfigOf(chain.underlying).ocStep;
  return nearestStrike({
    strikes: strikesAround(chain.spot, step, SEARCH_STEPS), atm: atmStrike(chain.spot, step), target: delta,
    valueOf: (strike) => {
      const quote = syntheticOptionQuote({ spot: chain.spot, vix: chain.vix, strike, expiry: chain.expiry, at: chain.at, type: chain.option });
      const years = Math.max(0, Date.parse(`${chain.expiry}T10:00:00Z`) - chain.at) / (365 * 86_400_000);
      const forward = chain.spot * Math.exp(SYNTHETIC_RATE * years);
      const type = chain.option === 'CE' ? 'call' : 'put';
      return Math.abs(black76PriceAndGreeks({ forward, strike, years, vol: quote.iv, rate: SYNTHETIC_RATE, type }).delta);
    },
  });
}
