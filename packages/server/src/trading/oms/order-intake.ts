// An order request on its way in: its fields checked (each issue names its field), its slices'
// client order ids, and the rows written in one transaction BEFORE anything is sent (ARCHITECTURE.md,
// "The life of a live order"). Rows are inserted with ON CONFLICT (client_order_id) DO NOTHING, so a
// decision asked again (a restarted runner, a second process) finds its rows instead of doubling.
import { istDate } from '@vyuha/core';
import { brokerTagFor, clientOrderIdFor, createOrder, OMS_ORDER_TYPES } from '@vyuha/engine';
import type { ClientOrderId } from '@vyuha/engine';
import type pg from 'pg';
import { countOrders } from './fill-ledger';
import { auditOrder, auditView, inTransaction } from './order-rows';
import type { StoredOrder } from './order-rows';
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
export async function writeDecision(pool: pg.Pool, request: {
  readonly run: RunContext; readonly order: PlaceOrderRequest; readonly slices: readonly number[]; readonly nowMs: number;
}): Promise<boolean> {
  const { run, order } = request;
  return inTransaction(pool, async (client) => {
    let parentId: string | null = null;
    for (const [slice, quantity] of request.slices.entries()) {
      const ids = sliceIds({ runId: run.runId, decision: order.decision, slice });
      const created = createOrder({
        clientOrderId: ids.clientOrderId, tag: ids.tag, instrumentKey: String(order.instrumentId), side: order.side, quantity, orderType: order.orderType,
        ...(order.pricePaise === undefined ? {} : { pricePaise: order.pricePaise }),
        ...(order.triggerPricePaise === undefined ? {} : { triggerPricePaise: order.triggerPricePaise }),
      });
      if (!created.ok) throw new RangeError(`${created.error.field}: ${created.error.message}`);
      const inserted: pg.QueryResult<{ order_id: string }> = await client.query<{ order_id: string }>(
        `INSERT INTO orders (client_order_id, run_id, strategy_id, user_id, user_broker_id, instrument_id, side, quantity, order_type, product,
           price_paise, trigger_price_paise, status, algo_id, tag, parent_order_id, square_off, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, 'PENDING_SUBMIT', $13, $14, $15, $16, to_timestamp($17::float8 / 1000))
         ON CONFLICT (client_order_id) DO NOTHING RETURNING order_id`,
        [ids.clientOrderId, run.runId, run.strategyId, run.userId, run.userBrokerId, order.instrumentId, order.side, quantity, order.orderType,
          order.product, order.pricePaise ?? null, order.triggerPricePaise ?? null, run.algoId, ids.tag, parentId, order.squareOff === true, request.nowMs]);
      const orderId: string | undefined = inserted.rows[0]?.order_id;
      if (orderId === undefined) {
        await client.query('ROLLBACK');
        await client.query('BEGIN');
        return false;
      }
      if (slice === 0 && request.slices.length > 1) parentId = orderId;
      await auditOrder(client, {
        action: 'order.created', clientOrderId: ids.clientOrderId, actorUserId: run.userId,
        after: { ...auditView(created.value), runId: run.runId, algoId: run.algoId, squareOff: order.squareOff === true },
      });
    }
    await countOrders(client, { runId: run.runId, date: istDate(request.nowMs), count: request.slices.length });
    return true;
  });
}
