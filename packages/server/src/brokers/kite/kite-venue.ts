// The Kite venue: the engine's `VenuePort` over Kite Connect's REST API, for LIVE runs. The OMS
// places, cancels and modifies through it and asks it for the truth (order book, positions); Kite's
// order updates (ticker text frames, verified postbacks) come in through `onOrderUpdate` and leave
// as venue events. Every request goes through `KiteApi`, whose `onExchange` audits it.
//
// Rules:
// - A request is never sent later than `sendDeadlineMs` after `place` was called: the OMS marks a
//   send UNKNOWN after 5 s and may later declare the order absent, so a later request could
//   double the order. A rate-limit slot or a 429 backoff that does not clear in time makes the
//   order `rejected` as not sent. A 429 (Kite created nothing) is sent again within the deadline.
// - `rejected` only when Kite certainly has no order (a refusal, no session, never sent);
//   `unknown` when it may (a 5xx, a body that is no envelope, a connection broken after sending);
//   `timeout` when no answer came in time. Never a second POST for one intent.
// - A TokenException anywhere calls `onSessionLost`: the day's session is dead.
// - Order updates may repeat and arrive out of order; kite-order-events.ts turns them into events
//   (each trade once, final events after their fills, tagless orders of other apps not followed).
// - Polling (`startPolling`) reads the order book and the trade book every `pollMs` and emits
//   what changed the same way: the fallback when no update stream is alive, and the safety net for
//   a trade book that lagged behind a COMPLETE update: run it always, every `pollMs` (3 s) while no
//   update stream is alive and at a slower pace (15 to 30 s, `startPolling(ms)`) beside one.
import type { CancelOutcome, ModifyRequest, OrderIntent, PlaceOutcome, Unsubscribe, VenueEvent, VenueOrderReport, VenuePort, VenuePosition } from '@vyuha/engine';
import { err, ok, rupeesToPaise, type Paise, type Result } from '@vyuha/core';
import { isRecord, type KiteApi, type KiteApiFailure, type KiteHttpMethod } from './kite-api';
import {
  AUTO_MARKET_PROTECTION, KITE_VARIETY, kiteModifyForm, kiteOrderOf, kitePlaceForm, kiteTradeOf, orderReportOf, parseKiteOrderUpdate, unmappedKey,
  type KiteContract, type KiteForm, type KiteOrder, type KiteTrade,
} from './kite-orders';
import { KiteOrderEvents } from './kite-order-events';
import { KiteRateLimits } from './kite-rate-limits';

/** How the venue names contracts both ways. */
export interface KiteContracts {
  kiteContractOf(instrumentKey: string): KiteContract | undefined;
  instrumentKeyOf(exchange: string, tradingSymbol: string): string | undefined;
}

export interface KiteVenueOptions {
  readonly api: KiteApi;
  readonly contracts: KiteContracts;
  readonly limits?: KiteRateLimits;
  readonly clock: () => number;
  /** Waits `ms` on the same time as `clock` (default: a timer). */
  readonly sleep?: (ms: number) => Promise<void>;
  /** Default 4,000 ms: under the OMS's 5 s send timeout. */
  readonly sendDeadlineMs?: number;
  /** Default -1 (Kite chooses). */
  readonly marketProtection?: number;
  /** Default 3,000 ms. */
  readonly pollMs?: number;
  /**
   * Kite refused a request's session. `sessionEpoch` is what `sessionEpoch()` said when the request
   * left: a refusal of a token the account has since replaced is stale, not a new loss.
   */
  readonly onSessionLost?: (reason: string, sessionEpoch: number | undefined) => void;
  /** Which of the account's sessions requests go out with now (the caller counts its token changes). */
  readonly sessionEpoch?: () => number;
}

/** Available cash and net margin of one segment, in paise. */
export interface KiteSegmentMargin {
  readonly availableCashPaise: Paise;
  readonly netPaise: Paise;
}

export interface KiteHolding {
  readonly instrumentKey: string;
  readonly quantity: number;
  readonly t1Quantity: number;
  readonly averagePricePaise: Paise;
}

type NotSent = { readonly kind: 'not-sent'; readonly message: string };

