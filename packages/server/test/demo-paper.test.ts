// The demo world's paper strategies: two per demo user who may deploy, each a real deployment:
// one replaying the last 90 sessions of synthetic history through the paper runtime, run by the
// strategy runners to the end, so the user has paper orders, fills and daily P&L (never a
// backtest's) to see; and one ACTIVE on the simulated market, leased by a runner that waits for
// the next session; deployed once, whoever calls again.
import { isoDate } from '@vyuha/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { istEpochMs } from '@vyuha/core';
import { DEMO_MARKET_STRATEGIES, DEMO_PAPER_SESSIONS, DEMO_PAPER_STRATEGIES, deployDemoPaperStrategies, firstOfSessions } from '../src/db/seed/demo-paper';
import { DEMO_BASKET_NAME, saveDemoBasket } from '../src/db/seed/demo-baskets';
import { DEMO_ROLES, demoEmail, ROLE_PERMISSIONS } from '../src/db/seed/demo-users';
import { createJobQueue } from '../src/jobs/job-queue';
import type { JobQueue } from '../src/jobs/job-queue';
import { QueuedFeed } from '../src/trading/feeds/queued-feed';
import { ManualScheduler } from '../src/trading/feeds/scheduler';
import { startStrategyRunners } from '../src/trading/runner/strategy-runners';
import { waitFor, writeSyntheticHistory } from './graphql/actions-support';
import { freshDatabase } from './helpers/db';
import type { TestDatabase } from './helpers/db';

const THROUGH = isoDate('2026-10-30');
const FROM = firstOfSessions(THROUGH, DEMO_PAPER_SESSIONS);

