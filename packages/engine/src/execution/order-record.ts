// An order as the database holds it (one orders row and its fills rows) and back. After a
// restart the OMS knows only what was written, so an order is rebuilt from its row and its fills
// here, and everything the state machine decides is written through `orderRowOf`.
//
// The exact fill value is not a column: the row keeps the rounded average price, and the fills
// rows give the exact sum again. A row whose filled quantity disagrees with its fills, or whose
// status disagrees with its filled quantity, is refused with the field named.
import { err, ok, paise } from '@vyuha/core';
import type { Paise, Result } from '@vyuha/core';
import { asClientOrderId } from './client-order-id';
import { averageFillPricePaise, createOrder, OMS_ORDER_STATUSES } from './order-state';
import type { OmsFill, OmsOrder, OmsOrderStatus, OmsOrderType, OrderFieldIssue, OrderSide } from './order-state';

/** The orders columns the state machine reads and writes (money in paise, times in epoch ms). */
export interface OrderRow {
  readonly clientOrderId: string;
  readonly tag: string | null;
  readonly instrumentKey: string;
  readonly side: OrderSide;
  readonly quantity: number;
  readonly orderType: OmsOrderType;
  readonly pricePaise: number | null;
  readonly triggerPricePaise: number | null;
  readonly status: OmsOrderStatus;
  readonly filledQuantity: number;
  readonly averagePricePaise: number | null;
  readonly submittedAtMs: number | null;
  readonly brokerOrderId: string | null;
  readonly statusMessage: string | null;
}

/** One fills row: the trade id, quantity, price and time. */
export type FillRow = OmsFill;

/** The row to write for an order (average price rounded half up, NULL while nothing is filled). */
export function orderRowOf(order: OmsOrder): OrderRow {
  return {
    clientOrderId: order.clientOrderId,
    tag: order.tag ?? null,
    instrumentKey: order.instrumentKey,
    side: order.side,
    quantity: order.quantity,
    orderType: order.orderType,
    pricePaise: order.pricePaise ?? null,
    triggerPricePaise: order.triggerPricePaise ?? null,
    status: order.status,
    filledQuantity: order.filledQuantity,
    averagePricePaise: averageFillPricePaise(order) ?? null,
    submittedAtMs: order.submittedAtMs ?? null,
    brokerOrderId: order.brokerOrderId ?? null,
    statusMessage: order.statusMessage ?? null,
  };
}

function issue(field: string, message: string): Result<never, OrderFieldIssue> {
  return err({ field, message });
}

function statusIssue(status: OmsOrderStatus, filled: number, quantity: number): string | undefined {
  if (status === 'FILLED' && filled !== quantity) return `a FILLED order has all ${quantity} filled, not ${filled}`;
  if (status === 'PARTIALLY_FILLED' && (filled === 0 || filled === quantity)) {
    return `a PARTIALLY_FILLED order has between 1 and ${quantity - 1} filled, not ${filled}`;
  }
  if (filled > 0 && ['PENDING_SUBMIT', 'SUBMITTED', 'OPEN', 'REJECTED'].includes(status)) return `a ${status} order has nothing filled, not ${filled}`;
  return undefined;
}

/** The order a row and its fills (in the order they were recorded) describe, or the field that is wrong. */
export function restoreOrder(stored: { readonly row: OrderRow; readonly fills: readonly FillRow[] }): Result<OmsOrder, OrderFieldIssue> {
  const { row, fills } = stored;
  const id = asClientOrderId(row.clientOrderId);
  if (!id.ok) return issue('clientOrderId', id.error);
  const base = createOrder({
    clientOrderId: id.value,
    ...(row.tag === null ? {} : { tag: row.tag }),
    instrumentKey: row.instrumentKey,
    side: row.side,
    quantity: row.quantity,
    orderType: row.orderType,
    ...(row.pricePaise === null ? {} : { pricePaise: row.pricePaise }),
    ...(row.triggerPricePaise === null ? {} : { triggerPricePaise: row.triggerPricePaise }),
  });
  if (!base.ok) return base;
  if (!OMS_ORDER_STATUSES.includes(row.status)) return issue('status', `status must be one of ${OMS_ORDER_STATUSES.join(', ')}, got ${String(row.status)}`);
  const seen = new Set<string>();
  let filledQuantity = 0;
  let value = 0;
  for (const [index, fill] of fills.entries()) {
    if (seen.has(fill.tradeId)) return issue(`fills[${index}].tradeId`, `trade ${fill.tradeId} appears twice`);
    if (!Number.isSafeInteger(fill.quantity) || fill.quantity <= 0) {
      return issue(`fills[${index}].quantity`, `must be a whole number above 0, got ${fill.quantity}`);
    }
    if (!Number.isSafeInteger(fill.pricePaise) || fill.pricePaise <= 0) {
      return issue(`fills[${index}].pricePaise`, `must be whole paise above 0, got ${fill.pricePaise}`);
    }
    seen.add(fill.tradeId);
    filledQuantity += fill.quantity;
    value += fill.quantity * fill.pricePaise;
  }
  if (filledQuantity !== row.filledQuantity) return issue('filledQuantity', `the row says ${row.filledQuantity} filled, its fills add up to ${filledQuantity}`);
  if (filledQuantity > row.quantity) return issue('filledQuantity', `${filledQuantity} filled is more than the ${row.quantity} ordered`);
  const wrongStatus = statusIssue(row.status, filledQuantity, row.quantity);
  if (wrongStatus !== undefined) return issue('status', wrongStatus);
  // Only a PENDING_SUBMIT order, or one withdrawn (CANCELLED) before it was sent, has no submitted time.
  if (row.submittedAtMs === null && row.status !== 'PENDING_SUBMIT' && !(row.status === 'CANCELLED' && filledQuantity === 0)) {
    return issue('submittedAtMs', `a ${row.status} order was sent, so it has a submitted time`);
  }
  const filledValuePaise: Paise = paise(value);
  return ok({
    ...base.value,
    status: row.status,
    filledQuantity,
    filledValuePaise,
    fills: [...fills],
    ...(row.submittedAtMs === null ? {} : { submittedAtMs: row.submittedAtMs }),
    ...(row.brokerOrderId === null ? {} : { brokerOrderId: row.brokerOrderId }),
    ...(row.statusMessage === null ? {} : { statusMessage: row.statusMessage }),
  });
}
