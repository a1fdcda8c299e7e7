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
// - A MARKET order fills at once at the last traded price of its instrument (the latest tick given
//   to `onTick`) with the matching core's market slippage, stamped max(that tick's time, the clock's
//   now): the runner sends a bar's open orders with its clock at the opening tick and its close
//   orders at the bar's end, the times the backtest gives those fills. The fill event is delivered
//   just after `place` answered (`settled()` waits for it). Before any tick of its instrument, a
//   MARKET order fills at the next tick.
// - LIMIT, SL and SL-M orders fill when the tick path reaches their level (an SL order is matched
//   as a stop at its trigger). An order placed after a tick of its instrument continues from that
//   tick's price, so its first tick is a continuous move (a level crossed on the way fills at the
//   level); an order placed before any tick, or rebuilt after a restart, takes its first tick as a
//   jump (a level already passed fills at the tick's price). The runtime marks the jumps (a bar's
//   or a session's open) with `onTick(tick, { jump: true })`.
// - `runIds` keeps the book to some runs: a replay is a market of its own, at its own time. A
//   replay resumed after a restart plays its ticks again from the start, so there an order rebuilt
//   from its row meets only ticks after the time it was sent, continuing from the last price.
// - `modify` moves a working order's level at once, keeping the last price it saw; the OMS then
//   writes the new level on the row. A process that dies in between rebuilds the old level.
// - One fill per order, the whole quantity: partial fills are not simulated. Its trade id is
//   `<broker order id>-1`, so a fill sent twice is the same trade.
// - Charges are not the venue's: the OMS charges every fill with the run's charge model, the one
//   the backtest uses (packages/server/src/trading/oms/fill-ledger.ts).
// - `orderBook`, `orderByTag` and `positions` answer from the database merged with what this
//   process has done and the OMS has not written yet (a fill or a cancel still on its way).
import { istDate, istMidnightMs, paise } from '@vyuha/core';
import { emptyOutcome, MatchingCore } from '@vyuha/engine';
import type {
  CancelOutcome, FeedTick, MatchTick, ModifyRequest, OrderIntent, OrderSide, PlaceOutcome, SlippageModel, VenueEvent, VenueOrderReport, VenueOrderStatus,
  VenuePosition, VenuePort, VenueTrade, WorkingOrder,
} from '@vyuha/engine';
import type pg from 'pg';
import { batchPerKey, StatementBatch } from '../../db/statement-batch';
import { EXPIRY_SETTLEMENT_ROW } from '../oms/expiry-settlement';

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
  /**
   * Only these runs' orders make the book (default: every PAPER run of the user). A replay is a
   * market of its own, at its own time: its orders must never meet another run's ticks.
   */
  readonly runIds?: readonly string[];
}

interface PaperOrder {
  readonly brokerOrderId: string;
  readonly tag: string;
  readonly instrumentId: number;
  readonly orderType: OrderIntent['orderType'];
  readonly side: OrderSide;
  readonly quantity: number;
  readonly working: WorkingOrder;
  readonly core: MatchingCore;
  /** Ticks at or before this time (epoch ms) do not match it: in a replay, a rebuilt order waits for the replay to pass the time it was sent. */
  readonly activeFromMs: number;
  status: VenueOrderStatus;
  trades: VenueTrade[];
}

interface BookDbRow {
  submitted_ms: number | null;
  paper_trade: VenueTrade | null;
  broker_order_id: string; tag: string | null; instrument_id: number; side: OrderSide; quantity: number; status: string;
  order_type: string; price_paise: number | null; trigger_price_paise: number | null; status_message: string | null;
}

const WORKING_STATUSES = ['SUBMITTED', 'OPEN', 'PARTIALLY_FILLED', 'PENDING_CANCEL', 'UNKNOWN', 'PENDING_SUBMIT'];

function venueStatusOf(status: string): VenueOrderStatus {
  if (status === 'FILLED' || status === 'CANCELLED' || status === 'REJECTED') return status;
  return 'OPEN';
}

/**
 * The paper venue's acceptances of one turn in one statement: each order row found by its tag and
 * user (sent, no broker order id yet) gets the next `PAPER-<n>` id and, for a MARKET order, the
 * fill decided now. Each answer: the ids written for that tag (one, or none when no such row).
 */
