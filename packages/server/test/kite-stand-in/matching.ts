// The stand-in's order book and its one matching rule, against the last price of each instrument.
// Invariants:
//   - MARKET fills at once, in full, at the last price; LIMIT marketable at placement (BUY price >= last,
//     SELL price <= last) fills at the last price, otherwise rests and fills at its own price when a
//     tick crosses it (BUY last <= price, SELL last >= price); IOC that cannot fill at once is cancelled.
//   - SL and SL-M wait in TRIGGER PENDING until the last price reaches the trigger (BUY last >= trigger,
//     SELL last <= trigger); then SL (its order_type unchanged) behaves as a LIMIT placed at that moment and
//     SL-M fills at the last price.
//   - Resting orders are matched in placement order on every tick.
//   - An update (for the ticker and the postback) is produced on every status change after placement:
//     fills, trigger -> OPEN, modification, cancellation, rejection; never for the initial OPEN or TRIGGER PENDING.
//   - The history of an order lists every state it passed through, oldest first, transient ones included.
import { KiteError, istTime, istTimestamp, rupees } from './kite-format';
import type { PlaceParams } from './order-params';
import type { StandInInstrument } from './instruments';
import { marginFor, netQuantity, openingQuantity, positionSums, positionsMarginPaise } from './margin';
import type { Trade } from './margin';

export type OrderType = 'MARKET' | 'LIMIT' | 'SL' | 'SL-M';

/** An order as the matching engine takes it: the form's fields read (order-params.ts), whose it is, and the system's tags. */
export type OrderRequest = Omit<PlaceParams, 'autoslice'> & {
  readonly userId: string;
  readonly tags?: readonly string[];
};

/** What a test arranged for this order (faults.ts). */
export interface OrderFaults {
  readonly rejectMessage?: string | undefined;
  readonly parts?: number | undefined;
}

export interface OrderChange {
  readonly quantity?: number;
  readonly pricePaise?: number;
  readonly triggerPricePaise?: number;
  readonly orderType?: OrderType;
  readonly validity?: string;
}

export type KiteOrderJson = Record<string, unknown> & { readonly order_id: string; readonly status: string };

/** One status change to deliver: the order as it stands, with the status the update carries. */
export interface OrderUpdate {
  readonly userId: string;
  readonly order: KiteOrderJson;
}

interface BookOrder {
  readonly seq: number;
  readonly orderId: string;
  readonly request: OrderRequest;
  orderType: OrderType;
  quantity: number;
  pricePaise: number;
  triggerPricePaise: number;
  validity: string;
  status: string;
  statusMessage: string | null;
  exchangeOrderId: string | null;
  exchangeTimestampMs: number | null;
  exchangeUpdateTimestampMs: number | null;
  readonly orderTimestampMs: number;
  filledQuantity: number;
  fillValuePaise: number;
  cancelledQuantity: number;
  modifications: number;
  blockedPaise: number;
  readonly parts: number;
  readonly history: KiteOrderJson[];
}

export interface MatchingEnvironment {
  now(): number;
  lastPaise(token: number): number | undefined;
  cashPaise(userId: string): number;
}

const WORKING = new Set(['OPEN', 'TRIGGER PENDING']);
export const MAX_MODIFICATIONS = 25;
export const MARKET_PROTECTION_REQUIRED =
  'Market orders without market protection are not allowed via API. Please set market protection or use a Limit order.';

export class OrderBook {
  private readonly orders: BookOrder[] = [];
  private readonly trades: Trade[] = [];
  private nextOrder = 1_953_367_517_686_600_000n;
  private nextTrade = 40_000_001;
  private nextExchangeOrder = 1_300_000_000_100_000n;

  constructor(private readonly environment: MatchingEnvironment) {}

  /** A fresh 19-digit order id (a string: beyond a JS number's exact range). */
  newOrderId(): string {
    this.nextOrder += 1n;
    return this.nextOrder.toString();
  }

