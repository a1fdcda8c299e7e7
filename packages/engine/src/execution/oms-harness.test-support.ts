// Test support: a small OMS built only from the execution/ functions, with a "database" (order
// rows, fill rows, positions) that keeps the orders table's rules, a reference venue as the truth,
// and events in flight between them that can be delivered late, twice, or never. The model test
// drives it with random operations; reconcile's property test uses it to make realistic books.
//
// Everything a real OMS would treat as a broken invariant is collected in `violations` rather
// than thrown, so a test can say exactly what went wrong.
import { clientOrderIdFor } from './client-order-id';
import { ABSENCE_GRACE_MS, applyOrderEvent } from './order-events';
import type { OrderEffect, OrderEvent, OrderEventErrorCode } from './order-events';
import { orderRowOf, restoreOrder } from './order-record';
import type { FillRow, OrderRow } from './order-record';
import { createOrder, isFinalStatus, isLegalTransition, signedQuantity, venueTagOf } from './order-state';
import type { OmsFill, OmsOrder, OrderSide } from './order-state';
import { applyFillToPosition, FLAT_POSITION } from './positions';
import type { NetPosition } from './positions';
import { reconcile } from './reconcile';
import type { ReconcileAction } from './reconcile';
import { ReferenceVenue } from './scripted-venue.test-support';
import { orderEventOf, orderForVenueEvent } from './venue-event-routing';
import type { VenueEvent } from './venue-port';

export const HARNESS_RUN_ID = '0d9a7c1e-5b2f-4e3d-9c8b-7a6f5e4d3c2b';
export const HARNESS_T0 = 1_767_000_000_000;

/** How the venue answers a place. */
export type PlaceOutcomeScript = 'accept' | 'reject' | 'timeout-received' | 'timeout-lost' | 'timeout-landing-late' | 'crash-after-write' | 'crash-after-send';

/** How long a request that timed out may still take to reach the venue: inside the absence grace period. */
export const LATE_LANDING_MS = ABSENCE_GRACE_MS - 1_000;

interface StoredOrder {
  row: OrderRow;
  fills: FillRow[];
}

export class OmsHarness {
  readonly venue = new ReferenceVenue();
  readonly orders = new Map<string, StoredOrder>();
  /** Every fill row in the order it was inserted, with its contract and side. */
  readonly fillLog: Array<{ readonly clientOrderId: string; readonly instrumentKey: string; readonly side: OrderSide; readonly fill: OmsFill }> = [];
  readonly positions = new Map<string, NetPosition>();
  readonly violations: string[] = [];
  readonly alerts: ReconcileAction[] = [];
  inFlight: VenueEvent[] = [];
  /** Requests that timed out at the OMS but are still on their way to the venue. */
  private landing: Array<{ readonly atMs: number; readonly intent: Parameters<ReferenceVenue['receive']>[0] }> = [];
  now = HARNESS_T0;
  private memory = new Map<string, OmsOrder>();
  private sequence = 0;

  /** The OMS's orders as it holds them now. */
  get live(): OmsOrder[] {
    return [...this.memory.values()];
  }

  place(request: { readonly instrumentKey: string; readonly side: OrderSide; readonly quantity: number; readonly outcome: PlaceOutcomeScript }): void {
    const id = clientOrderIdFor({ runId: HARNESS_RUN_ID, sequence: this.sequence++ });
    if (!id.ok) throw new Error(id.error);
    const created = createOrder({ clientOrderId: id.value, instrumentKey: request.instrumentKey, side: request.side, quantity: request.quantity, orderType: 'MARKET' });
    if (!created.ok) throw new Error(created.error.message);
    if (this.orders.has(id.value)) this.violations.push(`client order id ${id.value} written twice`);
    this.orders.set(id.value, { row: orderRowOf(created.value), fills: [] });
    this.memory.set(id.value, created.value);
    if (!this.apply(id.value, { type: 'send-started', atMs: this.now })) return;
    const tag = venueTagOf(created.value);
    const intent = { tag, instrumentKey: request.instrumentKey, side: request.side, quantity: request.quantity };
    switch (request.outcome) {
      case 'accept':
        this.apply(id.value, { type: 'accepted', brokerOrderId: this.venue.receive(intent), status: 'OPEN' });
        return;
      case 'reject':
        this.apply(id.value, { type: 'rejected', reason: 'refused by the venue' });
        return;
      case 'timeout-received': {
        const brokerOrderId = this.venue.receive(intent);
        this.apply(id.value, { type: 'send-timeout' });
        this.inFlight.push({ kind: 'ack', tag, brokerOrderId, status: 'OPEN' });
        return;
      }
      case 'timeout-lost':
        this.apply(id.value, { type: 'send-timeout' });
        return;
      case 'timeout-landing-late':
        this.apply(id.value, { type: 'send-timeout' });
        this.landing.push({ atMs: this.now + LATE_LANDING_MS, intent });
        return;
      case 'crash-after-write':
        this.restart();
        return;
      case 'crash-after-send':
        this.venue.receive(intent);
        this.restart();
    }
  }

