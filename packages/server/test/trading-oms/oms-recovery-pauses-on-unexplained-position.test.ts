// Restart reconciliation finds a venue position the recorded fills do not explain: the paper
// venue's book holds a filled BUY of 65 (an order row and its fill in one of the user's PAPER runs)
// that never moved any stored position. `recoverOms` must say so (an `unexplained-position` alert
// with both quantities), audit it, and set the account's ACTIVE strategy to PAUSED with an audit
// row, changing no order.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recoverOms } from '../../src/trading/oms/oms-recovery';
import { freshDatabase, type TestDatabase } from '../helpers/db';
import { addRun, createWorld, NIFTY_LOT, newScheduler, openRig } from './oms-test-support';

let db: TestDatabase;

beforeAll(async () => {
  db = await freshDatabase({ seeded: true });
});

afterAll(async () => {
  await db.close();
});

describe('restart reconciliation', () => {
  it('pauses the account\'s strategies on a venue position the fills do not explain', async () => {
    const world = await createWorld(db.pool);
    const stray = await addRun(db.pool, world);
    const order = await db.pool.query<{ order_id: string }>(
      `INSERT INTO orders (client_order_id, run_id, strategy_id, user_id, instrument_id, side, quantity, filled_quantity, order_type, product, status,
         broker_order_id, tag, submitted_at)
       VALUES ($1, $2, $3, $4, $5, 'BUY', $6, $6, 'MARKET', 'NRML', 'FILLED', 'PAPER-900001', 'vstray', now()) RETURNING order_id`,
      [`${stray.runId}-0`, stray.runId, world.strategyId, world.userId, world.futureId, NIFTY_LOT]);
    await db.pool.query(`INSERT INTO fills (order_id, trade_id, quantity, price_paise, ts) VALUES ($1, 'PAPER-900001-1', $2, 2600000, now())`,
      [order.rows[0]!.order_id, NIFTY_LOT]);
    const rig = await openRig(db.pool, { world, scheduler: newScheduler() });
    try {
      const report = await recoverOms(rig.oms);
      expect(report.alerts).toEqual([expect.objectContaining({
        code: 'unexplained-position', instrumentKey: String(world.futureId), localQuantity: 0, venueQuantity: NIFTY_LOT,
      })]);
      expect(report.pausedStrategies).toEqual([world.strategyId]);
      expect(report.updated).toEqual([]);
      const strategy = await db.pool.query<{ status: string }>('SELECT status FROM strategies WHERE strategy_id = $1', [world.strategyId]);
      expect(strategy.rows[0]?.status).toBe('PAUSED');
      const audit = await db.pool.query<{ action: string }>(
        `SELECT action FROM audit_log WHERE (entity = 'users' AND entity_id = $1) OR (entity = 'strategies' AND entity_id = $2) ORDER BY id`,
        [world.userId, world.strategyId]);
      expect(audit.rows.map((row) => row.action)).toEqual(['oms.alert', 'strategy.paused']);
    } finally {
      await rig.close();
    }
  });
});
