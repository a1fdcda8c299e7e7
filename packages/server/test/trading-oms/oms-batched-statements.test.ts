// Orders of many accounts decided on the same tick share their statements (db/statement-batch.ts):
// one risk read, one insert of the rows, one acceptance by the paper venue, one write of their
// cancels. Checked on a real PostgreSQL: each order is still written exactly once with its audit
// trail and its count in daily_pnl, each risk answer is its own order's, a decision asked again
// finds its rows, and a row that breaks the shared statement fails only its own order.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { freshDatabase, type TestDatabase } from '../helpers/db';
import { createWorld, NIFTY_LOT, newScheduler, openRig, T0, tickOf } from './oms-test-support';
import type { AccountRig, OmsWorld } from './oms-test-support';

let db: TestDatabase;
const ACCOUNTS = 6;
const worlds: OmsWorld[] = [];
const rigs: AccountRig[] = [];

beforeAll(async () => {
  db = await freshDatabase({ seeded: true });
  const scheduler = newScheduler();
  for (let index = 0; index < ACCOUNTS; index += 1) {
    const world = await createWorld(db.pool);
    worlds.push(world);
    const rig = await openRig(db.pool, { world, scheduler });
    rig.paper.onTick(tickOf(world, { price: 2_600_000, atMs: T0 }));
    // Each OMS knows its contract (read once, as a runner's first order does): the orders below reach the OMS in one turn.
    await rig.oms.instrument(world.futureId);
    rigs.push(rig);
  }
});

afterAll(async () => {
  for (const rig of rigs) await rig.close();
  await db.close();
});

/** The statements `pool` runs while `work` runs, by their first words. */
async function statementsOf<T>(pool: pg.Pool, work: () => Promise<T>): Promise<{ value: T; statements: string[] }> {
  const statements: string[] = [];
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  (pool as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
    if (typeof args[0] === 'string') statements.push(args[0].replace(/\s+/g, ' ').trim());
    return query(...args);
  };
  try {
    return { value: await work(), statements };
  } finally {
    (pool as unknown as { query: unknown }).query = query;
  }
}

