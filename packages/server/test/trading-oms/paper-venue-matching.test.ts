// The paper venue's matching, worked through by hand (tick size 10 paise, slippage 2 ticks = 20
// paise, always against the trader), every order placed through the OMS:
// - MARKET BUY: the next tick, 2,600,000, fills at 2,600,020;
// - LIMIT BUY at 2,590,000: 2,600,000 (its first tick), 2,595,000, then a continuous move down to
//   2,585,000 crosses the level: fills at the level, 2,590,000 (no slippage on a limit);
// - LIMIT BUY at 2,590,000 on a bar that opens at 2,580,000 (a jump): fills at the open, 2,580,000;
// - SL-M SELL triggered at 2,590,000 on a continuous fall to 2,580,000: a stop is a market order
//   once triggered, at the level less slippage, 2,589,980;
// - a cancelled LIMIT order never fills, whatever the ticks do.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../helpers/db';
import { createWorld, NIFTY_LOT, newScheduler, openRig, T0, tickOf } from './oms-test-support';
import type { AccountRig, OmsWorld } from './oms-test-support';

let db: TestDatabase;
let world: OmsWorld;
let rig: AccountRig;
let decision = 0;
let at = T0;

beforeAll(async () => {
  db = await freshDatabase({ seeded: true });
  world = await createWorld(db.pool);
  rig = await openRig(db.pool, { world, scheduler: newScheduler(), slippage: { kind: 'ticks', ticks: 2 } });
});

afterAll(async () => {
  await rig.close();
  await db.close();
});

async function place(order: { side: 'BUY' | 'SELL'; orderType: 'MARKET' | 'LIMIT' | 'SL-M'; pricePaise?: number; triggerPricePaise?: number }): Promise<string> {
  const placed = await rig.oms.placeOrder({
    runId: world.runId, decision: decision++, instrumentId: world.futureId, quantity: NIFTY_LOT, product: 'NRML', referencePricePaise: 2_600_000, ...order,
  });
  if (!placed.ok) throw new Error(JSON.stringify(placed.error));
  return placed.value.orders[0]!.clientOrderId;
}

async function ticks(prices: readonly number[], options: { jumpFirst?: boolean } = {}): Promise<void> {
  for (const [index, price] of prices.entries()) {
    at += 1_000;
    rig.paper.onTick(tickOf(world, { price, atMs: at }), { jump: options.jumpFirst === true && index === 0 });
  }
  await rig.oms.settled();
}

async function filledAt(clientOrderId: string): Promise<{ status: string; price: number | null }> {
  const { rows } = await db.pool.query<{ status: string; price: number | null }>(
    `SELECT o.status, (SELECT f.price_paise::float8 FROM fills f WHERE f.order_id = o.order_id) AS price FROM orders o WHERE client_order_id = $1`, [clientOrderId]);
  return rows[0]!;
}

describe('the paper venue fills through the matching core', () => {
  it('fills a market order at the next tick with slippage', async () => {
    const id = await place({ side: 'BUY', orderType: 'MARKET' });
    await ticks([2_600_000]);
    expect(await filledAt(id)).toEqual({ status: 'FILLED', price: 2_600_020 });
  });

  it('fills a limit order at its level when a continuous move crosses it', async () => {
    const id = await place({ side: 'BUY', orderType: 'LIMIT', pricePaise: 2_590_000 });
    await ticks([2_600_000, 2_595_000]);
    expect(await filledAt(id)).toEqual({ status: 'OPEN', price: null });
    await ticks([2_585_000]);
    expect(await filledAt(id)).toEqual({ status: 'FILLED', price: 2_590_000 });
  });

  it('fills a limit order at the open when the bar opens beyond it', async () => {
    const id = await place({ side: 'BUY', orderType: 'LIMIT', pricePaise: 2_590_000 });
    await ticks([2_600_000]);
    await ticks([2_580_000], { jumpFirst: true });
    expect(await filledAt(id)).toEqual({ status: 'FILLED', price: 2_580_000 });
  });

  it('fills a triggered stop at its level less slippage', async () => {
    const id = await place({ side: 'SELL', orderType: 'SL-M', triggerPricePaise: 2_590_000 });
    await ticks([2_600_000, 2_580_000]);
    expect(await filledAt(id)).toEqual({ status: 'FILLED', price: 2_589_980 });
  });

  it('never fills a cancelled order', async () => {
    const id = await place({ side: 'BUY', orderType: 'LIMIT', pricePaise: 2_590_000 });
    await ticks([2_600_000]);
    const cancelled = await rig.oms.cancelOrder(id);
    expect(cancelled.ok).toBe(true);
    await rig.oms.settled();
    await ticks([2_500_000, 2_400_000]);
    expect(await filledAt(id)).toEqual({ status: 'CANCELLED', price: null });
    expect(rig.paper.workingCount).toBe(0);
  });
});
