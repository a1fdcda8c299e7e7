// The paper venue: the engine's `VenuePort` for one user's PAPER runs, filling orders on the tick
// stream the runtime pushes to it (`onTick`) with the backtest's matching core (engine
// `MatchingCore`: the same slippage model and tick size as the strategy's backtest).
//
// Rules:
// - `place` accepts at once with a broker order id of its own, `PAPER-<n>` (a database sequence, so
//   ids never repeat across processes), and writes that id on the OMS's order row (found by its tag)
//   before answering: the venue's book is the orders rows of the user's PAPER runs, so a restarted
//   process rebuilds its working orders from them (`PaperVenue.open`) and an order accepted just
//   before a crash is still found by reconciliation.
// - A MARKET order fills at the next tick of its instrument (in a replay, the next bar's open, as
//   in the backtest); LIMIT, SL and SL-M orders when the tick path reaches their level (an SL order
//   is matched as a stop at its trigger). The first tick an order sees is a jump (a level already
//   passed fills at that tick's price); the runtime says which later ticks are jumps (a bar's or a
//   session's open) with `onTick(tick, { jump: true })`.
// - One fill per order, the whole quantity: partial fills are not simulated. Its trade id is
//   `<broker order id>-1`, so a fill sent twice is the same trade.
// - Charges are not the venue's: the OMS charges every fill with the run's charge model, the one
//   the backtest uses (packages/server/src/trading/oms/fill-ledger.ts).
// - `orderBook`, `orderByTag` and `positions` answer from the database merged with what this
//   process has done and the OMS has not written yet (a fill or a cancel still on its way).
import { istDate, istMidnightMs, paise } from '@vyuha/core';
import { emptyOutcome, MatchingCore } from '@vyuha/engine';
import type {
  CancelOutcome, FeedTick, MatchTick, OrderIntent, OrderSide, PlaceOutcome, SlippageModel, VenueEvent, VenueOrderReport, VenueOrderStatus,
  VenuePosition, VenuePort, VenueTrade, WorkingOrder,
} from '@vyuha/engine';
import type pg from 'pg';

/** How one instrument is matched: the strategy's slippage model and the instrument's tick size. */
export interface PaperMatchingRules {
  readonly tickSizePaise: number;
  readonly slippage: SlippageModel;
}

export interface PaperVenueOptions {
  readonly pool: pg.Pool;
  readonly userId: string;
  /** The matching rules of an instrument (by id); an order for an instrument without rules is rejected. */
  readonly rulesFor: (instrumentId: number) => PaperMatchingRules | undefined;
  /** The runtime's clock (the feeds' Scheduler): which IST day "today's order book" is. */
  readonly clock: { now(): number };
}

interface PaperOrder {
  readonly brokerOrderId: string;
  readonly tag: string;
  readonly instrumentId: number;
  readonly side: OrderSide;
  readonly quantity: number;
  readonly working: WorkingOrder;
  readonly core: MatchingCore;
  status: VenueOrderStatus;
  trades: VenueTrade[];
}

interface BookDbRow {
  broker_order_id: string; tag: string | null; instrument_id: number; side: OrderSide; quantity: number; status: string;
  order_type: string; price_paise: number | null; trigger_price_paise: number | null; status_message: string | null;
}

const WORKING_STATUSES = ['SUBMITTED', 'OPEN', 'PARTIALLY_FILLED', 'PENDING_CANCEL', 'UNKNOWN', 'PENDING_SUBMIT'];

function venueStatusOf(status: string): VenueOrderStatus {
  if (status === 'FILLED' || status === 'CANCELLED' || status === 'REJECTED') return status;
  return 'OPEN';
}

export class PaperVenue implements VenuePort {
  private readonly orders = new Map<string, PaperOrder>();
  private readonly listeners = new Set<(event: VenueEvent) => void>();
  private readonly outcome = emptyOutcome<'market' | 'limit' | 'stop'>();
  private readonly tick: MatchTick = { price: 0, time: 0, jump: false, index: 0 };

  private constructor(private readonly options: PaperVenueOptions) {}

  /** The venue with its working orders rebuilt from the orders rows of the user's PAPER runs. */
  static async open(options: PaperVenueOptions): Promise<PaperVenue> {
    const venue = new PaperVenue(options);
    const rows = await venue.bookRows(`o.status = ANY($2::text[])`, [WORKING_STATUSES]);
    for (const row of rows) {
      const order = venue.paperOrderOf(row);
      if (order !== undefined) venue.orders.set(order.brokerOrderId, order);
    }
    return venue;
  }

