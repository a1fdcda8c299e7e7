// The OMS against the paper venue on a real PostgreSQL, ticks pushed by hand: an order is written
// before it is sent, a fill moves the position and the day's P&L in the order's own transaction,
// a duplicated fill changes nothing, a send whose answer is lost is resolved from the venue's book
// without a second venue order, and a new OMS on the same database resumes without doubling.
//
// Arithmetic: BUY 65 NIFTY26JANFUT (market, before any tick) fills at the next tick, Rs 26,000.00
// (2,600,000 paise); SELL 65 (market, after a tick) fills at once at that tick, Rs 26,010.00:
// realised 65 x 1,000 = 65,000 paise (Rs 650), before charges.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recoverOms } from '../../src/trading/oms/oms-recovery';
import { freshDatabase, type TestDatabase } from '../helpers/db';
import { createWorld, NIFTY_LOT, newScheduler, openRig, T0, tickOf } from './oms-test-support';
import type { AccountRig, OmsWorld } from './oms-test-support';

let db: TestDatabase;
let world: OmsWorld;
const scheduler = newScheduler();
let rig: AccountRig;

beforeAll(async () => {
  db = await freshDatabase({ seeded: true });
  world = await createWorld(db.pool);
  rig = await openRig(db.pool, { world, scheduler });
});

afterAll(async () => {
  await rig.close();
  await db.close();
});

async function rowOf(clientOrderId: string): Promise<Record<string, unknown>> {
  const { rows } = await db.pool.query('SELECT *, xmin::text AS tx FROM orders WHERE client_order_id = $1', [clientOrderId]);
  return rows[0] as Record<string, unknown>;
}

async function position(): Promise<{ net_quantity: number; realised: string; tx: string } | undefined> {
  const { rows } = await db.pool.query<{ net_quantity: number; realised: string; tx: string }>(
    'SELECT net_quantity, realised_pnl_paise::text AS realised, xmin::text AS tx FROM positions WHERE run_id = $1 AND instrument_id = $2', [world.runId, world.futureId]);
  return rows[0];
}

async function day(): Promise<{ realised: string; charges: string; pnl: string; orders_count: number; tx: string }> {
  const { rows } = await db.pool.query<{ realised: string; charges: string; pnl: string; orders_count: number; tx: string }>(
    `SELECT realised_paise::text AS realised, charges_paise::text AS charges, pnl_paise::text AS pnl, orders_count, xmin::text AS tx
     FROM daily_pnl WHERE run_id = $1 AND date = '2025-12-01'`, [world.runId]);
  return rows[0]!;
}

