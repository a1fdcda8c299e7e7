// Reconciliation: the account's local orders and positions against what the venue says (its order
// book with each order's trades, and its positions), turned into a list of actions. The OMS runs
// it on every start, before any strategy of the account resumes, and whenever the venue's stream
// may have missed something (a reconnect). Pure: the same inputs give the same actions.
//
// The rules:
// - a local order is matched to a venue order by its broker order id, or, when it has none (an
//   UNKNOWN, or sent with no answer before a crash), by its tag (`venueTagOf`);
// - a match is adopted through the state machine's `venue-report` event: missed fills are recorded
//   (idempotent by trade id), the venue's status is taken; a contradiction is an alert;
// - a sent order with no broker order id that the venue's book does not have is REJECTED "not
//   received by the venue" (`venue-absent`); the strategy may decide it again as a new order with
//   a new client order id, never the same id. Too soon after its send, it is checked again later;
// - an acknowledged order missing from the venue's book, an order never sent that the venue has,
//   and a venue position that the local positions plus the fills just recorded do not explain all
//   raise an alert with the numbers and pause the account;
// - a cancel still pending while the venue reports the order working is asked for again.
//
// Reconciling again after carrying out the actions gives no order changes (property-tested).
import { ABSENCE_GRACE_MS, applyOrderEvent } from './order-events';
import type { OrderEventErrorCode } from './order-events';
import { isFinalStatus, venueTagOf } from './order-state';
import type { OmsFill, OmsOrder } from './order-state';
import type { VenueOrderReport, VenueSnapshot } from './venue-port';

/** The local net position of the account in one contract (over all its runs). */
export interface LocalPosition {
  readonly instrumentKey: string;
  readonly netQuantity: number;
}

export interface ReconcileInput {
  /** The account's orders that are not final, and any final ones whose late fills should be looked for. */
  readonly orders: readonly OmsOrder[];
  readonly positions: readonly LocalPosition[];
  readonly venue: VenueSnapshot;
  /** When the venue's snapshot was read. */
  readonly checkedAtMs: number;
}

export type ReconcileAlertCode =
  | OrderEventErrorCode | 'acknowledged-order-absent' | 'unsent-order-at-venue' | 'unexplained-position';

/** What the OMS must do. */
export type ReconcileAction =
  /** Write the order and insert its new fills (each moving the position), in one transaction. */
  | { readonly kind: 'update-order'; readonly order: OmsOrder; readonly newFills: readonly NewFill[] }
  | { readonly kind: 'cancel-at-venue'; readonly clientOrderId: string; readonly brokerOrderId: string }
  /** Absence is not yet proof (the send may still be landing): reconcile this order again at `atMs`. */
  | { readonly kind: 'check-again'; readonly clientOrderId: string; readonly atMs: number }
  | {
    readonly kind: 'alert'; readonly code: ReconcileAlertCode; readonly message: string;
    readonly clientOrderId?: string; readonly instrumentKey?: string; readonly localQuantity?: number; readonly venueQuantity?: number;
  }
  /** Stop every strategy of the account until a person has looked (the alerts say why). */
  | { readonly kind: 'pause-account'; readonly reasons: readonly string[] };

export interface ReconcileOutcome {
  readonly actions: readonly ReconcileAction[];
  /** The local orders after the actions, in the input's order. */
  readonly orders: readonly OmsOrder[];
}

/** A fill reconciliation found, and how it moves the position (signed units). */
export interface NewFill {
  readonly fill: OmsFill;
  readonly positionChange: number;
}

type Alert = Extract<ReconcileAction, { kind: 'alert' }>;

function indexVenueOrders(orders: readonly VenueOrderReport[]): { byBroker: Map<string, VenueOrderReport>; byTag: Map<string, VenueOrderReport> } {
  const byBroker = new Map<string, VenueOrderReport>();
  const byTag = new Map<string, VenueOrderReport>();
  for (const report of orders) {
    byBroker.set(report.brokerOrderId, report);
    if (report.tag !== undefined) byTag.set(report.tag, report);
  }
  return { byBroker, byTag };
}

interface OrderOutcome {
  readonly order: OmsOrder;
  readonly actions: ReconcileAction[];
  readonly alerts: Alert[];
}

