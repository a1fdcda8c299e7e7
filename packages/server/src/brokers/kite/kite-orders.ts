// Kite Connect v3 orders as pure functions: the place and modify forms built from the OMS's
// intent, Kite's order, trade and order-update payloads read into the venue port's types, and the
// postback checksum. No I/O (kite-venue.ts sends and receives); tested against payloads shaped as
// Kite records them (docs/BROKER-KITE.md, "Orders").
//
// Rules:
// - Inside the platform prices are integer paise; Kite's HTTP API speaks rupees. Forms carry rupees
//   with exactly 2 decimals, written from the integer (no float on the way out); answers' rupee
//   numbers become paise with core's `rupeesToPaise` (rounds at the paisa of the decimal the number
//   stands for, so 1250.35 is 125035, never 125034.99...).
// - Order and trade ids are strings; a parser refuses a number (kite-api.ts keeps them as text).
// - Kite's timestamps are "YYYY-MM-DD HH:MM:SS" in IST without a zone.
// - MARKET and SL-M orders always carry `market_protection` (-1 automatic, or a percentage up to
//   100): since April 2026 Kite refuses them without it, and 0 means none.
// - `autoslice` is off: the OMS slices by the freeze quantity itself, so one intent is one order.
// - Every parser returns a Result whose error names the field.
import { createHash, timingSafeEqual } from 'node:crypto';
import { err, ok, parseIstDateTime, rupeesToPaise, type Paise, type Result } from '@vyuha/core';
import type { ModifyRequest, OmsOrderType, OrderIntent, OrderSide, VenueOrderReport, VenueOrderStatus, VenueTrade } from '@vyuha/engine';
import { isRecord, parseKiteJson } from './kite-api';

/** A contract in Kite's words. */
export interface KiteContract {
  readonly exchange: string;
  readonly tradingSymbol: string;
}

/** Maps Kite's (exchange, tradingsymbol) to the OMS's instrument key; undefined when the platform does not know it. */
export type InstrumentKeyOf = (exchange: string, tradingSymbol: string) => string | undefined;

/** The form of POST /orders/regular; values travel as strings. */
export type KiteForm = Readonly<Record<string, string>>;

/** The variety the venue places and manages. */
export const KITE_VARIETY = 'regular';
/** Kite's tag limit. */
export const KITE_TAG_LENGTH = 20;
/** -1: Kite chooses the protection. */
export const AUTO_MARKET_PROTECTION = -1;

/** An order as Kite reports it (GET /orders, an order update, a postback), the fields the venue reads. */
export interface KiteOrder {
  readonly orderId: string;
  /** Kite's word, e.g. "TRIGGER PENDING". */
  readonly kiteStatus: string;
  readonly status: VenueOrderStatus;
  readonly tag?: string;
  readonly tags: readonly string[];
  readonly exchange: string;
  readonly tradingSymbol: string;
  readonly side: OrderSide;
  readonly orderType?: OmsOrderType;
  readonly quantity: number;
  readonly filledQuantity: number;
  readonly statusMessage?: string;
  /** "YYYY-MM-DD HH:MM:SS" as sent (the postback checksum uses the text). */
  readonly orderTimestamp?: string;
}

/** One of Kite's trades. */
export interface KiteTrade extends VenueTrade {
  readonly orderId: string;
}

const TAG = /^[A-Za-z0-9]{1,20}$/;

/**
 * Paise as Kite's rupee text with 2 decimals, from the integer.
 * @example kiteRupees(125035) // '1250.35'
 */
export function kiteRupees(amount: number): string {
  if (!Number.isSafeInteger(amount)) throw new Error(`a price must be whole paise, got ${amount}`);
  const magnitude = Math.abs(amount);
  return `${amount < 0 ? '-' : ''}${Math.floor(magnitude / 100)}.${String(magnitude % 100).padStart(2, '0')}`;
}

function checkMarketProtection(value: number): Result<string, string> {
  if (value === AUTO_MARKET_PROTECTION || (Number.isFinite(value) && value > 0 && value <= 100)) return ok(String(value));
  return err(`market_protection must be -1 (automatic) or a percentage above 0 up to 100, got ${value}: Kite refuses MARKET and SL-M orders without it`);
}

