// Restart: before any strategy of the account acts again, the OMS's attached runs are brought in
// line with the venue (the engine's `reconcile`, ARCHITECTURE.md "The life of a live order").
//
// 1. Read every order of the attached runs that is not final, and today's final ones (a fill lost
//    before a cancellation arrived is still found), each rebuilt from its row and fills; an
//    option's expiry settlement (expiry-settlement.ts) is no venue's order and is left out.
// 2. Read the venue's order book and positions, and the account's stored positions (every run of
//    the attached runs' kinds, since a broker's venue holds the account's positions, not a run's;
//    only the attached runs' when the venue is kept to them: a paper replay's venue).
// 3. Carry out reconcile's actions through the same event path as live events (one transaction per
//    order): `venue-report` for an order the venue has, `venue-absent` for one it lacks; an order
//    whose absence is not yet proof (sent less than 10 s ago) becomes UNKNOWN and is looked up again
//    at 10 s; a cancel still pending is asked for again.
// 4. Alerts are written to audit_log (`oms.alert`); a pause (an unexplained venue position, an
//    acknowledged order missing) sets the account's ACTIVE strategies of the attached runs to
//    PAUSED with an audit row (`strategy.paused`). The runner must not resume a PAUSED strategy.
// 5. Orders written but never sent go back into the rate queue (the kill switch still applies
//    when they leave); a kill switch that is on is enforced.
import { istDate, istMidnightMs } from '@vyuha/core';
import { reconcile, venueTagOf } from '@vyuha/engine';
import type { OmsOrder, ReconcileAction, VenueOrderReport } from '@vyuha/engine';
import { enforceKillSwitch } from '../kill-switch';
import type { KillSwitchEnforcement } from '../kill-switch';
import { EXPIRY_SETTLEMENT_ROW } from './expiry-settlement';
import type { Oms } from './oms';
import { inTransaction, selectOrders } from './order-rows';

export interface RecoveryReport {
  /** Orders compared with the venue. */
  readonly checked: number;
  /** Orders reconciliation changed (their client order ids). */
  readonly updated: readonly string[];
  /** Orders written but never sent, queued again. */
  readonly requeued: readonly string[];
  readonly alerts: readonly Extract<ReconcileAction, { kind: 'alert' }>[];
  /** Strategies set to PAUSED (empty when nothing called for it). */
  readonly pausedStrategies: readonly string[];
  /** What a kill switch found on did, when one was. */
  readonly killSwitch?: KillSwitchEnforcement;
}

function reportFor(order: OmsOrder, book: readonly VenueOrderReport[]): VenueOrderReport | undefined {
  if (order.brokerOrderId !== undefined) return book.find((report) => report.brokerOrderId === order.brokerOrderId);
  const tag = venueTagOf(order);
  return book.find((report) => report.tag === tag);
}

