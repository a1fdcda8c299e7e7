import { isIsoDate } from '@vyuha/core';
import type { IsoDate, Paise } from '@vyuha/core';
import { CHARGE_SCHEDULE_START } from './charge-schedule';
import type { ChargeExchange, ChargeInstrument, TradeSide } from './charge-schedule';
import { DEFAULT_BROKERAGE_PLAN } from './brokerage';
import type { BrokeragePlan } from './brokerage';
import { InvalidChargesInputError } from './charges-input-error';

/** NSE and BSE, or their F&O segment codes NFO and BFO, which mean the same exchange here. */
export type ChargeExchangeInput = ChargeExchange | 'NFO' | 'BFO';

/**
 * `trade`: an executed order. `exercise`: an option settled at expiry in the money; `side` is the
 * side of that closing settlement as a contract note shows it, so the long being exercised is
 * `sell` (and pays exercise STT) and the assigned short is `buy`. `expire-worthless`: an option
 * that expired out of the money; nothing is traded and nothing is charged.
 */
export type ChargeEvent = 'trade' | 'exercise' | 'expire-worthless';

/** One executed order (or expiry settlement) to price. */
export interface ChargesInput {
  /** The trading day, `YYYY-MM-DD`; picks the rates in force. */
  readonly date: string;
  readonly exchange: ChargeExchangeInput;
  readonly instrument: ChargeInstrument;
  readonly side: TradeSide;
  /** Paise per unit: the option premium or the future's price. Not used for an exercise. */
  readonly price: Paise;
  /** Units (lots x lot size), not lots. */
  readonly quantity: number;
  /** Default `trade`. */
  readonly event?: ChargeEvent;
  /** For `exercise`: the option's final settlement price per unit in paise, i.e. its intrinsic value. */
  readonly settlementPrice?: Paise;
  /** Default DEFAULT_BROKERAGE_PLAN (Rs 20 per executed order). */
  readonly brokerage?: BrokeragePlan;
}

/** A validated input: exchange aliases resolved, value computed, defaults filled. */
export interface NormalizedCharges {
  readonly date: IsoDate;
  readonly exchange: ChargeExchange;
  readonly instrument: ChargeInstrument;
  readonly side: TradeSide;
  readonly event: ChargeEvent;
  /** price x quantity for a trade, settlementPrice x quantity for an exercise, 0 for a worthless expiry. */
  readonly value: bigint;
  readonly brokerage: BrokeragePlan;
}

const EXCHANGE_OF: Readonly<Record<ChargeExchangeInput, ChargeExchange>> = { NSE: 'NSE', NFO: 'NSE', BSE: 'BSE', BFO: 'BSE' };
const EXCHANGE_INPUTS = Object.keys(EXCHANGE_OF) as ChargeExchangeInput[];
const MAX_EXACT_VALUE = BigInt(Number.MAX_SAFE_INTEGER);
const INSTRUMENTS: readonly ChargeInstrument[] = ['option', 'future'];
const SIDES: readonly TradeSide[] = ['buy', 'sell'];
const EVENTS: readonly ChargeEvent[] = ['trade', 'exercise', 'expire-worthless'];

function oneOf<T extends string>(value: unknown, allowed: readonly T[], field: string): T {
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  throw new InvalidChargesInputError(field, `must be one of ${allowed.join(', ')}, got ${JSON.stringify(value)}`);
}

/**
 * Dates that passed the checks (a calendar date, on or after the schedule's start): a backtest
 * charges each of its days' fills, a sweep does so for every run over the same days, and reading
 * the text costs more than the rest of a fill's charges. Forgotten past MAX_CHECKED_DATES (a
 * century of days is 36,525), so no input can grow it without bound.
 */
const checkedDates = new Set<string>();
const MAX_CHECKED_DATES = 50_000;
/** The date knownDate accepted last. */
let lastKnownDate: string | undefined;

/** True when `value` is a date the schedule covers (see checkedDates). */
function knownDate(value: unknown): value is IsoDate {
  if (typeof value !== 'string') return false;
  // A backtest charges fill after fill on one day: the last date is the likeliest.
  if (value === lastKnownDate || checkedDates.has(value)) {
    lastKnownDate = value;
    return true;
  }
  if (!isIsoDate(value) || value < CHARGE_SCHEDULE_START) return false;
  if (checkedDates.size >= MAX_CHECKED_DATES) checkedDates.clear();
  checkedDates.add(value);
  return true;
}