  /** Delivers one event in flight; `keep` leaves it in flight so it arrives again later. */
  deliver(pick: number, keep: boolean): void {
    if (this.inFlight.length === 0) return;
    const index = pick % this.inFlight.length;
    const event = this.inFlight[index];
    if (event === undefined) return;
    if (!keep) this.inFlight.splice(index, 1);
    const order = orderForVenueEvent(this.memory.values(), event);
    if (order === undefined) {
      this.violations.push(`no local order for venue event ${JSON.stringify(event)}`);
      return;
    }
    this.apply(order.clientOrderId, orderEventOf(event));
  }

  drop(pick: number): void {
    if (this.inFlight.length > 0) this.inFlight.splice(pick % this.inFlight.length, 1);
  }

  venueFill(request: { readonly pick: number; readonly quantity: number; readonly pricePaise: number }): void {
    const open = this.venue.orderBook().filter((order) => order.status === 'OPEN');
    const target = open[request.pick % Math.max(1, open.length)];
    if (target === undefined) return;
    const trade = this.venue.fill({ brokerOrderId: target.brokerOrderId, quantity: request.quantity, pricePaise: request.pricePaise, atMs: this.now });
    if (trade !== undefined) this.inFlight.push({ kind: 'fill', brokerOrderId: target.brokerOrderId, ...(target.tag === undefined ? {} : { tag: target.tag }), trade });
  }

  /** The exchange cancels (or, with nothing filled, rejects) a working order on its own. */
  venueEnds(request: { readonly pick: number; readonly reject: boolean }): void {
    const open = this.venue.orderBook().filter((order) => order.status === 'OPEN');
    const target = open[request.pick % Math.max(1, open.length)];
    if (target === undefined) return;
    const tag = target.tag === undefined ? {} : { tag: target.tag };
    if (request.reject && this.venue.reject(target.brokerOrderId, 'refused by the exchange')) {
      this.inFlight.push({ kind: 'rejected', brokerOrderId: target.brokerOrderId, ...tag, reason: 'refused by the exchange' });
    } else if (this.venue.cancel(target.brokerOrderId, 'cancelled by the exchange')) {
      this.inFlight.push({ kind: 'cancelled', brokerOrderId: target.brokerOrderId, ...tag, reason: 'cancelled by the exchange' });
    }
  }

  /** The OMS asks for a cancel; with `crash`, it dies after writing PENDING_CANCEL and before asking the venue. */
  requestCancel(pick: number, crash = false): void {
    const order = this.pickLocal(pick);
    if (order === undefined) return;
    const effects = this.apply(order.clientOrderId, { type: 'cancel-requested' }, ['not-cancellable', 'final-state']);
    if (crash) {
      this.restart();
      return;
    }
    for (const effect of effects === false ? [] : effects) {
      if (effect.kind === 'cancel-at-venue') this.cancelAtVenue(order.clientOrderId, effect.brokerOrderId);
    }
  }

  /** Asks the venue about every UNKNOWN order, as the OMS does after a timeout. */
  resolveUnknown(): void {
    for (const order of this.live.filter((candidate) => candidate.status === 'UNKNOWN')) {
      const report = this.venue.orderByTag(venueTagOf(order));
      const event: OrderEvent = report === undefined ? { type: 'venue-absent', checkedAtMs: this.now } : { type: 'venue-report', report };
      this.apply(order.clientOrderId, event, ['absence-too-early']);
    }
  }

  /** What a careless OMS would do after a crash: try to send an order again. The state machine must refuse. */
  retrySend(pick: number): void {
    const order = this.pickLocal(pick);
    if (order === undefined) return;
    if (this.apply(order.clientOrderId, { type: 'send-started', atMs: this.now }, ['already-sent']) !== false) {
      this.venue.receive({ tag: venueTagOf(order), instrumentKey: order.instrumentKey, side: order.side, quantity: order.quantity });
    }
  }

  /** Time passes; requests still on their way land at the venue (and it acks them on its stream). */
  advance(ms: number): void {
    this.now += ms;
    const landed = this.landing.filter((request) => request.atMs <= this.now);
    this.landing = this.landing.filter((request) => request.atMs > this.now);
    for (const { intent } of landed) {
      this.inFlight.push({ kind: 'ack', tag: intent.tag, brokerOrderId: this.venue.receive(intent), status: 'OPEN' });
    }
  }

