// Modifying a working order's price or trigger (`Oms.modifyOrder`; the runner moves a trailing stop
// this way after each tick). The caller holds the order's keyed lock, so no venue event of the
// order is applied in between.
//
// Order of work: the request's fields -> the engine's `modify-requested` on the stored order (a
// final order, one not answered yet, one being cancelled or a MARKET order is refused) -> the
// price band on the new levels -> `venue.modify` (at most the send timeout) -> on the venue's
// `requested`, one transaction on the locked row: `modified` applied, the new price and trigger
// written, `modify_count` (migration 0020) counted, and an audit row `order.modified`. A refusal
// at any step changes no row and writes one audit row saying why.
import { err, ok } from '@vyuha/core';
import type { Result } from '@vyuha/core';
import { applyOrderEvent, modifiedLevelRefusals } from '@vyuha/engine';
import type { CancelOutcome, ModifyLevels, ModifyRequest, OrderEvent, VenuePort } from '@vyuha/engine';
import type pg from 'pg';
import type { Scheduler } from '../feeds/scheduler';
import { auditOrder, auditView, inTransaction, lockOrder, selectOrders, writeOrder } from './order-rows';
import type { StoredOrder } from './order-rows';
import type { ModifyOrderRequest, OmsModifyIssue } from './oms-types';
import { priceBandFor } from './risk-inputs';
import type { OmsInstrument } from './risk-inputs';

/** What a modification needs of its OMS. */
export interface ModifyContext {
  readonly pool: pg.Pool;
  readonly userId: string;
  readonly venue: VenuePort;
  readonly scheduler: Scheduler;
  /** How long `venue.modify` may take before the answer counts as missing. */
  readonly timeoutMs: number;
  /** The order's instrument (its kind sets the price band: an option premium's is wider). */
  readonly instrument?: (instrumentId: number) => Promise<OmsInstrument | undefined>;
}

function invalid(field: string, message: string): OmsModifyIssue {
  return { field, code: 'invalid-request', message };
}

function requestIssues(request: ModifyOrderRequest): OmsModifyIssue[] {
  if (typeof request !== 'object' || request === null) return [invalid('request', 'the modification request must be an object')];
  const issues: OmsModifyIssue[] = [];
  if (typeof request.clientOrderId !== 'string' || request.clientOrderId === '') issues.push(invalid('clientOrderId', 'clientOrderId must name the order'));
  for (const field of ['pricePaise', 'triggerPricePaise', 'referencePricePaise'] as const) {
    const value = request[field];
    if (value !== undefined && (!Number.isSafeInteger(value) || value <= 0)) {
      issues.push(invalid(field, `${field} must be whole paise above 0, got ${String(value)}`));
    }
  }
  if (request.pricePaise === undefined && request.triggerPricePaise === undefined) {
    issues.push(invalid('triggerPricePaise', 'a modification sets triggerPricePaise or pricePaise; neither was given'));
  }
  return issues;
}

function levelsOf(request: ModifyOrderRequest): ModifyLevels {
  return {
    ...(request.pricePaise === undefined ? {} : { pricePaise: request.pricePaise }),
    ...(request.triggerPricePaise === undefined ? {} : { triggerPricePaise: request.triggerPricePaise }),
  };
}

async function audit(context: ModifyContext, stored: StoredOrder, entry: { readonly action: string; readonly after: unknown }): Promise<void> {
  await inTransaction(context.pool, (client) => auditOrder(client, {
    action: entry.action, clientOrderId: stored.order.clientOrderId, actorUserId: stored.userId, after: entry.after,
  }));
}

/** `venue.modify`, an exception or no answer within the timeout being `timeout` (the venue may or may not have it). */
async function modifyAtVenue(context: ModifyContext, modify: NonNullable<VenuePort['modify']>, request: ModifyRequest): Promise<CancelOutcome> {
  const abort = new AbortController();
  const timeout = context.scheduler.sleepUntil(context.scheduler.now() + context.timeoutMs, abort.signal).then((): CancelOutcome => ({ kind: 'timeout' }));
  const asked = modify.call(context.venue, request).catch((): CancelOutcome => ({ kind: 'timeout' }));
  try {
    return await Promise.race([asked, timeout]);
  } finally {
    abort.abort();
  }
}