  place(request: OrderRequest, faults: OrderFaults = {}): { orderId: string; updates: OrderUpdate[] } {
    const now = this.environment.now();
    const order: BookOrder = {
      seq: this.orders.length, orderId: this.newOrderId(), request, orderType: request.orderType, quantity: request.quantity,
      pricePaise: request.pricePaise, triggerPricePaise: request.triggerPricePaise, validity: request.validity,
      status: 'PUT ORDER REQ RECEIVED', statusMessage: null, exchangeOrderId: null, exchangeTimestampMs: null, exchangeUpdateTimestampMs: null,
      orderTimestampMs: now, filledQuantity: 0, fillValuePaise: 0, cancelledQuantity: 0, modifications: 0, blockedPaise: 0,
      parts: Math.max(1, faults.parts ?? 1), history: [],
    };
    this.orders.push(order);
    const updates: OrderUpdate[] = [];
    this.record(order);
    this.enter(order, 'VALIDATION PENDING');
    const refusal = faults.rejectMessage ?? this.refusal(order);
    if (refusal !== undefined) {
      order.statusMessage = refusal;
      this.enter(order, 'REJECTED', updates);
      return { orderId: order.orderId, updates };
    }
    order.blockedPaise = this.requiredMargin(order);
    order.exchangeOrderId = (this.nextExchangeOrder += 1n).toString();
    order.exchangeTimestampMs = now;
    this.enter(order, 'OPEN PENDING');
    this.enter(order, order.orderType === 'SL' || order.orderType === 'SL-M' ? 'TRIGGER PENDING' : 'OPEN');
    this.matchNow(order, updates);
    return { orderId: order.orderId, updates };
  }

  modify(userId: string, orderId: string, change: OrderChange): OrderUpdate[] {
    const order = this.owned(userId, orderId);
    if (!WORKING.has(order.status)) throw new KiteError(400, 'OrderException', `Order cannot be modified as it is ${order.status}.`);
    if (order.modifications >= MAX_MODIFICATIONS) throw new KiteError(400, 'InputException', 'Maximum allowed order modifications exceeded');
    const quantity = change.quantity ?? order.quantity;
    if (quantity <= order.filledQuantity || quantity % order.request.instrument.lotSize !== 0) {
      throw new KiteError(400, 'InputException',
        `Invalid \`quantity\`: it must exceed the ${order.filledQuantity} filled and be a multiple of the lot size.`);
    }
    const updates: OrderUpdate[] = [];
    order.modifications += 1;
    this.enter(order, 'MODIFY VALIDATION PENDING');
    this.enter(order, 'MODIFY PENDING');
    order.quantity = quantity;
    order.orderType = change.orderType ?? order.orderType;
    order.pricePaise = change.pricePaise ?? order.pricePaise;
    order.triggerPricePaise = change.triggerPricePaise ?? order.triggerPricePaise;
    order.validity = change.validity ?? order.validity;
    order.exchangeUpdateTimestampMs = this.environment.now();
    this.enter(order, 'MODIFIED');
    this.enter(order, order.orderType === 'SL' || order.orderType === 'SL-M' ? 'TRIGGER PENDING' : 'OPEN');
    updates.push(this.update(order, 'UPDATE'));
    this.matchNow(order, updates);
    return updates;
  }

  cancel(userId: string, orderId: string): OrderUpdate[] {
    const order = this.owned(userId, orderId);
    if (!WORKING.has(order.status)) throw new KiteError(400, 'OrderException', `Order cannot be cancelled as it is ${order.status}.`);
    const updates: OrderUpdate[] = [];
    this.enter(order, 'CANCEL PENDING');
    this.cancelRest(order, updates);
    return updates;
  }

  /** Matches every resting order on `token` against its new last price, in placement order. */
  onPrice(token: number): OrderUpdate[] {
    const last = this.environment.lastPaise(token);
    if (last === undefined) return [];
    const updates: OrderUpdate[] = [];
    for (const order of this.orders) {
      if (order.request.instrument.instrumentToken !== token || !WORKING.has(order.status)) continue;
      if (order.status === 'TRIGGER PENDING') {
        if (this.triggered(order, last)) this.trigger(order, last, updates);
        continue;
      }
      const crossed = order.request.side === 'BUY' ? last <= order.pricePaise : last >= order.pricePaise;
      // A triggered SL rests as a limit at its price; MARKET and SL-M never rest.
      if ((order.orderType === 'LIMIT' || order.orderType === 'SL') && crossed) this.fill(order, order.pricePaise, updates);
    }
    return updates;
  }

  ordersOf(userId: string): KiteOrderJson[] {
    return this.orders.filter((one) => one.request.userId === userId).map((one) => this.json(one));
  }

  instrumentOf(userId: string, orderId: string): StandInInstrument {
    return this.owned(userId, orderId).request.instrument;
  }

  historyOf(userId: string, orderId: string): KiteOrderJson[] {
    return [...this.owned(userId, orderId).history];
  }

  tradesOf(userId: string, orderId?: string): Trade[] {
    return this.trades.filter((one) => one.userId === userId && (orderId === undefined || one.orderId === orderId));
  }

