// Test support: a reference venue that is the truth the OMS must agree with, and a scripted
// `VenuePort` over it whose `place` answers as the test says (accept, reject, time out after the
// order arrived, time out with the order lost). Used by the model test and the port's own tests;
// never by production code.
//
// The reference venue counts every order it receives per tag, so a test can prove that no intent
// ever became two venue orders.
import { paise } from '@vyuha/core';
import type {
  CancelOutcome, OrderIntent, PlaceOutcome, Unsubscribe, VenueEvent, VenueOrderReport, VenuePort, VenuePosition, VenueSnapshot, VenueTrade,
} from './venue-port';

interface VenueOrder {
  brokerOrderId: string;
  tag: string;
  instrumentKey: string;
  side: 'BUY' | 'SELL';
  quantity: number;
  status: VenueOrderReport['status'];
  trades: VenueTrade[];
  statusMessage?: string;
}

/** The venue's own books: orders, their trades and the positions they make. Synchronous. */
export class ReferenceVenue {
  private readonly orders = new Map<string, VenueOrder>();
  private readonly receivedPerTag = new Map<string, number>();
  private nextOrder = 1;
  private nextTrade = 1;

  /** The venue receives an order and opens it; returns its broker order id. */
  receive(intent: Pick<OrderIntent, 'tag' | 'instrumentKey' | 'side' | 'quantity'>): string {
    const brokerOrderId = `B${this.nextOrder++}`;
    this.receivedPerTag.set(intent.tag, (this.receivedPerTag.get(intent.tag) ?? 0) + 1);
    this.orders.set(brokerOrderId, {
      brokerOrderId, tag: intent.tag, instrumentKey: intent.instrumentKey, side: intent.side, quantity: intent.quantity, status: 'OPEN', trades: [],
    });
    return brokerOrderId;
  }

  /** How many orders arrived with `tag`: more than one means an intent was sent twice. */
  receivedWithTag(tag: string): number {
    return this.receivedPerTag.get(tag) ?? 0;
  }

  /** Fills up to `quantity` of a working order at `pricePaise`; undefined when nothing is left to fill. */
  fill(request: { readonly brokerOrderId: string; readonly quantity: number; readonly pricePaise: number; readonly atMs: number }): VenueTrade | undefined {
    const order = this.orders.get(request.brokerOrderId);
    if (order === undefined || order.status !== 'OPEN') return undefined;
    const quantity = Math.min(request.quantity, order.quantity - this.filledOf(order));
    if (quantity <= 0) return undefined;
    const trade: VenueTrade = { tradeId: `T${this.nextTrade++}`, quantity, pricePaise: paise(request.pricePaise), atMs: request.atMs };
    order.trades.push(trade);
    if (this.filledOf(order) === order.quantity) order.status = 'FILLED';
    return trade;
  }

  /** Cancels the rest of a working order; false when it is no longer working. */
  cancel(brokerOrderId: string, reason = 'cancelled'): boolean {
    const order = this.orders.get(brokerOrderId);
    if (order === undefined || order.status !== 'OPEN') return false;
    order.status = 'CANCELLED';
    order.statusMessage = reason;
    return true;
  }

  /** The exchange refuses a working order that has nothing filled; false otherwise. */
  reject(brokerOrderId: string, reason: string): boolean {
    const order = this.orders.get(brokerOrderId);
    if (order === undefined || order.status !== 'OPEN' || order.trades.length > 0) return false;
    order.status = 'REJECTED';
    order.statusMessage = reason;
    return true;
  }

  report(brokerOrderId: string): VenueOrderReport | undefined {
    const order = this.orders.get(brokerOrderId);
    return order === undefined ? undefined : this.reportOf(order);
  }

  orderByTag(tag: string): VenueOrderReport | undefined {
    for (const order of this.orders.values()) if (order.tag === tag) return this.reportOf(order);
    return undefined;
  }

  orderBook(): VenueOrderReport[] {
    return [...this.orders.values()].map((order) => this.reportOf(order));
  }

