// What the Kite venue remembers about each order between Kite's order updates, and the venue
// events each update implies. Updates come from the ticker, from postbacks and from polling, may
// repeat and may arrive out of order (a partial fill's update after the completion's), so:
// - a fill is emitted once per trade id; a filled_quantity above what was already emitted asks for
//   the order's trades (`fetchTrades`, unless the caller has them, as polling does);
// - an OPEN (or TRIGGER PENDING, UPDATE, MODIFIED) order is acknowledged once; a working status
//   after a final one is stale and ignored;
// - `cancelled` and `rejected` are emitted once, and only after the fills Kite reported for the
//   order, so a cancellation after a partial fill reaches the OMS with its fills first;
// - one order's updates are handled one after another; different orders do not wait for each other;
// - an order placed elsewhere without a tag is not followed (the OMS cannot name it; reconciliation
//   sees it through the order book and positions).
// A trade fetch that fails leaves the order as it was: the next update or poll asks again.
import type { OmsOrderType, VenueEvent } from '@vyuha/engine';
import type { KiteOrder, KiteTrade } from './kite-orders';

interface Tracked {
  tag?: string;
  orderType?: OmsOrderType;
  readonly emittedTrades: Set<string>;
  emittedQuantity: number;
  acked: boolean;
  /** A final Kite status was seen: later working statuses are stale. */
  finalSeen: boolean;
  finalEmitted: boolean;
  chain: Promise<void>;
}

export interface KiteOrderEventsOptions {
  /** GET /orders/{id}/trades; undefined when they could not be read. */
  readonly fetchTrades: (orderId: string) => Promise<readonly KiteTrade[] | undefined>;
  readonly emit: (event: VenueEvent) => void;
}

export class KiteOrderEvents {
  private readonly tracked = new Map<string, Tracked>();
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly options: KiteOrderEventsOptions) {}

  /** An order this process placed: its tag and type are known before any update names them. */
  placed(orderId: string, order: { readonly tag: string; readonly orderType: OmsOrderType }): void {
    const tracked = this.trackedOf(orderId);
    tracked.tag = order.tag;
    tracked.orderType = order.orderType;
  }

  orderTypeOf(orderId: string): OmsOrderType | undefined {
    return this.tracked.get(orderId)?.orderType;
  }

  /** Resolves when every update handled so far has emitted its events. */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  /** One view of an order (an update, or a row of the polled book with its trades). */
  absorb(order: KiteOrder, trades?: readonly KiteTrade[]): void {
    if (!this.tracked.has(order.orderId) && order.tag === undefined) return;
    const tracked = this.trackedOf(order.orderId);
    if (tracked.tag === undefined && order.tag !== undefined) tracked.tag = order.tag;
    if (tracked.orderType === undefined && order.orderType !== undefined) tracked.orderType = order.orderType;
    if (tracked.finalEmitted) return;
    const final = order.status === 'FILLED' || order.status === 'CANCELLED' || order.status === 'REJECTED';
    const stale = tracked.finalSeen && !final;
    if (final) tracked.finalSeen = true;
    const task = tracked.chain.then(async () => {
      if (!stale && order.status === 'OPEN') this.ack(order, tracked);
      if (order.filledQuantity > tracked.emittedQuantity) await this.fills(order, { tracked, ...(trades === undefined ? {} : { trades }) });
      if (final) this.finish(order, tracked);
    });
    const settled = task.catch(() => undefined);
    tracked.chain = settled;
    this.pending.add(settled);
    void settled.then(() => this.pending.delete(settled));
  }

  private trackedOf(orderId: string): Tracked {
    let tracked = this.tracked.get(orderId);
    if (tracked === undefined) {
      tracked = { emittedTrades: new Set(), emittedQuantity: 0, acked: false, finalSeen: false, finalEmitted: false, chain: Promise.resolve() };
      this.tracked.set(orderId, tracked);
    }
    return tracked;
  }

  private ack(order: KiteOrder, tracked: Tracked): void {
    if (tracked.acked || tracked.finalSeen || tracked.tag === undefined) return;
    tracked.acked = true;
    this.options.emit({ kind: 'ack', tag: tracked.tag, brokerOrderId: order.orderId, status: 'OPEN' });
  }

  private async fills(order: KiteOrder, known: { readonly tracked: Tracked; readonly trades?: readonly KiteTrade[] }): Promise<void> {
    const { tracked } = known;
    const trades = known.trades ?? await this.options.fetchTrades(order.orderId);
    for (const trade of trades ?? []) {
      if (tracked.emittedTrades.has(trade.tradeId)) continue;
      tracked.emittedTrades.add(trade.tradeId);
      tracked.emittedQuantity += trade.quantity;
      const { tradeId, quantity, pricePaise, atMs } = trade;
      this.options.emit({
        kind: 'fill', brokerOrderId: order.orderId, ...(tracked.tag === undefined ? {} : { tag: tracked.tag }), trade: { tradeId, quantity, pricePaise, atMs },
      });
    }
  }

  /** The final event, once every fill Kite reported has been emitted. */
  private finish(order: KiteOrder, tracked: Tracked): void {
    if (tracked.finalEmitted || tracked.emittedQuantity < order.filledQuantity) return;
    const base = { brokerOrderId: order.orderId, ...(tracked.tag === undefined ? {} : { tag: tracked.tag }) };
    if (order.status === 'CANCELLED') {
      tracked.finalEmitted = true;
      this.options.emit({ kind: 'cancelled', ...base, ...(order.statusMessage === undefined ? {} : { reason: order.statusMessage }) });
    } else if (order.status === 'REJECTED') {
      tracked.finalEmitted = true;
      this.options.emit({ kind: 'rejected', ...base, reason: order.statusMessage ?? 'rejected by Kite' });
    } else if (tracked.emittedQuantity >= order.quantity) {
      tracked.finalEmitted = true;
    }
  }
}
