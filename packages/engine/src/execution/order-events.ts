// The strict order state machine: `applyOrderEvent(order, event)` gives the next order and the
// effects the caller must carry out (write the row, insert a fill and move the position, ask the
// venue, send a cancel), or an error that changes nothing. Statuses and the transition table are in
// order-state.ts; the rules for each event are in execution/README.md.
//
// Rules that keep an order from doubling or a fill from being lost:
// - A send begins with `send-started`, which is accepted once: an order that has been sent is
//   never sent again, whatever happens next.
// - A timeout or an unclear answer makes the order UNKNOWN; only the venue's word resolves it
//   (`accepted`, a `fill`, `venue-report`, or `venue-absent`, which means the venue's book was
//   read and the order is not there: REJECTED "not received by the venue").
// - A fill is idempotent by trade id (a duplicate is reported, not applied) and a fill beyond the
//   order's quantity is an error, never applied.
// - Events may arrive out of order (a fill before its ack, a timeout after the ack): an event
//   that is already overtaken changes nothing and says so (`changed: false`).
// - A working order's price or trigger moves only when the venue took the modification
//   (order-modify.ts).
import { err, ok, paise } from '@vyuha/core';
import type { Paise, Result } from '@vyuha/core';
import { modified, modifyRejected, modifyRequested } from './order-modify';
import type { ModifyLevels } from './order-modify';
import { isFinalStatus, signedQuantity } from './order-state';
import type { OmsFill, OmsOrder, OmsOrderStatus } from './order-state';
import type { VenueOrderReport } from './venue-port';

/** Something that happened to an order. */
export type OrderEvent =
  /** The OMS is about to send the order (after writing this): it may exist at the venue from now on. */
  | { readonly type: 'send-started'; readonly atMs: number }
  | { readonly type: 'accepted'; readonly brokerOrderId: string; readonly status: 'SUBMITTED' | 'OPEN' }
  | { readonly type: 'send-timeout' }
  | { readonly type: 'send-failed-unknown'; readonly reason: string }
  | { readonly type: 'rejected'; readonly reason: string; readonly brokerOrderId?: string }
  | { readonly type: 'fill'; readonly fill: OmsFill; readonly brokerOrderId?: string }
  | { readonly type: 'cancel-requested' }
  | { readonly type: 'cancel-rejected'; readonly reason: string }
  | { readonly type: 'cancelled'; readonly reason?: string; readonly brokerOrderId?: string }
  /** The venue's own view of the order (its order book): adopted, missed fills recorded. */
  | { readonly type: 'venue-report'; readonly report: VenueOrderReport }
  /** The venue's book was read at `checkedAtMs` and has no order with this order's tag. */
  | { readonly type: 'venue-absent'; readonly checkedAtMs: number }
  /** The caller wants the working order's price and/or trigger moved: checked, then the venue is asked. */
  | ({ readonly type: 'modify-requested' } & ModifyLevels)
  /** The venue took the modification: the order carries the new levels. */
  | ({ readonly type: 'modified' } & ModifyLevels)
  /** The venue refused the modification: the order keeps its levels. */
  | { readonly type: 'modify-rejected'; readonly reason: string };

/** What the caller must do after an event; in one transaction where several come together. */
export type OrderEffect =
  /** Write the order row (status, filled quantity, average price, broker id, message, submitted_at). */
  | { readonly kind: 'persist-order' }
  /** Insert the fill and move the position by `positionChange` (signed units). */
  | { readonly kind: 'record-fill'; readonly fill: OmsFill; readonly positionChange: number }
  /** A fill already recorded arrived again: nothing to write. */
  | { readonly kind: 'duplicate-fill'; readonly tradeId: string }
  /** The outcome at the venue is unknown: look the order up by its tag. Never resend it. */
  | { readonly kind: 'resolve-with-venue' }
  /** Ask the venue to cancel the order. */
  | { readonly kind: 'cancel-at-venue'; readonly brokerOrderId: string }
  /** Ask the venue to move the order's price and/or trigger; `modified` or `modify-rejected` reports its answer. */
  | { readonly kind: 'modify-at-venue'; readonly brokerOrderId: string; readonly pricePaise?: Paise; readonly triggerPricePaise?: Paise };