describe('the demo paper strategies', () => {
  let db: TestDatabase;
  let queue: JobQueue;
  beforeAll(async () => {
    db = await freshDatabase({ seeded: true });
    await writeSyntheticHistory(db.pool, { from: FROM, to: THROUGH }, ['NIFTY 50', 'NIFTY BANK', 'INDIA VIX']);
    queue = createJobQueue({ connectionString: db.url, supervise: false });
    await queue.start();
  }, 120_000);
  afterAll(async () => {
    await queue?.stop({ graceful: false });
    await db?.close();
  });

  it('are planned for exactly the demo roles that may deploy', () => {
    const deploying = DEMO_ROLES.filter((role) => ROLE_PERMISSIONS[role].includes('strategy:deploy'));
    expect(DEMO_PAPER_STRATEGIES.map((plan) => plan.role).sort()).toEqual([...deploying].sort());
    expect(DEMO_MARKET_STRATEGIES.map((plan) => plan.role).sort()).toEqual([...deploying].sort());
    for (const plan of [...DEMO_PAPER_STRATEGIES, ...DEMO_MARKET_STRATEGIES]) expect(plan.name).toContain('synthetic data');
    // The market runs intraday strategies only.
    for (const plan of DEMO_MARKET_STRATEGIES) expect(plan).toMatchObject({ strategyType: 'intraday', market: true });
  });

  it('counts 90 NSE sessions back from the last one', () => {
    expect(firstOfSessions(isoDate('2026-11-27'), 1)).toBe('2026-11-27');
    expect(firstOfSessions(isoDate('2026-11-27'), 2)).toBe('2026-11-26');
    // 30 November 2026 is a Monday: the weekend before is no session.
    expect(firstOfSessions(isoDate('2026-11-30'), 2)).toBe('2026-11-27');
  });

  it('replay the last 90 sessions to the end, each user\'s results as paper runs, and are deployed once', async () => {
    const deployed = await deployDemoPaperStrategies({ pool: db.pool, queue, through: THROUGH, log: () => undefined });
    expect(deployed.sort()).toEqual([...DEMO_PAPER_STRATEGIES, ...DEMO_MARKET_STRATEGIES].map((plan) => plan.role).sort());
    // A market that is closed for as long as the test runs: the market runs wait, leased, for their session.
    const market = { feed: () => new QueuedFeed('simulated', () => new Set<number>()) };
    const marketClock = new ManualScheduler(istEpochMs(THROUGH, '20:00'));
    const runners = await startStrategyRunners({ pool: db.pool, queue, log: () => undefined, scanIntervalMs: 500, market, marketClock });
    try {
      const runs = await waitFor(async () => {
        const { rows } = await db.pool.query<{ status: string; status_reason: string | null; fills: string; days: string; name: string }>(
          `SELECT r.status, r.status_reason, s.name,
             (SELECT count(*) FROM fills f JOIN orders o ON o.order_id = f.order_id WHERE o.run_id = r.run_id)::text AS fills,
             (SELECT count(*) FROM daily_pnl d WHERE d.run_id = r.run_id)::text AS days
           FROM strategy_runs r JOIN strategies s ON s.strategy_id = r.strategy_id WHERE r.kind = 'PAPER' AND r.params->'replay' <> 'null'::jsonb`);
        return rows.length === DEMO_PAPER_STRATEGIES.length && rows.every((row) => row.status !== 'IN PROGRESS') ? rows : undefined;
      }, 240_000);
      for (const run of runs) {
        expect(run, run.name).toMatchObject({ status: 'COMPLETE', status_reason: null });
        expect(Number(run.fills), run.name).toBeGreaterThan(10);
        expect(Number(run.days), run.name).toBeGreaterThan(10);
      }
      const { rows: params } = await db.pool.query<{ replay: { from: string; to: string; speed: number } }>(
        `SELECT params->'replay' AS replay FROM strategy_runs WHERE kind = 'PAPER' AND params->'replay' <> 'null'::jsonb`);
      for (const row of params) expect(row.replay).toEqual({ from: FROM, to: THROUGH, speed: 0 });
      const market = await waitFor(async () => {
        const { rows } = await db.pool.query<{ name: string; strategy_status: string; status: string; lease_owner: string | null }>(
          `SELECT s.name, s.status AS strategy_status, r.status, r.lease_owner FROM strategy_runs r JOIN strategies s ON s.strategy_id = r.strategy_id
           WHERE r.kind = 'PAPER' AND r.params->'replay' = 'null'::jsonb`);
        return rows.length === DEMO_MARKET_STRATEGIES.length && rows.every((row) => row.lease_owner !== null) ? rows : undefined;
      }, 30_000);
      for (const run of market) expect(run, run.name).toMatchObject({ strategy_status: 'ACTIVE', status: 'IN PROGRESS', lease_owner: runners.workerId });
    } finally {
      await runners.stop();
    }
    // Advanced's replay is published, and the basic demo user's subscription followed it: a run of basic's with one lot a trade.
    const { rows: followed } = await db.pool.query<{ published: boolean; follower: string | null; fills: string; lots: boolean }>(
      `SELECT s.published, f.user_id::text AS follower,
         (SELECT count(*) FROM fills x JOIN orders o ON o.order_id = x.order_id WHERE o.run_id = f.run_id)::text AS fills,
         (SELECT bool_and(o.quantity = i.lot_size) FROM orders o JOIN instruments i ON i.instrument_id = o.instrument_id WHERE o.run_id = f.run_id) AS lots
       FROM strategies s JOIN auth.users u ON u.id = s.user_id
       LEFT JOIN strategy_runs f ON f.params -> 'follows' ->> 'strategyId' = s.strategy_id::text
       WHERE u.email = $1 AND s.name = $2`, [demoEmail('advanced'), DEMO_PAPER_STRATEGIES.find((plan) => plan.followedBy !== undefined)!.name]);
    expect(followed[0]).toMatchObject({ published: true, lots: true });
    const { rows: basic } = await db.pool.query<{ id: string }>('SELECT id::text FROM auth.users WHERE email = $1', [demoEmail('basic')]);
    expect(followed[0]!.follower).toBe(basic[0]!.id);
    expect(Number(followed[0]!.fills)).toBeGreaterThan(10);
    // Each run names its user's active broker account (so /userAccounts counts it), and only that user's.
    const { rows: accounts } = await db.pool.query<{ named: string | null; owner: string | null; active: string | null; user_id: string }>(
      `SELECT r.params ->> 'userBrokerId' AS named, ub.user_id::text AS owner, s.user_id::text AS user_id,
         (SELECT a.user_broker_id::text FROM user_brokers a WHERE a.user_id = s.user_id AND a.active ORDER BY a.client_id LIMIT 1) AS active
       FROM strategy_runs r JOIN strategies s ON s.strategy_id = r.strategy_id LEFT JOIN user_brokers ub ON ub.user_broker_id::text = r.params ->> 'userBrokerId'
       WHERE r.kind = 'PAPER' AND r.params -> 'follows' IS NULL`);
    expect(accounts.filter((row) => row.active !== null).length, 'demo runs of users with an active account').toBeGreaterThan(0);
    for (const row of accounts) {
      expect(row.named).toBe(row.active);
      if (row.named !== null) expect(row.owner).toBe(row.user_id);
    }
    expect(await deployDemoPaperStrategies({ pool: db.pool, queue, through: THROUGH, log: () => undefined })).toEqual([]);
    const { rows } = await db.pool.query<{ count: string }>(`SELECT count(*)::text AS count FROM strategy_runs WHERE kind = 'PAPER' AND strategy_id IS NOT NULL`);
    expect(Number(rows[0]!.count)).toBe(DEMO_PAPER_STRATEGIES.length + DEMO_MARKET_STRATEGIES.length);
  }, 300_000);

  it('saves the demo trader one basket, a NIFTY short strangle priced from the last prices, once', async () => {
    const nowMs = istEpochMs(THROUGH, '16:00');
    expect(await saveDemoBasket({ pool: db.pool, nowMs, log: () => undefined })).toBe(true);
    expect(await saveDemoBasket({ pool: db.pool, nowMs, log: () => undefined })).toBe(false);
    const { rows } = await db.pool.query<{ kind: string; status: string; legs: Array<{ symbol: string; side: string; lots: number }> }>(
      `SELECT s.kind, s.status, s.config -> 'basket' -> 'legs' AS legs FROM strategies s JOIN auth.users u ON u.id = s.user_id WHERE u.email = $1 AND s.name = $2`,
      [demoEmail('advanced'), DEMO_BASKET_NAME]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: 'basket', status: 'DRAFT' });
    expect(rows[0]!.legs.map((leg) => [leg.symbol.slice(-2), leg.side, leg.lots])).toEqual([['CE', 'SELL', 1], ['PE', 'SELL', 1]]);
  });
});
