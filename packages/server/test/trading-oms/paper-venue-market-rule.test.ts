// The paper venue's market rule, an order's first tick and modifying a working order, worked by
// hand (NIFTY future, tick size 10 paise, slippage 2 ticks = 20 paise against the trader), each
// account with a paper venue of its own so "the venue has seen no tick yet" means what it says:
// - after a tick at 2,600,000 (T0 + 1 s, clock at T0), a MARKET BUY fills at once at 2,600,020,
//   stamped T0 + 1 s (the tick is later than the clock); with the clock moved to the bar's end
//   (T0 + 60 s), a MARKET SELL fills at 2,599,980 stamped T0 + 60 s;
// - before any tick, a MARKET BUY waits: the next tick, 2,601,000, fills it at 2,601,020;
// - a SELL SL-M triggered at 2,590,000, placed after a tick at 2,600,000: a continuous tick to
//   2,580,000 crosses the trigger, so it fills at the trigger less slippage, 2,589,980; a jump to
//   2,580,000 (a bar's open) fills at the open less slippage, 2,579,980;
// - the same stop, moved up to 2,597,000 after a tick at 2,598,000: a continuous tick to 2,596,000
//   fills it at 2,596,980 (the old trigger would not fill; a jump would give 2,595,980).
import { randomUUID } from 'node:crypto';
import type { ModifyRequest, OrderIntent } from '@vyuha/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeDecision } from '../../src/trading/oms/order-intake';
import { freshDatabase, type TestDatabase } from '../helpers/db';
import { createWorld, NIFTY_LOT, newScheduler, openRig, T0, tickOf } from './oms-test-support';
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

interface Account {
  readonly world: OmsWorld;
  readonly rig: AccountRig;
  readonly scheduler: ReturnType<typeof newScheduler>;
  decision: number;
}

async function account(): Promise<Account> {
  const world = await createWorld(db.pool);
  const scheduler = newScheduler();
  const rig = await openRig(db.pool, { world, scheduler, slippage: { kind: 'ticks', ticks: 2 } });
  rigs.push(rig);
  return { world, rig, scheduler, decision: 0 };
}

type Order = { side: 'BUY' | 'SELL'; orderType: 'MARKET' | 'SL-M'; triggerPricePaise?: number };

async function place(of: Account, order: Order): Promise<string> {
  const placed = await of.rig.oms.placeOrder({
    runId: of.world.runId, decision: of.decision++, instrumentId: of.world.futureId, quantity: NIFTY_LOT, product: 'NRML',
    referencePricePaise: 2_600_000, ...order,
  });
  if (!placed.ok) throw new Error(JSON.stringify(placed.error));
  return placed.value.orders[0]!.clientOrderId;
}

async function tick(of: Account, price: number, at: { atMs: number; jump?: boolean }): Promise<void> {
  of.rig.paper.onTick(tickOf(of.world, { price, atMs: at.atMs }), { jump: at.jump === true });
  await of.rig.oms.settled();
}

interface OrderState {
  status: string; price: number | null; atMs: number | null; trigger: number | null; modifyCount: number; updatedAt: string;
}

async function stateOf(clientOrderId: string): Promise<OrderState> {
  const { rows } = await db.pool.query<OrderState>(
    `SELECT o.status, f.price_paise::float8 AS price, (extract(epoch FROM f.ts) * 1000)::float8 AS "atMs",
       o.trigger_price_paise::float8 AS trigger, o.modify_count AS "modifyCount", o.updated_at::text AS "updatedAt"
     FROM orders o LEFT JOIN fills f ON f.order_id = o.order_id WHERE o.client_order_id = $1`, [clientOrderId]);
  return rows[0]!;
}

async function auditActions(clientOrderId: string): Promise<string[]> {
  const { rows } = await db.pool.query<{ action: string }>(
    `SELECT action FROM audit_log WHERE entity = 'orders' AND entity_id = $1 ORDER BY id`, [clientOrderId]);
  return rows.map((row) => row.action);
}

