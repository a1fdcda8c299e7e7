// Subscribers following a published strategy LIVE (src/trading/follow/follower-desk.ts). LIVE
// following happens only behind a publisher whose signals come from the real market: its own
// LIVE run (live-run.ts). One replayed day, its ticks sent to the Kite stand-in (the LIVE
// publisher's real market) and pushed to a PAPER publisher on the market (the simulated market's
// place), and
// - behind the LIVE publisher (the world's trader, on the world's Zerodha account): C follows LIVE
//   through a Zerodha account of C's own, 3 shares a trade: each copy reaches Kite under C's
//   client id, after the publisher's order, its fills the broker's (broker order ids, Kite's
//   prices, C's account flat at Kite after the day's square-off), none under the publisher's
//   client id;
//   D follows on PAPER, 2 shares a trade, filled on D's paper venue at the real ticks' prices the
//   publisher's broker filled at; B follows LIVE through an account without a session today, and
//   the publisher follows its own strategy LIVE through the account its run trades: both are told
//   why in a 'follow-not-live' alert, with no follower run and no order anywhere;
// - behind the PAPER publisher on the market: C's LIVE subscription sends nothing to the broker
//   and trades nothing on paper; C is told, in words, that the simulated market's signals never
//   go to a broker.
// And a publisher's historical replay never sends a LIVE order: its LIVE subscriber follows on paper.
import type { FeedTick } from '@vyuha/engine';
import { serializeDeployableConfig } from '@vyuha/engine';
import { istEpochMs } from '@vyuha/core';
import { describe, expect, it } from 'vitest';
import { encryptBrokerSecret } from '../../src/brokers/broker-secrets';
import { subscribeStrategy } from '../../src/trading/follow/subscription-writes';
import { storeVerifiedSession } from '../../src/brokers/broker-ownership';
import { exchangeKiteRequestToken } from '../../src/brokers/kite/kite-http';
import { kiteSessionExpiry, kiteSessionForm } from '../../src/brokers/kite/kite-login';
import { runLiveSession } from '../../src/trading/runner/live-run';
import { runMarketSession } from '../../src/trading/runner/market-run';
import type { PaperRun } from '../../src/trading/runner/paper-run';
import { replayPaperRun } from '../../src/trading/runner/replay-run';
import { algorithm, createTrader, storedFills, strategyOf } from '../trading-runner/runner-test-support';
import { KITE_APP, marketRun, playDay, pushedMarket, relianceConfig, RELIANCE_TOKEN, TODAY, useLiveWorld, type TickTaker } from '../trading-live/live-test-support';

const suite = useLiveWorld();

/** A published strategy of a new publisher on RELIANCE, and its PAPER run: on the market today, or replaying `replay`. */
async function publishedRun(replay: { from: string; to: string } | null): Promise<{ strategyId: string; runId: string }> {
  const { pool } = suite().db;
  const { world } = suite();
  const publisher = await createTrader(pool);
  const ref = await algorithm(pool, publisher, { buy: 'crossover(ema(close, 3), ema(close, 8))', sell: 'crossunder(ema(close, 3), ema(close, 8))' });
  const config = relianceConfig(ref);
  const strategyId = await strategyOf(pool, { userId: publisher, instrumentId: world.reliance, config });
  await pool.query(`UPDATE strategies SET algo_id = 'ALGO-FOLLOW-TEST', published = true WHERE strategy_id = $1`, [strategyId]);
  const params = {
    mode: 'PAPER', config: serializeDeployableConfig(config), instrumentId: world.reliance, intervalMinutes: config.interval,
    replay: replay === null ? null : { ...replay, speed: 0 },
  };
  const { rows } = await pool.query<{ run_id: string }>(
    `INSERT INTO strategy_runs (strategy_id, user_id, kind, params, started_at) VALUES ($1, $2, 'PAPER', $3, timestamptz 'epoch' + $4 * interval '1 millisecond') RETURNING run_id`,
    [strategyId, publisher, JSON.stringify(params), istEpochMs(TODAY, '08:00')]);
  return { strategyId, runId: rows[0]!.run_id };
}

async function subscribeLive(strategyId: string, userId: string, userBrokerId: string): Promise<string> {
  const written = await subscribeStrategy(suite().db.pool, { userId, args: { strategy_id: strategyId, sizing: 'quantity', quantity: 3, mode: 'LIVE', user_broker_id: userBrokerId } });
  if (!written.ok) throw new Error(written.error.message);
  return written.value.subscriptionId;
}

