// An option held to its expiry's close is settled by the exchange, not traded: exercised at its
// intrinsic value against the index's close, or expired worthless (engine
// options-legs/expiry-settlement.ts). Nothing is sent to a venue, so the OMS's state machine has
// no event for it; this file writes what the settlement did, as the backtest stores it
// (jobs/backtest-rows.ts), in the run's books:
//
// - One order row per settled slice, under the run's decision (client order id and tag of slice
//   0, order-intake.ts `sliceIds`), inserted FILLED for its whole quantity with no broker order id
//   and no `submitted_at` (it never left), MARKET, reduce-only, created at the expiry's close in
//   market time, its status message saying how it settled. The status guard of 0004 is an UPDATE
//   trigger and its checks hold for such a row, so no migration is needed.
// - An exercise has its fill row (trade id `<client order id>-expiry`), charged by the run's charge
//   model as an exercise, moving the position and the day's P&L through fill-ledger.ts's
//   `recordFill`. A worthless expiry has no fill row (fills are priced above 0): its order's
//   average price is NULL and fill-ledger.ts's `recordWorthlessExpiry` closes the units at 0.
// - An audit row (`order.expiry-settled`) and the order counted in the day's daily_pnl row.
// - All of it in one transaction. The same decision asked again (a restarted run replaying from
//   its first bar) writes nothing and answers the stored rows; the decision used for anything
//   else is refused (`decision-taken`), as `placeOrder` refuses it.
//
// Such a row is never restored into the state machine (a FILLED order there was sent and its fills
// add up to its quantity): reconciliation leaves these rows out (`EXPIRY_SETTLEMENT_ROW`), and the
// paper venue counts them in its positions, as a broker's positions drop a settled contract.
import { err, istDate, ok, paise, paiseToRupees } from '@vyuha/core';
import type { Result } from '@vyuha/core';
import type { OrderSide } from '@vyuha/engine';
import type pg from 'pg';
import { recordFill, recordWorthlessExpiry } from './fill-ledger';
import { decisionIds, sliceIds } from './order-intake';
import { inTransaction } from './order-rows';
import type { RunContext } from './oms-types';

/**
 * The rows of orders `o` that are expiry settlements: filled without ever being sent, which no
 * order the venue handled can be (the state machine fills only a sent order).
 */
export const EXPIRY_SETTLEMENT_ROW = `(o.status = 'FILLED' AND o.submitted_at IS NULL)`;

/** How an option settled at expiry (engine `ExpirySettlement.event`). */
export type ExpiryEvent = 'exercise' | 'expire-worthless';

export interface ExpirySettlementRequest {
  /** The run as attached to its OMS: user, strategy, broker account, algo id, charges. */
  readonly run: RunContext;
  /** The run's decision number for this settlement (its client order id is slice 0's). */
  readonly decision: number;
  readonly instrumentId: number;
  /** The side that closes the position: SELL for a long option, BUY for a short one. */
  readonly side: OrderSide;
  readonly quantity: number;
  readonly event: ExpiryEvent;
  /** Intrinsic value per unit in paise: above 0 for an exercise, 0 for a worthless expiry. */
  readonly settlementPricePaise: number;
  /** Epoch ms of the expiry's close: the order's and the fill's time, and the day it counts in. */
  readonly atMs: number;
  /** The product of the run's orders (NRML for a swing run's options). */
  readonly product: string;
}

/** A settlement as stored. */
export interface RecordedExpirySettlement {
  /** True when the decision's rows already existed: nothing was written. */
  readonly existing: boolean;
  readonly orderId: string;
  readonly clientOrderId: string;
  readonly side: OrderSide;
  readonly quantity: number;
  /** The settlement price per unit (0 for a worthless expiry: the row's average price is NULL). */
  readonly pricePaise: number;
  readonly atMs: number;
  readonly statusMessage: string;
  /** The exercise's fill row; undefined for a worthless expiry. */
  readonly fill: { readonly tradeId: string; readonly quantity: number; readonly pricePaise: number; readonly chargesPaise: number } | undefined;
}

/** A field of the request that is wrong, or the decision already used for another order. */
export interface ExpirySettlementIssue {
  readonly field: string;
  readonly code: 'invalid-request' | 'decision-taken';
  readonly message: string;
}

/**
 * The status message of a settlement order.
 * @example settlementMessage('exercise', 12_345) // 'expiry settlement: exercised at its intrinsic value of Rs 123.45, never sent to a venue'
 */
export function settlementMessage(event: ExpiryEvent, pricePaise: number): string {
  return event === 'exercise'
    ? `expiry settlement: exercised at its intrinsic value of Rs ${paiseToRupees(pricePaise).toFixed(2)}, never sent to a venue`
    : 'expiry settlement: expired worthless (settled at 0, no fill row), never sent to a venue';
}