function needsProtection(orderType: OmsOrderType): boolean {
  return orderType === 'MARKET' || orderType === 'SL-M';
}

/** The product codes the orders table allows (the spec's I, D, M and their long names too), as Kite names them. */
const KITE_PRODUCTS: Readonly<Record<string, string>> = {
  MIS: 'MIS', I: 'MIS', Intraday: 'MIS', CNC: 'CNC', D: 'CNC', Delivery: 'CNC', NRML: 'NRML', M: 'NRML', Margin: 'NRML', Carryforward: 'NRML',
};

/**
 * Kite's product for one of our product codes: intraday MIS, delivery CNC, carried F&O NRML.
 * @example kiteProductOf('I') // 'MIS'
 */
export function kiteProductOf(product: string): string | undefined {
  return Object.hasOwn(KITE_PRODUCTS, product) ? KITE_PRODUCTS[product] : undefined;
}

/**
 * The form that places `intent` as a regular DAY order of `contract`.
 * @example kitePlaceForm(limitBuy, { exchange: 'NSE', tradingSymbol: 'INFY' }, { marketProtection: -1 }) // ok({ ..., price: '1500.50', tag: 'ab12...' })
 */
export function kitePlaceForm(intent: OrderIntent, contract: KiteContract, options: { readonly marketProtection: number }): Result<KiteForm, string> {
  if (!Number.isSafeInteger(intent.quantity) || intent.quantity <= 0) return err(`quantity must be a whole number above 0, got ${intent.quantity}`);
  const product = kiteProductOf(intent.product);
  if (product === undefined) return err(`product ${JSON.stringify(intent.product)} has no Kite product (MIS, CNC or NRML)`);
  if (!TAG.test(intent.tag)) return err(`tag must be 1 to ${KITE_TAG_LENGTH} letters and digits, got ${JSON.stringify(intent.tag)}`);
  const needsPrice = intent.orderType === 'LIMIT' || intent.orderType === 'SL';
  const needsTrigger = intent.orderType === 'SL' || intent.orderType === 'SL-M';
  if (needsPrice && intent.pricePaise === undefined) return err(`price is required for a ${intent.orderType} order`);
  if (needsTrigger && intent.triggerPricePaise === undefined) return err(`trigger_price is required for a ${intent.orderType} order`);
  const form: Record<string, string> = {
    variety: KITE_VARIETY,
    exchange: contract.exchange,
    tradingsymbol: contract.tradingSymbol,
    transaction_type: intent.side,
    order_type: intent.orderType,
    quantity: String(intent.quantity),
    product,
    validity: 'DAY',
    tag: intent.tag,
    autoslice: 'false',
  };
  if (needsPrice && intent.pricePaise !== undefined) form.price = kiteRupees(intent.pricePaise);
  if (needsTrigger && intent.triggerPricePaise !== undefined) form.trigger_price = kiteRupees(intent.triggerPricePaise);
  if (needsProtection(intent.orderType)) {
    const protection = checkMarketProtection(options.marketProtection);
    if (!protection.ok) return protection;
    form.market_protection = protection.value;
  }
  if (intent.algoId !== undefined && intent.algoId !== '') form.algo_id = intent.algoId;
  return ok(form);
}

/**
 * The form of PUT /orders/regular/{order_id}: the levels the request changes, plus the order type
 * when known (and then market protection for MARKET and SL-M, which Kite requires there too).
 * @example kiteModifyForm({ brokerOrderId: '1', pricePaise: paise(150050) }, { orderType: 'LIMIT', marketProtection: -1 }) // ok({ order_type: 'LIMIT', price: '1500.50' })
 */
export function kiteModifyForm(
  request: ModifyRequest, options: { readonly orderType?: OmsOrderType; readonly marketProtection: number },
): Result<KiteForm, string> {
  const form: Record<string, string> = {};
  if (options.orderType !== undefined) form.order_type = options.orderType;
  if (request.quantity !== undefined) {
    if (!Number.isSafeInteger(request.quantity) || request.quantity <= 0) return err(`quantity must be a whole number above 0, got ${request.quantity}`);
    form.quantity = String(request.quantity);
  }
  if (request.pricePaise !== undefined) form.price = kiteRupees(request.pricePaise);
  if (request.triggerPricePaise !== undefined) form.trigger_price = kiteRupees(request.triggerPricePaise);
  if (form.quantity === undefined && form.price === undefined && form.trigger_price === undefined) {
    return err('a modification must change quantity, price or trigger_price');
  }
  if (options.orderType !== undefined && needsProtection(options.orderType)) {
    const protection = checkMarketProtection(options.marketProtection);
    if (!protection.ok) return protection;
    form.market_protection = protection.value;
  }
  return ok(form);
}