async function followerRunsOf(subscriptionId: string): Promise<Array<{ run_id: string; kind: string; status: string; user_broker_id: string | null }>> {
  const { rows } = await suite().db.pool.query<{ run_id: string; kind: string; status: string; user_broker_id: string | null }>(
    `SELECT run_id, kind, status, params ->> 'userBrokerId' AS user_broker_id FROM strategy_runs WHERE params -> 'follows' ->> 'subscriptionId' = $1`, [subscriptionId]);
  return rows;
}

async function followAlerts(userId: string, strategyId: string): Promise<string[]> {
  const { rows } = await suite().db.pool.query<{ message: string }>(
    `SELECT message FROM trading_alerts WHERE user_id = $1 AND strategy_id = $2 AND kind = 'follow-not-live'`, [userId, strategyId]);
  return rows.map((row) => row.message);
}

/** A second Zerodha app at the stand-in: one api key per account there. */
const FOLLOWER_APP = { apiKey: 'vyuhafollowtest', apiSecret: 'follow-test-secret-7c1d', clientId: 'ZF7001' };

/** A new trader with a Zerodha account of their own at the stand-in, logged in for today. */
async function zerodhaTrader(): Promise<{ userId: string; userBrokerId: string; clientId: string }> {
  const { db, world } = suite();
  const userId = await createTrader(db.pool);
  world.standIn.addAccount({ apiKey: FOLLOWER_APP.apiKey, apiSecret: FOLLOWER_APP.apiSecret, userId: FOLLOWER_APP.clientId });
  const secret = encryptBrokerSecret(world.key, FOLLOWER_APP.apiSecret);
  const { rows: [account] } = await db.pool.query<{ user_broker_id: string }>(
    `INSERT INTO user_brokers (user_id, broker, client_id, api_key, api_secret_ciphertext, api_secret_nonce, api_secret_key_id)
     VALUES ($1, 'zerodha', $2, $3, $4, $5, $6) RETURNING user_broker_id`,
    [userId, FOLLOWER_APP.clientId, FOLLOWER_APP.apiKey, secret.ciphertext, secret.nonce, secret.keyId]);
  const form = kiteSessionForm({ apiKey: FOLLOWER_APP.apiKey, requestToken: world.standIn.issueRequestToken(FOLLOWER_APP.apiKey), apiSecret: FOLLOWER_APP.apiSecret });
  const session = await exchangeKiteRequestToken({ baseUrl: world.standIn.apiUrl, form });
  if (!session.ok) throw new Error(`stand-in login failed: ${session.error.reason}`);
  await storeVerifiedSession(db.pool, {
    userBrokerId: account!.user_broker_id, broker: 'zerodha', clientId: FOLLOWER_APP.clientId, brokerUserId: session.value.userId,
    token: encryptBrokerSecret(world.key, session.value.accessToken), expiresAt: new Date(kiteSessionExpiry(world.scheduler.now())), actorUserId: userId, ip: null,
  });
  return { userId, userBrokerId: account!.user_broker_id, clientId: FOLLOWER_APP.clientId };
}

/** B: a trader with a Zerodha account never logged in today. */
async function traderWithoutSession(): Promise<{ userId: string; userBrokerId: string }> {
  const { db, world } = suite();
  const userId = await createTrader(db.pool);
  const secret = encryptBrokerSecret(world.key, KITE_APP.apiSecret);
  const { rows: [account] } = await db.pool.query<{ user_broker_id: string }>(
    `INSERT INTO user_brokers (user_id, broker, client_id, api_key, api_secret_ciphertext, api_secret_nonce, api_secret_key_id)
     VALUES ($1, 'zerodha', 'ZB9001', $2, $3, $4, $5) RETURNING user_broker_id`,
    [userId, KITE_APP.apiKey, secret.ciphertext, secret.nonce, secret.keyId]);
  return { userId, userBrokerId: account!.user_broker_id };
}

interface PlayedDay {
  /** C: LIVE through its own account; B: without a session. */
  readonly c: { userId: string; userBrokerId: string; clientId: string };
  readonly b: string;
  /** The LIVE publisher (the world's trader on the world's account) and its subscriptions: C LIVE, D PAPER, B LIVE, its own LIVE. */
  readonly live: { strategyId: string; runId: string; c: string; d: string; b: string; own: string };
  /** The PAPER publisher on the market and C's LIVE subscription to it. */
  readonly paper: { strategyId: string; runId: string; c: string };
}