  async place(intent: OrderIntent): Promise<PlaceOutcome> {
    const instrumentId = Number(intent.instrumentKey);
    const rules = Number.isSafeInteger(instrumentId) ? this.options.rulesFor(instrumentId) : undefined;
    if (rules === undefined) return { kind: 'rejected', reason: `the paper venue has no matching rules for instrument ${intent.instrumentKey}` };
    const working = workingOrderOf(intent);
    if (working === undefined) return { kind: 'rejected', reason: `a ${intent.orderType} order needs its price` };
    const { rows } = await this.options.pool.query<{ id: string }>(`SELECT 'PAPER-' || nextval('paper_order_seq') AS id`);
    const brokerOrderId = rows[0]?.id;
    if (brokerOrderId === undefined) throw new Error('paper_order_seq gave no value');
    const written = await this.options.pool.query(
      `UPDATE orders SET broker_order_id = $1 WHERE tag = $2 AND user_id = $3 AND broker_order_id IS NULL AND submitted_at IS NOT NULL`,
      [brokerOrderId, intent.tag, this.options.userId]);
    if (written.rowCount !== 1) return { kind: 'rejected', reason: `the paper venue keeps its book on the order rows, and no sent order has tag ${intent.tag}` };
    this.orders.set(brokerOrderId, {
      brokerOrderId, tag: intent.tag, instrumentId, side: intent.side, quantity: intent.quantity, working,
      core: new MatchingCore({ slippage: rules.slippage, tickSize: rules.tickSizePaise }), status: 'OPEN', trades: [],
    });
    return { kind: 'accepted', brokerOrderId, status: 'OPEN' };
  }

  async cancel(request: { readonly brokerOrderId: string }): Promise<CancelOutcome> {
    const order = this.orders.get(request.brokerOrderId);
    if (order === undefined || order.status !== 'OPEN') return { kind: 'refused', reason: `paper order ${request.brokerOrderId} is not working` };
    order.status = 'CANCELLED';
    this.emit({ kind: 'cancelled', brokerOrderId: order.brokerOrderId, tag: order.tag, reason: 'cancelled by the user' });
    return { kind: 'requested' };
  }

  /**
   * One tick of an instrument: every working order of it is matched. `jump` marks a tick that
   * opens a bar or a session (a level already passed fills at its price).
   */
  onTick(tick: FeedTick, options: { readonly jump?: boolean } = {}): void {
    const match = this.tick;
    match.price = tick.price;
    match.time = tick.time;
    match.jump = options.jump === true;
    match.index += 1;
    for (const order of this.orders.values()) {
      if (order.instrumentId !== tick.instrumentId || order.status !== 'OPEN') continue;
      if (!order.core.orderTick(order.working, match, this.outcome)) continue;
      const trade: VenueTrade = { tradeId: `${order.brokerOrderId}-1`, quantity: order.quantity, pricePaise: paise(Math.round(this.outcome.price)), atMs: tick.time };
      order.status = 'FILLED';
      order.trades = [trade];
      this.emit({ kind: 'fill', brokerOrderId: order.brokerOrderId, tag: order.tag, trade });
    }
  }

  async orderBook(): Promise<readonly VenueOrderReport[]> {
    const today = istMidnightMs(istDate(this.options.clock.now()));
    const rows = await this.bookRows(`(o.status = ANY($2::text[]) OR o.created_at >= to_timestamp($3::float8 / 1000) OR o.broker_order_id = ANY($4::text[]))`,
      [WORKING_STATUSES, today, [...this.orders.keys()]]);
    return this.reports(rows);
  }

  async orderByTag(tag: string): Promise<VenueOrderReport | undefined> {
    const rows = await this.bookRows('o.tag = $2', [tag]);
    return (await this.reports(rows))[0];
  }

  async positions(): Promise<readonly VenuePosition[]> {
    const { rows } = await this.options.pool.query<{ instrument_id: number; broker_order_id: string; trade_id: string; signed: number }>(
      `SELECT o.instrument_id, o.broker_order_id, f.trade_id, CASE o.side WHEN 'BUY' THEN f.quantity ELSE -f.quantity END AS signed
       FROM fills f JOIN orders o ON o.order_id = f.order_id JOIN strategy_runs r ON r.run_id = o.run_id
       WHERE o.user_id = $1 AND r.kind = 'PAPER' AND o.broker_order_id LIKE 'PAPER-%'`, [this.options.userId]);
    const net = new Map<number, number>();
    const recorded = new Set(rows.map((row) => row.trade_id));
    for (const row of rows) net.set(row.instrument_id, (net.get(row.instrument_id) ?? 0) + row.signed);
    for (const order of this.orders.values()) {
      for (const trade of order.trades) {
        if (recorded.has(trade.tradeId)) continue;
        net.set(order.instrumentId, (net.get(order.instrumentId) ?? 0) + (order.side === 'BUY' ? trade.quantity : -trade.quantity));
      }
    }
    return [...net].filter(([, quantity]) => quantity !== 0).map(([instrumentId, netQuantity]) => ({ instrumentKey: String(instrumentId), netQuantity }));
  }