const STATUS_OF: Readonly<Record<string, VenueOrderStatus>> = {
  COMPLETE: 'FILLED',
  OPEN: 'OPEN',
  'TRIGGER PENDING': 'OPEN',
  CANCELLED: 'CANCELLED',
  REJECTED: 'REJECTED',
  // Kite has the order but the exchange may not yet.
  'PUT ORDER REQ RECEIVED': 'SUBMITTED',
  'PUT ORDER REQUEST RECEIVED': 'SUBMITTED',
  'VALIDATION PENDING': 'SUBMITTED',
  'OPEN PENDING': 'SUBMITTED',
  'AMO REQ RECEIVED': 'SUBMITTED',
  // A working order being modified or cancelled, or partly filled: still working until Kite says otherwise.
  'MODIFY VALIDATION PENDING': 'OPEN',
  'MODIFY PENDING': 'OPEN',
  MODIFIED: 'OPEN',
  'CANCEL PENDING': 'OPEN',
  UPDATE: 'OPEN',
};

/**
 * Kite's order status as the venue port's.
 * @example venueStatusOf('TRIGGER PENDING') // ok('OPEN')
 */
export function venueStatusOf(kiteStatus: string): Result<VenueOrderStatus, string> {
  const status = Object.hasOwn(STATUS_OF, kiteStatus) ? STATUS_OF[kiteStatus] : undefined;
  if (status === undefined) return err(`status ${JSON.stringify(kiteStatus.slice(0, 40))} is not a Kite order status this venue knows`);
  return ok(status);
}

function idField(record: Record<string, unknown>, field: string, where: string): Result<string, string> {
  const value = record[field];
  if (typeof value !== 'string' || !/^[0-9A-Za-z-]{1,40}$/.test(value)) return err(`${where}.${field} must be an id string, got ${describe(value)}`);
  return ok(value);
}

function wholeField(record: Record<string, unknown>, field: string, where: string): Result<number, string> {
  const value = record[field];
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) return err(`${where}.${field} must be a whole number from 0, got ${describe(value)}`);
  return ok(value);
}

function textField(record: Record<string, unknown>, field: string, where: string): Result<string, string> {
  const value = record[field];
  if (typeof value !== 'string' || value === '') return err(`${where}.${field} must be a non-empty string, got ${describe(value)}`);
  return ok(value);
}

function sideField(record: Record<string, unknown>, where: string): Result<OrderSide, string> {
  const value = record.transaction_type;
  if (value !== 'BUY' && value !== 'SELL') return err(`${where}.transaction_type must be BUY or SELL, got ${describe(value)}`);
  return ok(value);
}

function timeField(record: Record<string, unknown>, field: string, where: string): Result<number, string> {
  const value = record[field];
  if (typeof value !== 'string') return err(`${where}.${field} must be a time "YYYY-MM-DD HH:MM:SS" (IST), got ${describe(value)}`);
  try {
    return ok(parseIstDateTime(value));
  } catch {
    return err(`${where}.${field} must be a time "YYYY-MM-DD HH:MM:SS" (IST), got ${describe(value)}`);
  }
}