export const SESSION_EXPIRED_NOT_SENT = 'Kite session expired: not sent';

export class KiteVenue implements VenuePort {
  readonly limits: KiteRateLimits;
  private readonly api: KiteApi;
  private readonly clock: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly sendDeadlineMs: number;
  private readonly marketProtection: number;
  private readonly pollMs: number;
  private readonly listeners = new Set<(event: VenueEvent) => void>();
  private readonly updates: KiteOrderEvents;
  private polling: { stop: boolean } | undefined;

  constructor(private readonly options: KiteVenueOptions) {
    this.api = options.api;
    this.limits = options.limits ?? new KiteRateLimits();
    this.clock = options.clock;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.sendDeadlineMs = options.sendDeadlineMs ?? 4_000;
    this.marketProtection = options.marketProtection ?? AUTO_MARKET_PROTECTION;
    this.pollMs = options.pollMs ?? 3_000;
    this.updates = new KiteOrderEvents({ fetchTrades: (orderId) => this.tradesOf(orderId), emit: (event) => this.emit(event) });
  }

  async place(intent: OrderIntent): Promise<PlaceOutcome> {
    const deadline = this.clock() + this.sendDeadlineMs;
    const contract = this.options.contracts.kiteContractOf(intent.instrumentKey);
    if (contract === undefined) return { kind: 'rejected', reason: `no Kite contract is known for instrument ${intent.instrumentKey}: not sent` };
    const form = kitePlaceForm(intent, contract, { marketProtection: this.marketProtection });
    if (!form.ok) return { kind: 'rejected', reason: `${form.error}: not sent` };
    const sent = await this.sendCounted({ method: 'POST', path: `/orders/${KITE_VARIETY}`, form: form.value }, deadline);
    if (sent.ok) {
      const orderId = isRecord(sent.value) ? sent.value.order_id : undefined;
      if (typeof orderId !== 'string' || orderId === '') return { kind: 'unknown', reason: 'Kite took the order but its answer has no order_id' };
      this.updates.placed(orderId, { tag: intent.tag, orderType: intent.orderType });
      return { kind: 'accepted', brokerOrderId: orderId, status: 'SUBMITTED' };
    }
    const failure = sent.error;
    switch (failure.kind) {
      case 'not-sent':
        return { kind: 'rejected', reason: `not sent: ${failure.message}` };
      case 'token':
        return { kind: 'rejected', reason: SESSION_EXPIRED_NOT_SENT };
      case 'refused':
        return { kind: 'rejected', reason: `Kite refused the order (${failure.errorType}): ${failure.message}` };
      case 'timeout':
        return { kind: 'timeout' };
      case 'unreachable':
        return failure.sent ? { kind: 'unknown', reason: failure.message } : { kind: 'rejected', reason: `not sent: ${failure.message}` };
      default:
        return { kind: 'unknown', reason: failure.message };
    }
  }

  async cancel(request: { readonly brokerOrderId: string }): Promise<CancelOutcome> {
    const path = `/orders/${KITE_VARIETY}/${encodeURIComponent(request.brokerOrderId)}`;
    const sent = await this.sendCounted({ method: 'DELETE', path }, this.clock() + this.sendDeadlineMs);
    return this.cancelOutcomeOf(sent, 'cancellation');
  }

  async modify(request: ModifyRequest): Promise<CancelOutcome> {
    const id = request.brokerOrderId;
    if (!this.limits.modificationAllowed(id)) {
      return { kind: 'refused', reason: `Kite allows ${this.limits.modificationsPerOrder} modifications per order and order ${id} has had them all: not sent` };
    }
    const orderType = this.updates.orderTypeOf(id);
    const form = kiteModifyForm(request, { marketProtection: this.marketProtection, ...(orderType === undefined ? {} : { orderType }) });
    if (!form.ok) return { kind: 'refused', reason: `${form.error}: not sent` };
    const sent = await this.sendCounted({ method: 'PUT', path: `/orders/${KITE_VARIETY}/${encodeURIComponent(id)}`, form: form.value }, this.clock() + this.sendDeadlineMs);
    // Counted whenever Kite may have applied it: a refusal or a request never sent is no modification.
    if (sent.ok || !['refused', 'not-sent', 'token', 'rate-limited'].includes(sent.error.kind)) this.limits.recordModification(id);
    return this.cancelOutcomeOf(sent, 'modification');
  }

