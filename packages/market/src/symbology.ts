// Kite-style (Zerodha) trading symbols of NFO/BFO derivatives, both directions:
//   monthly option  NIFTY24DEC24000CE   underlying + YY + MMM + strike + CE|PE
//   weekly option   NIFTY2441024500CE   underlying + YY + month code (1-9, O, N, D) + DD + strike + CE|PE
//   future          NIFTY24DECFUT       underlying + YY + MMM + FUT (futures are monthly)
import { dateFromParts, dateParts } from '@vyuha/core';
import type { IsoDate } from '@vyuha/core';
import { expiryKindOn, monthlyExpiryIn } from './expiries/expiry-calendar';
import { isOptionUnderlying } from './index-configs';

export type OptionType = 'CE' | 'PE';

export interface OptionContract {
  readonly kind: 'option';
  /** Underlying trading symbol: `NIFTY`, `BANKNIFTY`, a stock such as `RELIANCE`. */
  readonly underlying: string;
  readonly expiry: IsoDate;
  /** Rupees; whole for index options, possibly fractional (at most 2 decimals) for stocks. */
  readonly strike: number;
  readonly optionType: OptionType;
}

export interface FutureContract {
  readonly kind: 'future';
  readonly underlying: string;
  readonly expiry: IsoDate;
}

export type DerivativeContract = OptionContract | FutureContract;

/** A trading symbol that cannot be read, or a contract that cannot be written; the message says why. */
export class TradingSymbolError extends Error {
  override readonly name = 'TradingSymbolError';
}

const MONTH_NAMES = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'] as const;
/** Weekly symbols write the month as one character: 1-9, then O, N, D for October-December. */
const WEEKLY_MONTH_CODES = ['1', '2', '3', '4', '5', '6', '7', '8', '9', 'O', 'N', 'D'] as const;

const UNDERLYING = /^[A-Z][A-Z0-9&-]*$/;
const STRIKE_TEXT = '(\\d+(?:\\.\\d{1,2})?)';
// The underlying is matched lazily and may end in digits (NIFTYNXT50); the fixed-width date
// fields after it decide where it stops.
const MONTHLY_OPTION = new RegExp(`^([A-Z][A-Z0-9&-]*?)(\\d{2})(${MONTH_NAMES.join('|')})${STRIKE_TEXT}(CE|PE)$`);
const WEEKLY_OPTION = new RegExp(`^([A-Z][A-Z0-9&-]*?)(\\d{2})([1-9OND])(\\d{2})${STRIKE_TEXT}(CE|PE)$`);
const FUTURE = new RegExp(`^([A-Z][A-Z0-9&-]*?)(\\d{2})(${MONTH_NAMES.join('|')})FUT$`);

function twoDigitYear(year: number): string {
  if (year < 2000 || year > 2099) throw new TradingSymbolError(`expiry year ${year} cannot be written with two digits`);
  return String(year - 2000).padStart(2, '0');
}

function strikeText(contract: OptionContract): string {
  const { strike, underlying } = contract;
  if (!Number.isFinite(strike) || strike <= 0 || Number(strike.toFixed(2)) !== strike) {
    throw new TradingSymbolError(`strike must be a positive number of rupees with at most 2 decimals, got ${strike}`);
  }
  if (isOptionUnderlying(underlying) && !Number.isInteger(strike)) {
    throw new TradingSymbolError(`strike of an index option must be whole rupees, got ${strike} for ${underlying}`);
  }
  return String(strike);
}

/** A weekly symbol is used unless the expiry is the underlying's monthly one (stocks are monthly only). */
function isMonthlyExpiry(underlying: string, expiry: IsoDate): boolean {
  if (!isOptionUnderlying(underlying)) return true;
  const kind = wrapped(() => expiryKindOn(underlying, expiry));
  if (kind === undefined) throw new TradingSymbolError(`${expiry} is not an expiry of ${underlying}`);
  return kind === 'monthly';
}

function wrapped<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof TradingSymbolError) throw error;
    throw new TradingSymbolError((error as Error).message);
  }
}