function priceField(record: Record<string, unknown>, field: string, where: string): Result<Paise, string> {
  const value = record[field];
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) return err(`${where}.${field} must be a price in rupees above 0, got ${describe(value)}`);
  try {
    return ok(rupeesToPaise(value));
  } catch {
    return err(`${where}.${field} must be a price in rupees above 0, got ${describe(value)}`);
  }
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 60)}...` : text;
}

/**
 * One order object of GET /orders, an order update or a postback.
 * @example kiteOrderOf({ order_id: '1953367517686685697', status: 'OPEN', ... }) // ok({ orderId: '1953367517686685697', status: 'OPEN', ... })
 */
export function kiteOrderOf(json: unknown, where = 'order'): Result<KiteOrder, string> {
  if (!isRecord(json)) return err(`${where} must be an object, got ${describe(json)}`);
  const orderId = idField(json, 'order_id', where);
  if (!orderId.ok) return orderId;
  const kiteStatus = textField(json, 'status', where);
  if (!kiteStatus.ok) return kiteStatus;
  const status = venueStatusOf(kiteStatus.value);
  if (!status.ok) return err(`${where}.${status.error}`);
  const exchange = textField(json, 'exchange', where);
  if (!exchange.ok) return exchange;
  const tradingSymbol = textField(json, 'tradingsymbol', where);
  if (!tradingSymbol.ok) return tradingSymbol;
  const side = sideField(json, where);
  if (!side.ok) return side;
  const quantity = wholeField(json, 'quantity', where);
  if (!quantity.ok) return quantity;
  const filledQuantity = wholeField(json, 'filled_quantity', where);
  if (!filledQuantity.ok) return filledQuantity;
  if (filledQuantity.value > quantity.value) return err(`${where}.filled_quantity ${filledQuantity.value} exceeds quantity ${quantity.value}`);
  const tag = json.tag;
  if (tag !== undefined && tag !== null && typeof tag !== 'string') return err(`${where}.tag must be a string or null, got ${describe(tag)}`);
  const tags = json.tags;
  if (tags !== undefined && tags !== null && !(Array.isArray(tags) && tags.every((item) => typeof item === 'string'))) {
    return err(`${where}.tags must be a list of strings, got ${describe(tags)}`);
  }
  const orderType = (['MARKET', 'LIMIT', 'SL', 'SL-M'] as const).find((type) => type === json.order_type);
  const statusMessage = typeof json.status_message === 'string' && json.status_message !== '' ? json.status_message : undefined;
  const orderTimestamp = typeof json.order_timestamp === 'string' ? json.order_timestamp : undefined;
  return ok({
    orderId: orderId.value, kiteStatus: kiteStatus.value, status: status.value,
    ...(typeof tag === 'string' && tag !== '' ? { tag } : {}),
    tags: Array.isArray(tags) ? (tags as string[]) : [],
    exchange: exchange.value, tradingSymbol: tradingSymbol.value, side: side.value,
    ...(orderType === undefined ? {} : { orderType }),
    quantity: quantity.value, filledQuantity: filledQuantity.value,
    ...(statusMessage === undefined ? {} : { statusMessage }),
    ...(orderTimestamp === undefined ? {} : { orderTimestamp }),
  });
}

/**
 * One trade of GET /trades or GET /orders/{id}/trades: the fill price (`average_price`, rupees) in
 * paise, `fill_timestamp` (else `exchange_timestamp`) as epoch ms.
 * @example kiteTradeOf({ trade_id: '10000000', order_id: '1953367517686685697', quantity: 1, average_price: 1250.35, fill_timestamp: '2026-04-06 09:16:02', ... }) // ok({ tradeId: '10000000', pricePaise: 125035, ... })
 */
export function kiteTradeOf(json: unknown, where = 'trade'): Result<KiteTrade, string> {
  if (!isRecord(json)) return err(`${where} must be an object, got ${describe(json)}`);
  const tradeId = idField(json, 'trade_id', where);
  if (!tradeId.ok) return tradeId;
  const orderId = idField(json, 'order_id', where);
  if (!orderId.ok) return orderId;
  const quantity = wholeField(json, 'quantity', where);
  if (!quantity.ok) return quantity;
  if (quantity.value === 0) return err(`${where}.quantity must be above 0`);
  const price = priceField(json, 'average_price', where);
  if (!price.ok) return price;
  const at = timeField(json, json.fill_timestamp === null || json.fill_timestamp === undefined ? 'exchange_timestamp' : 'fill_timestamp', where);
  if (!at.ok) return at;
  return ok({ tradeId: tradeId.value, orderId: orderId.value, quantity: quantity.value, pricePaise: price.value, atMs: at.value });
}

/**
 * The venue port's report of a Kite order with its trades. `filledQuantity` is what the trades add
 * up to (the report's invariant); when Kite's order says more was filled than its trades show (the
 * trade book lags), a final status is reported as OPEN until the trades arrive, so nothing final is
 * adopted without its fills. An unknown contract gets the key `kite:<exchange>:<tradingsymbol>`.
 */
export function orderReportOf(kiteOrder: unknown, trades: readonly unknown[], instrumentKeyOf: InstrumentKeyOf): Result<VenueOrderReport, string> {
  const order = kiteOrder !== null && typeof kiteOrder === 'object' && 'kiteStatus' in kiteOrder ? ok(kiteOrder as KiteOrder) : kiteOrderOf(kiteOrder);
  if (!order.ok) return order;
  const mapped: VenueTrade[] = [];
  for (const [index, json] of trades.entries()) {
    const trade = isRecord(json) && 'tradeId' in json ? ok(json as unknown as KiteTrade) : kiteTradeOf(json, `trades[${index}]`);
    if (!trade.ok) return trade;
    if (trade.value.orderId !== order.value.orderId) return err(`trades[${index}].order_id ${trade.value.orderId} is not order ${order.value.orderId}`);
    if (mapped.some((seen) => seen.tradeId === trade.value.tradeId)) continue;
    mapped.push({ tradeId: trade.value.tradeId, quantity: trade.value.quantity, pricePaise: trade.value.pricePaise, atMs: trade.value.atMs });
  }
  const traded = mapped.reduce((sum, trade) => sum + trade.quantity, 0);
  if (traded > order.value.quantity) return err(`the trades of order ${order.value.orderId} add up to ${traded}, above its quantity ${order.value.quantity}`);
  const lagging = traded < order.value.filledQuantity || (order.value.status === 'FILLED' && traded < order.value.quantity);
  const status: VenueOrderStatus = lagging && order.value.status !== 'OPEN' && order.value.status !== 'SUBMITTED' ? 'OPEN' : order.value.status;
  const { exchange, tradingSymbol } = order.value;
  return ok({
    brokerOrderId: order.value.orderId,
    ...(order.value.tag === undefined ? {} : { tag: order.value.tag }),
    instrumentKey: instrumentKeyOf(exchange, tradingSymbol) ?? unmappedKey(exchange, tradingSymbol),
    side: order.value.side,
    quantity: order.value.quantity,
    status,
    filledQuantity: traded,
    trades: mapped,
    ...(order.value.statusMessage === undefined ? {} : { statusMessage: order.value.statusMessage }),
  });
}

/** The key of a contract the platform cannot map, so reconciliation sees it as unexplained. */
export function unmappedKey(exchange: string, tradingSymbol: string): string {
  return `kite:${exchange}:${tradingSymbol}`;
}

/**
 * An order update: a postback's body, or the `data` of a ticker `order` message; text is parsed
 * with the ids kept exact.
 */
export function parseKiteOrderUpdate(json: unknown): Result<KiteOrder, string> {
  let value = json;
  if (typeof json === 'string') {
    try {
      value = parseKiteJson(json);
    } catch {
      return err('the order update is not JSON');
    }
  }
  return kiteOrderOf(value, 'order update');
}

/**
 * A postback's body checked and read: checksum must be the hex SHA-256 of order_id +
 * order_timestamp + api_secret (compared in constant time). The error never shows the checksum.
 */
export function verifyKitePostback(body: string | Readonly<Record<string, unknown>>, apiSecret: string): Result<KiteOrder, string> {
  let json: unknown = body;
  if (typeof body === 'string') {
    try {
      json = parseKiteJson(body);
    } catch {
      return err('the postback is not JSON');
    }
  }
  if (!isRecord(json)) return err('the postback must be a JSON object');
  const { order_id: orderId, order_timestamp: orderTimestamp, checksum } = json;
  if (typeof orderId !== 'string' || orderId === '') return err('postback.order_id must be an id string');
  if (typeof orderTimestamp !== 'string') return err('postback.order_timestamp must be a string');
  if (typeof checksum !== 'string' || !/^[0-9a-fA-F]{64}$/.test(checksum)) return err('postback.checksum must be 64 hex digits');
  const expected = createHash('sha256').update(`${orderId}${orderTimestamp}${apiSecret}`, 'utf8').digest();
  if (!timingSafeEqual(expected, Buffer.from(checksum, 'hex'))) return err('postback.checksum does not match: the postback is not from Kite or the API secret differs');
  return kiteOrderOf(json, 'postback');
}