  async orderBook(): Promise<readonly VenueOrderReport[]> {
    const orders = await this.read('GET', '/orders');
    const trades = await this.read('GET', '/trades');
    if (!Array.isArray(orders)) throw new Error('Kite order book: data must be a list of orders');
    if (!Array.isArray(trades)) throw new Error('Kite trade book: data must be a list of trades');
    const byOrder = groupTrades(trades);
    return orders.map((json, index) => {
      const order = kiteOrderOf(json, `orders[${index}]`);
      if (!order.ok) throw new Error(`Kite order book: ${order.error}`);
      return this.reportOf(order.value, byOrder.get(order.value.orderId) ?? []);
    });
  }

  async orderByTag(tag: string): Promise<VenueOrderReport | undefined> {
    const orders = await this.read('GET', '/orders');
    if (!Array.isArray(orders)) throw new Error('Kite order book: data must be a list of orders');
    const json = orders.find((item) => isRecord(item) && (item.tag === tag || (Array.isArray(item.tags) && item.tags.includes(tag))));
    if (json === undefined) return undefined;
    const order = kiteOrderOf(json, 'order');
    if (!order.ok) throw new Error(`Kite order book: ${order.error}`);
    const trades = await this.read('GET', `/orders/${encodeURIComponent(order.value.orderId)}/trades`);
    if (!Array.isArray(trades)) throw new Error(`Kite trades of order ${order.value.orderId}: data must be a list of trades`);
    return this.reportOf(order.value, trades);
  }

  async positions(): Promise<readonly VenuePosition[]> {
    const data = await this.read('GET', '/portfolio/positions');
    if (!isRecord(data) || !Array.isArray(data.net)) throw new Error('Kite positions: data.net must be a list');
    const net = new Map<string, number>();
    for (const [index, row] of data.net.entries()) {
      if (!isRecord(row) || typeof row.exchange !== 'string' || typeof row.tradingsymbol !== 'string' || !Number.isSafeInteger(row.quantity)) {
        throw new Error(`Kite positions: net[${index}] needs exchange, tradingsymbol and a whole quantity`);
      }
      const key = this.options.contracts.instrumentKeyOf(row.exchange, row.tradingsymbol) ?? unmappedKey(row.exchange, row.tradingsymbol);
      net.set(key, (net.get(key) ?? 0) + (row.quantity as number));
    }
    // One contract held under several products (MIS and NRML) is one net position; flat ones are left out.
    return [...net].filter(([, quantity]) => quantity !== 0).map(([instrumentKey, netQuantity]) => ({ instrumentKey, netQuantity }));
  }

  /** GET /user/margins: each segment's available cash and net, in paise. */
  async margins(): Promise<Result<Readonly<Record<string, KiteSegmentMargin>>, string>> {
    const data = await this.readResult('GET', '/user/margins');
    if (!data.ok) return data;
    if (!isRecord(data.value)) return err('Kite margins: data must be an object of segments');
    const segments: Record<string, KiteSegmentMargin> = {};
    for (const [segment, value] of Object.entries(data.value)) {
      const available = isRecord(value) && isRecord(value.available) ? value.available : undefined;
      if (!isRecord(value) || typeof value.net !== 'number' || typeof available?.cash !== 'number') {
        return err(`Kite margins: ${segment} needs numbers net and available.cash`);
      }
      segments[segment] = { availableCashPaise: rupeesToPaise(available.cash), netPaise: rupeesToPaise(value.net) };
    }
    return ok(segments);
  }