describe('a MARKET order on the paper venue', () => {
  it('fills at once at the last tick with slippage, after the answer to its place, stamped at the later of the tick and the clock', async () => {
    const of = await account();
    await tick(of, 2_600_000, { atMs: T0 + 1_000 });
    const seen: string[] = [];
    const place0 = of.rig.venue.place.bind(of.rig.venue);
    of.rig.venue.place = async (intent: OrderIntent) => {
      const outcome = await place0(intent);
      seen.push(`answer ${outcome.kind}`);
      return outcome;
    };
    of.rig.paper.subscribe((event) => seen.push(`event ${event.kind}`));
    const buy = await place(of, { side: 'BUY', orderType: 'MARKET' });
    await of.rig.oms.settled();
    expect(seen).toEqual(['answer accepted', 'event fill']);
    expect(await stateOf(buy)).toMatchObject({ status: 'FILLED', price: 2_600_020, atMs: T0 + 1_000 });
    expect(await auditActions(buy)).toEqual(['order.created', 'order.send-started', 'order.accepted', 'order.fill']);

    // The runner's clock at the bar's end, after the bar's last tick: a close order is stamped then.
    await of.scheduler.advanceTo(T0 + 60_000);
    const sell = await place(of, { side: 'SELL', orderType: 'MARKET' });
    await of.rig.oms.settled();
    expect(await stateOf(sell)).toMatchObject({ status: 'FILLED', price: 2_599_980, atMs: T0 + 60_000 });
  });

  it('waits for the next tick when the venue has seen none of its instrument', async () => {
    const of = await account();
    const buy = await place(of, { side: 'BUY', orderType: 'MARKET' });
    await of.rig.oms.settled();
    expect(await stateOf(buy)).toMatchObject({ status: 'OPEN', price: null });
    await tick(of, 2_601_000, { atMs: T0 + 2_000 });
    expect(await stateOf(buy)).toMatchObject({ status: 'FILLED', price: 2_601_020, atMs: T0 + 2_000 });
  });

  it('is written by the time oms.settled() resolves, however late the venue delivers the fill', async () => {
    const of = await account();
    await tick(of, 2_600_000, { atMs: T0 + 1_000 });
    // The order's row as the OMS writes it before sending; then the venue is called directly, so
    // nothing of the OMS is running when settled() is asked, only the venue's undelivered fill.
    const request = {
      runId: of.world.runId, decision: 0, instrumentId: of.world.futureId, side: 'BUY', quantity: NIFTY_LOT, orderType: 'MARKET', product: 'NRML',
    } as const;
    expect(await writeDecision(db.pool, { run: of.world.run, order: request, slices: [NIFTY_LOT], nowMs: T0 })).toBe(true);
    const { rows } = await db.pool.query<{ client_order_id: string; tag: string }>(
      `UPDATE orders SET submitted_at = to_timestamp($2::float8 / 1000) WHERE run_id = $1 RETURNING client_order_id, tag`, [of.world.runId, T0]);
    const row = rows[0]!;
    const outcome = await of.rig.paper.place({
      clientOrderId: row.client_order_id as OrderIntent['clientOrderId'], tag: row.tag, instrumentKey: String(of.world.futureId), exchange: 'NFO',
      tradingSymbol: 'NIFTY26JANFUT', side: 'BUY', quantity: NIFTY_LOT, orderType: 'MARKET', product: 'NRML',
    });
    expect(outcome.kind).toBe('accepted');
    await of.rig.oms.settled();
    expect(await stateOf(row.client_order_id)).toMatchObject({ status: 'FILLED', price: 2_600_020 });
  });
});

describe('an order placed after a tick continues from that tick', () => {
  it('fills a stop at its trigger (slipped) on a continuous move through it', async () => {
    const of = await account();
    await tick(of, 2_600_000, { atMs: T0 + 1_000 });
    const stop = await place(of, { side: 'SELL', orderType: 'SL-M', triggerPricePaise: 2_590_000 });
    await tick(of, 2_580_000, { atMs: T0 + 2_000 });
    expect(await stateOf(stop)).toMatchObject({ status: 'FILLED', price: 2_589_980 });
  });

  it('fills a stop at the tick\'s price (slipped) when that tick is a jump', async () => {
    const of = await account();
    await tick(of, 2_600_000, { atMs: T0 + 1_000 });
    const stop = await place(of, { side: 'SELL', orderType: 'SL-M', triggerPricePaise: 2_590_000 });
    await tick(of, 2_580_000, { atMs: T0 + 2_000, jump: true });
    expect(await stateOf(stop)).toMatchObject({ status: 'FILLED', price: 2_579_980 });
  });
});

