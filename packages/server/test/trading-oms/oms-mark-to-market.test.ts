// Marking a run's position to a price (each bar close of a paper run) is one statement: the
// position's mark, a new IST day started from the position at its previous mark, and the run's
// daily_pnl row from its positions. Checked here against the arithmetic, written out:
//
// BUY 65 NIFTY future at Rs 26,000.00 (2,600,000 paise) on 2025-12-01, no charges counted here
// (the day's charges are whatever the fill charged, read back from the row):
// - marked at 2,610,000 the same day: unrealised 65 x 10,000 = 650,000; the day's mtm 650,000;
// - marked at 2,620,000 on 2025-12-02: the new day starts from the previous mark (unrealised
//   650,000, realised 0, the charges so far), so that day's mtm is 65 x 20,000 - 650,000 = 650,000
//   and its charges 0; the first day's row is left as it was;
// - a mark of an instrument the run never traded creates its (flat) row, the other path.
import { istEpochMs, isoDate } from '@vyuha/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

async function dayRow(date: string): Promise<{ realised: number; mtm: number; charges: number; pnl: number; orders_count: number } | undefined> {
  const { rows } = await db.pool.query<{ realised: number; mtm: number; charges: number; pnl: number; orders_count: number }>(
    `SELECT realised_paise::float8 AS realised, mtm_paise::float8 AS mtm, charges_paise::float8 AS charges, pnl_paise::float8 AS pnl, orders_count
     FROM daily_pnl WHERE run_id = $1 AND date = $2`, [world.runId, date]);
  return rows[0];
}

async function positionRow(instrumentId: number): Promise<Record<string, number | string | null> | undefined> {
  const { rows } = await db.pool.query<Record<string, number | string | null>>(
    `SELECT net_quantity, mark_price_paise::float8 AS mark, unrealised_pnl_paise::float8 AS unrealised, to_char(day_date, 'YYYY-MM-DD') AS day,
       day_start_unrealised_paise::float8 AS day_start_unrealised, day_start_charges_paise::float8 AS day_start_charges, charges_paise::float8 AS charges
     FROM positions WHERE run_id = $1 AND instrument_id = $2`, [world.runId, instrumentId]);
  return rows[0];
}

describe('marking a position to market', () => {
  it('moves the mark, the unrealised P&L and the day\'s mtm in one step', async () => {
    const placed = await rig.oms.placeOrder({ runId: world.runId, decision: 0, instrumentId: world.futureId, side: 'BUY', quantity: NIFTY_LOT, orderType: 'MARKET', product: 'NRML' });
    expect(placed.ok).toBe(true);
    rig.paper.onTick(tickOf(world, { price: 2_600_000, atMs: T0 + 1_000 }));
    await rig.oms.settled();
    const charged = (await positionRow(world.futureId))!.charges as number;
    expect(charged).toBeGreaterThan(0);

    await scheduler.advanceTo(T0 + 60_000);
    await rig.oms.markToMarket({ runId: world.runId, instrumentId: world.futureId, pricePaise: 2_610_000 });
    expect(await positionRow(world.futureId)).toMatchObject({ net_quantity: NIFTY_LOT, mark: 2_610_000, unrealised: 650_000, day: '2025-12-01' });
    expect(await dayRow('2025-12-01')).toEqual({ realised: 0, mtm: 650_000, charges: charged, pnl: 650_000 - charged, orders_count: 1 });
  });

  it('starts a new IST day from the position at its previous mark, leaving the day before as it was', async () => {
    const before = await dayRow('2025-12-01');
    await scheduler.advanceTo(istEpochMs(isoDate('2025-12-02'), '09:16:00'));
    await rig.oms.markToMarket({ runId: world.runId, instrumentId: world.futureId, pricePaise: 2_620_000 });
    const charged = (await positionRow(world.futureId))!.charges as number;
    expect(await positionRow(world.futureId)).toMatchObject({
      mark: 2_620_000, unrealised: 1_300_000, day: '2025-12-02', day_start_unrealised: 650_000, day_start_charges: charged,
    });
    expect(await dayRow('2025-12-02')).toEqual({ realised: 0, mtm: 650_000, charges: 0, pnl: 650_000, orders_count: 0 });
    expect(await dayRow('2025-12-01')).toEqual(before);
  });

  it('creates the row of an instrument the run holds no row of yet', async () => {
    const { rows } = await db.pool.query<{ instrument_id: number }>(
      `SELECT instrument_id FROM instruments WHERE kind = 'index' AND name = 'NIFTY BANK'`);
    const bank = rows[0]!.instrument_id;
    await rig.oms.markToMarket({ runId: world.runId, instrumentId: bank, pricePaise: 5_000_000 });
    expect(await positionRow(bank)).toMatchObject({ net_quantity: 0, mark: 5_000_000, unrealised: 0, day: '2025-12-02' });
    expect((await dayRow('2025-12-02'))?.mtm).toBe(650_000);
  });
});
