// An order request on its way in: its fields checked (each issue names its field), its slices'
// client order ids, and the rows written in one transaction BEFORE anything is sent (ARCHITECTURE.md,
// "The life of a live order"). Rows are inserted with ON CONFLICT (client_order_id) DO NOTHING, so a
// decision asked again (a restarted runner, a second process) finds its rows instead of doubling.
import { istDate } from '@vyuha/core';
import type { IsoDate } from '@vyuha/core';
import { applyOrderEvent, brokerTagFor, clientOrderIdFor, createOrder, OMS_ORDER_TYPES } from '@vyuha/engine';
import type { ClientOrderId } from '@vyuha/engine';
import pg from 'pg';
import { batchPerKey, StatementBatch } from '../../db/statement-batch';
import { auditView, inTransaction, ORDER_COLUMNS, storedNewOrder } from './order-rows';
import type { OrderDbRow, StoredOrder } from './order-rows';
import { SLICES_PER_DECISION } from './oms-types';
import type { OmsIssue, OmsOrderView, PlaceOrderRequest, RunContext } from './oms-types';

const PRODUCTS = ['MIS', 'I', 'Intraday', 'CNC', 'NRML', 'Margin', 'Delivery', 'Carryforward', 'D', 'M'];
const MAX_DECISION = Math.floor(Number.MAX_SAFE_INTEGER / SLICES_PER_DECISION) - 1;

function invalid(field: string, message: string): OmsIssue {
  return { field, code: 'invalid-request', message };
}

/** Every field of a request that is wrong (empty when it is well formed). */
export function requestIssues(request: PlaceOrderRequest): OmsIssue[] {
  const issues: OmsIssue[] = [];
  if (typeof request !== 'object' || request === null) return [invalid('request', 'the order request must be an object')];
  if (!Number.isSafeInteger(request.decision) || request.decision < 0 || request.decision > MAX_DECISION) {
    issues.push(invalid('decision', `decision must be a whole number from 0 to ${MAX_DECISION}, got ${String(request.decision)}`));
  }
  if (!Number.isSafeInteger(request.instrumentId) || request.instrumentId <= 0) {
    issues.push(invalid('instrumentId', `instrumentId must be an instrument's id, got ${String(request.instrumentId)}`));
  }
  if (!PRODUCTS.includes(request.product)) issues.push(invalid('product', `product must be one of ${PRODUCTS.join(', ')}, got ${String(request.product)}`));
  if (!OMS_ORDER_TYPES.includes(request.orderType)) {
    issues.push(invalid('orderType', `orderType must be one of ${OMS_ORDER_TYPES.join(', ')}, got ${String(request.orderType)}`));
  }
  if (request.referencePricePaise !== undefined && (!Number.isSafeInteger(request.referencePricePaise) || request.referencePricePaise <= 0)) {
    issues.push(invalid('referencePricePaise', `referencePricePaise must be whole paise above 0, got ${String(request.referencePricePaise)}`));
  }
  const shape = createOrder({
    clientOrderId: 'check' as ClientOrderId, instrumentKey: String(request.instrumentId), side: request.side, quantity: request.quantity,
    orderType: request.orderType,
    ...(request.pricePaise === undefined ? {} : { pricePaise: request.pricePaise }),
    ...(request.triggerPricePaise === undefined ? {} : { triggerPricePaise: request.triggerPricePaise }),
  });
  if (!shape.ok && !issues.some((issue) => issue.field === shape.error.field)) issues.push(invalid(shape.error.field, shape.error.message));
  return issues;
}

/** The client order id and broker tag of slice `slice` of a decision. */
export function sliceIds(request: { readonly runId: string; readonly decision: number; readonly slice: number }): { clientOrderId: ClientOrderId; tag: string } {
  const parts = { runId: request.runId, sequence: request.decision * SLICES_PER_DECISION + request.slice };
  const id = clientOrderIdFor(parts);
  const tag = brokerTagFor(parts);
  if (!id.ok) throw new RangeError(id.error);
  if (!tag.ok) throw new RangeError(tag.error);
  return { clientOrderId: id.value, tag: tag.value };
}

/** The client order ids a decision may use, slice 0 first. */
export function decisionIds(request: { readonly runId: string; readonly decision: number }): string[] {
  return Array.from({ length: SLICES_PER_DECISION }, (_, slice) => sliceIds({ ...request, slice }).clientOrderId);
}

/** Why stored rows are not the decision asked for (the decision number was already used for another order). */
export function mismatchOf(stored: readonly StoredOrder[], request: PlaceOrderRequest): OmsIssue | undefined {
  const first = stored[0];
  if (first === undefined) return undefined;
  const total = stored.reduce((sum, row) => sum + row.order.quantity, 0);
  const same = first.instrumentId === request.instrumentId && first.order.side === request.side && first.order.orderType === request.orderType
    && total === request.quantity;
  if (same) return undefined;
  return {
    field: 'decision', code: 'decision-taken',
    message: `decision ${request.decision} of run ${request.runId} is already ${first.order.side} ${total} of instrument ${first.instrumentId} `
      + `(${first.order.orderType}); a new order needs the next decision number`,
  };
}