let day: Promise<PlayedDay> | undefined;

/** The day both publishers trade, played once for the tests that look at it. */
function playedDay(): Promise<PlayedDay> {
  day ??= playDayOfBothPublishers();
  return day;
}

async function playDayOfBothPublishers(): Promise<PlayedDay> {
  const { db, world, killSwitches } = suite();
  const ref = await algorithm(db.pool, world.userId, { buy: 'crossover(ema(close, 3), ema(close, 8))', sell: 'crossunder(ema(close, 3), ema(close, 8))' });
  const liveRunId = await marketRun(world, relianceConfig(ref), 'LIVE');
  const { rows: [liveRun] } = await db.pool.query<{ strategy_id: string }>('SELECT strategy_id FROM strategy_runs WHERE run_id = $1', [liveRunId]);
  const liveStrategyId = liveRun!.strategy_id;
  await db.pool.query('UPDATE strategies SET published = true WHERE strategy_id = $1', [liveStrategyId]);
  const paperPublisher = await publishedRun(null);

  const c = await zerodhaTrader();
  const d = await createTrader(db.pool);
  const b = await traderWithoutSession();
  const paperWritten = await subscribeStrategy(db.pool, { userId: d, args: { strategy_id: liveStrategyId, sizing: 'quantity', quantity: 2 } });
  if (!paperWritten.ok) throw new Error(paperWritten.error.message);
  const live = {
    strategyId: liveStrategyId, runId: liveRunId,
    c: await subscribeLive(liveStrategyId, c.userId, c.userBrokerId),
    d: paperWritten.value.subscriptionId,
    b: await subscribeLive(liveStrategyId, b.userId, b.userBrokerId),
    own: await subscribeLive(liveStrategyId, world.userId, world.userBrokerId),
  };
  const paper = { ...paperPublisher, c: await subscribeLive(paperPublisher.strategyId, c.userId, c.userBrokerId) };

  // Fills come through the ticker's order updates; the books are read every 2 minutes of the day (every 300 ms, each tick woke
  // both accounts' reads and the day took ten times as long).
  const accounts = suite().accounts({ pollMs: 120_000 });
  const market = pushedMarket(world.reliance);
  const runs: TickTaker[] = [];
  const onPaperRun = (run: unknown): void => {
    runs.push(run as PaperRun);
  };
  const livePublisher = runLiveSession({ pool: db.pool, runId: liveRunId, accounts, scheduler: world.scheduler, killSwitches, onPaperRun });
  const paperPublisherRun = runMarketSession({ pool: db.pool, runId: paper.runId, market, scheduler: world.scheduler, killSwitches, onPaperRun });
  try {
    await playDay(world, {
      consumers: 2, runs: () => runs,
      send: (tick: FeedTick) => {
        world.standIn.tick(RELIANCE_TOKEN, tick.price, { atMs: tick.time });
        market.push(tick);
      },
    });
    const [liveOutcome, paperOutcome] = await Promise.all([livePublisher, paperPublisherRun]);
    expect(liveOutcome).toMatchObject({ sessionEnded: true, stopped: false, released: false });
    expect(paperOutcome).toMatchObject({ sessionEnded: true, stopped: false, released: false });
  } finally {
    await accounts.closeAll();
  }
  return { c, b: b.userId, live, paper };
}

const moments = (fills: ReadonlyArray<{ side: string; time: number; price: number }>) => fills.map(({ side, time, price }) => ({ side, time, price }));