  /** The process dies: memory and events in flight are lost; the orders come back from the rows and fills. */
  restart(): void {
    this.inFlight = [];
    this.memory = new Map();
    for (const [id, stored] of this.orders) {
      const restored = restoreOrder({ row: stored.row, fills: stored.fills });
      if (!restored.ok) this.violations.push(`order ${id} cannot be restored: ${restored.error.field}: ${restored.error.message}`);
      else this.memory.set(id, restored.value);
    }
    this.reconcileNow();
  }

  /** Reconciles every order of the account with the venue and carries out the actions; returns them. */
  reconcileNow(): readonly ReconcileAction[] {
    const positions = [...this.positions].map(([instrumentKey, position]) => ({ instrumentKey, netQuantity: position.netQuantity }));
    const outcome = reconcile({ orders: this.live, positions, venue: this.venue.snapshot(), checkedAtMs: this.now });
    for (const action of outcome.actions) {
      if (action.kind === 'update-order') {
        const fills = action.newFills.map(({ fill }) => fill);
        this.persist(action.order, fills);
      } else if (action.kind === 'cancel-at-venue') {
        this.cancelAtVenue(action.clientOrderId, action.brokerOrderId);
      } else if (action.kind === 'alert' || action.kind === 'pause-account') {
        this.alerts.push(action);
      }
    }
    return outcome.actions;
  }

  private cancelAtVenue(clientOrderId: string, brokerOrderId: string): void {
    const tag = this.venue.report(brokerOrderId)?.tag;
    if (this.venue.cancel(brokerOrderId, 'cancelled by the user')) {
      this.inFlight.push({ kind: 'cancelled', brokerOrderId, ...(tag === undefined ? {} : { tag }), reason: 'cancelled by the user' });
    } else {
      this.apply(clientOrderId, { type: 'cancel-rejected', reason: 'the order is no longer working' });
    }
  }

  private pickLocal(pick: number): OmsOrder | undefined {
    const all = this.live;
    return all[pick % Math.max(1, all.length)];
  }

  /** Applies an event and persists its effects; false on an error (a violation unless `allowed`). */
  private apply(clientOrderId: string, event: OrderEvent, allowed: readonly OrderEventErrorCode[] = []): false | readonly OrderEffect[] {
    const order = this.memory.get(clientOrderId);
    if (order === undefined) {
      this.violations.push(`event for unknown order ${clientOrderId}`);
      return false;
    }
    const result = applyOrderEvent(order, event);
    if (!result.ok) {
      if (!allowed.includes(result.error.code)) this.violations.push(`${event.type}: ${result.error.code}: ${result.error.message}`);
      return false;
    }
    const effects = result.value.effects;
    if (result.value.changed) this.persist(result.value.order, effects.flatMap((effect) => (effect.kind === 'record-fill' ? [effect.fill] : [])));
    return effects;
  }

  /** One transaction: insert the new fills (moving the position), then write the row. */
  private persist(order: OmsOrder, newFills: readonly OmsFill[]): void {
    const stored = this.orders.get(order.clientOrderId);
    if (stored === undefined) {
      this.violations.push(`no row for ${order.clientOrderId}`);
      return;
    }
    const row = orderRowOf(order);
    if (!isLegalTransition(stored.row.status, row.status)) this.violations.push(`illegal transition ${stored.row.status} -> ${row.status} of ${order.clientOrderId}`);
    if (isFinalStatus(stored.row.status) && stored.row.status !== row.status) this.violations.push(`final status ${stored.row.status} changed`);
    for (const fill of newFills) {
      if (stored.fills.some((seen) => seen.tradeId === fill.tradeId)) this.violations.push(`fill ${fill.tradeId} inserted twice`);
      stored.fills.push(fill);
      this.fillLog.push({ clientOrderId: order.clientOrderId, instrumentKey: order.instrumentKey, side: order.side, fill });
      const position = this.positions.get(order.instrumentKey) ?? FLAT_POSITION;
      this.positions.set(order.instrumentKey, applyFillToPosition(position, { side: order.side, quantity: fill.quantity, pricePaise: fill.pricePaise }));
    }
    const filled = stored.fills.reduce((sum, fill) => sum + fill.quantity, 0);
    if (filled !== row.filledQuantity || filled > row.quantity) this.violations.push(`row of ${order.clientOrderId} says ${row.filledQuantity} filled, fills say ${filled}`);
    stored.row = row;
    this.memory.set(order.clientOrderId, order);
  }
}

/** The signed position the fill log makes per contract. */
export function netFromFills(harness: OmsHarness): Map<string, number> {
  const net = new Map<string, number>();
  for (const entry of harness.fillLog) net.set(entry.instrumentKey, (net.get(entry.instrumentKey) ?? 0) + signedQuantity(entry.side, entry.fill.quantity));
  return net;
}

/** Long enough that an order's absence from the venue's book is proof it was never received. */
export const ABSENCE_SETTLE_MS = ABSENCE_GRACE_MS + 1;
