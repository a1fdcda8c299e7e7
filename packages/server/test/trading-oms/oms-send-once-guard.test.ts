// The OMS sends an order it has just written without locking its row again: `submitted_at` is
// written by one statement guarded by "still PENDING_SUBMIT and unsent". These cases prove the
// guard keeps "sent at most once" when the row the OMS holds is stale:
// - rows held as written, but another sender wrote submitted_at first: nothing is placed, and
//   the other sender's submitted_at and the audit trail (order.created only) are left as they are;
// - rows held as written, still unsent: placed once, audited created -> send-started -> accepted,
//   and the decision is counted once in today's daily_pnl (orders_count 1);
// - the venue's answer is written by a compare-and-set on the row as the send left it: when
//   another process moved the row while the order was at the venue, the answer does not
//   overwrite it (the locked path decides, and leaves a finished order as it is).
import { istDate } from '@vyuha/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeDecisionRows } from '../../src/trading/oms/order-intake';
import { freshDatabase, type TestDatabase } from '../helpers/db';
import { createWorld, NIFTY_LOT, newScheduler, openRig, T0 } from './oms-test-support';
import type { AccountRig, OmsWorld } from './oms-test-support';

let db: TestDatabase;
const rigs: AccountRig[] = [];

beforeAll(async () => {
  db = await freshDatabase({ seeded: true });
});

afterAll(async () => {
  for (const rig of rigs) await rig.close();
  await db.close();
});

async function written(world: OmsWorld, decision: number) {
  const rows = await writeDecisionRows(db.pool, {
    run: world.run, nowMs: T0, slices: [NIFTY_LOT],
    order: { runId: world.runId, decision, instrumentId: world.futureId, side: 'BUY', quantity: NIFTY_LOT, orderType: 'LIMIT', pricePaise: 2_590_000, product: 'NRML' },
  });
  if (rows === undefined) throw new Error('the decision was already written');
  return rows;
}

async function auditActions(clientOrderId: string): Promise<string[]> {
  const { rows } = await db.pool.query<{ action: string }>(`SELECT action FROM audit_log WHERE entity = 'orders' AND entity_id = $1 ORDER BY id`, [clientOrderId]);
  return rows.map((row) => row.action);
}

describe('an order the OMS holds as written', () => {
  it('is not placed when another sender wrote its submitted_at first', async () => {
    const world = await createWorld(db.pool);
    const rig = await openRig(db.pool, { world, scheduler: newScheduler() });
    rigs.push(rig);
    const rows = await written(world, 0);
    const id = rows[0]!.order.clientOrderId;
    const otherSentAt = new Date(T0 - 1_000);
    await db.pool.query('UPDATE orders SET submitted_at = $2 WHERE client_order_id = $1', [id, otherSentAt]);

    await rig.oms.enqueue(rows);
    await rig.oms.settled();

    expect(rig.venue.placed).toEqual([]);
    const { rows: stored } = await db.pool.query<{ status: string; submitted_at: Date; broker_order_id: string | null }>(
      'SELECT status, submitted_at, broker_order_id FROM orders WHERE client_order_id = $1', [id]);
    expect(stored[0]).toEqual({ status: 'PENDING_SUBMIT', submitted_at: otherSentAt, broker_order_id: null });
    expect(await auditActions(id)).toEqual(['order.created']);
  });

  it('is placed once when still unsent, audited and counted once', async () => {
    const world = await createWorld(db.pool);
    const rig = await openRig(db.pool, { world, scheduler: newScheduler() });
    rigs.push(rig);
    const rows = await written(world, 0);
    const id = rows[0]!.order.clientOrderId;

    await rig.oms.enqueue(rows);
    await rig.oms.enqueue(rows);
    await rig.oms.settled();

    expect(rig.venue.placed.map((intent) => intent.clientOrderId)).toEqual([id]);
    const { rows: stored } = await db.pool.query<{ status: string; sent: boolean; broker: string | null }>(
      'SELECT status, submitted_at IS NOT NULL AS sent, broker_order_id AS broker FROM orders WHERE client_order_id = $1', [id]);
    expect(stored[0]).toMatchObject({ status: 'OPEN', sent: true });
    expect(stored[0]!.broker).toMatch(/^PAPER-\d+$/);
    expect(await auditActions(id)).toEqual(['order.created', 'order.send-started', 'order.accepted']);
    const { rows: day } = await db.pool.query<{ orders_count: number }>(
      'SELECT orders_count FROM daily_pnl WHERE run_id = $1 AND date = $2', [world.runId, istDate(T0)]);
    expect(day).toEqual([{ orders_count: 1 }]);
  });

  it("does not take the venue's answer over a row another process moved while the order was at the venue", async () => {
    const world = await createWorld(db.pool);
    const rig = await openRig(db.pool, { world, scheduler: newScheduler() });
    rigs.push(rig);
    const rows = await written(world, 0);
    const id = rows[0]!.order.clientOrderId;
    rig.venue.beforePlace = async () => {
      await db.pool.query(`UPDATE orders SET status = 'CANCELLED', status_message = 'cancelled elsewhere' WHERE client_order_id = $1`, [id]);
    };

    await rig.oms.enqueue(rows);
    await rig.oms.settled();
    rig.venue.beforePlace = undefined;

    expect(rig.venue.placed.map((intent) => intent.clientOrderId)).toEqual([id]);
    const { rows: stored } = await db.pool.query<{ status: string; status_message: string | null }>(
      'SELECT status, status_message FROM orders WHERE client_order_id = $1', [id]);
    expect(stored[0]).toEqual({ status: 'CANCELLED', status_message: 'cancelled elsewhere' });
    // The locked path leaves a finished order as it is: no answer is recorded over it.
    expect(await auditActions(id)).toEqual(['order.created', 'order.send-started']);
  });
});