function reconcileOrder(order: OmsOrder, found: VenueOrderReport | undefined, checkedAtMs: number): OrderOutcome {
  const actions: ReconcileAction[] = [];
  const alerts: Alert[] = [];
  const id = order.clientOrderId;
  if (order.submittedAtMs === undefined) {
    if (found !== undefined) {
      const message = `Order ${id} was never sent, yet the venue has order ${found.brokerOrderId} with its tag.`;
      alerts.push({ kind: 'alert', code: 'unsent-order-at-venue', clientOrderId: id, message });
    }
    return { order, actions, alerts };
  }
  if (found === undefined) {
    if (isFinalStatus(order.status)) return { order, actions, alerts };
    if (order.brokerOrderId !== undefined || order.filledQuantity > 0) {
      const message = `Order ${id} (${order.status}) is missing from the venue's order book.`;
      alerts.push({ kind: 'alert', code: 'acknowledged-order-absent', clientOrderId: id, message });
      return { order, actions, alerts };
    }
    const result = applyOrderEvent(order, { type: 'venue-absent', checkedAtMs });
    if (result.ok) {
      if (result.value.changed) actions.push({ kind: 'update-order', order: result.value.order, newFills: [] });
      return { order: result.value.order, actions, alerts };
    }
    if (result.error.code === 'absence-too-early') {
      actions.push({ kind: 'check-again', clientOrderId: id, atMs: order.submittedAtMs + ABSENCE_GRACE_MS });
      return { order, actions, alerts };
    }
    alerts.push({ kind: 'alert', code: result.error.code, clientOrderId: id, message: result.error.message });
    return { order, actions, alerts };
  }
  const result = applyOrderEvent(order, { type: 'venue-report', report: found });
  if (!result.ok) {
    alerts.push({ kind: 'alert', code: result.error.code, clientOrderId: id, message: result.error.message });
    return { order, actions, alerts };
  }
  const next = result.value.order;
  if (result.value.changed) {
    const newFills = result.value.effects.flatMap((effect): NewFill[] => (
      effect.kind === 'record-fill' ? [{ fill: effect.fill, positionChange: effect.positionChange }] : []));
    actions.push({ kind: 'update-order', order: next, newFills });
  }
  if (next.status === 'PENDING_CANCEL' && next.brokerOrderId !== undefined && (found.status === 'OPEN' || found.status === 'SUBMITTED')) {
    actions.push({ kind: 'cancel-at-venue', clientOrderId: id, brokerOrderId: next.brokerOrderId });
  }
  return { order: next, actions, alerts };
}

function positionAlerts(input: ReconcileInput, changes: ReadonlyMap<string, number>): Alert[] {
  const expected = new Map<string, number>();
  for (const position of input.positions) expected.set(position.instrumentKey, (expected.get(position.instrumentKey) ?? 0) + position.netQuantity);
  for (const [key, change] of changes) expected.set(key, (expected.get(key) ?? 0) + change);
  const venue = new Map<string, number>();
  for (const position of input.venue.positions) venue.set(position.instrumentKey, (venue.get(position.instrumentKey) ?? 0) + position.netQuantity);
  const keys = [...new Set([...expected.keys(), ...venue.keys()])].sort();
  return keys.flatMap((instrumentKey): Alert[] => {
    const localQuantity = expected.get(instrumentKey) ?? 0;
    const venueQuantity = venue.get(instrumentKey) ?? 0;
    if (localQuantity === venueQuantity) return [];
    return [{
      kind: 'alert', code: 'unexplained-position', instrumentKey, localQuantity, venueQuantity,
      message: `The venue holds ${venueQuantity} of ${instrumentKey}; the recorded fills explain ${localQuantity} `
        + `(a difference of ${venueQuantity - localQuantity}).`,
    }];
  });
}

/**
 * The actions that bring the local books in line with the venue's.
 * @example reconcile({ orders: [unknown], positions: [], venue: { orders: [], positions: [] }, checkedAtMs }) // update-order: REJECTED
 */
export function reconcile(input: ReconcileInput): ReconcileOutcome {
  if (!Number.isSafeInteger(input.checkedAtMs)) throw new RangeError(`checkedAtMs must be epoch milliseconds, got ${input.checkedAtMs}`);
  const { byBroker, byTag } = indexVenueOrders(input.venue.orders);
  const actions: ReconcileAction[] = [];
  const alerts: Alert[] = [];
  const changes = new Map<string, number>();
  const orders = input.orders.map((order) => {
    const found = order.brokerOrderId !== undefined ? byBroker.get(order.brokerOrderId) : byTag.get(venueTagOf(order));
    const outcome = reconcileOrder(order, found, input.checkedAtMs);
    actions.push(...outcome.actions);
    alerts.push(...outcome.alerts);
    for (const action of outcome.actions) {
      if (action.kind !== 'update-order') continue;
      for (const { positionChange } of action.newFills) changes.set(order.instrumentKey, (changes.get(order.instrumentKey) ?? 0) + positionChange);
    }
    return outcome.order;
  });
  alerts.push(...positionAlerts(input, changes));
  actions.push(...alerts);
  if (alerts.length > 0) actions.push({ kind: 'pause-account', reasons: alerts.map((alert) => alert.message) });
  return { actions, orders };
}