function checkDate(value: unknown, field: string): IsoDate {
  if (knownDate(value)) return value;
  if (typeof value !== 'string' || !isIsoDate(value)) {
    throw new InvalidChargesInputError(field, `must be a calendar date as YYYY-MM-DD, got ${JSON.stringify(value)}`);
  }
  throw new InvalidChargesInputError(field, `must be on or after ${CHARGE_SCHEDULE_START}, when the charges schedule starts; got ${value}`);
}

function wholeNumber(value: unknown, options: { field: string; minimum: number }): bigint {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < options.minimum) {
    throw new InvalidChargesInputError(options.field, `must be a whole number >= ${options.minimum}, got ${JSON.stringify(value)}`);
  }
  return BigInt(value);
}

function eventValue(input: ChargesInput, event: ChargeEvent, field: (name: string) => string): bigint {
  const quantity = wholeNumber(input.quantity, { field: field('quantity'), minimum: 1 });
  if (event === 'trade') return wholeNumber(input.price, { field: field('price'), minimum: 0 }) * quantity;
  if (input.instrument !== 'option') {
    throw new InvalidChargesInputError(field('event'), `${event} applies to options only; a future settles by a trade at its settlement price`);
  }
  if (event === 'expire-worthless') return 0n;
  if (input.settlementPrice === undefined) throw new InvalidChargesInputError(field('settlementPrice'), 'is required for an exercise');
  return wholeNumber(input.settlementPrice, { field: field('settlementPrice'), minimum: 0 }) * quantity;
}

/** A plain trade's fields once checked, as `tradeFields` gives them (exchange resolved). */
export interface TradeFields {
  readonly date: IsoDate;
  readonly exchange: ChargeExchange;
  /** price x quantity in paise, exact (at most Number.MAX_SAFE_INTEGER). */
  readonly value: number;
}

/**
 * For the per-fill path: `into` filled from `input` when it is a valid trade (event absent or
 * `trade`) whose value is exact, by the same checks as normalizeChargesInput and without
 * allocating; false otherwise, and then normalizeChargesInput reports the first bad field.
 */
export function tradeFields(input: ChargesInput, into: { date: IsoDate; exchange: ChargeExchange; value: number }): boolean {
  if (input.event !== undefined && input.event !== 'trade') return false;
  // Compared, not looked up: a lookup needs an own-property check (a key like 'constructor'), a runtime call per fill.
  const given = input.exchange;
  const exchange = given === 'NSE' || given === 'NFO' ? 'NSE' : given === 'BSE' || given === 'BFO' ? 'BSE' : undefined;
  if (exchange === undefined) return false;
  if (input.instrument !== 'option' && input.instrument !== 'future') return false;
  if (input.side !== 'buy' && input.side !== 'sell') return false;
  const { price, quantity } = input;
  if (typeof quantity !== 'number' || !Number.isSafeInteger(quantity) || quantity < 1) return false;
  if (typeof price !== 'number' || !Number.isSafeInteger(price) || price < 0) return false;
  // Both whole and safe: a true product beyond MAX_SAFE_INTEGER rounds to a double beyond it too.
  const value = price * quantity;
  if (value > Number.MAX_SAFE_INTEGER) return false;
  const date = input.date as IsoDate;
  if (!knownDate(date)) return false;
  into.date = date;
  into.exchange = exchange;
  into.value = value;
  return true;
}

/**
 * Validates one request, naming the bad field (prefixed by `path`, e.g. `trades[3].`), and
 * resolves NFO/BFO to NSE/BSE. The value must stay an exact number of paise.
 */
export function normalizeChargesInput(input: ChargesInput, path = ''): NormalizedCharges {
  const field = (name: string): string => `${path}${name}`;
  // Checked in this order: the first bad field is the one reported.
  const exchangeText = oneOf(input.exchange, EXCHANGE_INPUTS, field('exchange'));
  const instrument = oneOf(input.instrument, INSTRUMENTS, field('instrument'));
  const date = checkDate(input.date, field('date'));
  const side = oneOf(input.side, SIDES, field('side'));
  const event = oneOf(input.event ?? 'trade', EVENTS, field('event'));
  // input.instrument passed the check above (oneOf returns it unchanged).
  const value = eventValue(input, event, field);
  if (value > MAX_EXACT_VALUE) {
    throw new InvalidChargesInputError(field('quantity'), `price x quantity (${value} paise) is beyond exact integer range`);
  }
  return { date, exchange: EXCHANGE_OF[exchangeText], instrument, side, event, brokerage: input.brokerage ?? DEFAULT_BROKERAGE_PLAN, value };
}
