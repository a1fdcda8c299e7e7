// Subscribers following a published strategy's paper replay (src/trading/follow/): the
// publisher's kernel decides, each subscriber's follower run places scaled copies through its own
// OMS on the same ticks. Four subscribers of one publisher over two weeks of synthetic NIFTY 50
// (traded as its near-month future, lots of 75 or 65):
// - A follows by quantity 2: every fill of A is the publisher's fill (time, side, contract,
//   price) for 2 lots.
// - B follows with an investment of Rs 5 lakh: every entry is the most lots whose margin estimate
//   and charges fit Rs 5 lakh at the entry's price, and each exit closes what B holds.
// - C's own kill switch is on: its OMS refuses every copy, and A, B and the publisher are
//   undisturbed (the publisher's fills are still exactly the backtest's).
// - D is paused from the start: it places no entry, so nothing at all.
// And one who unsubscribes mid-trade: the follower's position is closed at once and its run ends,
// while the publisher keeps its position.
import { isoDate, istDate } from '@vyuha/core';
import { chargeModelOf, futuresLotCost } from '@vyuha/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualScheduler } from '../../src/trading/feeds/scheduler';
import { setKillSwitch } from '../../src/trading/kill-switch';
import { replayPaperRun } from '../../src/trading/runner/replay-run';
import { freshDatabase, type TestDatabase } from '../helpers/db';
import { indexId, storeSyntheticHistory } from '../trading-feeds/feed-test-support';
import { algorithm, backtestFillsOf, createTrader, deployable, paperRunRow, storedFills } from '../trading-runner/runner-test-support';
import type { FillRow } from '../trading-runner/runner-test-support';

let db: TestDatabase;
let nifty: number;

const FROM = isoDate('2025-01-06');
const TO = isoDate('2025-01-17');

beforeAll(async () => {
  db = await freshDatabase({ seeded: true });
  await storeSyntheticHistory(db.pool, { from: FROM, to: TO, instruments: ['NIFTY 50'], seed: 'follow-replay' });
  nifty = await indexId(db.pool, 'NIFTY 50');
}, 120_000);

afterAll(async () => {
  await db.close();
});

async function subscribe(strategyId: string, row: { sizing: 'quantity' | 'investment'; quantity: number; investmentPaise?: number; paused?: boolean }): Promise<{ userId: string; subscriptionId: string }> {
  const userId = await createTrader(db.pool, { tier: 'basic' });
  const { rows } = await db.pool.query<{ subscription_id: string }>(
    `INSERT INTO subscriptions (user_id, strategy_id, quantity, sizing, investment_amt_paise, paused) VALUES ($1, $2, $3, $4, $5, $6) RETURNING subscription_id`,
    [userId, strategyId, row.quantity, row.sizing, row.investmentPaise ?? 0, row.paused ?? false]);
  return { userId, subscriptionId: rows[0]!.subscription_id };
}

async function followerRunOf(subscriptionId: string): Promise<{ run_id: string; user_id: string; status: string } | undefined> {
  const { rows } = await db.pool.query<{ run_id: string; user_id: string; status: string }>(
    `SELECT run_id, user_id, status FROM strategy_runs WHERE params -> 'follows' ->> 'subscriptionId' = $1`, [subscriptionId]);
  return rows[0];
}

const lotOf = async (symbol: string): Promise<number> =>
  (await db.pool.query<{ lot_size: number }>('SELECT lot_size FROM instruments WHERE trading_symbol = $1', [symbol])).rows[0]!.lot_size;

const sameMoments = (fills: readonly FillRow[]) => fills.map(({ instrument, side, price, time }) => ({ instrument, side, price, time }));

