// The kill switches (table kill_switches, migration 0018): each user's own, and one global switch
// for administrators over every user.
//
// Turning one on: no new order leaves within 1 s in any process (each OMS checks its
// `KillSwitchWatch` before an order is written and again before it leaves; the watch hears of the
// change by NOTIFY, or by its 500 ms reload); then every OMS that trades for an affected account
// (`enforceKillSwitch`) takes its waiting orders out of the rate queue, asks its venue to cancel
// every working order and, when the switch was set with square_off, closes every open position of
// its runs with market orders that the risk checks let through as reduce-only square-offs. The
// switch stays on (it is a row) across restarts until it is turned off; an OMS that starts with it
// on enforces it in `recover()`. What was done is returned and written to audit_log.
import { err, ok } from '@vyuha/core';
import type { Result } from '@vyuha/core';
import { isFinalStatus } from '@vyuha/engine';
import type pg from 'pg';
import { readKillSwitches } from './kill-switch-watch';
import type { KillSwitchRow } from './kill-switch-watch';
import type { Oms } from './oms/oms';
import { inTransaction, selectOrders } from './oms/order-rows';
import type { OmsIssue } from './oms/oms-types';

/** Turning a switch on or off. */
export interface KillSwitchRequest {
  /** The user whose switch it is; null for the global switch (administrators only: the caller checks the role). */
  readonly userId: string | null;
  readonly on: boolean;
  /** When turning on: also close the open positions. */
  readonly squareOff?: boolean;
  /** Who did it (a user id), or null for the system. */
  readonly by: string | null;
  readonly reason?: string;
}

/** What one OMS did for a switch. */
export interface KillSwitchEnforcement {
  /** Orders taken out of the rate queue before they left. */
  readonly withdrawn: readonly string[];
  /** Working orders the venue was asked to cancel. */
  readonly cancelled: readonly string[];
  /** The square-off orders placed (client order ids), one decision per run and instrument. */
  readonly squareOffOrders: readonly string[];
  /** Square-offs the risk checks or the venue refused, with the reason. */
  readonly problems: readonly string[];
}

