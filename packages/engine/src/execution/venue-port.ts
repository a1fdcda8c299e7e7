// The venue port: the one asynchronous contract between the trading runtime and wherever orders
// execute (the paper venue first, then each broker adapter). Types only: every venue implements
// it, and nothing above it asks which venue it talks to.
//
// A venue answers later, partly, or not at all, so:
// - `place` has four outcomes, and a timeout is one of them: the order may or may not exist at
//   the venue, the OMS marks it UNKNOWN and asks (`orderByTag`, `orderBook`), never resends;
// - fills, acks, cancels and rejects also arrive on the event stream, in any order and possibly
//   twice; a fill carries the venue's trade id, which makes it idempotent;
// - the venue's own view (`orderBook`, `positions`) is the truth that reconciliation adopts.
//
// Venue statuses are normalised here; an adapter maps its broker's words (Kite's COMPLETE ->
// FILLED, TRIGGER PENDING -> OPEN, the transient request states -> SUBMITTED; docs/BROKER-KITE.md).
import type { Paise } from '@vyuha/core';
import type { ExchangeCode } from '@vyuha/market';
import type { ClientOrderId } from './client-order-id';
import type { OmsOrderType, OrderSide } from './order-state';

/** An order as it leaves for the venue. The OMS wrote its row (with both ids) before this exists. */
export interface OrderIntent {
  readonly clientOrderId: ClientOrderId;
  /** The short form the venue echoes back (Kite: 20 characters; `brokerTagFor`). */
  readonly tag: string;
  /** The OMS's name of the contract (e.g. the instrument id as text). */
  readonly instrumentKey: string;
  readonly exchange: ExchangeCode;
  readonly tradingSymbol: string;
  readonly side: OrderSide;
  readonly quantity: number;
  readonly orderType: OmsOrderType;
  readonly pricePaise?: Paise;
  readonly triggerPricePaise?: Paise;
  /** The broker's product code (MIS, NRML, CNC, ...), as the orders table stores it. */
  readonly product: string;
  /** The exchange-issued algo id every algo order carries (docs/MARKET-RULES.md). */
  readonly algoId?: string;
}

/** What `place` can come back with. */
export type PlaceOutcome =
  /** The venue took the order: SUBMITTED (with the broker) or OPEN (at the exchange). */
  | { readonly kind: 'accepted'; readonly brokerOrderId: string; readonly status: 'SUBMITTED' | 'OPEN' }
  /** The venue refused it; nothing exists there. */
  | { readonly kind: 'rejected'; readonly reason: string }
  /** No answer in time: the order may exist. Resolve by asking, never by resending. */
  | { readonly kind: 'timeout' }
  /** An answer that does not say whether the order exists (a dropped connection, a 5xx). */
  | { readonly kind: 'unknown'; readonly reason: string };

/** What `cancel` can come back with; the cancellation itself is confirmed by the event stream. */
export type CancelOutcome =
  | { readonly kind: 'requested' }
  | { readonly kind: 'refused'; readonly reason: string }
  | { readonly kind: 'timeout' };

/** A change to a working order's price, trigger or quantity. */
export interface ModifyRequest {
  readonly brokerOrderId: string;
  readonly quantity?: number;
  readonly pricePaise?: Paise;
  readonly triggerPricePaise?: Paise;
}

/** One execution at the venue. */
export interface VenueTrade {
  /** The venue's trade id: unique per order, the idempotency key of a fill. */
  readonly tradeId: string;
  readonly quantity: number;
  readonly pricePaise: Paise;
  readonly atMs: number;
}

/** A venue's order status, normalised. */
export type VenueOrderStatus = 'SUBMITTED' | 'OPEN' | 'FILLED' | 'CANCELLED' | 'REJECTED';

/** The venue's view of one order, with every trade it made so far. */
export interface VenueOrderReport {
  readonly brokerOrderId: string;
  /** The tag the order was placed with; absent for orders placed elsewhere (a broker's own app). */
  readonly tag?: string;
  readonly instrumentKey: string;
  readonly side: OrderSide;
  readonly quantity: number;
  readonly status: VenueOrderStatus;
  readonly filledQuantity: number;
  /** All of the order's trades; their quantities add up to `filledQuantity`. */
  readonly trades: readonly VenueTrade[];
  readonly statusMessage?: string;
}

/** The venue's net position in one contract (signed: negative is short). */
export interface VenuePosition {
  readonly instrumentKey: string;
  readonly netQuantity: number;
}

/** What the venue says about an account at one moment: the input of reconciliation. */
export interface VenueSnapshot {
  readonly orders: readonly VenueOrderReport[];
  readonly positions: readonly VenuePosition[];
}

/** What the venue pushes, in whatever order it happens to arrive. */
export type VenueEvent =
  | { readonly kind: 'ack'; readonly tag: string; readonly brokerOrderId: string; readonly status: 'SUBMITTED' | 'OPEN' }
  | { readonly kind: 'fill'; readonly brokerOrderId: string; readonly tag?: string; readonly trade: VenueTrade }
  | { readonly kind: 'cancelled'; readonly brokerOrderId: string; readonly tag?: string; readonly reason?: string }
  | { readonly kind: 'rejected'; readonly brokerOrderId: string; readonly tag?: string; readonly reason: string };

/** A subscription to the venue's events; call it to stop listening. */
export type Unsubscribe = () => void;

/** The contract every venue implements (paper, then each broker). */
export interface VenuePort {
  place(intent: OrderIntent): Promise<PlaceOutcome>;
  cancel(request: { readonly brokerOrderId: string }): Promise<CancelOutcome>;
  /**
   * Optional: moves a working order's price or trigger; `requested` means the venue took it. The
   * OMS refuses modifications on a venue without it (the caller cancels and places a new order).
   */
  modify?(request: ModifyRequest): Promise<CancelOutcome>;
  /** Every order of the account the venue knows today, with its trades. */
  orderBook(): Promise<readonly VenueOrderReport[]>;
  /** The account's net positions. */
  positions(): Promise<readonly VenuePosition[]>;
  /** The order placed with `tag`, or undefined when the venue has none: how an UNKNOWN is resolved. */
  orderByTag(tag: string): Promise<VenueOrderReport | undefined>;
  /** Events as they happen; the listener is called synchronously by the venue's event loop. */
  subscribe(listener: (event: VenueEvent) => void): Unsubscribe;
  /**
   * Optional: resolves once every event the venue has already decided has reached its listeners,
   * for a venue that hands events over later than it decides them (the paper venue's fill of a
   * market order, decided in `place` and delivered just after its answer).
   */
  settled?(): Promise<void>;
}