  positions(): VenuePosition[] {
    const net = new Map<string, number>();
    for (const order of this.orders.values()) {
      const signed = (order.side === 'BUY' ? 1 : -1) * this.filledOf(order);
      net.set(order.instrumentKey, (net.get(order.instrumentKey) ?? 0) + signed);
    }
    return [...net].filter(([, quantity]) => quantity !== 0).map(([instrumentKey, netQuantity]) => ({ instrumentKey, netQuantity }));
  }

  snapshot(): VenueSnapshot {
    return { orders: this.orderBook(), positions: this.positions() };
  }

  private filledOf(order: VenueOrder): number {
    return order.trades.reduce((sum, trade) => sum + trade.quantity, 0);
  }

  private reportOf(order: VenueOrder): VenueOrderReport {
    return {
      brokerOrderId: order.brokerOrderId,
      tag: order.tag,
      instrumentKey: order.instrumentKey,
      side: order.side,
      quantity: order.quantity,
      status: order.status,
      filledQuantity: this.filledOf(order),
      trades: order.trades.map((trade) => ({ ...trade })),
      ...(order.statusMessage === undefined ? {} : { statusMessage: order.statusMessage }),
    };
  }
}

/** How the scripted venue answers the next `place`. */
export type PlaceScript = 'accept' | 'reject' | 'timeout-received' | 'timeout-lost';

/** A `VenuePort` over a reference venue, answering `place` from a script (default: accept). */
export class ScriptedVenue implements VenuePort {
  readonly truth = new ReferenceVenue();
  private readonly script: PlaceScript[] = [];
  private readonly listeners = new Set<(event: VenueEvent) => void>();

  /** The answers of the next `place` calls, in order. */
  answerNext(...answers: PlaceScript[]): void {
    this.script.push(...answers);
  }

  place(intent: OrderIntent): Promise<PlaceOutcome> {
    const answer = this.script.shift() ?? 'accept';
    if (answer === 'reject') return Promise.resolve({ kind: 'rejected', reason: 'refused by the script' });
    if (answer === 'timeout-lost') return Promise.resolve({ kind: 'timeout' });
    const brokerOrderId = this.truth.receive(intent);
    if (answer === 'timeout-received') return Promise.resolve({ kind: 'timeout' });
    return Promise.resolve({ kind: 'accepted', brokerOrderId, status: 'OPEN' });
  }

  cancel(request: { readonly brokerOrderId: string }): Promise<CancelOutcome> {
    if (!this.truth.cancel(request.brokerOrderId)) return Promise.resolve({ kind: 'refused', reason: 'the order is not working' });
    const tag = this.truth.report(request.brokerOrderId)?.tag;
    this.emit({ kind: 'cancelled', brokerOrderId: request.brokerOrderId, ...(tag === undefined ? {} : { tag }) });
    return Promise.resolve({ kind: 'requested' });
  }

  orderBook(): Promise<readonly VenueOrderReport[]> {
    return Promise.resolve(this.truth.orderBook());
  }

  positions(): Promise<readonly VenuePosition[]> {
    return Promise.resolve(this.truth.positions());
  }

  orderByTag(tag: string): Promise<VenueOrderReport | undefined> {
    return Promise.resolve(this.truth.orderByTag(tag));
  }

  subscribe(listener: (event: VenueEvent) => void): Unsubscribe {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The venue fills part of an order and tells its listeners. */
  fill(request: { readonly brokerOrderId: string; readonly quantity: number; readonly pricePaise: number; readonly atMs: number }): VenueTrade | undefined {
    const trade = this.truth.fill(request);
    const tag = this.truth.report(request.brokerOrderId)?.tag;
    if (trade !== undefined) this.emit({ kind: 'fill', brokerOrderId: request.brokerOrderId, trade, ...(tag === undefined ? {} : { tag }) });
    return trade;
  }

  private emit(event: VenueEvent): void {
    for (const listener of this.listeners) listener(event);
  }
}