function requestIssues(request: ExpirySettlementRequest): ExpirySettlementIssue[] {
  const issues: ExpirySettlementIssue[] = [];
  const invalid = (field: string, message: string): void => {
    issues.push({ field, code: 'invalid-request', message });
  };
  if (!Number.isSafeInteger(request.decision) || request.decision < 0) invalid('decision', `decision must be a whole number from 0, got ${String(request.decision)}`);
  if (!Number.isSafeInteger(request.instrumentId) || request.instrumentId <= 0) invalid('instrumentId', `instrumentId must be an instrument's id, got ${String(request.instrumentId)}`);
  if (request.side !== 'BUY' && request.side !== 'SELL') invalid('side', `side must be BUY or SELL, got ${String(request.side)}`);
  if (!Number.isSafeInteger(request.quantity) || request.quantity <= 0) invalid('quantity', `quantity must be a whole number above 0, got ${String(request.quantity)}`);
  if (!Number.isSafeInteger(request.atMs)) invalid('atMs', `atMs must be epoch milliseconds, got ${String(request.atMs)}`);
  if (typeof request.product !== 'string' || request.product === '') invalid('product', 'product must name the run\'s product (NRML, MIS, ...)');
  const price = request.settlementPricePaise;
  if (request.event === 'exercise') {
    if (!Number.isSafeInteger(price) || price <= 0) invalid('settlementPricePaise', `an exercise settles at its intrinsic value, whole paise above 0; got ${String(price)}`);
  } else if (request.event === 'expire-worthless') {
    if (price !== 0) invalid('settlementPricePaise', `a worthless expiry settles at 0, got ${String(price)}`);
  } else {
    invalid('event', `event must be exercise or expire-worthless, got ${String(request.event)}`);
  }
  return issues;
}

interface SettlementDbRow {
  order_id: string; client_order_id: string; run_id: string; instrument_id: number; side: OrderSide; quantity: number; status: string;
  never_sent: boolean; average_price_paise: number | null; status_message: string | null; created_ms: number;
}

const SELECT_DECISION = `SELECT o.order_id, o.client_order_id, o.run_id, o.instrument_id, o.side, o.quantity, o.status, o.submitted_at IS NULL AS never_sent,
    o.average_price_paise::float8 AS average_price_paise, o.status_message, (extract(epoch FROM o.created_at) * 1000)::float8 AS created_ms
  FROM orders o WHERE o.client_order_id = ANY($1::text[]) ORDER BY length(o.client_order_id), o.client_order_id FOR UPDATE`;

/**
 * Writes an option's settlement at expiry in one transaction (see the header), or answers the
 * stored one when the decision was recorded before.
 * @example (await recordExpirySettlement(pool, { run, decision: 7, instrumentId, side: 'BUY', quantity: 75, event: 'expire-worthless', settlementPricePaise: 0, atMs, product: 'NRML' })).ok // true
 */
