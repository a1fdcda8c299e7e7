// Modifying a working order's price or trigger: which orders may be modified, to which levels, and
// what the venue's answer does. `applyOrderEvent` (order-events.ts) hands the three modify events
// here; the statuses never change, so ORDER_TRANSITIONS has nothing to add.
//
// Rules:
// - Only an order the venue holds and works may be modified: SUBMITTED, OPEN or PARTIALLY_FILLED,
//   with its broker order id. A final order, one the venue has not answered yet (PENDING_SUBMIT,
//   UNKNOWN), one being cancelled and a MARKET order (it has no level) are refused.
// - The new levels keep the order type's shape (createOrder): a LIMIT order has a price, an SL-M
//   order a trigger, an SL order both. The quantity is not modified.
// - `modify-requested` changes nothing yet; its effect asks the venue. Only the venue's `modified`
//   moves the levels, so an order refused or left unanswered keeps the levels the venue still has.
//   A request for the levels the order already has asks the venue nothing (a broker counts every
//   modification of an order).
// - `modified` after the order ended is overtaken (it filled or was cancelled first): no change.
import { err, ok, paise } from '@vyuha/core';
import type { EventResult, OrderEffect, OrderEventErrorCode } from './order-events';
import { isFinalStatus } from './order-state';
import type { OmsOrder } from './order-state';

/** The levels a modification sets; at least one is given, the other stays as it is. */
export interface ModifyLevels {
  readonly pricePaise?: number;
  readonly triggerPricePaise?: number;
}

function refuse(order: OmsOrder, code: OrderEventErrorCode, message: string): EventResult {
  return err({ code, clientOrderId: order.clientOrderId, message: `order ${order.clientOrderId}: ${message}` });
}

function levelIssue(value: number | undefined, field: string): string | undefined {
  if (value === undefined || (Number.isSafeInteger(value) && value > 0)) return undefined;
  return `${field} must be a whole number of paise above 0, got ${String(value)}`;
}

/** Why these levels cannot be set on this order (undefined when they can). */
function shapeIssue(order: OmsOrder, levels: ModifyLevels): string | undefined {
  const bad = levelIssue(levels.pricePaise, 'pricePaise') ?? levelIssue(levels.triggerPricePaise, 'triggerPricePaise');
  if (bad !== undefined) return bad;
  if (levels.pricePaise === undefined && levels.triggerPricePaise === undefined) {
    return 'a modification sets pricePaise or triggerPricePaise; neither was given';
  }
  if (order.orderType === 'LIMIT' && levels.triggerPricePaise !== undefined) return 'a LIMIT order takes no triggerPricePaise';
  if (order.orderType === 'SL-M' && levels.pricePaise !== undefined) return 'an SL-M order takes no pricePaise';
  return undefined;
}

/** The order with the levels set. */
function withLevels(order: OmsOrder, levels: ModifyLevels): OmsOrder {
  return {
    ...order,
    ...(levels.pricePaise === undefined ? {} : { pricePaise: paise(levels.pricePaise) }),
    ...(levels.triggerPricePaise === undefined ? {} : { triggerPricePaise: paise(levels.triggerPricePaise) }),
  };
}

function sameLevels(order: OmsOrder, levels: ModifyLevels): boolean {
  return (levels.pricePaise === undefined || levels.pricePaise === order.pricePaise)
    && (levels.triggerPricePaise === undefined || levels.triggerPricePaise === order.triggerPricePaise);
}

/** The caller wants new levels: checked, then the venue is asked (`modify-at-venue`); the order itself is unchanged. */
export function modifyRequested(order: OmsOrder, levels: ModifyLevels): EventResult {
  if (isFinalStatus(order.status)) return refuse(order, 'final-state', `is ${order.status}, a final status, and cannot be modified`);
  if (order.orderType === 'MARKET') return refuse(order, 'not-modifiable', 'is a MARKET order and has no price or trigger to modify');
  if (order.status === 'PENDING_CANCEL') return refuse(order, 'not-modifiable', 'is being cancelled and cannot be modified');
  if (order.status === 'PENDING_SUBMIT' || order.status === 'UNKNOWN' || order.brokerOrderId === undefined) {
    return refuse(order, 'not-modifiable', 'has no answer from the venue yet and cannot be modified until it has');
  }
  const issue = shapeIssue(order, levels);
  if (issue !== undefined) return refuse(order, 'invalid-event', issue);
  if (sameLevels(order, levels)) return ok({ order, effects: [], changed: false });
  const effect: OrderEffect = {
    kind: 'modify-at-venue', brokerOrderId: order.brokerOrderId,
    ...(levels.pricePaise === undefined ? {} : { pricePaise: paise(levels.pricePaise) }),
    ...(levels.triggerPricePaise === undefined ? {} : { triggerPricePaise: paise(levels.triggerPricePaise) }),
  };
  return ok({ order, effects: [effect], changed: false });
}

/** The venue took the modification: the order carries the new levels (written with the row). */
export function modified(order: OmsOrder, levels: ModifyLevels): EventResult {
  const issue = shapeIssue(order, levels);
  if (issue !== undefined) return refuse(order, 'invalid-event', issue);
  if (isFinalStatus(order.status) || sameLevels(order, levels)) return ok({ order, effects: [], changed: false });
  if (order.status === 'PENDING_SUBMIT' || order.status === 'UNKNOWN') {
    return refuse(order, 'not-modifiable', 'has no answer from the venue yet, so no modification of it can have been taken');
  }
  return ok({ order: withLevels(order, levels), effects: [{ kind: 'persist-order' }], changed: true });
}

/** The venue refused the modification: the order keeps the levels it had. */
export function modifyRejected(order: OmsOrder, reason: string): EventResult {
  if (typeof reason !== 'string' || reason === '') return refuse(order, 'invalid-event', 'a refused modification needs its reason');
  return ok({ order, effects: [], changed: false });
}
