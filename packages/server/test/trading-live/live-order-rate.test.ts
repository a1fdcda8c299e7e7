// The exchange's 10-orders-a-second rule on a LIVE account: a strategy that decides 50 orders in
// one instant sends 10 at once and queues the other 40 visibly (PENDING_SUBMIT with the time each
// is expected to leave and the queue's message); as the clock moves, 10 leave each second, Kite
// (the stand-in) never sees more than 10 in any second, and all 50 fill, each exactly once.
import { istEpochMs } from '@vyuha/core';
import { describe, expect, it } from 'vitest';
import { QUEUED_MESSAGE } from '../../src/trading/oms/oms-types';
import { algorithm } from '../trading-runner/runner-test-support';
import { useLiveWorld, marketRun, relianceConfig, RELIANCE_TOKEN, TODAY } from './live-test-support';

const suite = useLiveWorld();

describe('a LIVE account asked for 50 orders in one second', () => {
  it('sends at most 10 a second, queues the rest visibly, and loses none', async () => {
    const { db, world } = suite();
    const ref = await algorithm(db.pool, world.userId, { buy: 'close > 0', sell: 'close < 0' });
    const runId = await marketRun(world, relianceConfig(ref), 'LIVE');
    const { rows } = await db.pool.query<{ strategy_id: string }>('SELECT strategy_id FROM strategy_runs WHERE run_id = $1', [runId]);
    await world.scheduler.advanceTo(istEpochMs(TODAY, '10:00'));
    world.standIn.tick(RELIANCE_TOKEN, 120_000, { atMs: world.scheduler.now() });
    const accounts = suite().accounts({ pollMs: 500,
    });
    const acquired = await accounts.acquire(world.userBrokerId);
    if (!acquired.ok) throw new Error(acquired.error.message);
    const { account } = acquired.value;
    try {
      account.attach({
        runId, userId: world.userId, strategyId: rows[0]!.strategy_id, userBrokerId: world.userBrokerId, algoId: 'ALGO-LIVE-TEST',
        charges: { kind: 'schedule', exchange: 'NSE', instrument: 'equity-intraday' },
      });
      await account.reconcile();
      const placed = await Promise.all(Array.from({ length: 50 }, (_, decision) => account.oms.placeOrder({
        runId, decision, instrumentId: world.reliance, side: decision % 2 === 0 ? 'BUY' : 'SELL', quantity: 1, orderType: 'MARKET', product: 'MIS',
      })));
      expect(placed.every((answer) => answer.ok)).toBe(true);
      // Visible while they wait: 40 rows written, not sent, each with its expected departure and the reason.
      const { rows: waiting } = await db.pool.query<{ n: number; message: string }>(
        `SELECT count(*)::int AS n, min(status_message) AS message FROM orders WHERE run_id = $1 AND status = 'PENDING_SUBMIT' AND queued_until IS NOT NULL`, [runId]);
      expect(waiting).toEqual([{ n: 40, message: QUEUED_MESSAGE }]);
      for (let second = 1; second <= 6; second += 1) {
        await world.scheduler.advanceTo(istEpochMs(TODAY, '10:00') + second * 1_000);
        await account.oms.settled();
      }
      const settle = Date.now() + 20_000;
      let statuses: Array<{ status: string; n: number }> = [];
      while (Date.now() < settle) {
        await account.oms.settled();
        ({ rows: statuses } = await db.pool.query<{ status: string; n: number }>(`SELECT status, count(*)::int AS n FROM orders WHERE run_id = $1 GROUP BY status`, [runId]));
        if (statuses.length === 1 && statuses[0]?.status === 'FILLED') break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(statuses).toEqual([{ status: 'FILLED', n: 50 }]);
    } finally {
      await acquired.value.release();
      await accounts.closeAll();
    }
    const sends = world.standIn.requests.filter((request) => request.method === 'POST' && request.path === '/orders/regular').map((request) => request.atMs).sort((a, b) => a - b);
    expect(sends).toHaveLength(50);
    for (const at of sends) expect(sends.filter((other) => other >= at && other < at + 1_000).length).toBeLessThanOrEqual(10);
    expect(new Set(sends.map((at) => Math.floor(at / 1_000))).size).toBe(5);
    // Each of the 50 exactly once at Kite, each ours.
    const atKite = world.standIn.orders(world.clientId);
    expect(atKite).toHaveLength(50);
    const { rows: ours } = await db.pool.query<{ broker_order_id: string }>('SELECT broker_order_id FROM orders WHERE run_id = $1', [runId]);
    expect(new Set(ours.map((row) => row.broker_order_id))).toEqual(new Set(atKite.map((order) => order.order_id)));
  }, 120_000);
});
