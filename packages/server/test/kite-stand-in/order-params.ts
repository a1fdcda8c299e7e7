// Reading the form of POST /orders/regular and PUT /orders/regular/{id} the way Kite validates it
// (docs/BROKER-KITE.md, "Orders"): each bad field is a 400 InputException naming the field. Prices
// are decimal rupee text, read exactly into paise (kite-format.ts) and checked against the tick size.
import { KiteError, paiseFromText } from './kite-format';
import type { StandInInstrument } from './instruments';
import type { OrderChange, OrderType } from './matching';
import type { Side } from './margin';

const ORDER_TYPES: readonly OrderType[] = ['MARKET', 'LIMIT', 'SL', 'SL-M'];
const PRODUCTS = ['CNC', 'NRML', 'MIS', 'MTF'];
const VALIDITIES = ['DAY', 'IOC', 'TTL'];

export interface PlaceParams {
  readonly instrument: StandInInstrument;
  readonly side: Side;
  readonly orderType: OrderType;
  readonly product: string;
  readonly quantity: number;
  readonly pricePaise: number;
  readonly triggerPricePaise: number;
  readonly validity: string;
  readonly tag: string | null;
  /** 0 = none (then MARKET and SL-M are rejected), -1 = automatic, 1..100 = percent. */
  readonly marketProtection: number;
  readonly autoslice: boolean;
}

function bad(message: string): KiteError {
  return new KiteError(400, 'InputException', message);
}

function oneOf<T extends string>(value: string | undefined, field: string, allowed: readonly T[]): T {
  if (value === undefined || value === '') throw bad(`Missing \`${field}\`.`);
  if (!(allowed as readonly string[]).includes(value)) throw bad(`Invalid \`${field}\`: ${value} is not one of ${allowed.join(', ')}.`);
  return value as T;
}

function quantityOf(text: string | undefined, instrument: StandInInstrument): number {
  const quantity = Number(text);
  if (text === undefined || !/^\d+$/.test(text) || quantity <= 0) throw bad('Invalid `quantity`: a positive whole number is required.');
  if (quantity % instrument.lotSize !== 0) throw bad(`Invalid \`quantity\`: ${quantity} is not a multiple of the lot size ${instrument.lotSize}.`);
  return quantity;
}

/** A price field in paise; 0 when absent and not needed. */
function priceOf(form: Record<string, string>, field: string, rule: { needed: boolean; instrument: StandInInstrument }): number {
  const { needed, instrument } = rule;
  const text = form[field];
  if (text === undefined || text === '' || text === '0') {
    if (needed) throw bad(`Missing \`${field}\`: this order type needs it.`);
    return 0;
  }
  const paise = paiseFromText(text);
  if (paise === undefined) throw bad(`Invalid \`${field}\`: ${text} is not a price in rupees with at most two decimals.`);
  if (paise % instrument.tickSizePaise !== 0) {
    throw bad(`Invalid \`${field}\`: ${text} is not a multiple of the tick size ${instrument.tickSizePaise / 100}.`);
  }
  return paise;
}

function marketProtectionOf(text: string | undefined): number {
  if (text === undefined || text === '') return 0;
  const value = Number(text);
  if (!/^-?\d+(\.\d+)?$/.test(text) || !(value === -1 || (value >= 0 && value <= 100))) {
    throw bad(`Invalid request (failed to decode market_protection, got: ${text} (expected -1 or a decimal from 0 to 100)).`);
  }
  return value;
}

export function readPlaceParams(
  form: Record<string, string>,
  lookup: (exchange: string, symbol: string) => StandInInstrument | undefined,
): PlaceParams {
  const exchange = form.exchange ?? '';
  const symbol = form.tradingsymbol ?? '';
  if (exchange === '' || symbol === '') throw bad('Missing `tradingsymbol` or `exchange`.');
  const instrument = lookup(exchange, symbol);
  if (instrument === undefined) throw bad(`Invalid \`tradingsymbol\`: ${exchange}:${symbol} is not an instrument.`);
  const orderType = oneOf(form.order_type, 'order_type', ORDER_TYPES);
  const tag = form.tag === undefined || form.tag === '' ? null : form.tag;
  if (tag !== null && !/^[A-Za-z0-9]{1,20}$/.test(tag)) throw bad('Invalid `tag`: at most 20 letters and digits.');
  const autoslice = form.autoslice ?? 'false';
  if (autoslice !== 'true' && autoslice !== 'false') throw bad('Invalid `autoslice`: true or false.');
  return {
    instrument, orderType, tag, autoslice: autoslice === 'true',
    side: oneOf<Side>(form.transaction_type, 'transaction_type', ['BUY', 'SELL']),
    product: oneOf(form.product, 'product', PRODUCTS),
    quantity: quantityOf(form.quantity, instrument),
    pricePaise: priceOf(form, 'price', { needed: orderType === 'LIMIT' || orderType === 'SL', instrument }),
    triggerPricePaise: priceOf(form, 'trigger_price', { needed: orderType === 'SL' || orderType === 'SL-M', instrument }),
    validity: oneOf(form.validity ?? 'DAY', 'validity', VALIDITIES),
    marketProtection: marketProtectionOf(form.market_protection),
  };
}

/** The changes of a modification; absent fields keep their values. */
export function readChange(form: Record<string, string>, instrument: StandInInstrument): OrderChange {
  const present = (field: string): boolean => form[field] !== undefined && form[field] !== '';
  return {
    ...(present('quantity') ? { quantity: quantityOf(form.quantity, instrument) } : {}),
    ...(present('price') ? { pricePaise: priceOf(form, 'price', { needed: true, instrument }) } : {}),
    ...(present('trigger_price') ? { triggerPricePaise: priceOf(form, 'trigger_price', { needed: true, instrument }) } : {}),
    ...(present('order_type') ? { orderType: oneOf(form.order_type, 'order_type', ORDER_TYPES) } : {}),
    ...(present('validity') ? { validity: oneOf(form.validity, 'validity', VALIDITIES) } : {}),
  };
}