/**
 * The Kite trading symbol of a contract; whether an option is weekly or monthly comes from the
 * expiry calendar.
 * @example buildTradingSymbol({ kind: 'option', underlying: 'NIFTY', expiry: isoDate('2024-04-10'), strike: 24500, optionType: 'CE' }) // 'NIFTY2441024500CE'
 */
export function buildTradingSymbol(contract: DerivativeContract): string {
  if (!UNDERLYING.test(contract.underlying)) throw new TradingSymbolError(`underlying "${contract.underlying}" is not a trading symbol`);
  const { year, month, day } = dateParts(contract.expiry);
  const yearText = twoDigitYear(year);
  const monthName = MONTH_NAMES[month - 1] as string;
  if (contract.kind === 'future') {
    const monthly = wrapped(() => monthlyExpiryIn(contract.underlying, { year, month }));
    if (monthly !== contract.expiry) throw new TradingSymbolError(`${contract.expiry} is not the monthly expiry of ${contract.underlying} futures`);
    return `${contract.underlying}${yearText}${monthName}FUT`;
  }
  const strike = strikeText(contract);
  if (isMonthlyExpiry(contract.underlying, contract.expiry)) {
    return `${contract.underlying}${yearText}${monthName}${strike}${contract.optionType}`;
  }
  const monthCode = WEEKLY_MONTH_CODES[month - 1] as string;
  return `${contract.underlying}${yearText}${monthCode}${String(day).padStart(2, '0')}${strike}${contract.optionType}`;
}

function monthlyExpiryFor(text: string, underlying: string, parts: { year: number; month: number }): IsoDate {
  const expiry = wrapped(() => monthlyExpiryIn(underlying, parts));
  if (expiry === undefined) {
    throw new TradingSymbolError(`"${text}": ${underlying} had no monthly expiry in ${MONTH_NAMES[parts.month - 1]} ${parts.year}`);
  }
  return expiry;
}

function parseStrike(text: string, strike: string): number {
  const value = Number(strike);
  if (value <= 0) throw new TradingSymbolError(`"${text}": strike must be positive`);
  return value;
}

/**
 * Reads a Kite trading symbol back into its contract; a monthly symbol's date is the month's
 * monthly expiry from the calendar.
 * @example parseTradingSymbol('NIFTY24DEC24000CE') // { kind: 'option', underlying: 'NIFTY', expiry: '2024-12-26', strike: 24000, optionType: 'CE' }
 */
export function parseTradingSymbol(text: string): DerivativeContract {
  const future = FUTURE.exec(text);
  if (future) {
    const [, underlying = '', yy = '', monthName = ''] = future;
    const parts = { year: 2000 + Number(yy), month: MONTH_NAMES.indexOf(monthName as (typeof MONTH_NAMES)[number]) + 1 };
    return { kind: 'future', underlying, expiry: monthlyExpiryFor(text, underlying, parts) };
  }
  const monthly = MONTHLY_OPTION.exec(text);
  if (monthly) {
    const [, underlying = '', yy = '', monthName = '', strike = '', optionType = ''] = monthly;
    const parts = { year: 2000 + Number(yy), month: MONTH_NAMES.indexOf(monthName as (typeof MONTH_NAMES)[number]) + 1 };
    const expiry = monthlyExpiryFor(text, underlying, parts);
    return { kind: 'option', underlying, expiry, strike: parseStrike(text, strike), optionType: optionType as OptionType };
  }
  const weekly = WEEKLY_OPTION.exec(text);
  if (weekly) {
    const [, underlying = '', yy = '', monthCode = '', dd = '', strike = '', optionType = ''] = weekly;
    const month = WEEKLY_MONTH_CODES.indexOf(monthCode as (typeof WEEKLY_MONTH_CODES)[number]) + 1;
    let expiry: IsoDate;
    try {
      expiry = dateFromParts({ year: 2000 + Number(yy), month, day: Number(dd) });
    } catch {
      throw new TradingSymbolError(`"${text}": 20${yy}, month ${monthCode}, day ${dd} is not a calendar date`);
    }
    return { kind: 'option', underlying, expiry, strike: parseStrike(text, strike), optionType: optionType as OptionType };
  }
  throw new TradingSymbolError(`"${text}" is not a trading symbol: expected e.g. NIFTY24DEC24000CE, NIFTY2441024500CE or NIFTY24DECFUT`);
}