describe('the OMS on the paper venue', () => {
  it('writes the order (PENDING_SUBMIT, sent-at, algo id, run, user, broker account) before the venue hears of it', async () => {
    const seen: Array<Record<string, unknown>> = [];
    rig.venue.beforePlace = async (intent) => {
      seen.push(await rowOf(intent.clientOrderId));
    };
    const placed = await rig.oms.placeOrder({
      runId: world.runId, decision: 0, instrumentId: world.futureId, side: 'BUY', quantity: NIFTY_LOT, orderType: 'MARKET', product: 'NRML',
    });
    rig.venue.beforePlace = undefined;
    expect(placed.ok).toBe(true);
    if (!placed.ok) return;
    const [order] = placed.value.orders;
    expect(order?.clientOrderId).toBe(`${world.runId}-0`);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      status: 'PENDING_SUBMIT', algo_id: 'ALGO-TEST-1', run_id: world.runId, user_id: world.userId, user_broker_id: world.userBrokerId,
      strategy_id: world.strategyId, broker_order_id: null,
    });
    expect(seen[0]?.submitted_at).toBeInstanceOf(Date);
    expect(order).toMatchObject({ status: 'OPEN', filledQuantity: 0 });
    expect(order?.brokerOrderId).toMatch(/^PAPER-\d+$/);
  });

  it('fills at the next tick; the fill, the position and the day P&L are written in the order\'s transaction', async () => {
    rig.paper.onTick(tickOf(world, { price: 2_600_000, atMs: T0 + 1_000 }));
    await rig.oms.settled();
    const order = await rowOf(`${world.runId}-0`);
    expect(order).toMatchObject({ status: 'FILLED', filled_quantity: NIFTY_LOT, average_price_paise: '2600000' });
    const fills = await db.pool.query<{ trade_id: string; price_paise: string; tx: string; charges: Record<string, number> }>(
      'SELECT trade_id, price_paise::text, xmin::text AS tx, charges_paise AS charges FROM fills WHERE order_id = $1', [order.order_id]);
    expect(fills.rows).toHaveLength(1);
    expect(fills.rows[0]?.trade_id).toBe(`${String(order.broker_order_id)}-1`);
    expect(Object.values(fills.rows[0]!.charges).reduce((sum, value) => sum + value, 0)).toBeGreaterThan(0);
    const held = await position();
    expect(held?.net_quantity).toBe(NIFTY_LOT);
    const today = await day();
    // One transaction: the same writing transaction id on the fill, the order, the position and the day row.
    expect(new Set([fills.rows[0]?.tx, order.tx, held?.tx, today.tx]).size).toBe(1);
    expect(today.orders_count).toBe(1);
    expect(Number(today.pnl)).toBe(-Number(today.charges));
    const audit = await db.pool.query<{ action: string }>(`SELECT action FROM audit_log WHERE entity = 'orders' AND entity_id = $1 ORDER BY id`, [`${world.runId}-0`]);
    expect(audit.rows.map((row) => row.action)).toEqual(['order.created', 'order.send-started', 'order.accepted', 'order.fill']);
  });

  it('changes nothing when the venue sends the same fill again', async () => {
    const order = await rowOf(`${world.runId}-0`);
    const before = { position: await position(), day: await day(), audit: (await db.pool.query('SELECT count(*)::int AS n FROM audit_log')).rows[0] };
    const { rows } = await db.pool.query<{ trade_id: string; quantity: number; price: number; ms: number }>(
      `SELECT trade_id, quantity, price_paise::float8 AS price, (extract(epoch FROM ts) * 1000)::float8 AS ms FROM fills WHERE order_id = $1`, [order.order_id]);
    const fill = rows[0]!;
    rig.venue.deliver({
      kind: 'fill', brokerOrderId: String(order.broker_order_id),
      trade: { tradeId: fill.trade_id, quantity: fill.quantity, pricePaise: fill.price as never, atMs: fill.ms },
    });
    await rig.oms.settled();
    const count = await db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM fills WHERE order_id = $1', [order.order_id]);
    expect(count.rows[0]?.n).toBe(1);
    expect(await position()).toEqual(before.position);
    expect(await day()).toEqual(before.day);
    expect((await db.pool.query('SELECT count(*)::int AS n FROM audit_log')).rows[0]).toEqual(before.audit);
  });

  it('closes the position with exact realised P&L', async () => {
    // The venue has seen a tick now, so a MARKET order fills at once at the last one.
    rig.paper.onTick(tickOf(world, { price: 2_601_000, atMs: T0 + 2_000 }));
    const placed = await rig.oms.placeOrder({
      runId: world.runId, decision: 1, instrumentId: world.futureId, side: 'SELL', quantity: NIFTY_LOT, orderType: 'MARKET', product: 'NRML',
    });
    expect(placed.ok).toBe(true);
    await rig.oms.settled();
    expect(await position()).toMatchObject({ net_quantity: 0, realised: '65000' });
    const today = await day();
    expect(today.realised).toBe('65000');
    expect(Number(today.pnl)).toBe(65_000 - Number(today.charges));
    expect(today.orders_count).toBe(2);
  });

  it('turns a send whose answer never came into UNKNOWN and resolves it from the venue, with one venue order', async () => {
    const placedBefore = rig.venue.placed.length;
    rig.venue.hold = true;
    const reached = rig.venue.nextPlace();
    const placing = rig.oms.placeOrder({
      runId: world.runId, decision: 2, instrumentId: world.futureId, side: 'BUY', quantity: NIFTY_LOT, orderType: 'LIMIT', pricePaise: 2_590_000,
      product: 'NRML', referencePricePaise: 2_601_000,
    });
    await reached;
    rig.venue.hold = false;
    // The paper venue has the order, the OMS has no answer: 5 s later it is UNKNOWN and asks the venue.
    await scheduler.advanceTo(scheduler.now() + 5_000);
    const placed = await placing;
    await rig.oms.settled();
    expect(placed.ok).toBe(true);
    const row = await rowOf(`${world.runId}-20`);
    expect(row.status).toBe('OPEN');
    expect(row.broker_order_id).toMatch(/^PAPER-\d+$/);
    expect(rig.venue.placed.length - placedBefore).toBe(1);
    const audit = await db.pool.query<{ action: string }>(`SELECT action FROM audit_log WHERE entity_id = $1 ORDER BY id`, [`${world.runId}-20`]);
    expect(audit.rows.map((entry) => entry.action)).toEqual(['order.created', 'order.send-started', 'order.send-timeout', 'order.venue-report']);
  });

  it('resumes after a restart (a new OMS and paper venue on the same database) without doubling anything', async () => {
    await rig.close();
    rig = await openRig(db.pool, { world, scheduler });
    const report = await recoverOms(rig.oms);
    expect(report.alerts).toEqual([]);
    expect(report.pausedStrategies).toEqual([]);
    // The runner decides decisions 0, 1 and 2 again: the stored rows answer, nothing is sent.
    for (const [decision, side, orderType] of [[0, 'BUY', 'MARKET'], [1, 'SELL', 'MARKET'], [2, 'BUY', 'LIMIT']] as const) {
      const again = await rig.oms.placeOrder({
        runId: world.runId, decision, instrumentId: world.futureId, side, quantity: NIFTY_LOT, orderType, product: 'NRML',
        ...(orderType === 'LIMIT' ? { pricePaise: 2_590_000, referencePricePaise: 2_601_000 } : {}),
      });
      expect(again.ok && again.value.existing).toBe(true);
    }
    expect(rig.venue.placed).toHaveLength(0);
    // The same decision number for a different order is refused, naming the field.
    const clash = await rig.oms.placeOrder({ runId: world.runId, decision: 0, instrumentId: world.futureId, side: 'SELL', quantity: NIFTY_LOT, orderType: 'MARKET', product: 'NRML' });
    expect(clash.ok ? [] : clash.error.map((issue) => [issue.field, issue.code])).toEqual([['decision', 'decision-taken']]);
    // The LIMIT order working before the restart was rebuilt by the new paper venue and fills at its level.
    expect(rig.paper.workingCount).toBe(1);
    rig.paper.onTick(tickOf(world, { price: 2_595_000, atMs: T0 + 10_000 }));
    rig.paper.onTick(tickOf(world, { price: 2_589_000, atMs: T0 + 11_000 }));
    await rig.oms.settled();
    expect(await rowOf(`${world.runId}-20`)).toMatchObject({ status: 'FILLED', average_price_paise: '2590000' });
    expect(await position()).toMatchObject({ net_quantity: NIFTY_LOT });
    const venueOrders = await db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM orders WHERE run_id = $1 AND broker_order_id IS NOT NULL`, [world.runId]);
    expect(venueOrders.rows[0]?.n).toBe(3);
  });

  it('refuses a malformed request naming the field, and writes nothing', async () => {
    const before = await db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM orders');
    const bad = await rig.oms.placeOrder({
      runId: world.runId, decision: -1, instrumentId: world.futureId, side: 'BUY', quantity: NIFTY_LOT, orderType: 'LIMIT', product: 'XYZ',
    });
    expect(bad.ok ? [] : bad.error.map((issue) => issue.field).sort()).toEqual(['decision', 'pricePaise', 'product']);
    expect((await db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM orders')).rows[0]).toEqual(before.rows[0]);
  });
});
