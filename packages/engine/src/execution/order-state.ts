// The live order: its fields, its statuses and which status may follow which. The events that
// move it are in order-events.ts; this file is the vocabulary and the rules the database agrees
// with (packages/server/migrations/0004_trading.sql, table orders).
//
// Invariants (each one is also a database rule or checked by the model test):
// - FILLED, CANCELLED and REJECTED are final: the status never changes again.
// - Nothing returns to PENDING_SUBMIT.
// - 0 <= filledQuantity <= quantity; FILLED <=> filledQuantity = quantity (a CANCELLED order keeps
//   the fills it had); PARTIALLY_FILLED <=> 0 < filledQuantity < quantity.
// - filledQuantity and filledValuePaise are the sums over `fills`; trade ids are unique.
// - `submittedAtMs` is set once, before the order is sent; an order that has it is never sent again.
import { err, ok, paise } from '@vyuha/core';
import type { Paise, Result } from '@vyuha/core';
import type { ClientOrderId } from './client-order-id';
import type { VenueTrade } from './venue-port';

export type OrderSide = 'BUY' | 'SELL';
export const OMS_ORDER_TYPES = ['MARKET', 'LIMIT', 'SL', 'SL-M'] as const;
export type OmsOrderType = (typeof OMS_ORDER_TYPES)[number];

/** The orders table's status list, in the order an order usually passes through it. */
export const OMS_ORDER_STATUSES = [
  'PENDING_SUBMIT', 'SUBMITTED', 'OPEN', 'PARTIALLY_FILLED', 'PENDING_CANCEL', 'FILLED', 'CANCELLED', 'REJECTED', 'UNKNOWN',
] as const;
export type OmsOrderStatus = (typeof OMS_ORDER_STATUSES)[number];

const FINAL: ReadonlySet<OmsOrderStatus> = new Set(['FILLED', 'CANCELLED', 'REJECTED']);

/** True for FILLED, CANCELLED and REJECTED. */
export function isFinalStatus(status: OmsOrderStatus): boolean {
  return FINAL.has(status);
}

/**
 * Which status may follow which (a status may always stay as it is). The events never make any
 * other change; the model test checks every change it sees against this table.
 */
export const ORDER_TRANSITIONS: Readonly<Record<OmsOrderStatus, readonly OmsOrderStatus[]>> = {
  // CANCELLED from PENDING_SUBMIT: an order never sent is withdrawn locally, or the venue's cancel
  // overtook its ack.
  PENDING_SUBMIT: ['SUBMITTED', 'OPEN', 'PARTIALLY_FILLED', 'FILLED', 'CANCELLED', 'REJECTED', 'UNKNOWN'],
  SUBMITTED: ['OPEN', 'PARTIALLY_FILLED', 'FILLED', 'PENDING_CANCEL', 'CANCELLED', 'REJECTED'],
  OPEN: ['PARTIALLY_FILLED', 'FILLED', 'PENDING_CANCEL', 'CANCELLED', 'REJECTED'],
  PARTIALLY_FILLED: ['FILLED', 'PENDING_CANCEL', 'CANCELLED'],
  // Back to OPEN / PARTIALLY_FILLED when the venue refuses the cancellation.
  PENDING_CANCEL: ['OPEN', 'PARTIALLY_FILLED', 'FILLED', 'CANCELLED', 'REJECTED'],
  // Resolved by whatever the venue says; never by sending again.
  UNKNOWN: ['SUBMITTED', 'OPEN', 'PARTIALLY_FILLED', 'FILLED', 'CANCELLED', 'REJECTED'],
  FILLED: [],
  CANCELLED: [],
  REJECTED: [],
};

/** True when `to` may follow `from` (or is the same status). */
export function isLegalTransition(from: OmsOrderStatus, to: OmsOrderStatus): boolean {
  return from === to || ORDER_TRANSITIONS[from].includes(to);
}

/** A fill as the OMS records it: one venue trade of one order. */
export type OmsFill = VenueTrade;

/** A live order: what the orders row holds, plus the fills that explain its filled quantity. */
export interface OmsOrder {
  readonly clientOrderId: ClientOrderId;
  /** The short id the venue echoes back (orders.tag, `brokerTagFor`); without one the venue is given the client order id. */
  readonly tag?: string;
  /** The OMS's name of the contract (the instrument id as text in the server). */
  readonly instrumentKey: string;
  readonly side: OrderSide;
  readonly quantity: number;
  readonly orderType: OmsOrderType;
  readonly pricePaise?: Paise;
  readonly triggerPricePaise?: Paise;
  readonly status: OmsOrderStatus;
  readonly filledQuantity: number;
  /** Sum of quantity x price over the fills: exact, so the average price is one division. */
  readonly filledValuePaise: Paise;
  /** Every fill applied, in the order they were applied. */
  readonly fills: readonly OmsFill[];
  /** When the send began (orders.submitted_at); present means "may exist at the venue". */
  readonly submittedAtMs?: number;
  readonly brokerOrderId?: string;
  readonly statusMessage?: string;
}

