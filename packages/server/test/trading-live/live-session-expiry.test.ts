// The session-expiry path of a LIVE run: Kite stops accepting the day's token at 11:00 (a logout
// elsewhere), the run finds out at its next request, the session is marked ended, the user is
// alerted with the login link, entries pause, nothing is pushed at the dead session again while
// the order book is still read; a new login a few seconds later is found, the account reconciled
// with Kite, the user told, and the strategy trades on. No order is lost or doubled: what the
// dead session refused was never sent and goes out again as a new order, and the account at Kite
// holds exactly what the stored fills add up to.
import type { FeedTick } from '@vyuha/engine';
import { istEpochMs } from '@vyuha/core';
import { describe, expect, it } from 'vitest';
import type { PaperRun } from '../../src/trading/runner/paper-run';
import { runLiveSession } from '../../src/trading/runner/live-run';
import { algorithm } from '../trading-runner/runner-test-support';
import { useLiveWorld, logIn, marketRun, playDay, relianceConfig, RELIANCE_TOKEN, TODAY, type TickTaker } from './live-test-support';

const suite = useLiveWorld();

describe('a LIVE run whose Kite session dies mid-day', () => {
  it('pauses entries, alerts, keeps reading the order book, and after a new login resumes reconciled with nothing lost or doubled', async () => {
    const { db, world, killSwitches } = suite();
    const ref = await algorithm(db.pool, world.userId, { buy: 'crossover(ema(close, 2), ema(close, 5))', sell: 'crossunder(ema(close, 2), ema(close, 5))' });
    const runId = await marketRun(world, relianceConfig(ref, { interval: 3 }), 'LIVE');
    const logs: string[] = [];
    const accounts = suite().accounts({ pollMs: 300, sessionCheckMs: 200, log: (line) => logs.push(line),
    });
    const runs: TickTaker[] = [];
    const expiresAt = istEpochMs(TODAY, '11:00');
    let loggedInAgain: Promise<number> | undefined;
    let requestsAtExpiry = 0;
    const live = runLiveSession({ pool: db.pool, runId, accounts, scheduler: world.scheduler, killSwitches, onPaperRun: (run) => runs.push(run as PaperRun), log: (line) => logs.push(line) });
    try {
      await playDay(world, {
        consumers: 1, runs: () => runs,
        send: (tick: FeedTick) => world.standIn.tick(RELIANCE_TOKEN, tick.price, { atMs: tick.time }),
        before: async (time) => {
          if (time !== expiresAt) return;
          world.standIn.expireToken(world.clientId);
          requestsAtExpiry = world.standIn.requests.length;
          // The user logs in again a few seconds later, whatever the run is doing.
          loggedInAgain = new Promise((resolve, reject) => setTimeout(() => logIn(world).then(() => resolve(world.scheduler.now()), reject), 3_000));
          // Long enough for the poll to find the dead session before the next ticks.
          await new Promise((resolve) => setTimeout(resolve, 1_000));
        },
      });
      expect(await live).toMatchObject({ sessionEnded: true, stopped: false, released: false });
    } catch (error) {
      // What the account and the run said on the way, so that a failure says where it stopped.
      throw new Error(`${(error as Error).message}\n${logs.join('\n')}`, { cause: error });
    } finally {
      await accounts.closeAll();
    }
    expect(loggedInAgain).toBeDefined();
    const loginAt = await loggedInAgain as number;
    expect(loginAt).toBeGreaterThan(expiresAt);

    // Alerted with the login link, then told it resumed after reconciling.
    const { rows: alerts } = await db.pool.query<{ kind: string; action_path: string | null; message: string }>(
      'SELECT kind, action_path, message FROM trading_alerts WHERE user_id = $1 ORDER BY created_at', [world.userId]);
    expect(alerts.map((alert) => alert.kind)).toEqual(['broker-session-lost', 'reconciled']);
    expect(alerts[0]).toMatchObject({ action_path: `/api/broker_login/zerodha/${world.clientId}` });
    expect(alerts[0]?.message).toMatch(/^Log in to Zerodha for today: /);
    expect(logs.join('\n')).toContain('session lost');

    // After the expiry: the order book kept being read (refused), and at most one order met the dead session.
    const afterExpiry = world.standIn.requests.slice(requestsAtExpiry);
    const refusedReads = afterExpiry.filter((request) => request.method === 'GET' && request.status === 403);
    const refusedOrders = afterExpiry.filter((request) => request.method === 'POST' && request.path === '/orders/regular' && request.status === 403);
    expect(refusedReads.length).toBeGreaterThan(1);
    expect(refusedOrders.length).toBeLessThanOrEqual(1);

    // Entries paused from the expiry to the new login (no order reached Kite in between), and the strategy traded after it.
    const placedAt = world.standIn.orders(world.clientId).map((order) => Date.parse(`${String(order.order_timestamp).replace(' ', 'T')}+05:30`));
    // Kite's timestamps are whole seconds.
    const loginSecond = Math.floor(loginAt / 1_000) * 1_000;
    expect(placedAt.filter((at) => at > expiresAt && at < loginSecond)).toEqual([]);
    expect(placedAt.filter((at) => at >= loginSecond).length).toBeGreaterThan(0);
    expect(placedAt.filter((at) => at < expiresAt).length).toBeGreaterThan(0);
    const { rows: orders } = await db.pool.query<{ status: string; status_message: string | null; side: string; quantity: number; broker_order_id: string | null; filled_quantity: number }>(
      `SELECT status, status_message, side, quantity, broker_order_id, filled_quantity FROM orders WHERE run_id = $1 ORDER BY created_at`, [runId]);
    const filled = orders.filter((order) => order.status === "FILLED");
    expect(filled.length).toBeGreaterThan(4);
    // Nothing lost: every order is final; one refused by the dead session was never sent (no broker id) and went out again.
    for (const order of orders) expect(['FILLED', 'REJECTED']).toContain(order.status);
    for (const order of orders.filter((candidate) => candidate.status === 'REJECTED')) {
      expect(order).toMatchObject({ status_message: 'Kite session expired: not sent', broker_order_id: null, filled_quantity: 0 });
    }
    // Nothing doubled: each broker order is one of ours, once, and Kite holds what our fills add up to.
    const atKite = world.standIn.orders(world.clientId);
    expect(atKite.map((order) => order.order_id).sort()).toEqual(filled.map((order) => order.broker_order_id).sort());
    const { rows: net } = await db.pool.query<{ net: number }>(
      `SELECT coalesce(sum(CASE WHEN o.side = 'BUY' THEN f.quantity ELSE -f.quantity END), 0)::int AS net FROM fills f JOIN orders o ON o.order_id = f.order_id WHERE o.run_id = $1`, [runId]);
    const kiteNet = (world.standIn.positions(world.clientId).net as Array<{ quantity: number }>).reduce((sum, row) => sum + row.quantity, 0);
    expect(kiteNet).toBe(net[0]!.net);
    const session = await db.pool.query('SELECT invalidated_at FROM broker_sessions WHERE user_broker_id = $1', [world.userBrokerId]);
    expect(session.rows).toEqual([{ invalidated_at: null }]);
  }, 300_000);
});