  /** Margin in use: open positions plus what working orders block. */
  utilisedPaise(userId: string): number {
    const blocked = this.orders.filter((one) => one.request.userId === userId && WORKING.has(one.status))
      .reduce((total, one) => total + one.blockedPaise, 0);
    return positionsMarginPaise(positionSums(this.tradesOf(userId))) + blocked;
  }

  private owned(userId: string, orderId: string): BookOrder {
    const order = this.orders.find((one) => one.orderId === orderId && one.request.userId === userId);
    if (order === undefined) throw new KiteError(400, 'InputException', `Couldn't find that \`order_id\` (${orderId}).`);
    return order;
  }

  /** Why the order is rejected at placement, or undefined when it goes to the exchange. */
  private refusal(order: BookOrder): string | undefined {
    const { request } = order;
    const marketLike = order.orderType === 'MARKET' || order.orderType === 'SL-M';
    if (marketLike && request.marketProtection === 0) return MARKET_PROTECTION_REQUIRED;
    const freeze = request.instrument.freezeQuantity;
    if (freeze !== undefined && order.quantity > freeze) {
      return `Quantity ${order.quantity} exceeds the freeze quantity of ${freeze} for ${request.instrument.tradingSymbol}: `
        + 'place it with autoslice or in parts.';
    }
    const last = this.environment.lastPaise(request.instrument.instrumentToken);
    if (last === undefined && order.orderType === 'MARKET') return `No last traded price for ${request.instrument.tradingSymbol} yet.`;
    if (last !== undefined && (order.orderType === 'SL' || order.orderType === 'SL-M') && this.triggered(order, last)) {
      return request.side === 'BUY'
        ? 'Trigger price for stoploss buy orders should be higher than the last traded price.'
        : 'Trigger price for stoploss sell orders should be lower than the last traded price.';
    }
    const required = this.requiredMargin(order);
    const available = this.environment.cashPaise(request.userId) - this.utilisedPaise(request.userId);
    // An order that only reduces a position needs no margin, whatever the account's balance.
    if (required > 0 && required > available) {
      return `Insufficient funds. Required margin is ${rupees(required).toFixed(2)} but available margin is ${rupees(available).toFixed(2)}.`;
    }
    return undefined;
  }

  /** The margin this order needs (margin.ts), priced at its limit, its trigger, or the last price. */
  private requiredMargin(order: BookOrder): number {
    const { request } = order;
    const last = this.environment.lastPaise(request.instrument.instrumentToken) ?? 0;
    const price = order.orderType === 'LIMIT' || order.orderType === 'SL' ? order.pricePaise
      : order.orderType === 'SL-M' ? order.triggerPricePaise : last;
    const sums = positionSums(this.tradesOf(request.userId))
      .find((one) => one.instrument.instrumentToken === request.instrument.instrumentToken && one.product === request.product);
    const opening = openingQuantity(request.side, order.quantity - order.filledQuantity, sums === undefined ? 0 : netQuantity(sums));
    return marginFor(request.instrument, { side: request.side, quantity: opening, pricePaise: price });
  }

  private triggered(order: BookOrder, last: number): boolean {
    return order.request.side === 'BUY' ? last >= order.triggerPricePaise : last <= order.triggerPricePaise;
  }

  private trigger(order: BookOrder, last: number, updates: OrderUpdate[]): void {
    this.enter(order, 'OPEN', updates);
    if (order.orderType === 'SL-M') {
      this.fill(order, last, updates);
      return;
    }
    this.matchNow(order, updates);
  }

  /** What happens at once to an order just placed, modified or triggered, at the current last price. */
  private matchNow(order: BookOrder, updates: OrderUpdate[]): void {
    const last = this.environment.lastPaise(order.request.instrument.instrumentToken);
    if (last === undefined) return;
    if (order.status === 'TRIGGER PENDING') {
      if (this.triggered(order, last)) this.trigger(order, last, updates);
      return;
    }
    const marketable = order.orderType === 'MARKET'
      || (order.request.side === 'BUY' ? order.pricePaise >= last : order.pricePaise <= last);
    if (marketable) this.fill(order, last, updates);
    else if (order.validity === 'IOC') this.cancelRest(order, updates);
  }

