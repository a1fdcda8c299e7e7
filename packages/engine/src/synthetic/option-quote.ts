import { SYNTHETIC_SOURCE } from '@vyuha/market';
import { paise } from '@vyuha/core';
import type { Paise } from '@vyuha/core';
import { black76Price } from '../options/black76';
import { OptionInputError, checkFinite, checkPositive } from '../options/option-input';
import { standardisedMoneyness, syntheticImpliedVolatility } from './volatility-surface';

/** Constant risk-free rate of the synthetic market (annual, continuous) unless one is given. */
export const SYNTHETIC_RATE = 0.065;

const TICK_PAISE = 5;
const MILLISECONDS_PER_YEAR = 365 * 86_400_000;
const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
/** 15:30 IST is 10:00 UTC: contracts expire at the close of the expiry date. */
const EXPIRY_CLOSE_HOUR_UTC = 10;
/** Half the bid-ask spread as a share of the premium for an at-the-money, far-dated contract. */
const BASE_HALF_SPREAD = 0.0025;
/** How much each standard deviation out of the money widens the relative spread. */
const HALF_SPREAD_PER_DEVIATION = 0.5;
/** Extra relative spread near expiry, fading over a few days. */
const NEAR_EXPIRY_WIDENING = 1.5;
const NEAR_EXPIRY_DAYS = 3;

/** A synthetic option quote request; spot and strike in rupees (index points), VIX in points. */
export interface SyntheticOptionQuoteInput {
  readonly spot: number;
  readonly vix: number;
  readonly strike: number;
  /** Expiry date 'YYYY-MM-DD'; the contract expires at 15:30 IST that day. */
  readonly expiry: string;
  /** When the quote is taken, epoch milliseconds. */
  readonly at: number;
  readonly type: 'CE' | 'PE';
  /** Annual continuous rate; SYNTHETIC_RATE (6.5%) when left out. */
  readonly rate?: number;
}

/** Bid, ask and mid in paise on the 0.05 tick (never below one tick), with the implied vol used. */
export interface SyntheticOptionQuote {
  readonly bid: Paise;
  readonly ask: Paise;
  readonly mid: Paise;
  readonly iv: number;
  readonly source: typeof SYNTHETIC_SOURCE;
}

/**
 * Prices an index option on the synthetic surface through Black-76 on the forward spot * e^(r t).
 * @example syntheticOptionQuote({ spot: 24000, vix: 14, strike: 24000, expiry: '2025-01-30', at: Date.UTC(2025, 0, 23, 4), type: 'CE' }).mid // 19060 (Rs 190.60)
 */
export function syntheticOptionQuote(input: SyntheticOptionQuoteInput): SyntheticOptionQuote {
  const rate = checkQuoteInput(input);
  const years = Math.max(0, expiryCloseEpochMs(input.expiry) - input.at) / MILLISECONDS_PER_YEAR;
  const forward = input.spot * Math.exp(rate * years);
  const point = { vix: input.vix, years, logMoneyness: Math.log(input.strike / forward) };
  const iv = syntheticImpliedVolatility(point);
  const premium = black76Price({ forward, strike: input.strike, years, vol: iv, rate, type: input.type === 'CE' ? 'call' : 'put' });
  const exactPaise = premium * 100;
  const mid = Math.max(TICK_PAISE, nearestTick(exactPaise));
  const halfSpread = Math.max(TICK_PAISE, exactPaise * relativeHalfSpread(Math.abs(standardisedMoneyness(point)), years * 365));
  // The floors keep bid <= mid < ask on the tick grid even for a 0.05 premium.
  const bid = Math.max(TICK_PAISE, Math.min(Math.floor((exactPaise - halfSpread) / TICK_PAISE) * TICK_PAISE, mid - TICK_PAISE));
  const ask = Math.max(Math.ceil((exactPaise + halfSpread) / TICK_PAISE) * TICK_PAISE, mid + TICK_PAISE);
  return { bid: paise(bid), ask: paise(ask), mid: paise(mid), iv, source: SYNTHETIC_SOURCE };
}

/**
 * Half the spread as a share of the premium: wider for strikes far from the money and for
 * contracts in their last days, where market makers quote thinner books.
 * @example relativeHalfSpread(0, 60) // 0.0025 (at the money, two months out)
 */
export function relativeHalfSpread(deviationsFromMoney: number, daysToExpiry: number): number {
  return BASE_HALF_SPREAD * (1 + HALF_SPREAD_PER_DEVIATION * deviationsFromMoney) * (1 + NEAR_EXPIRY_WIDENING * Math.exp(-daysToExpiry / NEAR_EXPIRY_DAYS));
}

function nearestTick(valuePaise: number): number {
  return Math.round(valuePaise / TICK_PAISE) * TICK_PAISE;
}

function checkQuoteInput(input: SyntheticOptionQuoteInput): number {
  checkPositive(input.spot, 'spot');
  checkPositive(input.vix, 'vix');
  checkPositive(input.strike, 'strike');
  checkFinite(input.at, 'at');
  if (input.type !== 'CE' && input.type !== 'PE') throw new OptionInputError('type', `must be "CE" or "PE", got ${JSON.stringify(input.type)}`);
  const rate = input.rate ?? SYNTHETIC_RATE;
  checkFinite(rate, 'rate');
  return rate;
}

function expiryCloseEpochMs(expiry: string): number {
  const match = DATE_PATTERN.exec(expiry);
  if (!match) throw new OptionInputError('expiry', `must be a date YYYY-MM-DD, got ${JSON.stringify(expiry)}`);
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const epochMs = Date.UTC(year, month - 1, day, EXPIRY_CLOSE_HOUR_UTC);
  const check = new Date(epochMs);
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) throw new OptionInputError('expiry', `is not a calendar date: ${expiry}`);
  return epochMs;
}