describe('subscribers follow a published paper replay with their own sizing', () => {
  it('copies every order in time, side and contract, sized per subscription, each through its own risk checks', async () => {
    const publisher = await createTrader(db.pool);
    const ref = await algorithm(db.pool, publisher, { buy: 'crossover(ema(close, 5), ema(close, 13))', sell: 'crossunder(ema(close, 5), ema(close, 13))' });
    const runId = await paperRunRow(db.pool, {
      userId: publisher, instrumentId: nifty, range: { from: FROM, to: TO },
      config: deployable(ref, { stopLoss: { kind: 'percent', percent: 0.3 }, target: { kind: 'percent', percent: 0.5 }, trailingStop: { kind: 'percent', percent: 0.25 } }),
    });
    const { rows: [strategy] } = await db.pool.query<{ strategy_id: string }>(
      'UPDATE strategies SET published = true WHERE strategy_id = (SELECT strategy_id FROM strategy_runs WHERE run_id = $1) RETURNING strategy_id', [runId]);
    const strategyId = strategy!.strategy_id;
    const a = await subscribe(strategyId, { sizing: 'quantity', quantity: 2 });
    const investmentPaise = 5_00_000_00;
    const b = await subscribe(strategyId, { sizing: 'investment', quantity: 1, investmentPaise });
    const c = await subscribe(strategyId, { sizing: 'quantity', quantity: 1 });
    expect((await setKillSwitch(db.pool, { userId: c.userId, on: true, by: c.userId, reason: 'follow test' })).ok).toBe(true);
    const d = await subscribe(strategyId, { sizing: 'quantity', quantity: 1, paused: true });

    await replayPaperRun({ pool: db.pool, runId });

    // The publisher is undisturbed by its followers: its fills are still the backtest's.
    const published = await storedFills(db.pool, runId);
    expect(published).toEqual((await backtestFillsOf(db.pool, runId)).fills);
    expect(published.length).toBeGreaterThan(10);

    // A: the publisher's fills, 2 lots each.
    const runA = await followerRunOf(a.subscriptionId);
    expect(runA).toMatchObject({ user_id: a.userId, status: 'COMPLETE' });
    const fillsA = await storedFills(db.pool, runA!.run_id);
    expect(sameMoments(fillsA)).toEqual(sameMoments(published));
    for (const fill of fillsA) expect(fill.quantity).toBe(2 * await lotOf(fill.instrument));

    // B: the same moments; each entry the most lots Rs 5 lakh pays margin and charges for, each exit what it holds.
    const runB = await followerRunOf(b.subscriptionId);
    expect(runB).toMatchObject({ user_id: b.userId, status: 'COMPLETE' });
    const fillsB = await storedFills(db.pool, runB!.run_id);
    expect(sameMoments(fillsB)).toEqual(sameMoments(published));
    // The margin estimate does not depend on the charge model (only the lot's charges do; the fill's own are read below).
    const chargeModel = chargeModelOf({ kind: 'none' });
    let held = 0;
    for (const fill of fillsB) {
      const lot = await lotOf(fill.instrument);
      if (held === 0) {
        const lots = fill.quantity / lot;
        expect(Number.isInteger(lots) && lots > 0).toBe(true);
        const { margin } = futuresLotCost({ underlying: 'NIFTY', date: istDate(fill.time), price: fill.price, chargeModel });
        expect(lots * margin + fill.charges).toBeLessThanOrEqual(investmentPaise);
        // One lot more would not fit (its charges taken in proportion: at least what they would be, brokerage being flat).
        expect((lots + 1) * margin + (fill.charges * (lots + 1)) / lots).toBeGreaterThan(investmentPaise);
        held = fill.side === 'buy' ? fill.quantity : -fill.quantity;
      } else {
        expect(fill.quantity).toBe(Math.abs(held));
        expect(fill.side).toBe(held > 0 ? 'sell' : 'buy');
        held = 0;
      }
    }

    // C: every copy refused by its own kill switch; its run holds no order.
    const runC = await followerRunOf(c.subscriptionId);
    expect(runC?.user_id).toBe(c.userId);
    const { rows: ordersC } = await db.pool.query('SELECT 1 FROM orders WHERE run_id = $1', [runC!.run_id]);
    expect(ordersC).toHaveLength(0);
    const { rows: [refusals] } = await db.pool.query<{ n: string }>(
      `SELECT count(*)::text AS n FROM audit_log WHERE entity_id LIKE $1 || '-%' AND action LIKE 'order.%'`, [runC!.run_id]);
    expect(Number(refusals!.n)).toBeGreaterThan(0);

    // D: paused, so no entry and no run.
    expect(await followerRunOf(d.subscriptionId)).toBeUndefined();
  }, 300_000);

  it('closes an unsubscribed follower\'s position and ends its run while the publisher trades on', async () => {
    const publisher = await createTrader(db.pool);
    const ref = await algorithm(db.pool, publisher, { buy: 'close > 0', sell: 'close < 0' });
    // Long from the first bar to the end of the range: the follower holds a position when it leaves.
    const runId = await paperRunRow(db.pool, { userId: publisher, instrumentId: nifty, range: { from: FROM, to: TO }, speed: 600, config: deployable(ref, { type: 'swing' }) });
    await db.pool.query('UPDATE strategies SET published = true WHERE strategy_id = (SELECT strategy_id FROM strategy_runs WHERE run_id = $1)', [runId]);
    const { rows: [strategy] } = await db.pool.query<{ strategy_id: string }>('SELECT strategy_id FROM strategy_runs WHERE run_id = $1', [runId]);
    const e = await subscribe(strategy!.strategy_id, { sizing: 'quantity', quantity: 1 });
    const clock = new ManualScheduler(Date.UTC(2026, 0, 1));
    let ended = false;
    const replay = replayPaperRun({ pool: db.pool, runId, pacing: clock }).finally(() => {
      ended = true;
    });
    const held = async (run: string): Promise<number> => Number((await db.pool.query<{ n: string }>(
      'SELECT coalesce(sum(net_quantity), 0)::text AS n FROM positions WHERE run_id = $1', [run])).rows[0]!.n);
    let follower = await followerRunOf(e.subscriptionId);
    while (!ended && (follower === undefined || await held(follower.run_id) === 0)) {
      await clock.advanceTo(clock.now() + 5_000);
      await new Promise((resolve) => setTimeout(resolve, 20));
      follower = await followerRunOf(e.subscriptionId);
    }
    expect(ended).toBe(false);
    expect(await held(follower!.run_id)).toBeGreaterThan(0);
    await db.pool.query('UPDATE subscriptions SET active = false WHERE subscription_id = $1', [e.subscriptionId]);
    while (!ended && (await followerRunOf(e.subscriptionId))?.status === 'IN PROGRESS') {
      await clock.advanceTo(clock.now() + 5_000);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(ended).toBe(false);
    expect((await followerRunOf(e.subscriptionId))?.status).toBe('COMPLETE: SQUARED OFF');
    expect(await held(follower!.run_id)).toBe(0);
    expect(await held(runId)).toBeGreaterThan(0);
    const { rows: orders } = await db.pool.query<{ side: string; square_off: boolean }>(
      'SELECT side, square_off FROM orders WHERE run_id = $1 ORDER BY created_at', [follower!.run_id]);
    expect(orders.map((order) => [order.side, order.square_off])).toEqual([['BUY', false], ['SELL', true]]);
    while (!ended) {
      await clock.advanceTo(clock.now() + 60_000);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await replay;
  }, 300_000);
});