/** The order after an event, and what to do about it. */
export interface OrderTransition {
  readonly order: OmsOrder;
  readonly effects: readonly OrderEffect[];
  /** False when the event was already known or overtaken: nothing to write. */
  readonly changed: boolean;
}

export type OrderEventErrorCode =
  | 'invalid-event' | 'final-state' | 'not-sent' | 'already-sent' | 'fill-exceeds-quantity' | 'broker-order-id-mismatch'
  | 'not-cancellable' | 'not-modifiable' | 'rejected-after-fill' | 'acknowledged-order-absent' | 'absence-too-early' | 'venue-report-inconsistent';

/** An event the order cannot take; the order is unchanged. */
export interface OrderEventError {
  readonly code: OrderEventErrorCode;
  readonly clientOrderId: string;
  readonly message: string;
}

/**
 * How long after a send began the venue's book must be read before "not there" means "never
 * received": longer than any send timeout the runtime uses, so no request is still in flight.
 */
export const ABSENCE_GRACE_MS = 10_000;

/** The message of an order the venue's book does not have (execution/README.md). */
export const NOT_RECEIVED_MESSAGE = 'not received by the venue';

export type EventResult = Result<OrderTransition, OrderEventError>;

function failure(order: OmsOrder, code: OrderEventErrorCode, message: string): EventResult {
  return err({ code, clientOrderId: order.clientOrderId, message: `order ${order.clientOrderId}: ${message}` });
}

function unchanged(order: OmsOrder, effects: readonly OrderEffect[] = []): EventResult {
  return ok({ order, effects, changed: false });
}

function changedTo(order: OmsOrder, effects: readonly OrderEffect[] = []): EventResult {
  return ok({ order, effects: [...effects, { kind: 'persist-order' }], changed: true });
}

function wasSent(order: OmsOrder): boolean {
  return order.submittedAtMs !== undefined;
}

function notSent(order: OmsOrder, what: string): EventResult {
  return failure(order, 'not-sent', `${what} for an order that was never sent`);
}

function finalState(order: OmsOrder, what: string): EventResult {
  return failure(order, 'final-state', `is ${order.status}, a final status, and cannot take ${what}`);
}

function checkBrokerOrderId(order: OmsOrder, brokerOrderId: string): EventResult | undefined {
  if (typeof brokerOrderId !== 'string' || brokerOrderId === '') return failure(order, 'invalid-event', 'brokerOrderId must not be empty');
  if (order.brokerOrderId !== undefined && order.brokerOrderId !== brokerOrderId) {
    return failure(order, 'broker-order-id-mismatch', `has broker order ${order.brokerOrderId}, the event names ${brokerOrderId}`);
  }
  return undefined;
}

function sendStarted(order: OmsOrder, atMs: number): EventResult {
  if (!Number.isSafeInteger(atMs)) return failure(order, 'invalid-event', `atMs must be epoch milliseconds, got ${atMs}`);
  if (wasSent(order) || order.status !== 'PENDING_SUBMIT') {
    return failure(order, 'already-sent', 'was already sent; sending it again could double it');
  }
  return changedTo({ ...order, submittedAtMs: atMs });
}

function accepted(order: OmsOrder, brokerOrderId: string, venueStatus: 'SUBMITTED' | 'OPEN'): EventResult {
  const bad = checkBrokerOrderId(order, brokerOrderId);
  if (bad !== undefined) return bad;
  if (venueStatus !== 'SUBMITTED' && venueStatus !== 'OPEN') {
    return failure(order, 'invalid-event', `status must be SUBMITTED or OPEN, got ${String(venueStatus)}`);
  }
  if (!wasSent(order)) return notSent(order, 'an acknowledgement');
  // A late ack of an order the venue itself rejected (same broker order) is stale; an ack of an
  // order rejected as never received means the venue has it after all: a contradiction.
  if (order.status === 'REJECTED') return order.brokerOrderId === brokerOrderId ? unchanged(order) : finalState(order, 'an acknowledgement');
  let status = order.status;
  if (status === 'PENDING_SUBMIT' || status === 'UNKNOWN') status = order.filledQuantity > 0 ? 'PARTIALLY_FILLED' : venueStatus;
  else if (status === 'SUBMITTED') status = venueStatus;
  if (status === order.status && order.brokerOrderId === brokerOrderId) return unchanged(order);
  return changedTo({ ...order, status, brokerOrderId });
}

