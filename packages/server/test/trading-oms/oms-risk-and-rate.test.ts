// The OMS's risk checks and order-rate queue on a real PostgreSQL:
// - freeze slicing: NIFTY's lot is 65 and its freeze quantity 1,800 on 1-Dec-2025, so one order is
//   at most 27 lots = 1,755; 28 lots (1,820) leave as two orders, [1,755, 65], the second pointing
//   at the first; 10 x 1,755 = 17,550 is the most one decision can be; 17,615 is refused, unwritten.
// - the rate: 25 orders decided in one instant leave 10 at t0, 10 at t0 + 1 s and 5 at t0 + 2 s;
//   the 15 waiting ones show as queued (queued_until, status message) and none is dropped.
// - daily max loss: a strategy with a Rs 100 daily max loss that lost Rs 650 (65 x Rs 10) today may
//   only reduce its position.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUEUED_MESSAGE } from '../../src/trading/oms/oms-types';
import { freshDatabase, type TestDatabase } from '../helpers/db';
import { addRun, createWorld, NIFTY_LOT, newScheduler, openRig, T0, tickOf } from './oms-test-support';
import type { AccountRig, OmsWorld } from './oms-test-support';

let db: TestDatabase;

beforeAll(async () => {
  db = await freshDatabase({ seeded: true });
});

afterAll(async () => {
  await db.close();
});

describe('freeze slicing', () => {
  let world: OmsWorld;
  let rig: AccountRig;
  beforeAll(async () => {
    world = await createWorld(db.pool);
    rig = await openRig(db.pool, { world, scheduler: newScheduler() });
  });
  afterAll(async () => rig.close());

  it('cuts an order above the freeze quantity into children with their own client order ids', async () => {
    const placed = await rig.oms.placeOrder({
      runId: world.runId, decision: 0, instrumentId: world.futureId, side: 'BUY', quantity: 28 * NIFTY_LOT, orderType: 'MARKET', product: 'NRML',
    });
    expect(placed.ok).toBe(true);
    const { rows } = await db.pool.query<{ client_order_id: string; quantity: number; parent: string | null; order_id: string; status: string }>(
      `SELECT client_order_id, quantity, parent_order_id AS parent, order_id, status FROM orders WHERE run_id = $1 ORDER BY client_order_id`, [world.runId]);
    expect(rows.map((row) => [row.client_order_id, row.quantity, row.status])).toEqual([[`${world.runId}-0`, 1_755, 'OPEN'], [`${world.runId}-1`, 65, 'OPEN']]);
    expect(rows[0]?.parent).toBeNull();
    expect(rows[1]?.parent).toBe(rows[0]?.order_id);
    expect(rig.venue.placed.map((intent) => intent.quantity)).toEqual([1_755, 65]);
  });

  it('refuses more than 10 slices and writes nothing', async () => {
    const placed = await rig.oms.placeOrder({
      runId: world.runId, decision: 1, instrumentId: world.futureId, side: 'BUY', quantity: 17_550 + NIFTY_LOT, orderType: 'MARKET', product: 'NRML',
    });
    expect(placed.ok ? [] : placed.error.map((issue) => issue.code)).toEqual(['too-many-slices']);
    const ten = await rig.oms.placeOrder({
      runId: world.runId, decision: 2, instrumentId: world.futureId, side: 'BUY', quantity: 17_550, orderType: 'MARKET', product: 'NRML',
    });
    expect(ten.ok ? ten.value.orders.length : 0).toBe(10);
    const { rows } = await db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM orders WHERE client_order_id LIKE $1`, [`${world.runId}-1_`]);
    expect(rows[0]?.n).toBe(0);
    const refused = await db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_log WHERE action = 'order.refused' AND entity_id = $1`, [`${world.runId}-10`]);
    expect(refused.rows[0]?.n).toBe(1);
  });

  it('refuses a limit price outside the band around the last price (20% either side)', async () => {
    const placed = await rig.oms.placeOrder({
      runId: world.runId, decision: 4, instrumentId: world.futureId, side: 'BUY', quantity: NIFTY_LOT, orderType: 'LIMIT', pricePaise: 2_000_000,
      referencePricePaise: 2_600_000, product: 'NRML',
    });
    // Band: 2,600,000 +- 520,000 = 2,080,000 to 3,120,000 paise.
    expect(placed.ok ? [] : placed.error.map((issue) => issue.code)).toEqual(['price-outside-band']);
  });

  it('refuses a quantity that is not whole lots', async () => {
    const placed = await rig.oms.placeOrder({
      runId: world.runId, decision: 3, instrumentId: world.futureId, side: 'BUY', quantity: 100, orderType: 'MARKET', product: 'NRML',
    });
    expect(placed.ok ? [] : placed.error.map((issue) => issue.code)).toEqual(['not-whole-lots']);
  });
});

