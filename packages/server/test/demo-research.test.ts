// The demo world's research content: the example algorithms (real engine documents, published,
// seeded once) and the example backtests (one per demo user who may backtest, through run_backtest
// and real pg-boss workers over synthetic candles, never doubled).
import type { IsoDate } from '@vyuha/core';
import { compileAlgorithm, parseOptionsLegsConfig, validateAlgorithm } from '@vyuha/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoWorld } from '../src/db/seed';
import { EXAMPLE_ALGORITHMS, EXAMPLE_AUTHOR, exampleAlgorithmId, SHORT_STRADDLE_LEGS } from '../src/db/seed/demo-research';
import { DEMO_BACKTESTS, queueDemoBacktests } from '../src/db/seed/demo-research-backtests';
import { DEMO_ROLES, ROLE_PERMISSIONS } from '../src/db/seed/demo-users';
import type { DemoRole } from '../src/db/seed/demo-users';
import { startBacktestWorkers } from '../src/jobs/backtest-workers';
import type { BacktestWorkers } from '../src/jobs/backtest-workers';
import { createJobQueue } from '../src/jobs/job-queue';
import type { JobQueue } from '../src/jobs/job-queue';
import { marketDataDir } from '../src/paths';
import { waitFor, writeSyntheticHistory } from './graphql/actions-support';
import { freshDatabase } from './helpers/db';
import type { TestDatabase } from './helpers/db';

/** The browser tests' world (tests/browser/global-setup.ts BROWSER_HISTORY): the range the lead's set-up passes. */
const RANGE = { from: '2026-08-03' as IsoDate, to: '2026-10-30' as IsoDate };
const BACKTESTING_ROLES = DEMO_ROLES.filter((role) => ROLE_PERMISSIONS[role].includes('strategy:backtest'));

describe('the example algorithms', () => {
  it.each(EXAMPLE_ALGORITHMS.map((example) => [example.name, example] as const))('%s validates and compiles', (_name, example) => {
    const validated = validateAlgorithm(example.graph);
    expect(validated.ok ? [] : validated.error).toEqual([]);
    const compiled = compileAlgorithm(example.graph);
    expect(compiled.ok ? [] : compiled.error).toEqual([]);
  });

  it('sells the ATM call and put of the current weekly NIFTY expiry with a 30% stop on each leg', () => {
    const config = parseOptionsLegsConfig(SHORT_STRADDLE_LEGS);
    expect(config).toMatchObject({ underlying: 'NIFTY', onSell: [], maxEntriesPerDay: 1, weeklyFallback: 'none' });
    expect(config.onBuy.map((leg) => [leg.option, leg.side, leg.strike, leg.expiry, leg.lots, leg.stopLoss])).toEqual([
      ['CE', 'sell', { by: 'atm-offset', steps: 0 }, 'current-weekly', 1, { percent: 30 }],
      ['PE', 'sell', { by: 'atm-offset', steps: 0 }, 'current-weekly', 1, { percent: 30 }],
    ]);
  });

  it('plans one example backtest for exactly the roles that may backtest, each of a known example', () => {
    expect(DEMO_BACKTESTS.map((plan) => plan.role).sort()).toEqual([...BACKTESTING_ROLES].sort());
    for (const plan of DEMO_BACKTESTS) expect(EXAMPLE_ALGORITHMS.map((example) => example.key)).toContain(plan.algorithm);
    expect(new Set(DEMO_BACKTESTS.map((plan) => plan.algorithm))).toEqual(new Set(EXAMPLE_ALGORITHMS.map((example) => example.key)));
  });
});

