// The orders and fills rows as the OMS reads and writes them, and the audit row of every order
// event. The database is the OMS's state: every event locks the order's row, rebuilds the order
// from the row and its fills (engine `restoreOrder`), applies the event and writes the result in
// the same transaction, so two processes (or a restarted one) never work from a stale copy.
import type { OmsOrder, OrderRow, OmsFill } from '@vyuha/engine';
import { orderRowOf, restoreOrder } from '@vyuha/engine';
import pg from 'pg';
import { batchPerKey, StatementBatch } from '../../db/statement-batch';
import { inTransaction } from '../../db/transaction';

// Callers of the OMS take the transaction helper from here (it lives in db/transaction.ts).
export { inTransaction };

/** An order row with what the OMS needs besides the state machine's fields. */
export interface StoredOrder {
  readonly orderId: string;
  readonly runId: string;
  readonly userId: string;
  readonly instrumentId: number;
  readonly product: string;
  readonly algoId: string | null;
  /** A reduce-only square-off (orders.square_off). */
  readonly squareOff: boolean;
  readonly queuedUntilMs: number | null;
  readonly createdAtMs: number;
  readonly order: OmsOrder;
}

/** The columns a StoredOrder is read from, on the table aliased `o` (a SELECT, or an INSERT's RETURNING). */
export const ORDER_COLUMNS = `o.order_id, o.run_id, o.user_id, o.instrument_id, o.product, o.algo_id, o.square_off, o.client_order_id, o.tag, o.side,
  o.quantity, o.order_type, o.price_paise::float8 AS price_paise, o.trigger_price_paise::float8 AS trigger_price_paise, o.status,
  o.filled_quantity, o.average_price_paise::float8 AS average_price_paise, o.broker_order_id, o.status_message,
  (extract(epoch FROM o.submitted_at) * 1000)::float8 AS submitted_ms, (extract(epoch FROM o.queued_until) * 1000)::float8 AS queued_ms,
  (extract(epoch FROM o.created_at) * 1000)::float8 AS created_ms`;

export interface OrderDbRow {
  order_id: string; run_id: string; user_id: string; instrument_id: number; product: string; algo_id: string | null; square_off: boolean;
  client_order_id: string; tag: string | null; side: OrderRow['side']; quantity: number; order_type: OrderRow['orderType'];
  price_paise: number | null; trigger_price_paise: number | null; status: OrderRow['status']; filled_quantity: number;
  average_price_paise: number | null; broker_order_id: string | null; status_message: string | null;
  submitted_ms: number | null; queued_ms: number | null; created_ms: number;
}

interface FillDbRow {
  trade_id: string; quantity: number; price_paise: number; ts_ms: number;
}

/** A row and its fills that `restoreOrder` refuses: a broken invariant, never an expected failure. */
export class CorruptOrderError extends Error {}

function stored(row: OrderDbRow, fills: readonly OmsFill[]): StoredOrder {
  const restored = restoreOrder({
    row: {
      clientOrderId: row.client_order_id, tag: row.tag, instrumentKey: String(row.instrument_id), side: row.side, quantity: row.quantity,
      orderType: row.order_type, pricePaise: row.price_paise, triggerPricePaise: row.trigger_price_paise, status: row.status,
      filledQuantity: row.filled_quantity, averagePricePaise: row.average_price_paise,
      submittedAtMs: row.submitted_ms === null ? null : Math.round(row.submitted_ms),
      brokerOrderId: row.broker_order_id, statusMessage: row.status_message,
    },
    fills,
  });
  if (!restored.ok) throw new CorruptOrderError(`order ${row.client_order_id}: ${restored.error.field}: ${restored.error.message}`);
  return {
    orderId: row.order_id, runId: row.run_id, userId: row.user_id, instrumentId: row.instrument_id, product: row.product, algoId: row.algo_id, squareOff: row.square_off,
    queuedUntilMs: row.queued_ms === null ? null : Math.round(row.queued_ms), createdAtMs: Math.round(row.created_ms), order: restored.value,
  };
}

// Each order's fills come in the same statement as its row: one snapshot, so a fill committed
// between two separate reads can never show a row that its fills contradict.
const FILLS_COLUMN = `coalesce((SELECT json_agg(json_build_object('trade_id', f.trade_id, 'quantity', f.quantity, 'price_paise', f.price_paise::float8,
    'ts_ms', (extract(epoch FROM f.ts) * 1000)::float8) ORDER BY f.created_at, f.ts, f.trade_id)
  FROM fills f WHERE f.order_id = o.order_id), '[]'::json) AS fills`;

function storedWithFills(row: OrderDbRow & { fills: FillDbRow[] }): StoredOrder {
  return stored(row, row.fills.map((fill) => ({
    tradeId: fill.trade_id, quantity: fill.quantity, pricePaise: fill.price_paise as OmsFill['pricePaise'], atMs: Math.round(fill.ts_ms),
  })));
}

/** An order row just inserted (RETURNING ORDER_COLUMNS): it has no fills yet. */
export function storedNewOrder(row: OrderDbRow): StoredOrder {
  return stored(row, []);
}