function outcomeUnknown(order: OmsOrder, reason: string): EventResult {
  if (!wasSent(order)) return notSent(order, 'a send timeout');
  // Anything but PENDING_SUBMIT means the venue has already answered: the timeout is overtaken.
  if (order.status !== 'PENDING_SUBMIT') return unchanged(order);
  return changedTo({ ...order, status: 'UNKNOWN', statusMessage: reason }, [{ kind: 'resolve-with-venue' }]);
}

/** The broker order id an event names, when the order has none yet (an answer that overtook the ack). */
function withBrokerOrderId(order: OmsOrder, brokerOrderId: string | undefined): OmsOrder {
  return brokerOrderId === undefined || order.brokerOrderId !== undefined ? order : { ...order, brokerOrderId };
}

function rejected(order: OmsOrder, reason: string, brokerOrderId?: string): EventResult {
  const bad = brokerOrderId === undefined ? undefined : checkBrokerOrderId(order, brokerOrderId);
  if (bad !== undefined) return bad;
  if (!wasSent(order)) return notSent(order, 'a rejection');
  if (order.status === 'REJECTED') return unchanged(order);
  if (isFinalStatus(order.status)) return finalState(order, 'a rejection');
  if (order.filledQuantity > 0) return failure(order, 'rejected-after-fill', `has ${order.filledQuantity} filled and cannot be rejected`);
  return changedTo({ ...withBrokerOrderId(order, brokerOrderId), status: 'REJECTED', statusMessage: reason });
}

function invalidFill(order: OmsOrder, fill: OmsFill): EventResult | undefined {
  if (typeof fill.tradeId !== 'string' || fill.tradeId === '') return failure(order, 'invalid-event', 'fill.tradeId must not be empty');
  if (!Number.isSafeInteger(fill.quantity) || fill.quantity <= 0) {
    return failure(order, 'invalid-event', `fill.quantity must be a whole number above 0, got ${fill.quantity}`);
  }
  if (!Number.isSafeInteger(fill.pricePaise) || fill.pricePaise <= 0) {
    return failure(order, 'invalid-event', `fill.pricePaise must be a whole number of paise above 0, got ${fill.pricePaise}`);
  }
  if (!Number.isSafeInteger(fill.atMs)) return failure(order, 'invalid-event', `fill.atMs must be epoch milliseconds, got ${fill.atMs}`);
  return undefined;
}

function filled(order: OmsOrder, fill: OmsFill, brokerOrderId?: string): EventResult {
  const bad = invalidFill(order, fill) ?? (brokerOrderId === undefined ? undefined : checkBrokerOrderId(order, brokerOrderId));
  if (bad !== undefined) return bad;
  if (order.fills.some((seen) => seen.tradeId === fill.tradeId)) return unchanged(order, [{ kind: 'duplicate-fill', tradeId: fill.tradeId }]);
  if (!wasSent(order)) return notSent(order, `fill ${fill.tradeId}`);
  if (order.status === 'REJECTED' || order.status === 'FILLED') return finalState(order, `fill ${fill.tradeId}`);
  const filledQuantity = order.filledQuantity + fill.quantity;
  if (filledQuantity > order.quantity) {
    return failure(order, 'fill-exceeds-quantity', `fill ${fill.tradeId} of ${fill.quantity} would bring it to ${filledQuantity} of ${order.quantity}`);
  }
  const value = order.filledValuePaise + fill.quantity * fill.pricePaise;
  if (!Number.isSafeInteger(value)) return failure(order, 'invalid-event', `fill ${fill.tradeId} takes the filled value past exact integers`);
  let status: OmsOrderStatus = order.status;
  // A late fill of a cancelled order keeps it CANCELLED (a final status is final); it was filled
  // before the cancellation took effect.
  if (status !== 'CANCELLED') {
    status = filledQuantity === order.quantity ? 'FILLED' : status === 'PENDING_CANCEL' ? 'PENDING_CANCEL' : 'PARTIALLY_FILLED';
  }
  const next: OmsOrder = {
    ...order,
    status,
    filledQuantity,
    filledValuePaise: paise(value),
    fills: [...order.fills, fill],
    ...(brokerOrderId === undefined ? {} : { brokerOrderId }),
  };
  return changedTo(next, [{ kind: 'record-fill', fill, positionChange: signedQuantity(order.side, fill.quantity) }]);
}