/** The venue took the new levels: the row, its counter and the audit row in one transaction. */
async function recordModified(context: ModifyContext, clientOrderId: string, levels: ModifyLevels): Promise<StoredOrder> {
  return inTransaction(context.pool, async (client) => {
    const locked = await lockOrder(client, clientOrderId);
    if (locked === undefined) throw new Error(`order ${clientOrderId} vanished while it was being modified`);
    const event: OrderEvent = { type: 'modified', ...levels };
    const result = applyOrderEvent(locked.order, event);
    // The levels were checked on this order a moment ago and nothing returns to an unanswered status.
    if (!result.ok) throw new Error(result.error.message);
    if (!result.value.changed) return locked;
    await writeOrder(client, {
      orderId: locked.orderId, order: result.value.order,
      audit: { action: 'order.modified', clientOrderId, actorUserId: locked.userId, before: auditView(locked.order), after: auditView(result.value.order) },
    });
    await client.query('UPDATE orders SET modify_count = modify_count + 1 WHERE order_id = $1', [locked.orderId]);
    return { ...locked, order: result.value.order };
  });
}

/**
 * Moves a working order's price and/or trigger; the caller holds the order's keyed lock. The
 * stored order as it is afterwards, or every reason it was not modified.
 */
export async function modifyWorkingOrder(context: ModifyContext, request: ModifyOrderRequest): Promise<Result<StoredOrder, readonly OmsModifyIssue[]>> {
  const issues = requestIssues(request);
  if (issues.length > 0) return err(issues);
  const [stored] = await selectOrders(context.pool, 'o.client_order_id = $1 AND o.user_id = $2', [request.clientOrderId, context.userId]);
  if (stored === undefined) {
    return err([{ field: 'clientOrderId', code: 'unknown-order', message: `this account has no order ${request.clientOrderId}` }]);
  }
  const levels = levelsOf(request);
  const asked = applyOrderEvent(stored.order, { type: 'modify-requested', ...levels });
  if (!asked.ok) {
    await audit(context, stored, { action: 'order.event-refused', after: { event: { type: 'modify-requested', ...levels }, error: asked.error } });
    return err([{ code: asked.error.code, message: asked.error.message }]);
  }
  const effect = asked.value.effects.find((candidate) => candidate.kind === 'modify-at-venue');
  // Already at these levels: nothing to ask the venue.
  if (effect === undefined || effect.kind !== 'modify-at-venue') return ok(stored);
  const kind = (await context.instrument?.(stored.instrumentId))?.kind;
  const band = await priceBandFor(context.pool, {
    instrumentId: stored.instrumentId, ...(request.referencePricePaise === undefined ? {} : { referencePricePaise: request.referencePricePaise }),
  }, kind);
  const refusals = modifiedLevelRefusals(levels, band);
  if (refusals.length > 0) {
    await audit(context, stored, { action: 'order.modify-refused', after: { request, refusals } });
    return err(refusals.map((refusal) => ({ code: refusal.code as OmsModifyIssue['code'], message: refusal.message })));
  }
  const modify = context.venue.modify;
  if (modify === undefined) {
    return err([{ code: 'modify-unsupported', message: 'This venue cannot modify orders: cancel the order and place a new one.' }]);
  }
  const { kind: _kind, ...venueRequest } = effect;
  const outcome = await modifyAtVenue(context, modify, venueRequest);
  if (outcome.kind === 'requested') return ok(await recordModified(context, stored.order.clientOrderId, levels));
  if (outcome.kind === 'refused') {
    await audit(context, stored, { action: 'order.modify-rejected', after: { request, reason: outcome.reason } });
    return err([{ code: 'modify-refused', message: `The venue refused to modify order ${stored.order.clientOrderId}: ${outcome.reason}` }]);
  }
  await audit(context, stored, { action: 'order.modify-unanswered', after: { request } });
  return err([{
    code: 'modify-unanswered',
    message: `The venue gave no clear answer to the modification of order ${stored.order.clientOrderId} (none in time, or a failed request); `
      + 'the order keeps its stored levels.',
  }]);
}