  /** GET /portfolio/holdings: the demat holdings. */
  async holdings(): Promise<Result<readonly KiteHolding[], string>> {
    const data = await this.readResult('GET', '/portfolio/holdings');
    if (!data.ok) return data;
    if (!Array.isArray(data.value)) return err('Kite holdings: data must be a list');
    const holdings: KiteHolding[] = [];
    for (const [index, row] of data.value.entries()) {
      if (!isRecord(row) || typeof row.exchange !== 'string' || typeof row.tradingsymbol !== 'string' || !Number.isSafeInteger(row.quantity)
        || typeof row.average_price !== 'number') {
        return err(`Kite holdings: [${index}] needs exchange, tradingsymbol, a whole quantity and average_price`);
      }
      holdings.push({
        instrumentKey: this.options.contracts.instrumentKeyOf(row.exchange, row.tradingsymbol) ?? unmappedKey(row.exchange, row.tradingsymbol),
        quantity: row.quantity as number,
        t1Quantity: Number.isSafeInteger(row.t1_quantity) ? (row.t1_quantity as number) : 0,
        averagePricePaise: rupeesToPaise(row.average_price),
      });
    }
    return ok(holdings);
  }

  /** DELETE /session/token: ends the day's session at Kite. */
  async logout(): Promise<Result<void, string>> {
    const query = this.api.sessionQuery();
    if (query === undefined) return err('there is no Kite session to log out of');
    const answer = await this.api.request('DELETE', '/session/token', { query });
    return answer.ok ? ok(undefined) : err(`Kite logout failed: ${answer.error.message}`);
  }