function cancelRequested(order: OmsOrder): EventResult {
  if (!wasSent(order)) return changedTo({ ...order, status: 'CANCELLED', statusMessage: 'withdrawn before it was sent' });
  switch (order.status) {
    case 'PENDING_CANCEL':
      return unchanged(order);
    case 'PENDING_SUBMIT':
    case 'UNKNOWN':
      return failure(order, 'not-cancellable', 'has no answer from the venue yet; it is cancelled once the venue says where it is');
    case 'FILLED':
    case 'CANCELLED':
    case 'REJECTED':
      return finalState(order, 'a cancel request');
    default:
      if (order.brokerOrderId === undefined) return failure(order, 'not-cancellable', 'has no broker order id to cancel');
      return changedTo({ ...order, status: 'PENDING_CANCEL' }, [{ kind: 'cancel-at-venue', brokerOrderId: order.brokerOrderId }]);
  }
}

function cancelRejected(order: OmsOrder, reason: string): EventResult {
  // The refusal of a cancel is overtaken when the order has meanwhile filled or ended.
  if (order.status !== 'PENDING_CANCEL') return unchanged(order);
  return changedTo({ ...order, status: order.filledQuantity > 0 ? 'PARTIALLY_FILLED' : 'OPEN', statusMessage: reason });
}

function cancelled(order: OmsOrder, reason: string | undefined, brokerOrderId?: string): EventResult {
  const bad = brokerOrderId === undefined ? undefined : checkBrokerOrderId(order, brokerOrderId);
  if (bad !== undefined) return bad;
  if (!wasSent(order)) return notSent(order, 'a cancellation');
  if (order.status === 'CANCELLED') return unchanged(order);
  if (isFinalStatus(order.status)) return finalState(order, 'a cancellation');
  const message = reason === undefined ? {} : { statusMessage: reason };
  return changedTo({ ...withBrokerOrderId(order, brokerOrderId), status: 'CANCELLED', ...message });
}

function venueAbsent(order: OmsOrder, checkedAtMs: number): EventResult {
  if (!Number.isSafeInteger(checkedAtMs)) return failure(order, 'invalid-event', `checkedAtMs must be epoch milliseconds, got ${checkedAtMs}`);
  if (order.submittedAtMs === undefined) return notSent(order, 'a venue lookup');
  if (order.status === 'REJECTED' && order.statusMessage === NOT_RECEIVED_MESSAGE) return unchanged(order);
  if (isFinalStatus(order.status)) return finalState(order, 'a venue lookup');
  if (order.brokerOrderId !== undefined || order.filledQuantity > 0) {
    return failure(order, 'acknowledged-order-absent', 'was acknowledged by the venue but is missing from its order book');
  }
  if (checkedAtMs < order.submittedAtMs + ABSENCE_GRACE_MS) {
    return failure(order, 'absence-too-early', `was sent at ${order.submittedAtMs}; its absence counts from ${order.submittedAtMs + ABSENCE_GRACE_MS}`);
  }
  return changedTo({ ...order, status: 'REJECTED', statusMessage: NOT_RECEIVED_MESSAGE });
}