/** What a stored order looks like to the caller. */
export function viewOf(stored: StoredOrder): OmsOrderView {
  return {
    orderId: stored.orderId, clientOrderId: stored.order.clientOrderId, status: stored.order.status, quantity: stored.order.quantity,
    filledQuantity: stored.order.filledQuantity, queuedUntilMs: stored.queuedUntilMs, brokerOrderId: stored.order.brokerOrderId ?? null,
    statusMessage: stored.order.statusMessage ?? null,
  };
}

/**
 * Writes the decision's slices (PENDING_SUBMIT, nothing sent) with the run's user, strategy,
 * broker account and algo id, counts them in today's daily_pnl row and audits each; returns false
 * when another writer had already written the decision (nothing is written then).
 */
export async function writeDecision(pool: pg.Pool, request: DecisionToWrite): Promise<boolean> {
  return (await writeDecisionRows(pool, request)) !== undefined;
}

export interface DecisionToWrite {
  readonly run: RunContext;
  readonly order: PlaceOrderRequest;
  readonly slices: readonly number[];
  readonly nowMs: number;
  /**
   * A decision of one slice that the rate queue lets leave now: its row is written with
   * `submitted_at` (the send started, audited as `order.send-started`) in the same statement, so
   * the venue hears of it one round trip after the risk check instead of two. The OMS places it
   * next, holding the order's lock; a crash in between leaves a row the recovery resolves by asking
   * the venue, as after any send that started.
   */
  readonly sendingAtMs?: number;
}

/**
 * `writeDecision`, returning the rows as written (undefined when another writer had written the
 * decision). Each slice is one statement: its row, its audit row and its count in today's
 * daily_pnl, the row coming back from it. A decision of one slice (most) is that statement alone,
 * atomic without BEGIN and COMMIT: one round trip where there were six, on the way to the venue.
 */
export async function writeDecisionRows(pool: pg.Pool, request: DecisionToWrite): Promise<StoredOrder[] | undefined> {
  if (request.sendingAtMs !== undefined && request.slices.length !== 1) throw new RangeError('only a decision of one slice is written as sent');
  if (request.slices.length === 1) {
    const row = await insertSlice(pool, { ...request, slice: 0, quantity: request.slices[0] as number, parentId: null });
    return row === undefined ? undefined : [storedNewOrder(row)];
  }
  return inTransaction(pool, async (client) => {
    let parentId: string | null = null;
    const written: StoredOrder[] = [];
    for (const [slice, quantity] of request.slices.entries()) {
      const row = await insertSlice(client, { ...request, slice, quantity, parentId });
      if (row === undefined) {
        await client.query('ROLLBACK');
        await client.query('BEGIN');
        return undefined;
      }
      if (slice === 0) parentId = row.order_id;
      written.push(storedNewOrder(row));
    }
    return written;
  });
}

/** One slice's order row as the statement writes it. */
interface SliceRow {
  readonly clientOrderId: string; readonly runId: string; readonly strategyId: string | null; readonly userId: string; readonly userBrokerId: string | null;
  readonly instrumentId: number; readonly side: string; readonly quantity: number; readonly orderType: string; readonly product: string;
  readonly pricePaise: number | null; readonly triggerPricePaise: number | null; readonly algoId: string | null; readonly tag: string;
  readonly parentId: string | null; readonly squareOff: boolean; readonly createdAtMs: number; readonly audit: string; readonly day: IsoDate;
  readonly sendingAtMs: number | null; readonly sentAudit: string | null;
}

/** One slice's order row, audited and counted; undefined when its client order id was taken. */
async function insertSlice(db: pg.Pool | pg.ClientBase, request: DecisionToWrite & {
  readonly slice: number; readonly quantity: number; readonly parentId: string | null;
}): Promise<OrderDbRow | undefined> {
  const { run, order, quantity } = request;
  const ids = sliceIds({ runId: run.runId, decision: order.decision, slice: request.slice });
  const created = createOrder({
    clientOrderId: ids.clientOrderId, tag: ids.tag, instrumentKey: String(order.instrumentId), side: order.side, quantity, orderType: order.orderType,
    ...(order.pricePaise === undefined ? {} : { pricePaise: order.pricePaise }),
    ...(order.triggerPricePaise === undefined ? {} : { triggerPricePaise: order.triggerPricePaise }),
  });
  if (!created.ok) throw new RangeError(`${created.error.field}: ${created.error.message}`);
  const audit = { ...auditView(created.value), runId: run.runId, algoId: run.algoId, squareOff: order.squareOff === true };
  const sending = request.sendingAtMs === undefined ? undefined : applyOrderEvent(created.value, { type: 'send-started', atMs: request.sendingAtMs });
  if (sending !== undefined && !sending.ok) throw new RangeError(sending.error.message);
  const row: SliceRow = {
    clientOrderId: ids.clientOrderId, runId: run.runId, strategyId: run.strategyId, userId: run.userId, userBrokerId: run.userBrokerId,
    instrumentId: order.instrumentId, side: order.side, quantity, orderType: order.orderType, product: order.product,
    pricePaise: order.pricePaise ?? null, triggerPricePaise: order.triggerPricePaise ?? null, algoId: run.algoId, tag: ids.tag,
    parentId: request.parentId, squareOff: order.squareOff === true, createdAtMs: request.nowMs, audit: JSON.stringify(audit), day: istDate(request.nowMs),
    sendingAtMs: request.sendingAtMs ?? null,
    sentAudit: sending === undefined ? null : JSON.stringify({ before: auditView(created.value), after: { ...auditView(sending.value.order), fills: 0 } }),
  };
  // Outside a transaction, with the other orders written in the same turn (db/statement-batch.ts).
  if (db instanceof pg.Pool) return sliceInsertsOf(db).call(row);
  return (await insertSliceRows(db, [row]))[0];
}