/** The order with `clientOrderId`, its row locked until the transaction ends; undefined when none. */
export async function lockOrder(client: pg.ClientBase, clientOrderId: string): Promise<StoredOrder | undefined> {
  const { rows } = await client.query<OrderDbRow & { fills: FillDbRow[] }>(
    `SELECT ${ORDER_COLUMNS}, ${FILLS_COLUMN} FROM orders o WHERE o.client_order_id = $1 FOR UPDATE`, [clientOrderId]);
  return rows[0] === undefined ? undefined : storedWithFills(rows[0]);
}

/** Orders chosen by a WHERE clause on `o` (no lock), oldest first. */
export async function selectOrders(db: pg.ClientBase | pg.Pool, where: string, params: readonly unknown[]): Promise<StoredOrder[]> {
  const { rows } = await db.query<OrderDbRow & { fills: FillDbRow[] }>(
    `SELECT ${ORDER_COLUMNS}, ${FILLS_COLUMN} FROM orders o WHERE ${where} ORDER BY o.created_at, length(o.client_order_id), o.client_order_id`, [...params]);
  return rows.map(storedWithFills);
}

/**
 * The orders with these client order ids (no lock), oldest first: read with every other such read
 * of this turn in one statement (db/statement-batch.ts), as the selections of `selectOrders`.
 */
export async function ordersByIds(pool: pg.Pool, clientOrderIds: readonly string[]): Promise<StoredOrder[]> {
  return orderReadsOf(pool).call(clientOrderIds);
}

const orderReadsOf = batchPerKey((pool: pg.Pool) => new StatementBatch<readonly string[], StoredOrder[]>({
  run: async (selections) => {
    const found = await selectOrders(pool, 'o.client_order_id = ANY($1::text[])', [[...new Set(selections.flat())]]);
    return selections.map((ids) => {
      const wanted = new Set(ids);
      return found.filter((row) => wanted.has(row.order.clientOrderId));
    });
  },
}));

/** The client order id a venue event is about: by broker order id, else by the tag of an order not yet acknowledged. */
export async function clientOrderIdForVenue(db: pg.Pool, request: { readonly brokerOrderId: string; readonly tag?: string; readonly userId: string }): Promise<string | undefined> {
  const { rows } = await db.query<{ client_order_id: string }>(
    `SELECT client_order_id FROM orders
     WHERE user_id = $3 AND (broker_order_id = $1 OR ($2::text IS NOT NULL AND tag = $2 AND broker_order_id IS NULL))
     ORDER BY (broker_order_id = $1) DESC NULLS LAST LIMIT 1`,
    [request.brokerOrderId, request.tag ?? null, request.userId]);
  return rows[0]?.client_order_id;
}

/** What an order's audit row says. */
export interface OrderAuditEntry {
  readonly action: string;
  readonly clientOrderId: string;
  readonly actorUserId: string | null;
  readonly before?: unknown;
  readonly after?: unknown;
}

const AUDIT_INSERT = `INSERT INTO audit_log (actor_user_id, action, entity, entity_id, before, after)`;

function auditParams(entry: OrderAuditEntry): unknown[] {
  return [entry.actorUserId, entry.action, entry.clientOrderId,
    entry.before === undefined ? null : JSON.stringify(entry.before), entry.after === undefined ? null : JSON.stringify(entry.after)];
}

/** One order's write (`writeOrder`'s request). */
export interface OrderWrite {
  readonly orderId: string; readonly order: OmsOrder; readonly queuedUntilMs?: number | null; readonly audit?: OrderAuditEntry;
  readonly onlyIfUnsent?: boolean;
  /**
   * Written only while the row still has this order's status and filled quantity, and no broker
   * order id or the one being written (the paper venue keeps its id on the row as its book): a
   * compare-and-set.
   */
  readonly onlyIfStill?: OmsOrder;
}

/**
 * Writes the state machine's fields of an order, its price and trigger included (a modification
 * moves them), and takes it out of the queue once it was sent or ended. With `audit`, its audit row
 * goes in the same statement: one round trip instead of two, which under load is one wait for the
 * event loop less. With `onlyIfUnsent`, the row is written only while it is still PENDING_SUBMIT
 * without `submitted_at` (a compare-and-set: of two senders, one wins). True when the row was
 * written. On a pool (outside a transaction) the write goes with the other writes of this turn in
 * one statement (db/statement-batch.ts).
 */
export async function writeOrder(client: pg.ClientBase | pg.Pool, request: OrderWrite): Promise<boolean> {
  if (client instanceof pg.Pool) return orderWritesOf(client).call(request);
  return (await writeOrderRows(client, [request]))[0] as boolean;
}

const orderWritesOf = batchPerKey((pool: pg.Pool) => new StatementBatch<OrderWrite, boolean>({
  run: async (writes) => {
    // Two writes of one order are never in one UPDATE (which would apply one of them): one at a time.
    if (new Set(writes.map((write) => write.orderId)).size === writes.length) return writeOrderRows(pool, writes);
    const written: boolean[] = [];
    for (const write of writes) written.push(...await writeOrderRows(pool, [write]));
    return written;
  },
}));