function reportIssue(order: OmsOrder, report: VenueOrderReport): string | undefined {
  if (report.instrumentKey !== order.instrumentKey || report.side !== order.side || report.quantity !== order.quantity) {
    return `the venue reports ${report.side} ${report.quantity} of ${report.instrumentKey}, `
      + `the order is ${order.side} ${order.quantity} of ${order.instrumentKey}`;
  }
  if (!Array.isArray(report.trades)) return 'the venue report has no trades list';
  const traded = report.trades.reduce((sum, trade) => sum + trade.quantity, 0);
  if (traded !== report.filledQuantity) return `the venue reports ${report.filledQuantity} filled but its trades add up to ${traded}`;
  if (report.status === 'FILLED' && report.filledQuantity !== report.quantity) {
    return `the venue reports FILLED with ${report.filledQuantity} of ${report.quantity} filled`;
  }
  const missing = order.fills.find((fill) => !report.trades.some((trade) => trade.tradeId === fill.tradeId));
  if (missing !== undefined) return `the venue's trades lack fill ${missing.tradeId} already recorded`;
  return undefined;
}

/**
 * Adopts the venue's view of an order: every trade it lists is applied as a fill (those already
 * recorded are skipped), then its status is taken unless it contradicts a final local status.
 * A cancel still pending stays pending while the venue reports the order working.
 */
function applyVenueReport(order: OmsOrder, report: VenueOrderReport): EventResult {
  const bad = checkBrokerOrderId(order, report.brokerOrderId);
  if (bad !== undefined) return bad;
  if (!wasSent(order)) return notSent(order, 'a venue report');
  const issue = reportIssue(order, report);
  if (issue !== undefined) return failure(order, 'venue-report-inconsistent', issue);
  let current = order;
  const effects: OrderEffect[] = [];
  const step = (result: EventResult): EventResult | undefined => {
    if (!result.ok) return result;
    current = result.value.order;
    effects.push(...result.value.effects.filter((effect) => effect.kind === 'record-fill'));
    return undefined;
  };
  for (const trade of report.trades) {
    const failed = step(filled(current, trade, report.brokerOrderId));
    if (failed !== undefined) return failed;
  }
  const message = report.statusMessage;
  let statusStep: EventResult;
  switch (report.status) {
    case 'REJECTED':
      statusStep = rejected(current, message ?? 'rejected by the venue');
      break;
    case 'CANCELLED':
      statusStep = current.status === 'FILLED' ? unchanged(current) : cancelled(current, message);
      break;
    case 'FILLED':
      statusStep = unchanged(current);
      break;
    default:
      if (current.status === 'CANCELLED' || current.status === 'REJECTED') {
        return finalState(current, `the venue's ${report.status} status`);
      }
      statusStep = current.status === 'PENDING_CANCEL' ? unchanged(current) : accepted(current, report.brokerOrderId, report.status);
  }
  const failed = step(statusStep);
  if (failed !== undefined) return failed;
  if (current.brokerOrderId === undefined) current = { ...current, brokerOrderId: report.brokerOrderId };
  if (current === order) return unchanged(order);
  return changedTo(current, effects);
}

/**
 * The order after `event`, with the effects to carry out; an error (and no change) for an event
 * the order cannot take.
 * @example applyOrderEvent(order, { type: 'send-timeout' }) // ok: UNKNOWN, effects persist-order + resolve-with-venue
 */
export function applyOrderEvent(order: OmsOrder, event: OrderEvent): EventResult {
  switch (event.type) {
    case 'send-started':
      return sendStarted(order, event.atMs);
    case 'accepted':
      return accepted(order, event.brokerOrderId, event.status);
    case 'send-timeout':
      return outcomeUnknown(order, 'no answer from the venue in time');
    case 'send-failed-unknown':
      return outcomeUnknown(order, event.reason);
    case 'rejected':
      return rejected(order, event.reason, event.brokerOrderId);
    case 'fill':
      return filled(order, event.fill, event.brokerOrderId);
    case 'cancel-requested':
      return cancelRequested(order);
    case 'cancel-rejected':
      return cancelRejected(order, event.reason);
    case 'cancelled':
      return cancelled(order, event.reason, event.brokerOrderId);
    case 'venue-report':
      return applyVenueReport(order, event.report);
    case 'venue-absent':
      return venueAbsent(order, event.checkedAtMs);
    case 'modify-requested':
      return modifyRequested(order, event);
    case 'modified':
      return modified(order, event);
    case 'modify-rejected':
      return modifyRejected(order, event.reason);
    default:
      return failure(order, 'invalid-event', `unknown event type ${JSON.stringify((event as { type: unknown }).type)}`);
  }
}