  /** Fills what is left at `pricePaise`, in `order.parts` trades (whole lots each) when a test asked for parts. */
  private fill(order: BookOrder, pricePaise: number, updates: OrderUpdate[]): void {
    const lot = order.request.instrument.lotSize;
    const lotsLeft = (order.quantity - order.filledQuantity) / lot;
    const parts = Math.min(order.parts, lotsLeft);
    for (let part = 0; part < parts; part += 1) {
      const lots = part === parts - 1 ? lotsLeft - Math.floor(lotsLeft / parts) * (parts - 1) : Math.floor(lotsLeft / parts);
      const quantity = lots * lot;
      const now = this.environment.now();
      this.trades.push({
        tradeId: String(this.nextTrade++), orderId: order.orderId, exchangeOrderId: order.exchangeOrderId ?? '', userId: order.request.userId,
        instrument: order.request.instrument, product: order.request.product, side: order.request.side, quantity, pricePaise,
        atMs: now, orderTimestampMs: order.orderTimestampMs,
      });
      order.filledQuantity += quantity;
      order.fillValuePaise += quantity * pricePaise;
      order.exchangeUpdateTimestampMs = now;
      if (order.filledQuantity < order.quantity) {
        this.record(order);
        updates.push(this.update(order, 'UPDATE'));
      } else {
        order.blockedPaise = 0;
        this.enter(order, 'COMPLETE', updates);
      }
    }
  }

  private cancelRest(order: BookOrder, updates: OrderUpdate[]): void {
    order.cancelledQuantity = order.quantity - order.filledQuantity;
    order.blockedPaise = 0;
    order.exchangeUpdateTimestampMs = this.environment.now();
    this.enter(order, 'CANCELLED', updates);
  }

  /** Moves the order to `status`, records it in the history and, when `updates` is given, as an update. */
  private enter(order: BookOrder, status: string, updates?: OrderUpdate[]): void {
    order.status = status;
    this.record(order);
    if (updates !== undefined) updates.push(this.update(order, status));
  }

  private record(order: BookOrder): void {
    order.history.push(this.json(order));
  }

  private update(order: BookOrder, status: string): OrderUpdate {
    return { userId: order.request.userId, order: { ...this.json(order), status } };
  }

  private json(order: BookOrder): KiteOrderJson {
    const { request } = order;
    const working = !['COMPLETE', 'CANCELLED', 'REJECTED'].includes(order.status);
    const timestamp = (ms: number | null): string | null => (ms === null ? null : istTimestamp(ms));
    return {
      placed_by: request.userId, order_id: order.orderId, exchange_order_id: order.exchangeOrderId, parent_order_id: null,
      status: order.status, status_message: order.statusMessage, status_message_raw: order.statusMessage,
      order_timestamp: istTimestamp(order.orderTimestampMs),
      exchange_update_timestamp: timestamp(order.exchangeUpdateTimestampMs ?? order.exchangeTimestampMs),
      exchange_timestamp: timestamp(order.exchangeTimestampMs), variety: 'regular', modified: order.modifications > 0,
      exchange: request.instrument.exchange, tradingsymbol: request.instrument.tradingSymbol, instrument_token: request.instrument.instrumentToken,
      order_type: order.orderType, transaction_type: request.side, validity: order.validity, validity_ttl: 0, product: request.product,
      quantity: order.quantity, disclosed_quantity: 0, price: rupees(order.pricePaise), trigger_price: rupees(order.triggerPricePaise),
      average_price: order.filledQuantity === 0 ? 0 : rupees(order.fillValuePaise / order.filledQuantity),
      filled_quantity: order.filledQuantity, pending_quantity: working ? order.quantity - order.filledQuantity : 0,
      cancelled_quantity: order.cancelledQuantity, market_protection: request.marketProtection, meta: {}, tag: request.tag,
      tags: [...(request.tags ?? []), ...(request.tag === null ? [] : [request.tag])], guid: `${order.orderId}-guid`,
    };
  }
}

/** A trade as GET /trades answers it (order_timestamp is time-only there, as in Kite's samples). */
export function tradeJson(trade: Trade): Record<string, unknown> {
  return {
    trade_id: trade.tradeId, order_id: trade.orderId, exchange_order_id: trade.exchangeOrderId, exchange: trade.instrument.exchange,
    tradingsymbol: trade.instrument.tradingSymbol, instrument_token: trade.instrument.instrumentToken, product: trade.product,
    average_price: rupees(trade.pricePaise), quantity: trade.quantity, transaction_type: trade.side,
    fill_timestamp: istTimestamp(trade.atMs), exchange_timestamp: istTimestamp(trade.atMs), order_timestamp: istTime(trade.orderTimestampMs),
  };
}