/** The fields of a new order; it starts PENDING_SUBMIT with nothing filled. */
export interface NewOrderInput {
  readonly clientOrderId: ClientOrderId;
  readonly tag?: string;
  readonly instrumentKey: string;
  readonly side: OrderSide;
  readonly quantity: number;
  readonly orderType: OmsOrderType;
  readonly pricePaise?: number;
  readonly triggerPricePaise?: number;
}

/** A field of an order input that is wrong, and why. */
export interface OrderFieldIssue {
  readonly field: string;
  readonly message: string;
}

function positivePaise(value: number | undefined, field: string): Result<Paise | undefined, OrderFieldIssue> {
  if (value === undefined) return ok(undefined);
  if (!Number.isSafeInteger(value) || value <= 0) return err({ field, message: `${field} must be a whole number of paise above 0, got ${value}` });
  return ok(paise(value));
}

/**
 * A new PENDING_SUBMIT order, or the first field that is wrong (the same rules as the orders
 * table: a LIMIT or SL order needs a price, an SL or SL-M order a trigger price).
 */
export function createOrder(input: NewOrderInput): Result<OmsOrder, OrderFieldIssue> {
  if (input.tag !== undefined && (typeof input.tag !== 'string' || input.tag === '')) {
    return err({ field: 'tag', message: 'tag must not be empty when given' });
  }
  if (typeof input.instrumentKey !== 'string' || input.instrumentKey === '') {
    return err({ field: 'instrumentKey', message: 'instrumentKey must name the contract' });
  }
  if (input.side !== 'BUY' && input.side !== 'SELL') return err({ field: 'side', message: `side must be BUY or SELL, got ${String(input.side)}` });
  if (!OMS_ORDER_TYPES.includes(input.orderType)) {
    return err({ field: 'orderType', message: `orderType must be one of ${OMS_ORDER_TYPES.join(', ')}, got ${String(input.orderType)}` });
  }
  if (!Number.isSafeInteger(input.quantity) || input.quantity <= 0) {
    return err({ field: 'quantity', message: `quantity must be a whole number above 0, got ${input.quantity}` });
  }
  const price = positivePaise(input.pricePaise, 'pricePaise');
  if (!price.ok) return price;
  const trigger = positivePaise(input.triggerPricePaise, 'triggerPricePaise');
  if (!trigger.ok) return trigger;
  const needsPrice = input.orderType === 'LIMIT' || input.orderType === 'SL';
  const needsTrigger = input.orderType === 'SL' || input.orderType === 'SL-M';
  if (needsPrice !== (price.value !== undefined)) {
    const message = needsPrice ? `a ${input.orderType} order needs pricePaise` : `a ${input.orderType} order takes no pricePaise`;
    return err({ field: 'pricePaise', message });
  }
  if (needsTrigger !== (trigger.value !== undefined)) {
    return err({
      field: 'triggerPricePaise',
      message: needsTrigger ? `a ${input.orderType} order needs triggerPricePaise` : `a ${input.orderType} order takes no triggerPricePaise`,
    });
  }
  return ok({
    clientOrderId: input.clientOrderId,
    ...(input.tag === undefined ? {} : { tag: input.tag }),
    instrumentKey: input.instrumentKey,
    side: input.side,
    quantity: input.quantity,
    orderType: input.orderType,
    ...(price.value === undefined ? {} : { pricePaise: price.value }),
    ...(trigger.value === undefined ? {} : { triggerPricePaise: trigger.value }),
    status: 'PENDING_SUBMIT',
    filledQuantity: 0,
    filledValuePaise: paise(0),
    fills: [],
  });
}

/**
 * The average fill price in paise, rounded half up (what `orders.average_price_paise` stores);
 * undefined while nothing is filled. The exact value is `filledValuePaise / filledQuantity`.
 * @example averageFillPricePaise({ filledQuantity: 3, filledValuePaise: 10_001, ... }) // 3334 (3333.67)
 */
export function averageFillPricePaise(order: Pick<OmsOrder, 'filledQuantity' | 'filledValuePaise'>): Paise | undefined {
  if (order.filledQuantity === 0) return undefined;
  let whole = Math.floor(order.filledValuePaise / order.filledQuantity);
  let remainder = order.filledValuePaise - whole * order.filledQuantity;
  // A float quotient within one ulp of a whole number can floor one too high.
  if (remainder < 0) {
    whole -= 1;
    remainder += order.filledQuantity;
  }
  return paise(2 * remainder >= order.filledQuantity ? whole + 1 : whole);
}

/** The tag the venue knows the order by: its own tag, else its client order id. */
export function venueTagOf(order: Pick<OmsOrder, 'tag' | 'clientOrderId'>): string {
  return order.tag ?? order.clientOrderId;
}

/** +quantity for a buy, -quantity for a sell: what a fill does to the position. */
export function signedQuantity(side: OrderSide, quantity: number): number {
  return side === 'BUY' ? quantity : -quantity;
}