describe('a subscriber following a published strategy LIVE', () => {
  it('subscribes LIVE only with an active Zerodha account of theirs and a tier that trades LIVE', async () => {
    const { db, world } = suite();
    const { strategyId } = await publishedRun(null);
    const demo = await createTrader(db.pool, { tier: 'demo' });
    const refused = await subscribeStrategy(db.pool, { userId: demo, args: { strategy_id: strategyId, sizing: 'quantity', quantity: 1, mode: 'LIVE' } });
    expect(refused).toMatchObject({ ok: false, error: { field: 'mode', message: expect.stringMatching(/PAPER only/) } });
    const noAccount = await subscribeStrategy(db.pool, { userId: world.userId, args: { strategy_id: strategyId, sizing: 'quantity', quantity: 1, mode: 'LIVE' } });
    expect(noAccount).toMatchObject({ ok: false, error: { field: 'user_broker_id' } });
    const badMode = await subscribeStrategy(db.pool, { userId: world.userId, args: { strategy_id: strategyId, sizing: 'quantity', quantity: 1, mode: 'REAL' } });
    expect(badMode).toMatchObject({ ok: false, error: { field: 'mode', message: 'mode must be PAPER or LIVE, got "REAL"' } });
    const { rows } = await db.pool.query('SELECT 1 FROM subscriptions WHERE strategy_id = $1', [strategyId]);
    expect(rows).toHaveLength(0);
  });

  it('a historical replay never sends a LIVE order: its LIVE subscriber follows on paper', async () => {
    const { db, world } = suite();
    const { strategyId, runId } = await publishedRun({ from: '2026-11-16', to: '2026-11-20' });
    const subscriptionId = await subscribeLive(strategyId, world.userId, world.userBrokerId);
    const sentBefore = world.standIn.orders(world.clientId).length;

    await replayPaperRun({ pool: db.pool, runId });

    const published = await storedFills(db.pool, runId);
    expect(published.length).toBeGreaterThan(2);
    const followers = await followerRunsOf(subscriptionId);
    expect(followers).toHaveLength(1);
    expect(followers[0]).toMatchObject({ kind: 'PAPER', status: 'COMPLETE', user_broker_id: null });
    const fills = await storedFills(db.pool, followers[0]!.run_id);
    expect(moments(fills)).toEqual(moments(published));
    for (const fill of fills) expect(fill.quantity).toBe(3);
    expect(world.standIn.orders(world.clientId)).toHaveLength(sentBefore);
    const { rows: brokerOrders } = await db.pool.query('SELECT 1 FROM orders WHERE run_id = $1 AND user_broker_id IS NOT NULL', [followers[0]!.run_id]);
    expect(brokerOrders).toHaveLength(0);
    // Ends the subscription so the market test's publisher is the only one this account follows.
    await db.pool.query('UPDATE subscriptions SET active = false WHERE subscription_id = $1', [subscriptionId]);
  }, 300_000);

  it("behind a LIVE publisher: a LIVE subscriber's copies go to its own broker account with its sizing, a PAPER one fills at the real ticks; the publisher's own account and one without a session are refused", async () => {
    const { db, world } = suite();
    const day = await playedDay();
    const published = await storedFills(db.pool, day.live.runId);
    expect(published.length).toBeGreaterThan(4);
    expect(published.every((fill) => fill.quantity > 3)).toBe(true);

    // C: a LIVE follower run through C's own account; every copy went to Kite under C's client id, 3 shares, filled there.
    const [follower, ...others] = await followerRunsOf(day.live.c);
    expect(others).toHaveLength(0);
    expect(follower).toMatchObject({ kind: 'LIVE', status: 'COMPLETE', user_broker_id: day.c.userBrokerId });
    // The broker's fills, side by side with the publisher's: C's copies go out once the publisher's order has
    // the broker's id (the first waited for C's account to open), and each filled at the price Kite filled it at.
    const fills = await storedFills(db.pool, follower!.run_id);
    expect(fills.map(({ side }) => side)).toEqual(published.map(({ side }) => side));
    fills.forEach((fill, index) => {
      expect(fill.quantity).toBe(3);
      expect(fill.time).toBeGreaterThanOrEqual(published[index]!.time);
    });
    const { rows: sent } = await db.pool.query<{ broker_order_id: string | null; quantity: number; status: string; user_broker_id: string; average_price_paise: number }>(
      'SELECT broker_order_id, quantity, status, user_broker_id, average_price_paise FROM orders WHERE run_id = $1 ORDER BY created_at', [follower!.run_id]);
    expect(sent).toHaveLength(published.length);
    const atKite = world.standIn.orders(day.c.clientId);
    expect(atKite).toHaveLength(sent.length);
    for (const order of sent) {
      expect(order).toMatchObject({ quantity: 3, status: 'FILLED', user_broker_id: day.c.userBrokerId });
      expect(order.broker_order_id).toMatch(/^\d{19}$/);
      const kite = atKite.find((candidate) => candidate.order_id === order.broker_order_id);
      expect(kite).toMatchObject({ status: 'COMPLETE', quantity: 3, filled_quantity: 3 });
      expect(Math.round(Number(kite!.average_price) * 100)).toBe(Number(order.average_price_paise));
    }
    expect(fills.map(({ price }) => price).sort()).toEqual(sent.map((order) => Number(order.average_price_paise)).sort());
    const cNet = (world.standIn.positions(day.c.clientId).net as Array<{ quantity: number }>).filter((row) => row.quantity !== 0);
    expect(cNet).toEqual([]);
    // The publisher's client id holds the publisher's orders only.
    const { rows: publisherOrders } = await db.pool.query<{ broker_order_id: string }>('SELECT broker_order_id FROM orders WHERE run_id = $1', [day.live.runId]);
    expect(world.standIn.orders(world.clientId).map((order) => order.order_id).sort()).toEqual(publisherOrders.map((order) => order.broker_order_id).sort());
    const { rows: onPublisherAccount } = await db.pool.query('SELECT 1 FROM orders WHERE user_broker_id = $1 AND run_id <> $2', [world.userBrokerId, day.live.runId]);
    expect(onPublisherAccount).toHaveLength(0);

    // D: a PAPER follower run on the real ticks, 2 shares, at the prices the publisher's broker filled at.
    const [paper, ...morePaper] = await followerRunsOf(day.live.d);
    expect(morePaper).toHaveLength(0);
    expect(paper).toMatchObject({ kind: 'PAPER', status: 'COMPLETE', user_broker_id: null });
    const paperFills = await storedFills(db.pool, paper!.run_id);
    expect(paperFills.map(({ side, price }) => ({ side, price }))).toEqual(published.map(({ side, price }) => ({ side, price })));
    paperFills.forEach((fill, index) => {
      expect(fill.quantity).toBe(2);
      expect(Math.abs(fill.time - published[index]!.time)).toBeLessThan(15_000);
    });
    const { rows: paperAtBroker } = await db.pool.query('SELECT 1 FROM orders WHERE run_id = $1 AND (user_broker_id IS NOT NULL OR broker_order_id NOT LIKE $2)', [paper!.run_id, 'PAPER-%']);
    expect(paperAtBroker).toHaveLength(0);

    // B (no session today) and the publisher itself (through its run's own account): told why, nothing traded anywhere.
    for (const refused of [{ subscriptionId: day.live.b, userId: day.b, why: /could not be opened: .*log in/i }, { subscriptionId: day.live.own, userId: world.userId, why: /is the one the published strategy's LIVE run trades through/ }]) {
      expect(await followerRunsOf(refused.subscriptionId)).toEqual([]);
      const alerts = await followAlerts(refused.userId, day.live.strategyId);
      expect(alerts).toHaveLength(1);
      expect(alerts[0]).toMatch(refused.why);
      expect(alerts[0]).toContain('nothing was traded on paper');
    }
    const { rows: bOrders } = await db.pool.query('SELECT 1 FROM orders o JOIN strategy_runs r ON r.run_id = o.run_id WHERE r.user_id = $1', [day.b]);
    expect(bOrders).toHaveLength(0);
    expect(await followAlerts(day.c.userId, day.live.strategyId)).toEqual([]);
  }, 300_000);

  it('behind a PAPER publisher on the market: a LIVE subscriber sends nothing to its broker, trades nothing on paper, and is told why', async () => {
    const { db, world } = suite();
    const day = await playedDay();
    const published = await storedFills(db.pool, day.paper.runId);
    expect(published.length).toBeGreaterThan(4);
    expect(await followerRunsOf(day.paper.c)).toEqual([]);
    // C's orders are the LIVE publisher's copies only: every order Kite has of C's is one of that follower run's.
    const [liveFollower] = await followerRunsOf(day.live.c);
    const { rows: cOrders } = await db.pool.query<{ run_id: string; broker_order_id: string }>(
      'SELECT o.run_id, o.broker_order_id FROM orders o JOIN strategy_runs r ON r.run_id = o.run_id WHERE r.user_id = $1', [day.c.userId]);
    expect(cOrders.every((order) => order.run_id === liveFollower!.run_id)).toBe(true);
    expect(world.standIn.orders(day.c.clientId).map((order) => order.order_id).sort()).toEqual(cOrders.map((order) => order.broker_order_id).sort());
    const alerts = await followAlerts(day.c.userId, day.paper.strategyId);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toContain('did not follow the publisher');
    expect(alerts[0]).toContain('the published strategy trades the simulated market (synthetic prices), whose signals never go to a broker');
    expect(alerts[0]).toContain('LIVE following needs the publisher to run the strategy LIVE');
    expect(alerts[0]).toContain('Nothing was sent to the broker and nothing was traded on paper in its place.');
  }, 300_000);
});