export interface KillSwitchOutcome {
  readonly switch: KillSwitchRow;
  /** What the given OMS did (absent when none was given or the switch was turned off). */
  readonly enforcement?: KillSwitchEnforcement;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function requestIssue(request: KillSwitchRequest): OmsIssue | undefined {
  if (request.userId !== null && (typeof request.userId !== 'string' || !UUID.test(request.userId))) {
    return { field: 'userId', code: 'invalid-request', message: `userId must be a user's id or null for the global switch, got ${JSON.stringify(request.userId)}` };
  }
  if (typeof request.on !== 'boolean') return { field: 'on', code: 'invalid-request', message: 'on must be true or false' };
  if (request.squareOff !== undefined && typeof request.squareOff !== 'boolean') {
    return { field: 'squareOff', code: 'invalid-request', message: 'squareOff must be true or false when given' };
  }
  if (request.by !== null && (typeof request.by !== 'string' || !UUID.test(request.by))) {
    return { field: 'by', code: 'invalid-request', message: 'by must be a user id or null' };
  }
  return undefined;
}

/**
 * Turns a switch on or off (a row and an audit row in one transaction); with an `oms` of this
 * process, waits for that OMS to enforce it and returns what it did. Every other OMS enforces it
 * on its own within 1 s and audits what it did (`kill_switch.enforced`).
 */
export async function setKillSwitch(pool: pg.Pool, request: KillSwitchRequest, options: { readonly oms?: Oms } = {}): Promise<Result<KillSwitchOutcome, OmsIssue>> {
  const issue = requestIssue(request);
  if (issue !== undefined) return err(issue);
  await inTransaction(pool, async (client) => {
    const before = await client.query('SELECT is_on, square_off, reason FROM kill_switches WHERE user_id IS NOT DISTINCT FROM $1 FOR UPDATE', [request.userId]);
    await client.query(
      `INSERT INTO kill_switches (user_id, is_on, square_off, reason, changed_by, changed_at) VALUES ($1, $2, $3, $4, $5, clock_timestamp())
       ON CONFLICT ON CONSTRAINT kill_switches_one_per_user DO UPDATE SET is_on = EXCLUDED.is_on, square_off = EXCLUDED.square_off,
         reason = EXCLUDED.reason, changed_by = EXCLUDED.changed_by, changed_at = EXCLUDED.changed_at`,
      [request.userId, request.on, request.on && request.squareOff === true, request.reason ?? null, request.by]);
    await client.query(
      `INSERT INTO audit_log (actor_user_id, action, entity, entity_id, before, after) VALUES ($1, $2, 'kill_switches', $3, $4, $5)`,
      [request.by, request.on ? 'kill_switch.on' : 'kill_switch.off', request.userId ?? 'global',
        before.rows[0] === undefined ? null : JSON.stringify(before.rows[0]),
        JSON.stringify({ is_on: request.on, square_off: request.on && request.squareOff === true, reason: request.reason ?? null })]);
  });
  const row = (await readKillSwitches(pool)).find((candidate) => candidate.userId === request.userId);
  if (row === undefined) throw new Error('the kill switch row just written is missing');
  const oms = options.oms;
  if (oms === undefined || !request.on || (request.userId !== null && request.userId !== oms.userId)) return ok({ switch: row });
  await oms.killSwitches.reload();
  return ok({ switch: row, enforcement: await enforceKillSwitch(oms, row) });
}

const enforcements = new WeakMap<Oms, Map<string, Promise<KillSwitchEnforcement>>>();

/** Enforces a switch that is on for this OMS's account; once per switch change (a repeat returns the same promise). */
export function enforceKillSwitch(oms: Oms, row: KillSwitchRow): Promise<KillSwitchEnforcement> {
  let done = enforcements.get(oms);
  if (done === undefined) {
    done = new Map();
    enforcements.set(oms, done);
  }
  const key = `${row.userId ?? 'global'}@${row.changedAtMs}`;
  const known = done.get(key);
  if (known !== undefined) return known;
  const work = oms.track(enforce(oms, row));
  done.set(key, work);
  return work;
}

async function enforce(oms: Oms, row: KillSwitchRow): Promise<KillSwitchEnforcement> {
  const withdrawn: string[] = [];
  const cancelled: string[] = [];
  const squareOffOrders: string[] = [];
  const problems: string[] = [];
  for (const id of oms.withdrawQueued()) {
    const result = await oms.apply(id, { type: 'cancel-requested' });
    if (result.ok) withdrawn.push(id);
  }
  const runIds = oms.attachedRuns.map((run) => run.runId);
  const working = await selectOrders(oms.pool, `o.run_id = ANY($1::uuid[]) AND o.status IN ('SUBMITTED', 'OPEN', 'PARTIALLY_FILLED')`, [runIds]);
  for (const stored of working) {
    // A square-off at market is already closing the position; resting exits (a stop, a target)
    // are open orders like any other: cancelled, and the position closed below if chosen.
    if (stored.squareOff && stored.order.orderType === 'MARKET') continue;
    const result = await oms.cancelOrder(stored.order.clientOrderId);
    if (result.ok) cancelled.push(stored.order.clientOrderId);
    else problems.push(result.error.message);
  }
  if (row.squareOff) await squareOffAll(oms, { squareOffOrders, problems });
  await inTransaction(oms.pool, (client) => client.query(
    `INSERT INTO audit_log (actor_user_id, action, entity, entity_id, after) VALUES (NULL, 'kill_switch.enforced', 'kill_switches', $1, $2)`,
    [row.userId ?? 'global', JSON.stringify({ account: oms.userId, withdrawn, cancelled, squareOffOrders, problems })]));
  return { withdrawn, cancelled, squareOffOrders, problems };
}

/** A market order closing each open position of the OMS's runs (less any market square-off still working), as the run's next decision. */
async function squareOffAll(oms: Oms, into: { squareOffOrders: string[]; problems: string[] }): Promise<void> {
  for (const run of oms.attachedRuns) {
    const { rows } = await oms.pool.query<{ instrument_id: number; net_quantity: number; closing: number; product: string | null; next_decision: number }>(
      `SELECT p.instrument_id, p.net_quantity,
         (SELECT coalesce(sum(o.quantity - o.filled_quantity), 0) FROM orders o WHERE o.run_id = p.run_id AND o.instrument_id = p.instrument_id
            AND o.square_off AND o.order_type = 'MARKET' AND o.status NOT IN ('FILLED', 'CANCELLED', 'REJECTED'))::int AS closing,
         (SELECT o.product FROM orders o WHERE o.run_id = p.run_id AND o.instrument_id = p.instrument_id ORDER BY o.created_at DESC LIMIT 1) AS product,
         (SELECT coalesce(max((regexp_replace(o.client_order_id, '^.*-', ''))::bigint / 10), -1) + 1 FROM orders o WHERE o.run_id = p.run_id)::float8 AS next_decision
       FROM positions p WHERE p.run_id = $1 AND p.net_quantity <> 0 ORDER BY p.instrument_id`, [run.runId]);
    let decision = rows[0]?.next_decision ?? 0;
    for (const position of rows) {
      // A square-off already on its way (placed before a restart) is not doubled.
      const quantity = Math.abs(position.net_quantity) - position.closing;
      if (quantity <= 0) continue;
      const placed = await oms.placeOrder({
        runId: run.runId, decision, instrumentId: position.instrument_id, side: position.net_quantity > 0 ? 'SELL' : 'BUY',
        quantity, orderType: 'MARKET', product: position.product ?? 'MIS', squareOff: true,
      });
      decision += 1;
      if (placed.ok) into.squareOffOrders.push(...placed.value.orders.filter((order) => !isFinalStatus(order.status) || order.filledQuantity > 0).map((order) => order.clientOrderId));
      else into.problems.push(...placed.error.map((issue) => `run ${run.runId}, instrument ${position.instrument_id}: ${issue.message}`));
    }
  }
}