const paperAcceptancesOf = batchPerKey((pool: pg.Pool) => new StatementBatch<{ tag: string; userId: string; fill: string | null }, string[]>({
  run: async (inputs) => {
    const { rows } = await pool.query<{ n: string; broker_order_id: string }>(
      `WITH req AS (SELECT * FROM unnest($1::text[], $2::uuid[], $3::text[]) WITH ORDINALITY AS r(tag, user_id, fill, n)),
       target AS MATERIALIZED (
         SELECT o.order_id, r.n, r.fill, 'PAPER-' || nextval('paper_order_seq') AS id
         FROM req r JOIN orders o ON o.tag = r.tag AND o.user_id = r.user_id AND o.broker_order_id IS NULL AND o.submitted_at IS NOT NULL)
       UPDATE orders o SET broker_order_id = t.id,
         paper_trade = CASE WHEN t.fill IS NULL THEN NULL ELSE jsonb_build_object('tradeId', t.id || '-1') || t.fill::jsonb END
       FROM target t WHERE o.order_id = t.order_id AND o.broker_order_id IS NULL AND o.submitted_at IS NOT NULL
       RETURNING t.n, o.broker_order_id`,
      [inputs.map((input) => input.tag), inputs.map((input) => input.userId), inputs.map((input) => input.fill)]);
    return inputs.map((_, index) => rows.filter((row) => Number(row.n) === index + 1).map((row) => row.broker_order_id));
  },
}));