const sliceInsertsOf = batchPerKey((pool: pg.Pool) => new StatementBatch<SliceRow, OrderDbRow | undefined>({ run: (rows) => insertSliceRows(pool, rows) }));

/**
 * Slices' order rows in one statement: each row, its audit row (and its `order.send-started` row
 * when it is written as sent), and its count in today's daily_pnl; each answer the row as written,
 * or undefined when its client order id was taken.
 */
async function insertSliceRows(db: pg.Pool | pg.ClientBase, slices: readonly SliceRow[]): Promise<Array<OrderDbRow | undefined>> {
  const column = <K extends keyof SliceRow>(key: K): Array<SliceRow[K]> => slices.map((slice) => slice[key]);
  // The audit rows and the counts come FROM inserted: a client order id another writer took writes nothing here.
  const { rows } = await db.query<OrderDbRow>(
    `WITH req AS (
       SELECT * FROM unnest($1::text[], $2::uuid[], $3::uuid[], $4::uuid[], $5::uuid[], $6::int[], $7::text[], $8::int[], $9::text[], $10::text[],
         $11::bigint[], $12::bigint[], $13::text[], $14::text[], $15::uuid[], $16::boolean[], $17::float8[], $18::text[], $19::date[], $20::float8[], $21::text[])
         WITH ORDINALITY AS r(client_order_id, run_id, strategy_id, user_id, user_broker_id, instrument_id, side, quantity, order_type, product,
           price_paise, trigger_price_paise, algo_id, tag, parent_order_id, square_off, created_ms, audit, day, sending_ms, sent_audit, n)),
     inserted AS (
       INSERT INTO orders AS o (client_order_id, run_id, strategy_id, user_id, user_broker_id, instrument_id, side, quantity, order_type, product,
         price_paise, trigger_price_paise, status, algo_id, tag, parent_order_id, square_off, created_at, submitted_at)
       SELECT client_order_id, run_id, strategy_id, user_id, user_broker_id, instrument_id, side, quantity, order_type, product,
         price_paise, trigger_price_paise, 'PENDING_SUBMIT', algo_id, tag, parent_order_id, square_off, to_timestamp(created_ms / 1000),
         CASE WHEN sending_ms IS NULL THEN NULL ELSE to_timestamp(sending_ms / 1000) END
       FROM req ORDER BY n
       ON CONFLICT (client_order_id) DO NOTHING RETURNING ${ORDER_COLUMNS}),
     audited AS (
       INSERT INTO audit_log (actor_user_id, action, entity, entity_id, before, after)
       SELECT r.user_id, 'order.created', 'orders', r.client_order_id, NULL, r.audit::jsonb
       FROM inserted i JOIN req r ON r.client_order_id = i.client_order_id ORDER BY r.n RETURNING entity_id),
     -- FROM audited: the send's row is inserted after the creation's, in the trail's order.
     sent AS (
       INSERT INTO audit_log (actor_user_id, action, entity, entity_id, before, after)
       SELECT NULL, 'order.send-started', 'orders', r.client_order_id, r.sent_audit::jsonb -> 'before', r.sent_audit::jsonb -> 'after'
       FROM audited a JOIN req r ON r.client_order_id = a.entity_id WHERE r.sent_audit IS NOT NULL ORDER BY r.n),
     counted AS (
       INSERT INTO daily_pnl (run_id, date, pnl_paise, orders_count)
       SELECT r.run_id, r.day, 0, count(*) FROM inserted i JOIN req r ON r.client_order_id = i.client_order_id GROUP BY r.run_id, r.day
       ON CONFLICT (run_id, date) DO UPDATE SET orders_count = daily_pnl.orders_count + EXCLUDED.orders_count)
     SELECT * FROM inserted`,
    [column('clientOrderId'), column('runId'), column('strategyId'), column('userId'), column('userBrokerId'), column('instrumentId'), column('side'),
      column('quantity'), column('orderType'), column('product'), column('pricePaise'), column('triggerPricePaise'), column('algoId'), column('tag'),
      column('parentId'), column('squareOff'), column('createdAtMs'), column('audit'), column('day'), column('sendingAtMs'), column('sentAudit')]);
  const byId = new Map(rows.map((row) => [row.client_order_id, row]));
  return slices.map((slice) => byId.get(slice.clientOrderId));
}