describe('orders decided in one turn', () => {
  it('are checked, written and accepted by one statement each, every order once with its own answer', async () => {
    const { value: placed, statements } = await statementsOf(db.pool, () => Promise.all(rigs.map((rig, index) => rig.oms.placeOrder({
      runId: worlds[index]!.runId, decision: 0, instrumentId: worlds[index]!.futureId, side: index % 2 === 0 ? 'BUY' : 'SELL',
      quantity: NIFTY_LOT * (index + 1), orderType: 'LIMIT', product: 'NRML',
      // The last account's price is 50% away from the market: refused by the band, alone.
      pricePaise: index === ACCOUNTS - 1 ? 1_300_000 : 2_590_000, referencePricePaise: 2_600_000,
    }))));
    expect(placed.map((outcome) => (outcome.ok ? 'placed' : outcome.error.map((issue) => issue.code).join()))).toEqual([
      'placed', 'placed', 'placed', 'placed', 'placed', 'price-outside-band',
    ]);
    const count = (start: string): number => statements.filter((text) => text.startsWith(start)).length;
    expect(count('WITH req AS ( SELECT * FROM unnest($1::uuid[], $2::int[]')).toBe(1);
    expect(statements.filter((text) => text.includes('INSERT INTO orders')).length).toBe(1);
    expect(statements.filter((text) => text.includes("nextval('paper_order_seq')")).length).toBe(1);

    const { rows } = await db.pool.query<{ run_id: string; quantity: number; side: string; status: string; broker_order_id: string | null; audits: string[]; counted: number }>(
      `SELECT o.run_id, o.quantity, o.side, o.status, o.broker_order_id,
         (SELECT array_agg(a.action ORDER BY a.id) FROM audit_log a WHERE a.entity = 'orders' AND a.entity_id = o.client_order_id AND a.action <> 'order.accepted') AS audits,
         (SELECT d.orders_count FROM daily_pnl d WHERE d.run_id = o.run_id) AS counted
       FROM orders o WHERE o.run_id = ANY($1::uuid[])`, [worlds.map((world) => world.runId)]);
    const byRun = new Map(rows.map((row) => [row.run_id, row]));
    worlds.slice(0, ACCOUNTS - 1).forEach((world, index) => {
      const row = byRun.get(world.runId);
      expect(row).toMatchObject({ quantity: NIFTY_LOT * (index + 1), side: index % 2 === 0 ? 'BUY' : 'SELL', status: 'OPEN', counted: 1 });
      expect(row?.broker_order_id).toMatch(/^PAPER-\d+$/);
      expect(row?.audits.slice(0, 2)).toEqual(['order.created', 'order.send-started']);
    });
    expect(byRun.has(worlds[ACCOUNTS - 1]!.runId)).toBe(false);
    expect(new Set(rows.map((row) => row.broker_order_id)).size).toBe(ACCOUNTS - 1);
  });

  it('finds the rows of a decision asked again in the same turn as a new one, and writes neither twice', async () => {
    const [again, fresh] = await Promise.all([
      rigs[0]!.oms.placeOrder({ runId: worlds[0]!.runId, decision: 0, instrumentId: worlds[0]!.futureId, side: 'BUY', quantity: NIFTY_LOT, orderType: 'LIMIT', product: 'NRML', pricePaise: 2_590_000, referencePricePaise: 2_600_000 }),
      rigs[1]!.oms.placeOrder({ runId: worlds[1]!.runId, decision: 1, instrumentId: worlds[1]!.futureId, side: 'BUY', quantity: NIFTY_LOT, orderType: 'LIMIT', product: 'NRML', pricePaise: 2_590_000, referencePricePaise: 2_600_000 }),
    ]);
    expect(again.ok && again.value.existing).toBe(true);
    expect(fresh.ok && !fresh.value.existing).toBe(true);
    const { rows } = await db.pool.query<{ run_id: string; orders: number }>(
      'SELECT run_id, count(*)::int AS orders FROM orders WHERE run_id = ANY($1::uuid[]) GROUP BY run_id ORDER BY run_id', [[worlds[0]!.runId, worlds[1]!.runId]]);
    expect(Object.fromEntries(rows.map((row) => [row.run_id, row.orders]))).toEqual({ [worlds[0]!.runId]: 1, [worlds[1]!.runId]: 2 });
  });

  it('fails only the order whose row breaks the shared insert', async () => {
    const ghost = { ...worlds[2]!.run, runId: randomUUID() };
    rigs[2]!.oms.attachRun(ghost);
    const outcomes = await Promise.allSettled([
      rigs[2]!.oms.placeOrder({ runId: ghost.runId, decision: 0, instrumentId: worlds[2]!.futureId, side: 'BUY', quantity: NIFTY_LOT, orderType: 'LIMIT', product: 'NRML', pricePaise: 2_590_000, referencePricePaise: 2_600_000 }),
      rigs[3]!.oms.placeOrder({ runId: worlds[3]!.runId, decision: 1, instrumentId: worlds[3]!.futureId, side: 'BUY', quantity: NIFTY_LOT, orderType: 'LIMIT', product: 'NRML', pricePaise: 2_590_000, referencePricePaise: 2_600_000 }),
    ]);
    expect(outcomes[0].status).toBe('rejected');
    expect(String((outcomes[0] as PromiseRejectedResult).reason)).toMatch(/foreign key/);
    expect(outcomes[1].status === 'fulfilled' && outcomes[1].value.ok).toBe(true);
    const { rows } = await db.pool.query<{ orders: number }>('SELECT count(*)::int AS orders FROM orders WHERE run_id = $1', [ghost.runId]);
    expect(rows[0]!.orders).toBe(0);
  });

  it('cancels working orders of several accounts with one write, leaving an order that ended as it is', async () => {
    const working = await db.pool.query<{ client_order_id: string; user_id: string }>(
      `SELECT client_order_id, user_id FROM orders WHERE run_id = ANY($1::uuid[]) AND status = 'OPEN' ORDER BY created_at`, [worlds.map((world) => world.runId)]);
    expect(working.rows.length).toBeGreaterThanOrEqual(4);
    // One account's order fills first: the market falls through its buy limit.
    const filledWorld = 0;
    rigs[filledWorld]!.paper.onTick(tickOf(worlds[filledWorld]!, { price: 2_580_000, atMs: T0 + 1_000 }));
    await rigs[filledWorld]!.oms.settled();
    const rigOf = (userId: string): AccountRig => rigs[worlds.findIndex((world) => world.userId === userId)]!;
    const { value: cancelled, statements } = await statementsOf(db.pool, () => Promise.all(working.rows.map((row) => rigOf(row.user_id).oms.cancelIfWorking(row.client_order_id))));
    const filledIds = new Set((await db.pool.query<{ client_order_id: string }>(`SELECT client_order_id FROM orders WHERE run_id = $1 AND status = 'FILLED'`, [worlds[filledWorld]!.runId])).rows.map((row) => row.client_order_id));
    expect(filledIds.size).toBe(1);
    expect(cancelled.map((outcome, index) => (outcome.ok ? outcome.value : 'refused') === !filledIds.has(working.rows[index]!.client_order_id))).not.toContain(false);
    expect(statements.filter((text) => text.includes('UPDATE orders o SET status = r.status')).length).toBe(1);
    expect(statements.filter((text) => text.startsWith('SELECT o.order_id')).length).toBe(1);
    await Promise.all(rigs.map((rig) => rig.oms.settled()));
    const { rows } = await db.pool.query<{ status: string; cancels: number }>(
      `SELECT o.status, (SELECT count(*)::int FROM audit_log a WHERE a.entity_id = o.client_order_id AND a.action = 'order.cancel-requested') AS cancels
       FROM orders o WHERE o.client_order_id = ANY($1::text[]) ORDER BY o.created_at`, [working.rows.map((row) => row.client_order_id)]);
    expect(rows.map((row) => row.status).sort()).toEqual([...Array(rows.length - 1).fill('CANCELLED'), 'FILLED'].sort());
    expect(rows.map((row) => row.cancels).sort()).toEqual([0, ...Array(rows.length - 1).fill(1)]);
  });
});
