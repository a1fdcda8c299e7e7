// The kill switch on a LIVE account: turned on with the square-off while a position is open with
// its stop and target working at Kite, it cancels those orders at Kite, closes the position there
// with a market order, and stops the run with the switch's reason; nothing stays open at Kite.
import { istEpochMs } from '@vyuha/core';
import type { FeedTick } from '@vyuha/engine';
import { describe, expect, it } from 'vitest';
import { setKillSwitch } from '../../src/trading/kill-switch';
import type { PaperRun } from '../../src/trading/runner/paper-run';
import { runLiveSession } from '../../src/trading/runner/live-run';
import { algorithm } from '../trading-runner/runner-test-support';
import { useLiveWorld, marketRun, playDay, relianceConfig, RELIANCE_TOKEN, TODAY, type TickTaker } from './live-test-support';

const suite = useLiveWorld();

describe('the kill switch on a LIVE account', () => {
  it('cancels the working orders at Kite, squares the position off there and stops the run', async () => {
    const { db, world, killSwitches } = suite();
    const ref = await algorithm(db.pool, world.userId, { buy: 'crossover(ema(close, 2), ema(close, 5))', sell: 'close < 0' });
    const runId = await marketRun(world, relianceConfig(ref, { interval: 3, stopLoss: { kind: 'percent', percent: 3 }, target: { kind: 'percent', percent: 5 } }), 'LIVE');
    const accounts = suite().accounts({ pollMs: 300,
    });
    const runs: TickTaker[] = [];
    let ended = false;
    let switchedAt: number | undefined;
    let workingBefore = 0;
    const live = runLiveSession({ pool: db.pool, runId, accounts, scheduler: world.scheduler, killSwitches, onPaperRun: (run) => runs.push(run as PaperRun) })
      .catch((error: unknown) => error as Error)
      .finally(() => {
        ended = true;
      });
    try {
      await playDay(world, {
        consumers: 1, runs: () => (ended ? [] : runs), until: istEpochMs(TODAY, '14:00'),
        send: (tick: FeedTick) => world.standIn.tick(RELIANCE_TOKEN, tick.price, { atMs: tick.time }),
        before: async (time) => {
          if (switchedAt !== undefined || time < istEpochMs(TODAY, '10:00')) return;
          // Once a position is open with its stop and target working at Kite.
          const working = world.standIn.orders(world.clientId).filter((order) => ['OPEN', 'TRIGGER PENDING'].includes(String(order.status)));
          if (working.length < 2) return;
          workingBefore = working.length;
          switchedAt = time;
          const on = await setKillSwitch(db.pool, { userId: world.userId, on: true, squareOff: true, by: world.userId, reason: 'test: flatten the account' });
          expect(on.ok).toBe(true);
          const deadline = Date.now() + 10_000;
          // The switch's enforcement (within a second of the change) cancels at Kite; the run stops at its next tick.
          while (Date.now() < deadline && world.standIn.orders(world.clientId).some((order) => ['OPEN', 'TRIGGER PENDING'].includes(String(order.status)))) {
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
        },
      });
    } finally {
      await accounts.closeAll();
    }
    expect(switchedAt).toBeDefined();
    expect(workingBefore).toBe(2);
    const outcome = await live;
    expect(outcome).toBeInstanceOf(Error);
    expect((outcome as Error).message).toContain('kill switch');
    const atKite = world.standIn.orders(world.clientId);
    expect(atKite.filter((order) => ['OPEN', 'TRIGGER PENDING'].includes(String(order.status)))).toEqual([]);
    expect(atKite.filter((order) => order.status === 'CANCELLED')).toHaveLength(2);
    const kiteNet = (world.standIn.positions(world.clientId).net as Array<{ quantity: number }>).reduce((sum, row) => sum + row.quantity, 0);
    expect(kiteNet).toBe(0);
    const { rows } = await db.pool.query<{ status: string; n: number }>(`SELECT status, count(*)::int AS n FROM orders WHERE run_id = $1 AND NOT status IN ('FILLED', 'CANCELLED') GROUP BY status`, [runId]);
    expect(rows).toEqual([]);
    const { rows: net } = await db.pool.query<{ net: number }>(
      `SELECT coalesce(sum(CASE WHEN o.side = 'BUY' THEN f.quantity ELSE -f.quantity END), 0)::int AS net FROM fills f JOIN orders o ON o.order_id = f.order_id WHERE o.user_id = $1`, [world.userId]);
    expect(net[0]!.net).toBe(0);
  }, 300_000);
});