describe('the seeded examples', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await freshDatabase({ seeded: true });
  });
  afterAll(async () => {
    await db.close();
  });

  it('are published, version 1, owned by the administrator, stored as written', async () => {
    const { rows } = await db.pool.query<{ algorithm_id: string; name: string; published: boolean; latest_version: number; tier: string; graph: unknown; schema_version: number }>(
      `SELECT a.algorithm_id, a.name, a.published, a.latest_version, u.tier, v.graph, v.schema_version
       FROM algorithms a JOIN users u USING (user_id) JOIN algorithm_versions v ON v.algorithm_id = a.algorithm_id AND v.version = 1
       WHERE a.algorithm_id = ANY($1::uuid[]) ORDER BY a.name`, [EXAMPLE_ALGORITHMS.map((example) => exampleAlgorithmId(example.key))]);
    expect(rows.map((row) => row.name)).toEqual(EXAMPLE_ALGORITHMS.map((example) => example.name).sort());
    for (const row of rows) {
      const example = EXAMPLE_ALGORITHMS.find((candidate) => exampleAlgorithmId(candidate.key) === row.algorithm_id);
      expect(row).toMatchObject({ published: true, latest_version: 1, tier: EXAMPLE_AUTHOR, schema_version: 1 });
      expect(row.graph).toEqual(JSON.parse(JSON.stringify(example?.graph)));
    }
  });

  it('are not inserted again by a second seed', async () => {
    const snapshot = async (): Promise<unknown[]> => (await db.pool.query(
      `SELECT a.*, v.graph, v.created_at AS version_created_at FROM algorithms a JOIN algorithm_versions v USING (algorithm_id) ORDER BY a.algorithm_id`)).rows;
    const before = await snapshot();
    const second = await seedDemoWorld(db.pool, { dataDir: marketDataDir });
    expect(second).toMatchObject({ exampleAlgorithms: EXAMPLE_ALGORITHMS.length, inserted: 0 });
    expect(await snapshot()).toEqual(before);
  });

  it('reach an install seeded before them, whose credits-only runs get an honest label', async () => {
    // What an install of demo world version 1 holds: no examples, credits-only runs dressed as NIFTY 50 backtests.
    await db.pool.query('DELETE FROM algorithms WHERE algorithm_id = ANY($1::uuid[])', [EXAMPLE_ALGORITHMS.map((example) => exampleAlgorithmId(example.key))]);
    await db.pool.query(`UPDATE app_meta SET value = '{"version": 1}' WHERE key = 'demo_world'`);
    await db.pool.query(`UPDATE strategy_runs SET params = '{"instrument": "NIFTY 50", "window": 5, "demo": true}' WHERE strategy_id IS NULL`);
    const credits = async (): Promise<unknown[]> => (await db.pool.query('SELECT user_id, total_credits, utilized_credits FROM licences ORDER BY user_id, licence_type')).rows;
    const creditsBefore = await credits();
    const upgrade = await seedDemoWorld(db.pool, { dataDir: marketDataDir });
    expect(upgrade.exampleAlgorithms).toBe(EXAMPLE_ALGORITHMS.length);
    const { rows } = await db.pool.query<{ version: number; runs: number; labelled: number }>(
      `SELECT (SELECT (value->>'version')::int FROM app_meta WHERE key = 'demo_world') AS version,
              (SELECT count(*)::int FROM strategy_runs WHERE strategy_id IS NULL) AS runs,
              (SELECT count(*)::int FROM strategy_runs WHERE strategy_id IS NULL AND (params->>'creditsOnly')::boolean) AS labelled`);
    expect(rows[0]).toEqual({ version: 2, runs: upgrade.strategyRuns, labelled: upgrade.strategyRuns });
    expect(await credits()).toEqual(creditsBefore);
    expect((await seedDemoWorld(db.pool, { dataDir: marketDataDir })).inserted).toBe(0);
  });
});

interface RunSummary {
  tier: string;
  strategies: number;
  runs: number;
  status: string | null;
  orders: number;
  fills: number;
  has_metrics: boolean;
  has_result: boolean;
  candles: number;
  error: string | null;
}

