// Every failure of a real broker, on a LIVE day through the Kite stand-in: partial fills, 429s,
// answers lost after Kite accepted the order (a 500, a dropped connection, no answer at all),
// updates delivered twice and out of order, a ticker that stalls or drops, a rejected order.
// Whatever happens, afterwards: every order of the run is final, each order at Kite is exactly
// one of ours (none doubled), each of ours that Kite has carries Kite's fills exactly (none lost),
// and the account's position at Kite is what the stored fills add up to.
import { istEpochMs } from '@vyuha/core';
import type { FeedTick } from '@vyuha/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LiveAccounts } from '../../src/trading/live/live-accounts';
import { KillSwitchWatch } from '../../src/trading/kill-switch-watch';
import type { PaperRun } from '../../src/trading/runner/paper-run';
import { runLiveSession } from '../../src/trading/runner/live-run';
import type { MarketRunOutcome } from '../../src/trading/runner/market-session';
import { freshDatabase, type TestDatabase } from '../helpers/db';
import { algorithm } from '../trading-runner/runner-test-support';
import { createLiveData, marketRun, openLiveWorld, playDay, relianceConfig, RELIANCE_TOKEN, TODAY, type LiveData, type LiveWorld, type TickTaker } from './live-test-support';

let db: TestDatabase;
let data: LiveData;
let killSwitches: KillSwitchWatch;

beforeAll(async () => {
  db = await freshDatabase({ seeded: true });
  data = await createLiveData(db.pool);
  killSwitches = await KillSwitchWatch.open({ pool: db.pool });
}, 180_000);

afterAll(async () => {
  await killSwitches?.close();
  await db?.close();
});

interface Day {
  readonly world: LiveWorld;
  readonly runId: string;
  readonly outcome: MarketRunOutcome | Error;
  readonly logs: readonly string[];
}

/** A LIVE day of an often-trading strategy with `fault(time, world)` called before each tick; the run may end early (then the day goes on without it). */
async function tradeDay(fault: (time: number, world: LiveWorld) => Promise<void>): Promise<Day> {
  const world = await openLiveWorld(db.pool, data);
  const ref = await algorithm(db.pool, world.userId, { buy: 'crossover(ema(close, 2), ema(close, 5))', sell: 'crossunder(ema(close, 2), ema(close, 5))' });
  const runId = await marketRun(world, relianceConfig(ref, { interval: 3 }), 'LIVE');
  const logs: string[] = [];
  const accounts = new LiveAccounts({
    pool: db.pool, keys: [world.key], kite: { apiUrl: world.standIn.apiUrl, tickerUrl: world.standIn.tickerUrl }, scheduler: world.scheduler, killSwitches,
    pollMs: 300, sessionCheckMs: 200, requestTimeoutMs: 1_500, log: (line) => logs.push(line),
  });
  const runs: TickTaker[] = [];
  let ended = false;
  const live = runLiveSession({ pool: db.pool, runId, accounts, scheduler: world.scheduler, killSwitches, onPaperRun: (run) => runs.push(run as PaperRun), log: (line) => logs.push(line) })
    .catch((error: unknown) => error as Error)
    .finally(() => {
      ended = true;
    });
  try {
    await playDay(world, {
      consumers: 1, runs: () => (ended ? [] : runs),
      send: (tick: FeedTick) => world.standIn.tick(RELIANCE_TOKEN, tick.price, { atMs: tick.time }),
      before: (time) => fault(time, world),
    });
    const outcome = await live;
    // Whatever is still on its way at Kite (a lost answer's order) is looked up and recorded before the checks.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    return { world, runId, outcome, logs };
  } finally {
    await accounts.closeAll();
    await world.standIn.close();
  }
}

interface OrderRow {
  readonly client_order_id: string;
  readonly status: string;
  readonly broker_order_id: string | null;
  readonly filled_quantity: number;
  readonly fills: number;
  readonly filled_from_fills: number;
}

/** The invariants of every fault: final, none doubled, none lost, the position Kite's. */
async function expectBrokerConsistent(day: Day): Promise<OrderRow[]> {
  const { world, runId } = day;
  const { rows: orders } = await db.pool.query<OrderRow>(
    `SELECT o.client_order_id, o.status, o.broker_order_id, o.filled_quantity,
            (SELECT count(*)::int FROM fills f WHERE f.order_id = o.order_id) AS fills,
            (SELECT coalesce(sum(f.quantity), 0)::int FROM fills f WHERE f.order_id = o.order_id) AS filled_from_fills
     FROM orders o WHERE o.run_id = $1 ORDER BY o.created_at`, [runId]);
  expect(orders.length).toBeGreaterThan(0);
  for (const order of orders) {
    expect(['FILLED', 'CANCELLED', 'REJECTED'], `${order.client_order_id} is ${order.status}`).toContain(order.status);
    expect(order.filled_from_fills).toBe(order.filled_quantity);
  }
  const atKite = world.standIn.orders(world.clientId);
  const ours = orders.filter((order) => order.broker_order_id !== null);
  // None doubled: every Kite order is exactly one of ours.
  expect(new Set(ours.map((order) => order.broker_order_id)).size).toBe(ours.length);
  expect(atKite.map((order) => order.order_id).sort()).toEqual(ours.map((order) => order.broker_order_id).sort());
  // None lost: ours carry Kite's fills and status.
  for (const order of ours) {
    const kite = atKite.find((candidate) => candidate.order_id === order.broker_order_id)!;
    expect(order.filled_quantity, `${order.client_order_id}`).toBe(kite.filled_quantity);
    expect({ COMPLETE: 'FILLED', CANCELLED: 'CANCELLED', REJECTED: 'REJECTED' }[String(kite.status)]).toBe(order.status);
  }
  const { rows: net } = await db.pool.query<{ net: number }>(
    `SELECT coalesce(sum(CASE WHEN o.side = 'BUY' THEN f.quantity ELSE -f.quantity END), 0)::int AS net FROM fills f JOIN orders o ON o.order_id = f.order_id WHERE o.run_id = $1`, [runId]);
  const kiteNet = (world.standIn.positions(world.clientId).net as Array<{ quantity: number }>).reduce((sum, row) => sum + row.quantity, 0);
  expect(kiteNet).toBe(net[0]!.net);
  return orders;
}

