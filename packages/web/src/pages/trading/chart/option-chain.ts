// The option-chain panel's rows: strikes around the ATM of the underlying's last candle, each CE
// and PE priced on the engine's synthetic surface (syntheticOptionQuote: the mid as LTP, its
// implied vol) with Black-76 greeks at that vol, for the nearest expiry of the market package's
// expiry rules. Open interest is not something a model can know: it is left undefined (shown as
// a dash) rather than invented.
import { type IsoDate } from '@vyuha/core';
import { black76PriceAndGreeks, expiryCloseEpochMs, SYNTHETIC_RATE, syntheticOptionQuote } from '@vyuha/engine';
import { atmStrike, nextOpenExpiry, strikesAround, type OptionUnderlying } from '@vyuha/market';

/** Strikes shown either side of the ATM strike. */
export const CHAIN_STEPS_EACH_SIDE = 5;

const MILLISECONDS_PER_YEAR = 365 * 86_400_000;

export interface OptionQuoteCells {
  /** Model mid in paise. */
  readonly ltpPaise: number;
  /** Implied volatility, annual decimal (0.14 = 14%). */
  readonly iv: number;
  readonly delta: number;
  readonly gamma: number;
  /** Per calendar day, in rupees. */
  readonly theta: number;
  /** Per volatility point, in rupees. */
  readonly vega: number;
  /** Open interest; undefined when not known. */
  readonly oi: number | undefined;
}

export interface OptionChainRow {
  readonly strike: number;
  readonly atm: boolean;
  readonly ce: OptionQuoteCells;
  readonly pe: OptionQuoteCells;
}

export interface OptionChain {
  readonly expiry: IsoDate;
  readonly expiryKind: 'weekly' | 'monthly';
  readonly atmStrike: number;
  readonly rows: readonly OptionChainRow[];
}

export interface OptionChainInput {
  readonly underlying: OptionUnderlying;
  /** The underlying's last price in rupees. */
  readonly spot: number;
  /** INDIA VIX in points at the same moment. */
  readonly vix: number;
  /** The moment priced (epoch ms): the last candle's close. */
  readonly at: number;
  /** Strike step (index_configs.oc_step). */
  readonly step: number;
  readonly stepsEachSide?: number;
}

function cells(input: { spot: number; vix: number; at: number; strike: number; expiry: IsoDate; type: 'CE' | 'PE' }): OptionQuoteCells {
  const quote = syntheticOptionQuote(input);
  const years = Math.max(0, expiryCloseEpochMs(input.expiry) - input.at) / MILLISECONDS_PER_YEAR;
  const forward = input.spot * Math.exp(SYNTHETIC_RATE * years);
  const greeks = black76PriceAndGreeks({ forward, strike: input.strike, years, vol: quote.iv, rate: SYNTHETIC_RATE, type: input.type === 'CE' ? 'call' : 'put' });
  return { ltpPaise: quote.mid, iv: quote.iv, delta: greeks.delta, gamma: greeks.gamma, theta: greeks.theta, vega: greeks.vega, oi: undefined };
}

/**
 * The chain around the ATM strike, or undefined when no expiry of the calendar is open at `at`.
 * @example optionChain({ underlying: 'NIFTY', spot: 24_510, vix: 14, at, step: 50, stepsEachSide: 2 })?.rows.map((row) => row.strike) // [24400, 24450, 24500, 24550, 24600]
 */
export function optionChain(input: OptionChainInput): OptionChain | undefined {
  // An expiry day after its 15:30 close shows the next expiry's chain.
  const expiry = nextOpenExpiry(input.underlying, input.at);
  if (expiry === undefined) return undefined;
  const strikes = strikesAround(input.spot, input.step, input.stepsEachSide ?? CHAIN_STEPS_EACH_SIDE);
  const atm = atmStrike(input.spot, input.step);
  const base = { spot: input.spot, vix: input.vix, at: input.at, expiry: expiry.date };
  return {
    expiry: expiry.date,
    expiryKind: expiry.kind,
    atmStrike: atm,
    rows: strikes.map((strike) => ({ strike, atm: strike === atm, ce: cells({ ...base, strike, type: 'CE' }), pe: cells({ ...base, strike, type: 'PE' }) })),
  };
}

/** The chain's quote of one contract, or undefined when the chain does not price it (another expiry or strike). */
export function chainQuote(chain: OptionChain, contract: { strike: number; expiry: string; optionType: 'CE' | 'PE' }): OptionQuoteCells | undefined {
  if (contract.expiry !== chain.expiry) return undefined;
  const row = chain.rows.find((candidate) => candidate.strike === contract.strike);
  return row === undefined ? undefined : contract.optionType === 'CE' ? row.ce : row.pe;
}