export class PaperVenue implements VenuePort {
  private readonly orders = new Map<string, PaperOrder>();
  private readonly listeners = new Set<(event: VenueEvent) => void>();
  private readonly outcome = emptyOutcome<'market' | 'limit' | 'stop'>();
  private readonly tick: MatchTick = { price: 0, time: 0, jump: false, index: 0 };
  /** The latest tick of each instrument: where a MARKET order fills and a new order's path starts. */
  private readonly lastTicks = new Map<number, { price: number; time: number }>();
  /** Events decided but not yet handed to the listeners. */
  private readonly deferred = new Set<Promise<void>>();

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
    this.placing.add(intent.tag);
    try {
      return await this.receive(intent);
    } finally {
      this.placing.delete(intent.tag);
    }
  }

  /** Tags whose `place` is running in this process: their rows have submitted_at and no broker order id yet. */
  private readonly placing = new Set<string>();

  private async receive(intent: OrderIntent, options: { readonly silent?: boolean } = {}): Promise<PlaceOutcome> {
    const instrumentId = Number(intent.instrumentKey);
    const rules = Number.isSafeInteger(instrumentId) ? this.options.rulesFor(instrumentId) : undefined;
    if (rules === undefined) return { kind: 'rejected', reason: `the paper venue has no matching rules for instrument ${intent.instrumentKey}` };
    const working = workingOrderOf(intent);
    if (working === undefined) return { kind: 'rejected', reason: `a ${intent.orderType} order needs its price` };
    const core = new MatchingCore({ slippage: rules.slippage, tickSize: rules.tickSizePaise });
    const last = this.lastTicks.get(instrumentId);
    // A MARKET order's fill is decided now and written with the broker order id: a crash before the OMS records it loses nothing.
    const fill = last !== undefined && working.type === 'market'
      ? { quantity: intent.quantity, pricePaise: paise(Math.round(core.marketPrice(working.side, last.price))), atMs: Math.max(last.time, this.options.clock.now()) }
      : undefined;
    // The id from the sequence and the row in one statement (one round trip, shared with every
    // order placed in the same turn): the trade id is the id's, so SQL adds it.
    const rows = await paperAcceptancesOf(this.options.pool).call({ tag: intent.tag, userId: this.options.userId, fill: fill === undefined ? null : JSON.stringify(fill) });
    const brokerOrderId = rows[0];
    if (rows.length !== 1 || brokerOrderId === undefined) {
      return { kind: 'rejected', reason: `the paper venue keeps its book on the order rows, and no sent order has tag ${intent.tag}` };
    }
    const trade: VenueTrade | undefined = fill === undefined ? undefined : { tradeId: `${brokerOrderId}-1`, ...fill };
    const order: PaperOrder = {
      brokerOrderId, tag: intent.tag, instrumentId, orderType: intent.orderType, side: intent.side, quantity: intent.quantity, working,
      core, status: 'OPEN', trades: [], activeFromMs: Number.NEGATIVE_INFINITY,
    };
    this.orders.set(brokerOrderId, order);
    if (trade !== undefined) {
      if (options.silent === true) {
        order.status = 'FILLED';
        order.trades = [trade];
      } else this.fill(order, { price: trade.pricePaise, atMs: trade.atMs }, { deferred: true });
    } else if (last !== undefined) {
      working.last = last.price;
    }
    return { kind: 'accepted', brokerOrderId, status: 'OPEN' };
  }

  /**
   * Moves a working order's price or trigger: its matching level (the limit price, or the stop's
   * trigger) changes at once, and the order keeps the last price it saw. Quantities are not modified.
   */
  async modify(request: ModifyRequest): Promise<CancelOutcome> {
    const order = this.orders.get(request.brokerOrderId);
    if (order === undefined || order.status !== 'OPEN') return { kind: 'refused', reason: `paper order ${request.brokerOrderId} is not working` };
    if (request.quantity !== undefined && request.quantity !== order.quantity) {
      return { kind: 'refused', reason: 'the paper venue does not modify quantities; cancel and place a new order' };
    }
    const shapeIssue = order.orderType === 'MARKET' ? 'a MARKET order has no price or trigger to modify'
      : order.orderType === 'LIMIT' && request.triggerPricePaise !== undefined ? 'a LIMIT order takes no triggerPricePaise'
        : order.orderType === 'SL-M' && request.pricePaise !== undefined ? 'an SL-M order takes no pricePaise' : undefined;
    if (shapeIssue !== undefined) return { kind: 'refused', reason: shapeIssue };
    // An SL order is matched as a stop at its trigger; its limit price does not move the match.
    const level = order.orderType === 'LIMIT' ? request.pricePaise : request.triggerPricePaise;
    if (level !== undefined) order.working.level = level;
    return { kind: 'requested' };
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
    const before = this.lastTicks.get(tick.instrumentId);
    this.lastTicks.set(tick.instrumentId, { price: tick.price, time: tick.time });
    for (const order of this.orders.values()) {
      if (order.instrumentId !== tick.instrumentId || order.status !== 'OPEN') continue;
      if (tick.time <= order.activeFromMs) continue;
      // A rebuilt order meets its first tick as one placed now would: continuing from the last price.
      if (Number.isNaN(order.working.last) && before !== undefined && order.activeFromMs !== Number.NEGATIVE_INFINITY) order.working.last = before.price;
      if (!order.core.orderTick(order.working, match, this.outcome)) continue;
      this.fill(order, { price: this.outcome.price, atMs: tick.time }, { deferred: false });
    }
  }

  /**
   * A row whose send began (submitted_at) but that no `place` of this process is handling and that
   * has no broker order id: its sender died between writing submitted_at and calling `place`. The
   * venue's book is the rows, so it receives the order now, once the clock has reached its send
   * time (a replay rewound by a restart gets there again), as `place` would have then.
   */
  private async receiveOrphan(tag: string): Promise<void> {
    const { rows } = await this.options.pool.query<{ instrument_id: number; side: OrderSide; quantity: number; order_type: OrderIntent['orderType']; product: string;
      price_paise: number | null; trigger_price_paise: number | null; submitted_ms: number; client_order_id: string }>(
      `SELECT o.instrument_id, o.side, o.quantity, o.order_type, o.product, o.price_paise::float8 AS price_paise, o.trigger_price_paise::float8 AS trigger_price_paise,
         (extract(epoch FROM o.submitted_at) * 1000)::float8 AS submitted_ms, o.client_order_id
       FROM orders o JOIN strategy_runs r ON r.run_id = o.run_id
       WHERE o.user_id = $1 AND r.kind = 'PAPER' AND (${this.runScope}) AND o.tag = $2 AND o.broker_order_id IS NULL AND o.submitted_at IS NOT NULL
         AND o.status IN ('PENDING_SUBMIT', 'UNKNOWN')`, [this.options.userId, tag]);
    const row = rows[0];
    if (row === undefined || this.options.clock.now() < Math.round(row.submitted_ms)) return;
    await this.receive({
      clientOrderId: row.client_order_id as OrderIntent['clientOrderId'], tag, instrumentKey: String(row.instrument_id), exchange: 'NSE', tradingSymbol: '', side: row.side,
      quantity: row.quantity, orderType: row.order_type, product: row.product,
      ...(row.price_paise === null ? {} : { pricePaise: paise(row.price_paise) }),
      ...(row.trigger_price_paise === null ? {} : { triggerPricePaise: paise(row.trigger_price_paise) }),
    }, { silent: true });
  }

  /** True when no fill already decided is still on its way to the listeners (`settled()` would not wait). */
  get idle(): boolean {
    return this.deferred.size === 0;
  }

  /** Resolves once every fill already decided has reached the listeners. */
  async settled(): Promise<void> {
    while (this.deferred.size > 0) await Promise.all([...this.deferred]);
  }

  async orderBook(): Promise<readonly VenueOrderReport[]> {
    const today = istMidnightMs(istDate(this.options.clock.now()));
    const rows = await this.bookRows(`(o.status = ANY($2::text[]) OR o.created_at >= to_timestamp($3::float8 / 1000) OR o.broker_order_id = ANY($4::text[]))`,
      [WORKING_STATUSES, today, [...this.orders.keys()]]);
    return this.reports(rows);
  }

  async orderByTag(tag: string): Promise<VenueOrderReport | undefined> {
    if (!this.placing.has(tag)) await this.receiveOrphan(tag);
    const rows = await this.bookRows('o.tag = $2', [tag]);
    return (await this.reports(rows))[0];
  }

  async positions(): Promise<readonly VenuePosition[]> {
    // An option settled at its expiry (oms/expiry-settlement.ts) is gone from the positions, as at a
    // broker: its settlement row closes what the venue's fills opened.
    const { rows } = await this.options.pool.query<{ instrument_id: number; broker_order_id: string; trade_id: string; signed: number }>(
      `SELECT o.instrument_id, o.broker_order_id, f.trade_id, CASE o.side WHEN 'BUY' THEN f.quantity ELSE -f.quantity END AS signed
       FROM fills f JOIN orders o ON o.order_id = f.order_id JOIN strategy_runs r ON r.run_id = o.run_id
       WHERE o.user_id = $1 AND r.kind = 'PAPER' AND o.broker_order_id LIKE 'PAPER-%' AND (${this.runScope})
       UNION ALL
       SELECT o.instrument_id, NULL, 'expiry ' || o.client_order_id, CASE o.side WHEN 'BUY' THEN o.filled_quantity ELSE -o.filled_quantity END
       FROM orders o JOIN strategy_runs r ON r.run_id = o.run_id
       WHERE o.user_id = $1 AND r.kind = 'PAPER' AND ${EXPIRY_SETTLEMENT_ROW} AND (${this.runScope})`, [this.options.userId]);
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

  /** The order's one fill, for its whole quantity; a deferred one reaches the listeners after the current call answered. */
  private fill(order: PaperOrder, at: { readonly price: number; readonly atMs: number }, how: { readonly deferred: boolean }): void {
    const trade: VenueTrade = { tradeId: `${order.brokerOrderId}-1`, quantity: order.quantity, pricePaise: paise(Math.round(at.price)), atMs: at.atMs };
    order.status = 'FILLED';
    order.trades = [trade];
    const event: VenueEvent = { kind: 'fill', brokerOrderId: order.brokerOrderId, tag: order.tag, trade };
    if (!how.deferred) {
      this.emit(event);
      return;
    }
    // setImmediate runs after the promise jobs that hand `place`'s answer over: the caller has the ack before the fill.
    const delivered = new Promise<void>((resolve) => {
      setImmediate(() => {
        try {
          this.emit(event);
        } finally {
          this.deferred.delete(delivered);
          resolve();
        }
      });
    });
    this.deferred.add(delivered);
  }

  private emit(event: VenueEvent): void {
    for (const listener of this.listeners) listener(event);
  }

  private async bookRows(where: string, params: readonly unknown[]): Promise<BookDbRow[]> {
    const { rows } = await this.options.pool.query<BookDbRow>(
      `SELECT o.broker_order_id, o.tag, o.instrument_id, o.side, o.quantity, o.status, o.order_type, o.price_paise::float8 AS price_paise,
         o.trigger_price_paise::float8 AS trigger_price_paise, o.status_message, (extract(epoch FROM o.submitted_at) * 1000)::float8 AS submitted_ms, o.paper_trade
       FROM orders o JOIN strategy_runs r ON r.run_id = o.run_id
       WHERE o.user_id = $1 AND r.kind = 'PAPER' AND o.broker_order_id LIKE 'PAPER-%' AND (${this.runScope}) AND ${where}
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
    const filled = row.paper_trade !== null;
    return {
      brokerOrderId: row.broker_order_id, tag: row.tag, instrumentId: row.instrument_id, orderType: row.order_type as OrderIntent['orderType'], side: row.side,
      quantity: row.quantity, working,
      core: new MatchingCore({ slippage: rules.slippage, tickSize: rules.tickSizePaise }), status: filled ? 'FILLED' : 'OPEN',
      trades: row.paper_trade === null ? [] : [row.paper_trade],
      activeFromMs: this.options.runIds === undefined ? Number.NEGATIVE_INFINITY : row.submitted_ms ?? Number.NEGATIVE_INFINITY,
    };
  }

  /** The SQL condition on `o` that keeps the book to the runs of `runIds` (literal uuids, checked), or true. */
  private get runScope(): string {
    const runIds = this.options.runIds;
    if (runIds === undefined) return 'true';
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
    for (const runId of runIds) if (!uuid.test(runId)) throw new RangeError(`runIds: ${runId} is not a run id`);
    return runIds.length === 0 ? 'false' : `o.run_id IN (${runIds.map((runId) => `'${runId}'`).join(', ')})`;
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