  subscribe(listener: (event: VenueEvent) => void): Unsubscribe {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * One of Kite's order updates: a ticker `order` message's data, a verified postback (already
   * parsed), or its text. An update that cannot be read is an error naming the field.
   */
  onOrderUpdate(update: unknown): Result<void, string> {
    const order = isParsedOrder(update) ? ok(update) : parseKiteOrderUpdate(update);
    if (!order.ok) return order;
    this.updates.absorb(order.value);
    return ok(undefined);
  }

  /** Resolves when every trade fetch and event started by updates or polling is done. */
  async settled(): Promise<void> {
    await this.updates.settled();
  }

  /** Reads the books every `everyMs` (default `pollMs`) and emits what changed, until `stopPolling`. */
  startPolling(everyMs = this.pollMs): void {
    if (this.polling !== undefined) return;
    const state = { stop: false };
    this.polling = state;
    const loop = async (): Promise<void> => {
      while (!state.stop) {
        await this.sleep(everyMs);
        if (state.stop) return;
        await this.pollOnce().catch(() => undefined);
      }
    };
    void loop();
  }

  stopPolling(): void {
    if (this.polling !== undefined) this.polling.stop = true;
    this.polling = undefined;
  }

  /** One round of polling: GET /orders and GET /trades, each order's news emitted. */
  async pollOnce(): Promise<Result<void, string>> {
    const orders = await this.readResult('GET', '/orders');
    if (!orders.ok) return orders;
    const trades = await this.readResult('GET', '/trades');
    if (!trades.ok) return trades;
    if (!Array.isArray(orders.value) || !Array.isArray(trades.value)) return err('Kite books: data must be lists');
    const byOrder = groupTrades(trades.value);
    const problems: string[] = [];
    for (const [index, json] of orders.value.entries()) {
      const order = kiteOrderOf(json, `orders[${index}]`);
      if (!order.ok) {
        problems.push(order.error);
        continue;
      }
      const parsed = (byOrder.get(order.value.orderId) ?? []).map((trade) => kiteTradeOf(trade));
      const good = parsed.flatMap((trade) => (trade.ok ? [trade.value] : []));
      problems.push(...parsed.flatMap((trade) => (trade.ok ? [] : [trade.error])));
      this.updates.absorb(order.value, good);
    }
    await this.settled();
    return problems.length === 0 ? ok(undefined) : err(problems.join('; '));
  }

  private reportOf(order: KiteOrder, trades: readonly unknown[]): VenueOrderReport {
    const report = orderReportOf(order, trades, (exchange, symbol) => this.options.contracts.instrumentKeyOf(exchange, symbol));
    if (!report.ok) throw new Error(`Kite order ${order.orderId}: ${report.error}`);
    return report.value;
  }

  /** The order's trades from GET /orders/{id}/trades; undefined when they cannot be read (the next update or poll tries again). */
  private async tradesOf(orderId: string): Promise<readonly KiteTrade[] | undefined> {
    const data = await this.readResult('GET', `/orders/${encodeURIComponent(orderId)}/trades`);
    if (!data.ok || !Array.isArray(data.value)) return undefined;
    const trades: KiteTrade[] = [];
    for (const json of data.value) {
      const trade = kiteTradeOf(json);
      if (trade.ok && trade.value.orderId === orderId) trades.push(trade.value);
    }
    return trades;
  }

  private emit(event: VenueEvent): void {
    for (const listener of [...this.listeners]) listener(event);
  }

  /**
   * An order request (POST, PUT or DELETE) within Kite's limits: waits for a slot, never sends
   * after `deadline`, and sends again after a 429 while the deadline allows.
   */
  private async sendCounted(
    request: { readonly method: KiteHttpMethod; readonly path: string; readonly form?: KiteForm }, deadline: number,
  ): Promise<Result<unknown, KiteApiFailure | NotSent>> {
    for (;;) {
      const slot = this.limits.reserve(this.clock(), deadline);
      if (!slot.ok) return err({ kind: 'not-sent', message: slot.error });
      const wait = slot.value.atMs - this.clock();
      if (wait > 0) await this.sleep(wait);
      if (this.clock() > deadline) return err({ kind: 'not-sent', message: 'the send deadline passed while waiting for a rate-limit slot' });
      const answer = await this.call(request.method, request.path, request.form === undefined ? {} : { form: request.form });
      if (answer.ok) {
        this.limits.succeeded();
        return answer;
      }
      if (answer.error.kind !== 'rate-limited') return answer;
      this.limits.backOff(this.clock(), `Kite answered 429 on ${request.method} ${request.path}`);
    }
  }

  private cancelOutcomeOf(sent: Result<unknown, KiteApiFailure | NotSent>, what: string): CancelOutcome {
    if (sent.ok) return { kind: 'requested' };
    const failure = sent.error;
    switch (failure.kind) {
      case 'not-sent':
        return { kind: 'refused', reason: `${what} not sent: ${failure.message}` };
      case 'token':
        return { kind: 'refused', reason: `Kite session expired: ${what} not sent` };
      case 'refused':
        return { kind: 'refused', reason: `Kite refused the ${what} (${failure.errorType}): ${failure.message}` };
      case 'unreachable':
        return failure.sent ? { kind: 'timeout' } : { kind: 'refused', reason: `${what} not sent: ${failure.message}` };
      default:
        // A timeout or a 5xx: Kite may have taken it; the event stream or the book will tell.
        return { kind: 'timeout' };
    }
  }

  /** Every request of the venue: a dead session is reported to `onSessionLost`. */
  private async call(method: KiteHttpMethod, path: string, options: { readonly form?: KiteForm }): Promise<Result<unknown, KiteApiFailure>> {
    // Read in the same turn as the API reads the token, so both name the same session.
    const epoch = this.options.sessionEpoch?.();
    const answer = await this.api.request(method, path, options);
    if (!answer.ok && answer.error.kind === 'token') this.options.onSessionLost?.(answer.error.message, epoch);
    return answer;
  }

  private async readResult(method: KiteHttpMethod, path: string): Promise<Result<unknown, string>> {
    const answer = await this.call(method, path, {});
    return answer.ok ? answer : err(`Kite ${method} ${path} failed: ${answer.error.message}`);
  }

  private async read(method: KiteHttpMethod, path: string): Promise<unknown> {
    const answer = await this.readResult(method, path);
    if (!answer.ok) throw new Error(answer.error);
    return answer.value;
  }
}

function groupTrades(trades: readonly unknown[]): Map<string, unknown[]> {
  const byOrder = new Map<string, unknown[]>();
  for (const trade of trades) {
    const orderId = isRecord(trade) && typeof trade.order_id === 'string' ? trade.order_id : '';
    const list = byOrder.get(orderId);
    if (list === undefined) byOrder.set(orderId, [trade]);
    else list.push(trade);
  }
  return byOrder;
}

function isParsedOrder(value: unknown): value is KiteOrder {
  return isRecord(value) && typeof value.orderId === 'string' && typeof value.kiteStatus === 'string';
}