describe('the example backtests', () => {
  let db: TestDatabase;
  let queue: JobQueue;
  let workers: BacktestWorkers | undefined;
  const log = (): void => undefined;

  beforeAll(async () => {
    db = await freshDatabase({ seeded: true });
    await writeSyntheticHistory(db.pool, RANGE, ['NIFTY 50', 'NIFTY BANK', 'INDIA VIX']);
    queue = createJobQueue({ connectionString: db.url, supervise: false });
    await queue.start();
  });
  afterAll(async () => {
    await workers?.stop();
    await queue?.stop({ timeoutMs: 5_000 });
    await db.close();
  });

  async function summaries(): Promise<Map<string, RunSummary>> {
    const { rows } = await db.pool.query<RunSummary>(
      `SELECT u.tier,
              (SELECT count(*)::int FROM strategies s WHERE s.user_id = u.user_id) AS strategies,
              (SELECT count(*)::int FROM strategy_runs r WHERE r.user_id = u.user_id AND r.strategy_id IS NOT NULL) AS runs,
              r.status, r.error, coalesce(r.candles, 0)::int AS candles,
              (SELECT count(*)::int FROM orders o WHERE o.run_id = r.run_id) AS orders,
              (SELECT count(*)::int FROM fills f JOIN orders o USING (order_id) WHERE o.run_id = r.run_id) AS fills,
              r.metrics IS NOT NULL AS has_metrics, r.result IS NOT NULL AS has_result
       FROM users u LEFT JOIN strategy_runs r ON r.user_id = u.user_id AND r.strategy_id IS NOT NULL`);
    return new Map(rows.map((row) => [row.tier, row]));
  }

  async function runsFinished(): Promise<boolean> {
    const { rows } = await db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM strategy_runs WHERE status = 'IN PROGRESS'`);
    return rows[0]?.n === 0;
  }

  it('queues each backtesting user once, even from two callers at once, and never one without the permission', async () => {
    await db.pool.query(
      `DELETE FROM user_permissions WHERE permission = 'strategy:backtest' AND user_id = (SELECT user_id FROM users WHERE tier = 'manager')`);
    const [first, second] = await Promise.all([
      queueDemoBacktests({ pool: db.pool, queue, range: RANGE, log }),
      queueDemoBacktests({ pool: db.pool, queue, range: RANGE, log }),
    ]);
    const queued = [...(first?.queued ?? []), ...(second?.queued ?? [])].sort();
    expect(queued).toEqual(BACKTESTING_ROLES.filter((role) => role !== 'manager').sort());
    expect([...(first?.skipped ?? []), ...(second?.skipped ?? [])]).toContainEqual({ role: 'manager', reason: 'no strategy:backtest permission' });
  });

  it('leaves one COMPLETE backtest per user with orders, fills, metrics and results', async () => {
    workers = await startBacktestWorkers({ pool: db.pool, queue, log, pollingIntervalSeconds: 0.5, recoveryIntervalMs: 0 });
    await waitFor(runsFinished, 180_000);
    const byTier = await summaries();
    for (const role of BACKTESTING_ROLES.filter((candidate) => candidate !== 'manager')) {
      const summary = byTier.get(role);
      expect(summary, role).toMatchObject({ strategies: 1, runs: 1, status: 'COMPLETE', error: null, has_metrics: true, has_result: true });
      expect(summary?.orders, role).toBeGreaterThan(0);
      expect(summary?.fills, role).toBeGreaterThan(0);
      expect(summary?.candles, role).toBeGreaterThan(0);
    }
    for (const role of ['manager', 'trial', 'basic', 'support'] satisfies DemoRole[]) {
      expect(byTier.get(role), role).toMatchObject({ strategies: 0, runs: 0 });
    }
  }, 200_000);

  it('trades option legs in the straddle and keeps every credit alert level of the seed', async () => {
    const { rows: legs } = await db.pool.query<{ kind: string; n: number }>(
      `SELECT i.kind, count(*)::int AS n FROM orders o JOIN instruments i USING (instrument_id)
       JOIN users u ON u.user_id = o.user_id WHERE u.tier = 'demo' GROUP BY i.kind`);
    expect(legs).toEqual([{ kind: 'option', n: expect.any(Number) }]);
    const { rows } = await db.pool.query<{ tier: string; percent: number }>(
      `SELECT u.tier, (l.utilized_credits * 100.0 / l.total_credits)::float AS percent
       FROM licences l JOIN users u USING (user_id) WHERE l.licence_type = 'backtest' AND l.total_credits > 0`);
    const percent = Object.fromEntries(rows.map((row) => [row.tier, row.percent]));
    // demo-accounts.ts: advanced is a warning (75% to <90% used), backtest critical (90% or more, never beyond 100%).
    expect(percent['advanced']).toBeGreaterThanOrEqual(75);
    expect(percent['advanced']).toBeLessThan(90);
    expect(percent['backtest']).toBeGreaterThanOrEqual(90);
    expect(percent['backtest']).toBeLessThanOrEqual(100);
  });

  it('trades the indices of the other examples as their near-month futures, every fill charged', async () => {
    const { rows } = await db.pool.query<{ tier: string; kind: string; symbol: string; fills: number; uncharged: number }>(
      `SELECT u.tier, i.kind, i.trading_symbol AS symbol, count(*)::int AS fills,
              count(*) FILTER (WHERE (SELECT sum(value::bigint) FROM jsonb_each_text(f.charges_paise)) <= 0)::int AS uncharged
       FROM fills f JOIN orders o USING (order_id) JOIN instruments i USING (instrument_id) JOIN users u ON u.user_id = o.user_id
       WHERE u.tier <> 'demo' GROUP BY u.tier, i.kind, i.trading_symbol`);
    const tiers = new Set(rows.map((row) => row.tier));
    expect(tiers).toEqual(new Set(BACKTESTING_ROLES.filter((role) => role !== 'manager' && role !== 'demo')));
    for (const row of rows) {
      expect(row.kind, row.tier).toBe('future');
      expect(row.symbol, row.tier).toMatch(/^(NIFTY|BANKNIFTY)26(AUG|SEP|OCT|NOV)FUT$/);
      expect(row.uncharged, row.tier).toBe(0);
    }
    const { rows: results } = await db.pool.query<{ tier: string; charges: number; model: boolean }>(
      `SELECT u.tier, (r.result->'summary'->>'charges')::bigint AS charges, (r.result->'traded'->>'modelPrices')::boolean AS model
       FROM strategy_runs r JOIN users u USING (user_id) WHERE r.strategy_id IS NOT NULL AND u.tier <> 'demo'`);
    for (const result of results) expect({ tier: result.tier, charged: Number(result.charges) > 0, model: result.model }).toEqual({ tier: result.tier, charged: true, model: true });
  });

  it('adds none on a second call, and gives a user who gains the permission theirs', async () => {
    const again = await queueDemoBacktests({ pool: db.pool, queue, range: RANGE, log });
    expect(again.queued).toEqual([]);
    await db.pool.query(
      `INSERT INTO user_permissions (user_id, permission) SELECT user_id, 'strategy:backtest' FROM users WHERE tier = 'manager'`);
    expect((await queueDemoBacktests({ pool: db.pool, queue, range: RANGE, log })).queued).toEqual(['manager']);
    await waitFor(runsFinished, 60_000);
    expect((await summaries()).get('manager')).toMatchObject({ strategies: 1, runs: 1, status: 'COMPLETE' });
    expect((await queueDemoBacktests({ pool: db.pool, queue, range: RANGE, log })).queued).toEqual([]);
  });

  it('does not bring back an example backtest its user deleted', async () => {
    await db.pool.query(`DELETE FROM strategies WHERE user_id = (SELECT user_id FROM users WHERE tier = 'superadmin')`);
    expect((await queueDemoBacktests({ pool: db.pool, queue, range: RANGE, log })).queued).toEqual([]);
    expect((await summaries()).get('superadmin')).toMatchObject({ strategies: 0 });
  });
});