/** The writes of distinct orders in one statement, each guarded by its own compare-and-set, each audited when asked. */
async function writeOrderRows(db: pg.ClientBase | pg.Pool, writes: readonly OrderWrite[]): Promise<boolean[]> {
  const rows = writes.map((write) => orderRowOf(write.order));
  const stills = writes.map((write) => (write.onlyIfStill === undefined ? undefined : orderRowOf(write.onlyIfStill)));
  const { rows: changed } = await db.query<{ n: string }>(
    `WITH req AS (
       SELECT * FROM unnest($1::uuid[], $2::text[], $3::int[], $4::bigint[], $5::float8[], $6::text[], $7::text[], $8::float8[], $9::bigint[], $10::bigint[],
         $11::boolean[], $12::text[], $13::int[], $14::uuid[], $15::text[], $16::text[], $17::text[], $18::text[]) WITH ORDINALITY
         AS r(order_id, status, filled_quantity, average_price_paise, submitted_ms, broker_order_id, status_message, queued_ms, price_paise, trigger_price_paise,
           only_unsent, still_status, still_filled, actor_user_id, action, entity_id, audit_before, audit_after, n)),
     changed AS (
       UPDATE orders o SET status = r.status, filled_quantity = r.filled_quantity, average_price_paise = r.average_price_paise,
         submitted_at = CASE WHEN r.submitted_ms IS NULL THEN NULL ELSE to_timestamp(r.submitted_ms / 1000) END,
         broker_order_id = r.broker_order_id, status_message = r.status_message,
         queued_until = CASE WHEN r.queued_ms IS NULL THEN NULL ELSE to_timestamp(r.queued_ms / 1000) END,
         price_paise = r.price_paise, trigger_price_paise = r.trigger_price_paise
       FROM req r
       WHERE o.order_id = r.order_id
         AND (NOT r.only_unsent OR (o.status = 'PENDING_SUBMIT' AND o.submitted_at IS NULL))
         AND (r.still_status IS NULL OR (o.status = r.still_status AND o.filled_quantity = r.still_filled
           AND (o.broker_order_id IS NULL OR o.broker_order_id = r.broker_order_id)))
       RETURNING r.n),
     -- FROM changed: an audit row exists exactly when its order row was written.
     audited AS (
       ${AUDIT_INSERT} SELECT r.actor_user_id, r.action, 'orders', r.entity_id, r.audit_before::jsonb, r.audit_after::jsonb
       FROM changed c JOIN req r ON r.n = c.n WHERE r.action IS NOT NULL ORDER BY r.n)
     SELECT n FROM changed`,
    [writes.map((write) => write.orderId), rows.map((row) => row.status), rows.map((row) => row.filledQuantity), rows.map((row) => row.averagePricePaise),
      rows.map((row) => row.submittedAtMs), rows.map((row) => row.brokerOrderId), rows.map((row) => row.statusMessage),
      writes.map((write, index) => queuedUntil(rows[index] as OrderRow, write.queuedUntilMs)), rows.map((row) => row.pricePaise), rows.map((row) => row.triggerPricePaise),
      writes.map((write) => write.onlyIfUnsent === true), stills.map((still) => still?.status ?? null), stills.map((still) => still?.filledQuantity ?? null),
      writes.map((write) => write.audit?.actorUserId ?? null), writes.map((write) => write.audit?.action ?? null), writes.map((write) => write.audit?.clientOrderId ?? null),
      writes.map((write) => jsonOrNull(write.audit?.before)), writes.map((write) => jsonOrNull(write.audit?.after))]);
  const written = new Set(changed.map((row) => Number(row.n)));
  return writes.map((_, index) => written.has(index + 1));
}

/** `queued_until` of a row: kept only while it is unsent and a time is given. */
function queuedUntil(row: OrderRow, queuedUntilMs: number | null | undefined): number | null {
  return row.status === 'PENDING_SUBMIT' && row.submittedAtMs === null && queuedUntilMs !== undefined ? queuedUntilMs : null;
}

function jsonOrNull(value: unknown): string | null {
  return value === undefined ? null : JSON.stringify(value);
}

/** One audit_log row about an order (entity `orders`, its client order id). */
export async function auditOrder(client: pg.ClientBase, entry: OrderAuditEntry): Promise<void> {
  await client.query(`${AUDIT_INSERT} VALUES ($1, $2, 'orders', $3, $4, $5)`, auditParams(entry));
}

/** The audit form of an order: its row's fields. */
export function auditView(order: OmsOrder): OrderRow {
  return orderRowOf(order);
}


/**
 * Runs `work` in a transaction whose `vyuha.actor_id` is `actor` (the user the audit triggers of
 * migration 0028 name as the one who made the change; null: nobody named).
 * @example await inActorTransaction(pool, adminId, (client) => client.query('UPDATE users SET tier = $2 WHERE user_id = $1', [userId, 'basic']))
 */
export async function inActorTransaction<T>(pool: pg.Pool, actor: string | null, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  return inTransaction(pool, async (client) => {
    await client.query(`SELECT set_config('vyuha.actor_id', $1, true)`, [actor ?? '']);
    return work(client);
  });
}