  subscribe(listener: (event: VenueEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The orders still working here (for a runtime's status line and the tests). */
  get workingCount(): number {
    let count = 0;
    for (const order of this.orders.values()) if (order.status === 'OPEN') count += 1;
    return count;
  }

  private emit(event: VenueEvent): void {
    for (const listener of this.listeners) listener(event);
  }

  private async bookRows(where: string, params: readonly unknown[]): Promise<BookDbRow[]> {
    const { rows } = await this.options.pool.query<BookDbRow>(
      `SELECT o.broker_order_id, o.tag, o.instrument_id, o.side, o.quantity, o.status, o.order_type, o.price_paise::float8 AS price_paise,
         o.trigger_price_paise::float8 AS trigger_price_paise, o.status_message
       FROM orders o JOIN strategy_runs r ON r.run_id = o.run_id
       WHERE o.user_id = $1 AND r.kind = 'PAPER' AND o.broker_order_id LIKE 'PAPER-%' AND ${where}
       ORDER BY o.created_at, o.client_order_id`, [this.options.userId, ...params]);
    return rows;
  }

  private async reports(rows: readonly BookDbRow[]): Promise<VenueOrderReport[]> {
    if (rows.length === 0) return [];
    const fills = await this.options.pool.query<{ broker_order_id: string; trade_id: string; quantity: number; price_paise: number; ts_ms: number }>(
      `SELECT o.broker_order_id, f.trade_id, f.quantity, f.price_paise::float8 AS price_paise, (extract(epoch FROM f.ts) * 1000)::float8 AS ts_ms
       FROM fills f JOIN orders o ON o.order_id = f.order_id WHERE o.user_id = $1 AND o.broker_order_id = ANY($2::text[])`,
      [this.options.userId, rows.map((row) => row.broker_order_id)]);
    const trades = new Map<string, VenueTrade[]>();
    for (const fill of fills.rows) {
      const list = trades.get(fill.broker_order_id) ?? [];
      list.push({ tradeId: fill.trade_id, quantity: fill.quantity, pricePaise: paise(fill.price_paise), atMs: Math.round(fill.ts_ms) });
      trades.set(fill.broker_order_id, list);
    }
    return rows.map((row) => {
      const memory = this.orders.get(row.broker_order_id);
      const stored = trades.get(row.broker_order_id) ?? [];
      const all = [...stored, ...(memory?.trades ?? []).filter((trade) => !stored.some((known) => known.tradeId === trade.tradeId))];
      const status = memory?.status ?? venueStatusOf(row.status);
      return {
        brokerOrderId: row.broker_order_id, ...(row.tag === null ? {} : { tag: row.tag }), instrumentKey: String(row.instrument_id), side: row.side,
        quantity: row.quantity, status, filledQuantity: all.reduce((sum, trade) => sum + trade.quantity, 0), trades: all,
        ...(row.status_message === null || status !== 'REJECTED' ? {} : { statusMessage: row.status_message }),
      };
    });
  }

  private paperOrderOf(row: BookDbRow): PaperOrder | undefined {
    const rules = this.options.rulesFor(row.instrument_id);
    const working = workingOrderOf({
      side: row.side, orderType: row.order_type as OrderIntent['orderType'],
      ...(row.price_paise === null ? {} : { pricePaise: paise(row.price_paise) }),
      ...(row.trigger_price_paise === null ? {} : { triggerPricePaise: paise(row.trigger_price_paise) }),
    });
    if (rules === undefined || working === undefined || row.tag === null) return undefined;
    return {
      brokerOrderId: row.broker_order_id, tag: row.tag, instrumentId: row.instrument_id, side: row.side, quantity: row.quantity, working,
      core: new MatchingCore({ slippage: rules.slippage, tickSize: rules.tickSizePaise }), status: 'OPEN', trades: [],
    };
  }
}

/** The matching core's working order for an order: market, limit at its price, stop at its trigger. */
function workingOrderOf(intent: Pick<OrderIntent, 'side' | 'orderType' | 'pricePaise' | 'triggerPricePaise'>): WorkingOrder | undefined {
  const side = intent.side === 'BUY' ? 'buy' : 'sell';
  switch (intent.orderType) {
    case 'MARKET':
      return { type: 'market', side, level: Number.NaN, last: Number.NaN };
    case 'LIMIT':
      return intent.pricePaise === undefined ? undefined : { type: 'limit', side, level: intent.pricePaise, last: Number.NaN };
    case 'SL':
    case 'SL-M':
      return intent.triggerPricePaise === undefined ? undefined : { type: 'stop', side, level: intent.triggerPricePaise, last: Number.NaN };
  }
}
