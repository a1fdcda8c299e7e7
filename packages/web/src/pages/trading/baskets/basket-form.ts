// The basket editor's model: the rows a user edits (instrument by parts, side, size, order type,
// prices in rupees) and the legs the API takes (save_basket, preview_basket: a trading symbol,
// lots or quantity, prices in paise). Pure, so the conversions are tested beside it.
import { isoDate } from '@vyuha/core';
import type { IsoDate } from '@vyuha/core';
import { buildTradingSymbol, expiriesBetween, OPTION_UNDERLYINGS, parseTradingSymbol } from '@vyuha/market';
import type { OptionUnderlying } from '@vyuha/market';
import { rupeesFieldToPaise } from '../../../format/money-input';

export type LegInstrument = 'FUT' | 'CE' | 'PE' | 'EQ';
export type LegSide = 'BUY' | 'SELL';
export type LegOrderType = 'MARKET' | 'LIMIT' | 'SL' | 'SL-M';
export const ORDER_TYPES: readonly LegOrderType[] = ['MARKET', 'LIMIT', 'SL', 'SL-M'];
export const UNDERLYINGS: readonly OptionUnderlying[] = OPTION_UNDERLYINGS;

/** One row of the editor. Sizes and prices are kept as typed. */
export interface LegRow {
  readonly instrument: LegInstrument;
  readonly underlying: OptionUnderlying;
  readonly expiry: string;
  readonly strike: string;
  /** An equity's trading symbol (instrument EQ). */
  readonly equity: string;
  readonly side: LegSide;
  /** Lots of a derivative, units of an equity. */
  readonly size: string;
  readonly orderType: LegOrderType;
  readonly price: string;
  readonly trigger: string;
}

/** A leg as the API takes it (basket_leg_input). */
export interface LegInput {
  readonly symbol: string;
  readonly side: LegSide;
  readonly lots?: number;
  readonly quantity?: number;
  readonly order_type: LegOrderType;
  readonly price_paise?: number;
  readonly trigger_price_paise?: number;
}

/** A problem with a row's field, for the form (`legs[1].size`). */
export interface RowIssue {
  readonly field: string;
  readonly message: string;
}

/** Expiries the editor offers: the next 100 days' (futures: monthly only). */
export function expiryChoices(underlying: OptionUnderlying, instrument: LegInstrument, today: IsoDate): string[] {
  const to = isoDate(new Date(Date.parse(`${today}T00:00:00Z`) + 100 * 86_400_000).toISOString().slice(0, 10));
  return expiriesBetween(underlying, today, to).filter((expiry) => instrument !== 'FUT' || expiry.kind === 'monthly').map((expiry) => expiry.date);
}

/** A new row: one lot of the underlying's next monthly future, bought at market. */
export function newLegRow(today: IsoDate, underlying: OptionUnderlying = 'NIFTY'): LegRow {
  return {
    instrument: 'FUT', underlying, expiry: expiryChoices(underlying, 'FUT', today)[0] ?? '', strike: '', equity: '', side: 'BUY', size: '1',
    orderType: 'MARKET', price: '', trigger: '',
  };
}

/**
 * The row's trading symbol, or undefined while it is incomplete.
 * @example symbolOfRow({ instrument: 'CE', underlying: 'NIFTY', expiry: '2026-12-29', strike: '24000', ... }) // 'NIFTY26DEC24000CE'
 */
export function symbolOfRow(row: LegRow): string | undefined {
  if (row.instrument === 'EQ') return row.equity.trim() === '' ? undefined : row.equity.trim().toUpperCase();
  if (row.expiry === '') return undefined;
  try {
    if (row.instrument === 'FUT') return buildTradingSymbol({ kind: 'future', underlying: row.underlying, expiry: row.expiry as IsoDate });
    const strike = Number(row.strike);
    if (!(Number.isFinite(strike) && strike > 0)) return undefined;
    return buildTradingSymbol({ kind: 'option', underlying: row.underlying, expiry: row.expiry as IsoDate, strike, optionType: row.instrument });
  } catch {
    return undefined;
  }
}

function paiseOf(text: string): number | undefined {
  const parsed = rupeesFieldToPaise(text);
  return parsed.ok && parsed.value > 0 ? parsed.value : undefined;
}

/**
 * The rows as API legs, or the issues of each row's fields (the server checks again).
 * @example legsOfRows([{ ...row, size: '0' }]) // { issues: [{ field: 'legs[0].size', ... }] }
 */
export function legsOfRows(rows: readonly LegRow[]): { legs: LegInput[]; issues: RowIssue[] } {
  const legs: LegInput[] = [];
  const issues: RowIssue[] = [];
  rows.forEach((row, index) => {
    const field = (name: string): string => `legs[${index}].${name}`;
    const symbol = symbolOfRow(row);
    if (symbol === undefined) issues.push({ field: field(row.instrument === 'EQ' ? 'equity' : row.instrument === 'FUT' ? 'expiry' : 'strike'), message: 'choose the instrument' });
    const size = Number(row.size);
    if (!(Number.isSafeInteger(size) && size > 0)) issues.push({ field: field('size'), message: `${row.instrument === 'EQ' ? 'quantity' : 'lots'} must be a whole number above 0` });
    const price = paiseOf(row.price);
    const trigger = paiseOf(row.trigger);
    const needsPrice = row.orderType === 'LIMIT' || row.orderType === 'SL';
    const needsTrigger = row.orderType === 'SL' || row.orderType === 'SL-M';
    if (needsPrice && price === undefined) issues.push({ field: field('price'), message: `a ${row.orderType} order needs a price` });
    if (needsTrigger && trigger === undefined) issues.push({ field: field('trigger'), message: `a ${row.orderType} order needs a trigger price` });
    if (symbol === undefined) return;
    legs.push({
      symbol, side: row.side, order_type: row.orderType, ...(row.instrument === 'EQ' ? { quantity: size } : { lots: size }),
      ...(needsPrice && price !== undefined ? { price_paise: price } : {}),
      ...(needsTrigger && trigger !== undefined ? { trigger_price_paise: trigger } : {}),
    });
  });
  return { legs: issues.length === 0 ? legs : [], issues };
}

function rupeesText(paise: number | undefined): string {
  return paise === undefined ? '' : (paise / 100).toFixed(2);
}

/** A saved leg back as an editor row (an unknown symbol becomes an equity row). */
export function rowOfLeg(leg: LegInput, today: IsoDate): LegRow {
  const base = newLegRow(today);
  const common = {
    side: leg.side, size: String(leg.lots ?? leg.quantity ?? ''), orderType: leg.order_type, price: rupeesText(leg.price_paise), trigger: rupeesText(leg.trigger_price_paise),
  };
  try {
    const contract = parseTradingSymbol(leg.symbol);
    if ((UNDERLYINGS as readonly string[]).includes(contract.underlying)) {
      const underlying = contract.underlying as OptionUnderlying;
      if (contract.kind === 'future') return { ...base, ...common, instrument: 'FUT', underlying, expiry: contract.expiry };
      return { ...base, ...common, instrument: contract.optionType, underlying, expiry: contract.expiry, strike: String(contract.strike) };
    }
  } catch {
    // Not a derivative's symbol: an equity.
  }
  return { ...base, ...common, instrument: 'EQ', equity: leg.symbol };
}