describe('the order-rate queue', () => {
  it('lets 25 orders of one instant leave over 3 s, 10 a second, visible as queued while they wait', async () => {
    const scheduler = newScheduler();
    const world = await createWorld(db.pool);
    const rig = await openRig(db.pool, { world, scheduler });
    try {
      // One after another, but the clock does not move: one instant.
      for (let decision = 0; decision < 25; decision += 1) {
        const placed = await rig.oms.placeOrder({
          runId: world.runId, decision, instrumentId: world.futureId, side: 'BUY', quantity: NIFTY_LOT, orderType: 'MARKET', product: 'NRML',
        });
        expect(placed.ok).toBe(true);
      }
      await rig.oms.settled();
      const state = async () => (await db.pool.query<{ status: string; queued: number | null; message: string | null }>(
        `SELECT status, (extract(epoch FROM queued_until) * 1000)::float8 AS queued, status_message AS message FROM orders WHERE run_id = $1
         ORDER BY (regexp_replace(client_order_id, '^.*-', ''))::int`, [world.runId])).rows;
      let rows = await state();
      expect(rig.venue.placed).toHaveLength(10);
      expect(rows.filter((row) => row.status === 'OPEN')).toHaveLength(10);
      const waiting = rows.filter((row) => row.status === 'PENDING_SUBMIT');
      expect(waiting).toHaveLength(15);
      expect(waiting.every((row) => row.message === QUEUED_MESSAGE)).toBe(true);
      expect(waiting.map((row) => row.queued)).toEqual([...Array(10).fill(T0 + 1_000), ...Array(5).fill(T0 + 2_000)]);
      await scheduler.advanceTo(T0 + 999);
      await rig.oms.settled();
      expect(rig.venue.placed).toHaveLength(10);
      await scheduler.advanceTo(T0 + 1_000);
      await rig.oms.settled();
      expect(rig.venue.placed).toHaveLength(20);
      await scheduler.advanceTo(T0 + 2_000);
      await rig.oms.settled();
      expect(rig.venue.placed).toHaveLength(25);
      rows = await state();
      expect(rows.every((row) => row.status === 'OPEN' && row.queued === null && row.message === null)).toBe(true);
      // Sent in decision order, each once.
      expect(rig.venue.placed.map((intent) => intent.clientOrderId)).toEqual(Array.from({ length: 25 }, (_, decision) => `${world.runId}-${decision * 10}`));
    } finally {
      await rig.close();
    }
  });
});

describe('daily max loss', () => {
  it('refuses an order that adds to the position once the strategy lost its daily max loss today, and lets a reducing one leave', async () => {
    const scheduler = newScheduler();
    const world = await createWorld(db.pool, { strategyMaxLossPaise: 10_000 });
    const rig = await openRig(db.pool, { world, scheduler });
    try {
      const order = (decision: number, side: 'BUY' | 'SELL', quantity = NIFTY_LOT) => rig.oms.placeOrder({
        runId: world.runId, decision, instrumentId: world.futureId, side, quantity, orderType: 'MARKET', product: 'NRML',
      });
      expect((await order(0, 'BUY', 2 * NIFTY_LOT)).ok).toBe(true);
      rig.paper.onTick(tickOf(world, { price: 2_600_000, atMs: T0 + 1_000 }));
      await rig.oms.settled();
      // A MARKET order fills at the last tick: the price falls to Rs 25,990 first.
      rig.paper.onTick(tickOf(world, { price: 2_599_000, atMs: T0 + 2_000 }));
      expect((await order(1, 'SELL')).ok).toBe(true);
      await rig.oms.settled();
      const refused = await order(2, 'BUY');
      expect(refused.ok ? [] : refused.error.map((issue) => issue.code)).toEqual(['strategy-daily-loss']);
      // Another run of the same strategy is held by the same limit.
      const other = await addRun(db.pool, world);
      rig.oms.attachRun(other);
      const elsewhere = await rig.oms.placeOrder({ runId: other.runId, decision: 0, instrumentId: world.futureId, side: 'BUY', quantity: NIFTY_LOT, orderType: 'MARKET', product: 'NRML' });
      expect(elsewhere.ok ? [] : elsewhere.error.map((issue) => issue.code)).toEqual(['strategy-daily-loss']);
      const reducing = await order(3, 'SELL');
      expect(reducing.ok).toBe(true);
    } finally {
      await rig.close();
    }
  });
});