const at = (time: string): number => istEpochMs(TODAY, time);

describe('a LIVE day through Kite with faults', () => {
  it('takes an order filled in three parts as one fill of the kernel\'s, and the rest of the day as usual', async () => {
    const day = await tradeDay(async (time, world) => {
      if (time === at('10:00')) world.standIn.partialFills(3);
    });
    expect(day.outcome).toMatchObject({ sessionEnded: true });
    const orders = await expectBrokerConsistent(day);
    expect(orders.some((order) => order.fills === 3)).toBe(true);
  }, 120_000);

  it('backs off from 429s and sends each order once', async () => {
    const day = await tradeDay(async (time, world) => {
      if (time === at('10:00')) world.standIn.rateLimitNext(3);
    });
    expect(day.outcome).toMatchObject({ sessionEnded: true });
    await expectBrokerConsistent(day);
    expect(day.world.standIn.requests.filter((request) => request.status === 429).length).toBe(3);
    const { rows } = await db.pool.query(`SELECT count(*)::int AS n FROM broker_requests WHERE user_broker_id = $1 AND outcome = 'rate-limited'`, [day.world.userBrokerId]);
    expect(rows).toEqual([{ n: 3 }]);
  }, 120_000);

  for (const mode of ['500', 'drop', 'timeout'] as const) {
    it(`resolves an order whose answer was lost after Kite took it (${mode}) from Kite's order book, never sending it again`, async () => {
      let armed = false;
      const day = await tradeDay(async (time, world) => {
        if (!armed && time >= at('10:00')) {
          world.standIn.failAfterAccept(mode);
          armed = true;
        }
      });
      expect(day.outcome).toMatchObject({ sessionEnded: true });
      await expectBrokerConsistent(day);
      const { rows } = await db.pool.query<{ outcome: string }>(
        `SELECT outcome FROM broker_requests WHERE user_broker_id = $1 AND method = 'POST' AND outcome <> 'ok'`, [day.world.userBrokerId]);
      expect(rows).toEqual([{ outcome: mode === 'timeout' ? 'timeout' : mode === '500' ? 'server' : 'unreachable' }]);
    }, 120_000);
  }

  it('records each fill once when updates come twice and out of order', async () => {
    const day = await tradeDay(async (time, world) => {
      if (time === at('09:15')) {
        world.standIn.duplicateUpdates(true);
        world.standIn.reorderUpdates(true);
      }
      if (time === at('10:30') || time === at('12:30')) world.standIn.partialFills(2);
    });
    expect(day.outcome).toMatchObject({ sessionEnded: true });
    const orders = await expectBrokerConsistent(day);
    expect(orders.filter((order) => order.fills === 2).length).toBeGreaterThan(0);
  }, 120_000);

  it('reconnects a ticker that stalls and one that drops, resubscribing, and trades on', async () => {
    const reconnects: number[] = [];
    const day = await tradeDay(async (time, world) => {
      if (time === at('11:00')) {
        const before = latestConnection(world);
        world.standIn.stallTicker();
        // Silent for longer than the 5 s a live socket may be quiet: the feed gives up on it and reconnects.
        await new Promise((resolve) => setTimeout(resolve, 6_500));
        world.standIn.resumeTicker();
        reconnects.push(await resubscribed(world, before));
      }
      if (time === at('13:00')) {
        const before = latestConnection(world);
        world.standIn.dropTicker();
        reconnects.push(await resubscribed(world, before));
      }
    });
    expect(day.outcome).toMatchObject({ sessionEnded: true });
    await expectBrokerConsistent(day);
    expect(day.logs.join('\n')).not.toContain('failed');
    expect(reconnects).toHaveLength(2);
    // The run traded after both reconnections.
    const { rows } = await db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM orders WHERE run_id = $1 AND status = 'FILLED'`, [day.runId]);
    expect(rows[0]!.n).toBeGreaterThan(4);
  }, 120_000);

  it('ends the run with the broker\'s reason when Kite rejects an order, leaving nothing lost or doubled', async () => {
    let armed = false;
    const day = await tradeDay(async (time, world) => {
      if (!armed && time >= at('10:00')) {
        world.standIn.rejectNext('Insufficient funds. Required margin is 250000.00 but available margin is 1000.00.');
        armed = true;
      }
    });
    expect(day.outcome).toBeInstanceOf(Error);
    expect((day.outcome as Error).message).toContain('rejected');
    expect((day.outcome as Error).message).toContain('Insufficient funds');
    await expectBrokerConsistent(day);
  }, 120_000);
});

/** The newest ticker connection's number (0: none). */
function latestConnection(world: LiveWorld): number {
  return Math.max(0, ...world.standIn.tickerConnections().map((connection) => connection.id));
}

/** Waits until a ticker connection newer than `before` is subscribed to RELIANCE; its number. */
async function resubscribed(world: LiveWorld, before: number): Promise<number> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const connections = world.standIn.tickerConnections();
    const fresh = connections.find((connection) => connection.id > before && connection.subscriptions.some((subscription) => subscription.token === RELIANCE_TOKEN));
    if (fresh !== undefined) return fresh.id;
    if (Date.now() > deadline) throw new Error(`the ticker did not come back subscribed (connections: ${JSON.stringify(connections)})`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