export async function recordExpirySettlement(pool: pg.Pool, request: ExpirySettlementRequest): Promise<Result<RecordedExpirySettlement, ExpirySettlementIssue[]>> {
  const issues = requestIssues(request);
  if (issues.length > 0) return err(issues);
  const { run } = request;
  const ids = decisionIds({ runId: run.runId, decision: request.decision });
  const own = sliceIds({ runId: run.runId, decision: request.decision, slice: 0 });
  return inTransaction(pool, async (client) => {
    const found = await client.query<SettlementDbRow>(SELECT_DECISION, [ids]);
    if (found.rows.length > 0) return storedAnswer(client, request, found.rows);
    const message = settlementMessage(request.event, request.settlementPricePaise);
    const date = istDate(request.atMs);
    // The row and its count in the day's orders in one statement; a writer that got there first leaves nothing inserted.
    const inserted = await client.query<{ order_id: string }>(
      `WITH inserted AS (
         INSERT INTO orders (client_order_id, run_id, strategy_id, user_id, user_broker_id, instrument_id, side, quantity, filled_quantity, order_type,
           product, average_price_paise, status, status_message, algo_id, tag, square_off, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8, 'MARKET', $9, $10, 'FILLED', $11, $12, $13, true, to_timestamp($14::float8 / 1000))
         ON CONFLICT (client_order_id) DO NOTHING RETURNING order_id),
       counted AS (
         INSERT INTO daily_pnl (run_id, date, pnl_paise, orders_count) SELECT $2, $15::date, 0, 1 FROM inserted
         ON CONFLICT (run_id, date) DO UPDATE SET orders_count = daily_pnl.orders_count + EXCLUDED.orders_count)
       SELECT order_id FROM inserted`,
      [own.clientOrderId, run.runId, run.strategyId, run.userId, run.userBrokerId, request.instrumentId, request.side, request.quantity, request.product,
        request.settlementPricePaise > 0 ? request.settlementPricePaise : null, message, run.algoId, own.tag, request.atMs, date]);
    const orderId = inserted.rows[0]?.order_id;
    if (orderId === undefined) return storedAnswer(client, request, (await client.query<SettlementDbRow>(SELECT_DECISION, [ids])).rows);
    let fill: RecordedExpirySettlement['fill'];
    const position = { runId: run.runId, instrumentId: request.instrumentId, side: request.side };
    if (request.event === 'exercise') {
      const tradeId = `${own.clientOrderId}-expiry`;
      await recordFill(client, {
        ...position, orderId, charges: run.charges, exercise: true,
        fill: { tradeId, quantity: request.quantity, pricePaise: paise(request.settlementPricePaise), atMs: request.atMs },
      });
      fill = { tradeId, quantity: request.quantity, pricePaise: request.settlementPricePaise, chargesPaise: await fillCharges(client, orderId) };
    } else {
      await recordWorthlessExpiry(client, { ...position, quantity: request.quantity, atMs: request.atMs });
    }
    await client.query(
      `INSERT INTO audit_log (actor_user_id, action, entity, entity_id, before, after) VALUES (NULL, 'order.expiry-settled', 'orders', $1, NULL, $2::jsonb)`,
      [own.clientOrderId, JSON.stringify({
        runId: run.runId, instrumentId: request.instrumentId, side: request.side, quantity: request.quantity, event: request.event,
        settlementPricePaise: request.settlementPricePaise, atMs: request.atMs, chargesPaise: fill?.chargesPaise ?? 0, algoId: run.algoId,
      })]);
    return ok({
      existing: false, orderId, clientOrderId: own.clientOrderId, side: request.side, quantity: request.quantity, pricePaise: request.settlementPricePaise,
      atMs: request.atMs, statusMessage: message, fill,
    });
  });
}

/** The decision's stored rows as the answer: the same settlement, or `decision-taken`. */
async function storedAnswer(
  client: pg.ClientBase, request: ExpirySettlementRequest, rows: readonly SettlementDbRow[],
): Promise<Result<RecordedExpirySettlement, ExpirySettlementIssue[]>> {
  const row = rows[0];
  const own = sliceIds({ runId: request.run.runId, decision: request.decision, slice: 0 });
  const price = row?.average_price_paise ?? 0;
  const same = row !== undefined && rows.length === 1 && row.client_order_id === own.clientOrderId && row.run_id === request.run.runId
    && row.instrument_id === request.instrumentId && row.side === request.side && row.quantity === request.quantity
    && row.status === 'FILLED' && row.never_sent && price === request.settlementPricePaise;
  if (!same) {
    const what = row === undefined ? 'gone' : `${row.side} ${row.quantity} of instrument ${row.instrument_id} (${row.status}${row.never_sent ? '' : ', sent to a venue'})`;
    return err([{
      field: 'decision', code: 'decision-taken',
      message: `decision ${request.decision} of run ${request.run.runId} is already ${what}; an expiry settlement needs a decision of its own`,
    }]);
  }
  const fills = await client.query<{ trade_id: string; quantity: number; price_paise: number; charges: number }>(
    `SELECT f.trade_id, f.quantity, f.price_paise::float8 AS price_paise,
       (SELECT coalesce(sum(value::bigint), 0) FROM jsonb_each_text(f.charges_paise))::float8 AS charges
     FROM fills f WHERE f.order_id = $1`, [row.order_id]);
  const stored = fills.rows[0];
  return ok({
    existing: true, orderId: row.order_id, clientOrderId: row.client_order_id, side: row.side, quantity: row.quantity, pricePaise: price,
    atMs: Math.round(row.created_ms), statusMessage: row.status_message ?? '',
    fill: stored === undefined ? undefined : { tradeId: stored.trade_id, quantity: stored.quantity, pricePaise: stored.price_paise, chargesPaise: stored.charges },
  });
}

/** The total charges of an order's fill row, paise. */
async function fillCharges(client: pg.ClientBase, orderId: string): Promise<number> {
  const { rows } = await client.query<{ charges: number }>(
    `SELECT coalesce(sum(value::bigint), 0)::float8 AS charges FROM fills f, jsonb_each_text(f.charges_paise) WHERE f.order_id = $1`, [orderId]);
  return rows[0]?.charges ?? 0;
}