/** Reconciles the OMS's attached runs with its venue and carries out what reconciliation says. */
export async function recoverOms(oms: Oms): Promise<RecoveryReport> {
  const runIds = oms.attachedRuns.map((run) => run.runId);
  const now = oms.scheduler.now();
  // An expiry settlement never went to the venue and is no state machine's order: nothing to reconcile.
  const stored = await selectOrders(oms.pool,
    `o.run_id = ANY($1::uuid[]) AND (o.status NOT IN ('FILLED', 'CANCELLED', 'REJECTED') OR o.created_at >= to_timestamp($2::float8 / 1000))
     AND NOT ${EXPIRY_SETTLEMENT_ROW}`,
    [runIds, istMidnightMs(istDate(now))]);
  // A broker's venue holds one broker account's positions: only the runs that traded through it count.
  const account = oms.attachedRuns.find((run) => run.userBrokerId !== null)?.userBrokerId ?? null;
  // A paper venue kept to its runs holds only their positions: another run of the account is not its business.
  const local = await oms.pool.query<{ instrument_id: number; net: number }>(
    `SELECT p.instrument_id, sum(p.net_quantity)::float8 AS net FROM positions p JOIN strategy_runs r ON r.run_id = p.run_id
     WHERE r.user_id = $1 AND r.kind IN (SELECT kind FROM strategy_runs WHERE run_id = ANY($2::uuid[]))
       AND (NOT $4::boolean OR r.run_id = ANY($2::uuid[]))
       AND ($3::uuid IS NULL OR EXISTS (SELECT 1 FROM orders o WHERE o.run_id = r.run_id AND o.user_broker_id = $3::uuid))
     GROUP BY p.instrument_id`,
    [oms.userId, runIds, account, oms.venueScope === 'attached-runs']);
  const book = await oms.venue.orderBook();
  const venuePositions = await oms.venue.positions();
  const outcome = reconcile({
    orders: stored.map((row) => row.order),
    positions: local.rows.map((row) => ({ instrumentKey: String(row.instrument_id), netQuantity: row.net })),
    venue: { orders: book, positions: venuePositions },
    checkedAtMs: now,
  });
  const updated: string[] = [];
  const alerts: Extract<ReconcileAction, { kind: 'alert' }>[] = [];
  let pause: string[] = [];
  for (const action of outcome.actions) {
    switch (action.kind) {
      case 'update-order': {
        const report = reportFor(action.order, book);
        const result = await oms.apply(action.order.clientOrderId,
          report === undefined ? { type: 'venue-absent', checkedAtMs: now } : { type: 'venue-report', report });
        if (result.ok) updated.push(action.order.clientOrderId);
        break;
      }
      case 'cancel-at-venue':
        await oms.venue.cancel({ brokerOrderId: action.brokerOrderId });
        break;
      case 'check-again': {
        // Sent before the stop with no answer yet: UNKNOWN now, looked up again once absence is proof.
        const result = await oms.apply(action.clientOrderId, { type: 'send-failed-unknown', reason: 'the process stopped before the venue answered' });
        if (!result.ok || !result.value.some((effect) => effect.kind === 'resolve-with-venue')) void oms.track(oms.resolveUnknown(action.clientOrderId));
        break;
      }
      case 'alert':
        alerts.push(action);
        break;
      case 'pause-account':
        pause = [...action.reasons];
        break;
    }
  }
  const pausedStrategies = await writeAlerts(oms, { alerts, pause });
  // An order written at a market time after now belongs to a replay that restarted from its range's start: the runner
  // queues it again when the replay reaches its decision (placeOrder finds the rows), at the time it was decided.
  const unsent = await selectOrders(oms.pool,
    `o.run_id = ANY($1::uuid[]) AND o.status = 'PENDING_SUBMIT' AND o.submitted_at IS NULL AND o.created_at <= to_timestamp($2::float8 / 1000)`, [runIds, now]);
  await oms.enqueue(unsent);
  // The lookups started above end here, at the time of the recovery: a replay restarted from its
  // range's start would otherwise race them, and a lookup still running when the replay reaches
  // the order's decision could find the venue holding it and record the venue's answer while the
  // runner reads the order (paper venue: an order received late is received at the clock's time).
  await oms.settled();
  const switches = [oms.killSwitches.switchOf(oms.userId), oms.killSwitches.switchOf(null)].filter((row) => row?.isOn === true);
  let killSwitch: KillSwitchEnforcement | undefined;
  for (const row of switches) if (row !== undefined) killSwitch = await enforceKillSwitch(oms, row);
  return {
    checked: stored.length, updated, requeued: unsent.map((row) => row.order.clientOrderId), alerts, pausedStrategies,
    ...(killSwitch === undefined ? {} : { killSwitch }),
  };
}

async function writeAlerts(oms: Oms, found: { alerts: readonly Extract<ReconcileAction, { kind: 'alert' }>[]; pause: readonly string[] }): Promise<string[]> {
  if (found.alerts.length === 0 && found.pause.length === 0) return [];
  return inTransaction(oms.pool, async (client) => {
    for (const alert of found.alerts) {
      await client.query(`INSERT INTO audit_log (actor_user_id, action, entity, entity_id, after) VALUES (NULL, 'oms.alert', 'users', $1, $2)`,
        [oms.userId, JSON.stringify(alert)]);
    }
    if (found.pause.length === 0) return [];
    const strategyIds = oms.attachedRuns.flatMap((run) => (run.strategyId === null ? [] : [run.strategyId]));
    const paused = await client.query<{ strategy_id: string }>(
      `UPDATE strategies SET status = 'PAUSED' WHERE strategy_id = ANY($1::uuid[]) AND status = 'ACTIVE' RETURNING strategy_id`, [strategyIds]);
    for (const row of paused.rows) {
      await client.query(`INSERT INTO audit_log (actor_user_id, action, entity, entity_id, before, after) VALUES (NULL, 'strategy.paused', 'strategies', $1, $2, $3)`,
        [row.strategy_id, JSON.stringify({ status: 'ACTIVE' }), JSON.stringify({ status: 'PAUSED', reasons: found.pause })]);
    }
    return paused.rows.map((row) => row.strategy_id);
  });
}