describe('modifying a working order', () => {
  let of: Account;
  let stop: string;
  const modifies: ModifyRequest[] = [];

  beforeAll(async () => {
    of = await account();
    const modify0 = of.rig.venue.modify.bind(of.rig.venue);
    of.rig.venue.modify = async (request: ModifyRequest) => {
      modifies.push(request);
      return modify0(request);
    };
    await tick(of, 2_600_000, { atMs: T0 + 1_000 });
    stop = await place(of, { side: 'SELL', orderType: 'SL-M', triggerPricePaise: 2_590_000 });
    await tick(of, 2_598_000, { atMs: T0 + 2_000 });
  });

  it('refuses new levels outside the price band and changes nothing', async () => {
    const before = await stateOf(stop);
    const refused = await of.rig.oms.modifyOrder({ clientOrderId: stop, triggerPricePaise: 2_000_000, referencePricePaise: 2_598_000 });
    expect(refused.ok ? [] : refused.error.map((issue) => issue.code)).toEqual(['trigger-outside-band']);
    expect(modifies).toEqual([]);
    expect(await stateOf(stop)).toEqual(before);
  });

  it('refuses a request without levels, naming the field', async () => {
    const refused = await of.rig.oms.modifyOrder({ clientOrderId: stop });
    expect(refused.ok ? [] : refused.error.map((issue) => [issue.field, issue.code])).toEqual([['triggerPricePaise', 'invalid-request']]);
    const unknown = await of.rig.oms.modifyOrder({ clientOrderId: `${randomUUID()}-0`, triggerPricePaise: 2_597_000 });
    expect(unknown.ok ? [] : unknown.error.map((issue) => [issue.field, issue.code])).toEqual([['clientOrderId', 'unknown-order']]);
  });

  it('moves the stop\'s trigger: the row and an audit row at once, and the next tick fills at the new level', async () => {
    const moved = await of.rig.oms.modifyOrder({ clientOrderId: stop, triggerPricePaise: 2_597_000, referencePricePaise: 2_598_000 });
    expect(moved.ok && moved.value).toMatchObject({ clientOrderId: stop, status: 'OPEN' });
    expect(modifies).toEqual([{ brokerOrderId: expect.stringMatching(/^PAPER-\d+$/), triggerPricePaise: 2_597_000 }]);
    expect(await stateOf(stop)).toMatchObject({ status: 'OPEN', trigger: 2_597_000, modifyCount: 1 });
    const { rows } = await db.pool.query<{ before: { triggerPricePaise: number }; after: { triggerPricePaise: number }; tx: string; order_tx: string }>(
      `SELECT a.before, a.after, a.xmin::text AS tx, (SELECT o.xmin::text FROM orders o WHERE o.client_order_id = $1) AS order_tx
       FROM audit_log a WHERE a.entity_id = $1 AND a.action = 'order.modified'`, [stop]);
    expect(rows.map((row) => [row.before.triggerPricePaise, row.after.triggerPricePaise])).toEqual([[2_590_000, 2_597_000]]);
    expect(rows[0]?.tx).toBe(rows[0]?.order_tx);

    await tick(of, 2_596_000, { atMs: T0 + 3_000 });
    expect(await stateOf(stop)).toMatchObject({ status: 'FILLED', price: 2_596_980 });
  });

  it('refuses to modify the FILLED stop and changes nothing', async () => {
    const before = await stateOf(stop);
    const asked = modifies.length;
    const refused = await of.rig.oms.modifyOrder({ clientOrderId: stop, triggerPricePaise: 2_595_000, referencePricePaise: 2_596_000 });
    expect(refused.ok ? [] : refused.error.map((issue) => issue.code)).toEqual(['final-state']);
    expect(refused.ok ? '' : refused.error[0]?.message).toContain('FILLED');
    expect(modifies).toHaveLength(asked);
    expect(await stateOf(stop)).toEqual(before);
    expect((await auditActions(stop)).at(-1)).toBe('order.event-refused');
  });

  it('is refused by the venue when the order filled there first, and the row keeps its levels', async () => {
    const other = await account();
    await tick(other, 2_600_000, { atMs: T0 + 1_000 });
    const filledThere = await place(other, { side: 'SELL', orderType: 'SL-M', triggerPricePaise: 2_590_000 });
    // The venue fills the stop but its event has not reached the OMS: the row still says OPEN.
    other.rig.venue.deaf = true;
    await tick(other, 2_585_000, { atMs: T0 + 2_000 });
    other.rig.venue.deaf = false;
    const before = await stateOf(filledThere);
    expect(before).toMatchObject({ status: 'OPEN', trigger: 2_590_000 });
    const refused = await other.rig.oms.modifyOrder({ clientOrderId: filledThere, triggerPricePaise: 2_595_000, referencePricePaise: 2_585_000 });
    expect(refused.ok ? [] : refused.error.map((issue) => issue.code)).toEqual(['modify-refused']);
    expect(refused.ok ? '' : refused.error[0]?.message).toMatch(/is not working$/);
    expect(await stateOf(filledThere)).toEqual(before);
    expect((await auditActions(filledThere)).at(-1)).toBe('order.modify-rejected');
  });
});
