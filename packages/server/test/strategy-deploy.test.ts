// The deployments of the trading runtime (src/trading/deployments.ts) and migration 0019's rules,
// on a real PostgreSQL with a real pg-boss queue: races for one licence slot and for one
// strategy, a deploy whose job cannot be written leaving nothing behind, the strategy life guard
// and the pending-signal outcome rules as any SQL client meets them, and the slot given back once.
// Each test makes its own traders (a fresh user with the permissions and licence it needs).
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobQueue, STRATEGY_RUN_QUEUE } from '../src/jobs/job-queue';
import type { JobQueue } from '../src/jobs/job-queue';
import { enqueueStrategyRun } from '../src/jobs/strategy-run-jobs';
import { confirmSignal, deployStrategy, releaseLicenceSlot, stopStrategy, strategyFromBacktest } from '../src/trading/deployments';
import type { DeployDeps, DeployIssue } from '../src/trading/deployments';
import { continueNextSession } from '../src/trading/runner/strategy-runners';
import { runtimeIssues } from '../src/trading/deploy-checks';
import { parseOptionsLegsConfig } from '@vyuha/engine';
import { BACKTEST_PARAMS_FORMAT } from '../src/jobs/backtest-params';
import { freshDatabase } from './helpers/db';
import type { TestDatabase } from './helpers/db';
import { saveAlgorithm } from './graphql/actions-support';

let db: TestDatabase;
let queue: JobQueue;
let deps: DeployDeps;
let niftyId: number;

/** A past week replayed as fast as possible: paper strategies run on replays of stored history for now. */
const REPLAY = { from: '2024-06-03', to: '2024-06-07', speed: 0 };

interface Trader {
  readonly userId: string;
  readonly licenceId: string;
  readonly algorithmId: string;
}

/** A user of tier advanced with `permissions` and a licence of `slots` free slots valid for a year. */
async function newTrader(options: { permissions?: readonly string[]; slots?: number } = {}): Promise<Trader> {
  const userId = randomUUID();
  await db.pool.query(`INSERT INTO auth.users (id, email, default_role) VALUES ($1, $2, 'advanced')`, [userId, `${userId}@example.com`]);
  await db.pool.query(`INSERT INTO users (user_id, name, tier) VALUES ($1, 'Deploy tester', 'advanced')`, [userId]);
  await db.pool.query('INSERT INTO user_permissions (user_id, permission) SELECT $1, unnest($2::text[])',
    [userId, options.permissions ?? ['strategy:backtest', 'strategy:deploy', 'strategy:manual']]);
  const licence = await db.pool.query<{ id: string }>(
    `INSERT INTO deployed_strategies (user_id, available, utilized, expiry) VALUES ($1, $2, 0, (now() AT TIME ZONE 'Asia/Kolkata')::date + 365) RETURNING id`,
    [userId, options.slots ?? 3]);
  const algorithmId = await saveAlgorithm(db.pool, { userId, name: 'sma cross' });
  return { userId, licenceId: (licence.rows[0] as { id: string }).id, algorithmId };
}

/** An algo strategy of the trader on NIFTY 50 at 5 minutes, intraday, with `config` (default: 5 lakh rupees). */
async function newStrategy(trader: Trader, config: Record<string, unknown> = { investment: 50_000_000 }, shape: { kind?: string; type?: string } = {}): Promise<string> {
  const { kind = 'algo', type = 'intraday' } = shape;
  const { rows } = await db.pool.query<{ strategy_id: string }>(
    `INSERT INTO strategies (user_id, name, kind, algorithm_id, algorithm_version, instrument_id, interval_minutes, strategy_type, config)
     VALUES ($1, $2, $3, $4, $5, $6, 5, $8, $7) RETURNING strategy_id`,
    [trader.userId, `strategy ${randomUUID().slice(0, 8)}`, kind, kind === 'algo' ? trader.algorithmId : null, kind === 'algo' ? 1 : null, niftyId,
      JSON.stringify(config), type]);
  return (rows[0] as { strategy_id: string }).strategy_id;
}

async function one<T>(sql: string, values: unknown[] = []): Promise<T> {
  const { rows } = await db.pool.query(sql, values);
  return rows[0] as T;
}

const utilized = async (licenceId: string): Promise<number> => (await one<{ utilized: number }>('SELECT utilized FROM deployed_strategies WHERE id = $1', [licenceId])).utilized;
const statusOf = async (strategyId: string): Promise<string> => (await one<{ status: string }>('SELECT status FROM strategies WHERE strategy_id = $1', [strategyId])).status;
const codes = (issues: readonly DeployIssue[]): string[] => issues.map((issue) => issue.code);

function issuesOf<T>(result: { ok: true; value: T } | { ok: false; error: DeployIssue[] }): DeployIssue[] {
  if (result.ok) throw new Error(`expected a refusal, got ${JSON.stringify(result.value)}`);
  return result.error;
}

beforeAll(async () => {
  db = await freshDatabase({ seeded: true });
  queue = createJobQueue({ connectionString: db.url, supervise: false });
  await queue.start();
  deps = { enqueue: (client, runId) => enqueueStrategyRun(queue, { client, runId }) };
  niftyId = (await one<{ instrument_id: number }>(`SELECT instrument_id FROM instruments WHERE kind = 'index' AND name = 'NIFTY 50'`)).instrument_id;
}, 120_000);

afterAll(async () => {
  await queue?.stop();
  await db?.close();
});

describe('deployStrategy', () => {
  it('deploys LIVE through the user\'s Zerodha account with a session for today, and otherwise says to log in, writing nothing', async () => {
    const trader = await newTrader();
    const strategyId = await newStrategy(trader);
    await db.pool.query(`UPDATE strategies SET algo_id = 'ALGO-77' WHERE strategy_id = $1`, [strategyId]);
    const account = await one<{ user_broker_id: string }>(
      `INSERT INTO user_brokers (user_id, broker, client_id, api_key) VALUES ($1, 'zerodha', 'ZD9911', 'kitekey') RETURNING user_broker_id`, [trader.userId]);
    const request = { actorId: trader.userId, userId: trader.userId, strategyId, mode: 'LIVE', userBrokerId: account.user_broker_id };
    const noSession = issuesOf(await deployStrategy(db.pool, request, deps));
    expect(noSession).toEqual([{
      field: 'user_broker_id', code: 'broker-session',
      message: 'Log in to Zerodha for today: there is no session for ZD9911 (log in at /api/broker_login/zerodha/ZD9911)',
    }]);
    expect(await utilized(trader.licenceId)).toBe(0);
    expect(await statusOf(strategyId)).toBe('DRAFT');
    // Expired at 06:00 IST this morning: the same answer, in its words.
    await db.pool.query(
      `INSERT INTO broker_sessions (user_broker_id, access_token_ciphertext, access_token_nonce, access_token_key_id, expires_at)
       VALUES ($1, '\\x01', '\\x02', 'k', now() - interval '1 minute')`, [account.user_broker_id]);
    expect(codes(issuesOf(await deployStrategy(db.pool, request, deps)))).toEqual(['broker-session']);
    await db.pool.query(`UPDATE broker_sessions SET expires_at = now() + interval '1 hour' WHERE user_broker_id = $1`, [account.user_broker_id]);
    const elsewhere = issuesOf(await deployStrategy(db.pool, { ...request, userBrokerId: randomUUID() }, deps));
    expect(codes(elsewhere)).toEqual(['broker-account']);
    const deployed = await deployStrategy(db.pool, request, deps);
    if (!deployed.ok) throw new Error(JSON.stringify(deployed.error));
    expect(await one(`SELECT kind, params->>'mode' AS mode, params->>'userBrokerId' AS account, params->'replay' AS replay FROM strategy_runs WHERE run_id = $1`, [deployed.value.runId]))
      .toEqual({ kind: 'LIVE', mode: 'LIVE', account: account.user_broker_id, replay: null });
    expect(await one('SELECT status, mode FROM strategies WHERE strategy_id = $1', [strategyId])).toEqual({ status: 'ACTIVE', mode: 'LIVE' });
    expect(await utilized(trader.licenceId)).toBe(1);
  });

  it('deploys MANUAL on a replay (the replay waits for each signal: runner/pending-signals.ts)', async () => {
    const trader = await newTrader();
    const strategyId = await newStrategy(trader, { investment: 50_000_000, manual: true });
    const deployed = await deployStrategy(db.pool, { actorId: trader.userId, userId: trader.userId, strategyId, mode: 'PAPER', replay: REPLAY }, deps);
    if (!deployed.ok) throw new Error(JSON.stringify(deployed.error));
    expect(await one(`SELECT params->'config'->'manual' AS manual FROM strategy_runs WHERE run_id = $1`, [deployed.value.runId])).toEqual({ manual: true });
  });

  it('an intraday strategy on the market goes on session after session: each session\'s run hands its licence slot to the next', async () => {
    const trader = await newTrader();
    const strategyId = await newStrategy(trader);
    const deployed = await deployStrategy(db.pool, { actorId: trader.userId, userId: trader.userId, strategyId, mode: 'PAPER' }, deps);
    if (!deployed.ok) throw new Error(JSON.stringify(deployed.error));
    expect(await one(`SELECT params->'replay' AS replay FROM strategy_runs WHERE run_id = $1`, [deployed.value.runId])).toEqual({ replay: null });
    expect(await utilized(trader.licenceId)).toBe(1);
    const continued = await continueNextSession(db.pool, { runId: deployed.value.runId, queue });
    const next = continued !== undefined && 'nextRunId' in continued ? continued.nextRunId : undefined;
    expect(next).toBeDefined();
    expect(await one('SELECT status, licence_id FROM strategy_runs WHERE run_id = $1', [deployed.value.runId])).toEqual({ status: 'COMPLETE', licence_id: null });
    expect(await one(`SELECT status, licence_id, params->'replay' AS replay, params->'pauses' AS pauses FROM strategy_runs WHERE run_id = $1`, [next]))
      .toEqual({ status: 'IN PROGRESS', licence_id: trader.licenceId, replay: null, pauses: [] });
    expect(await utilized(trader.licenceId)).toBe(1);
    expect(await statusOf(strategyId)).toBe('ACTIVE');
    expect(await one(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1 AND singleton_key = $2`, [STRATEGY_RUN_QUEUE, next])).toEqual({ n: 1 });
    // Stopped, it does not go on: the next session's run is not made, and the slot is given back by the stop.
    await stopStrategy(db.pool, { actorId: trader.userId, userId: trader.userId, strategyId, squareOff: false });
    expect(await continueNextSession(db.pool, { runId: next!, queue })).toBeUndefined();
    expect(await utilized(trader.licenceId)).toBe(0);
    expect(await one('SELECT count(*)::int AS n FROM strategy_runs WHERE strategy_id = $1', [strategyId])).toEqual({ n: 2 });
  });

  it('a market strategy whose licence has expired does not go on to the next session, and says why', async () => {
    const trader = await newTrader();
    const strategyId = await newStrategy(trader);
    const deployed = await deployStrategy(db.pool, { actorId: trader.userId, userId: trader.userId, strategyId, mode: 'PAPER' }, deps);
    if (!deployed.ok) throw new Error(JSON.stringify(deployed.error));
    await db.pool.query(`UPDATE deployed_strategies SET expiry = DATE '2026-01-31' WHERE id = $1`, [trader.licenceId]);
    expect(await continueNextSession(db.pool, { runId: deployed.value.runId, queue })).toEqual({
      stopReason: 'the STRATEGIES/DEPLOYED licence expired on 2026-01-31: the strategy stops after this session (renew it and deploy again)',
    });
    expect(await one('SELECT status FROM strategy_runs WHERE run_id = $1', [deployed.value.runId])).toEqual({ status: 'IN PROGRESS' });
    expect(await one('SELECT count(*)::int AS n FROM strategy_runs WHERE strategy_id = $1', [strategyId])).toEqual({ n: 1 });
  });

  it('deploys a MANUAL intraday strategy on the market (no replay), with the strategy:manual permission only', async () => {
    const trader = await newTrader();
    const manual = await newStrategy(trader, { investment: 50_000_000, manual: true });
    const deployed = await deployStrategy(db.pool, { actorId: trader.userId, userId: trader.userId, strategyId: manual, mode: 'PAPER' }, deps);
    expect(deployed.ok).toBe(true);
    const without = await newTrader({ permissions: ['strategy:backtest', 'strategy:deploy'] });
    const refused = issuesOf(await deployStrategy(db.pool, { actorId: without.userId, userId: without.userId, strategyId: await newStrategy(without, { investment: 50_000_000, manual: true }), mode: 'PAPER' }, deps));
    expect(refused.map((issue) => [issue.field, issue.code])).toEqual([['config.manual', 'permission-missing']]);
  });

  it('option legs run intraday or swing on replays and on the market (MANUAL there too), in the shapes paper runs', () => {
    const leg = (option: 'CE' | 'PE'): object => ({ option, side: 'sell', strike: { by: 'atm-offset', steps: 0 }, expiry: 'current-weekly', lots: 1, stopLoss: { percent: 30 } });
    const legs = parseOptionsLegsConfig({ underlying: 'NIFTY', onBuy: [leg('CE'), leg('PE')] });
    expect(runtimeIssues({ type: 'intraday', legs, manual: false }, REPLAY)).toEqual([]);
    expect(runtimeIssues({ type: 'intraday', legs, manual: false }, null)).toEqual([]);
    expect(runtimeIssues({ type: 'intraday', legs, manual: true }, null)).toEqual([]);
    expect(runtimeIssues({ type: 'swing', legs, manual: false }, null)).toEqual([]);
    expect(runtimeIssues({ type: 'swing', legs, manual: false }, REPLAY)).toEqual([]);
    // A shape paper does not run is refused at its field, swing or not.
    const atCost = parseOptionsLegsConfig({ underlying: 'NIFTY', onBuy: [{ ...leg('CE'), reEntry: { mode: 'at-cost', maxTimes: 1 } }, leg('PE')] });
    expect(runtimeIssues({ type: 'swing', legs: atCost, manual: false }, REPLAY).map((issue) => issue.field)).toEqual(['config.legs']);
  });

  it('creates the strategy-run queue as stately, one waiting job per run', async () => {
    expect(await one('SELECT policy, retry_limit FROM pgboss.queue WHERE name = $1', [STRATEGY_RUN_QUEUE])).toEqual({ policy: 'stately', retry_limit: 0 });
    const trader = await newTrader();
    const deployed = await deployStrategy(db.pool, { actorId: trader.userId, userId: trader.userId, strategyId: await newStrategy(trader), mode: 'PAPER', replay: REPLAY }, deps);
    if (!deployed.ok) throw new Error(JSON.stringify(deployed.error));
    const client = await db.pool.connect();
    try {
      // A second wake-up while the first still waits adds nothing.
      await enqueueStrategyRun(queue, { client, runId: deployed.value.runId });
    } finally {
      client.release();
    }
    expect(await one('SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1 AND singleton_key = $2', [STRATEGY_RUN_QUEUE, deployed.value.runId])).toEqual({ n: 1 });
  });

  it('lets two deploys racing for the last slot take it once', async () => {
    const trader = await newTrader({ slots: 1 });
    const strategies = [await newStrategy(trader), await newStrategy(trader)];
    const results = await Promise.all(strategies.map((strategyId) => deployStrategy(db.pool, { actorId: trader.userId, userId: trader.userId, strategyId, mode: 'PAPER', replay: REPLAY }, deps)));
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    const refused = issuesOf(results.find((result) => !result.ok) as never);
    expect(refused).toEqual([{ code: 'no-licence-slot', message: 'every STRATEGIES/DEPLOYED licence slot is in use (1 of 1): stop a strategy or extend the licence' }]);
    expect(await utilized(trader.licenceId)).toBe(1);
    expect(await one('SELECT count(*)::int AS n FROM strategy_runs WHERE user_id = $1', [trader.userId])).toEqual({ n: 1 });
    expect((await Promise.all(strategies.map(statusOf))).sort()).toEqual(['ACTIVE', 'DRAFT']);
  });

  it('starts one run when the same strategy is deployed twice at once', async () => {
    const trader = await newTrader();
    const strategyId = await newStrategy(trader);
    const request = { actorId: trader.userId, userId: trader.userId, strategyId, mode: 'PAPER', replay: REPLAY };
    const results = await Promise.all([deployStrategy(db.pool, request, deps), deployStrategy(db.pool, request, deps)]);
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    expect(codes(issuesOf(results.find((result) => !result.ok) as never))).toEqual(['invalid-status']);
    expect(await utilized(trader.licenceId)).toBe(1);
    expect(await one('SELECT count(*)::int AS n FROM strategy_runs WHERE strategy_id = $1', [strategyId])).toEqual({ n: 1 });
  });

  it('leaves nothing behind when the job cannot be written', async () => {
    const trader = await newTrader();
    const strategyId = await newStrategy(trader);
    const failing: DeployDeps = { enqueue: () => Promise.reject(new Error('queue unavailable')) };
    await expect(deployStrategy(db.pool, { actorId: trader.userId, userId: trader.userId, strategyId, mode: 'PAPER', replay: REPLAY }, failing)).rejects.toThrow('queue unavailable');
    expect(await statusOf(strategyId)).toBe('DRAFT');
    expect(await utilized(trader.licenceId)).toBe(0);
    expect(await one('SELECT count(*)::int AS n FROM strategy_runs WHERE strategy_id = $1', [strategyId])).toEqual({ n: 0 });
    expect(await one(`SELECT count(*)::int AS n FROM audit_log WHERE entity_id = $1`, [strategyId])).toEqual({ n: 0 });
  });

  it('reports every problem of a request at once, each at its field', async () => {
    // No strategy:manual, a MANUAL config, an interval in the config that the column contradicts, a bad replay.
    const trader = await newTrader({ permissions: ['strategy:deploy'] });
    const strategyId = await newStrategy(trader, { investment: 50_000_000, manual: true, interval: 15 });
    const refused = issuesOf(await deployStrategy(db.pool, {
      actorId: trader.userId, userId: trader.userId, strategyId, mode: 'SIMULATED', replay: { from: '2024-06-10', to: '2024-06-03', speed: 2 },
    }, deps));
    expect(refused.map((issue) => [issue.field, issue.code])).toEqual([
      ['mode', 'invalid-mode'], ['config.interval', 'invalid-config'], ['replay.to', 'invalid-replay'], ['replay.speed', 'invalid-replay'],
    ]);
    expect(refused[1]?.message).toBe('config.interval 15 disagrees with the strategy\'s interval_minutes (5)');
    expect(refused[2]?.message).toBe('replay.to 2024-06-03 is before replay.from 2024-06-10');

    const manual = await newStrategy(trader, { investment: 50_000_000, manual: true });
    const future = '2999-01-01';
    const second = issuesOf(await deployStrategy(db.pool, {
      actorId: trader.userId, userId: trader.userId, strategyId: manual, mode: 'PAPER', replay: { from: '2024-06-03', to: future, speed: 0 },
    }, deps));
    expect(second.map((issue) => [issue.field, issue.code])).toEqual([['config.manual', 'permission-missing'], ['replay.to', 'invalid-replay']]);
    expect(second[1]?.message).toMatch(/^replay\.to 2999-01-01 is in the future \(today is \d{4}-\d{2}-\d{2} IST\)/);
    expect(await utilized(trader.licenceId)).toBe(0);
  });

  it('refuses a basket, an archived strategy and a manager who no longer manages the user', async () => {
    const trader = await newTrader();
    const basket = await newStrategy(trader, {}, { kind: 'basket' });
    expect(issuesOf(await deployStrategy(db.pool, { actorId: trader.userId, userId: trader.userId, strategyId: basket, mode: 'PAPER', replay: REPLAY }, deps)))
      .toEqual([{ field: 'strategy_id', code: 'not-deployable', message: 'a basket strategy cannot be deployed yet: only algo strategies run' }]);
    const archived = await newStrategy(trader);
    await db.pool.query(`UPDATE strategies SET status = 'ARCHIVED' WHERE strategy_id = $1`, [archived]);
    expect(codes(issuesOf(await deployStrategy(db.pool, { actorId: trader.userId, userId: trader.userId, strategyId: archived, mode: 'PAPER', replay: REPLAY }, deps))))
      .toEqual(['invalid-status']);
    const stranger = await newTrader();
    expect(issuesOf(await deployStrategy(db.pool, { actorId: stranger.userId, userId: trader.userId, strategyId: await newStrategy(trader), mode: 'PAPER', replay: REPLAY }, deps)))
      .toEqual([{ code: 'not-managed', message: `you do not manage user ${trader.userId}` }]);
  });
});

describe('strategyFromBacktest', () => {
  /** A COMPLETE backtest run of the trader's algorithm on NIFTY 50 at 15 minutes, swing, 3 to 7 June 2024. */
  async function finishedBacktest(trader: Trader): Promise<string> {
    const params = {
      format: BACKTEST_PARAMS_FORMAT, key: 'race', strategyType: 'swing', instrument: { instrumentId: niftyId, exchange: 'NSE', tradingSymbol: 'NIFTY', name: 'NIFTY 50' },
      algorithm: { algorithmId: trader.algorithmId, version: 1, name: 'sma cross' }, dateRange: { from: '2024-06-03', to: '2024-06-07' }, interval: 15,
      window: 15, investmentPaise: 50_000_000, tradeInstrumentsConfig: null, estimatedCandles: 125, actorId: trader.userId,
    };
    return (await one<{ run_id: string }>(`INSERT INTO strategy_runs (user_id, kind, status, progress, params, finished_at)
      VALUES ($1, 'BACKTEST', 'COMPLETE', 100, $2, now()) RETURNING run_id`, [trader.userId, JSON.stringify(params)])).run_id;
  }

  it('gives four creations racing for the default name four names, numbered in turn', async () => {
    const trader = await newTrader();
    const backtestRunId = await finishedBacktest(trader);
    const results = await Promise.all([1, 2, 3, 4].map(() => strategyFromBacktest(db.pool, { actorId: trader.userId, userId: trader.userId, backtestRunId })));
    expect(results.every((result) => result.ok)).toBe(true);
    const { rows } = await db.pool.query<{ name: string; interval_minutes: number; strategy_type: string }>(
      'SELECT name, interval_minutes, strategy_type FROM strategies WHERE user_id = $1 ORDER BY name', [trader.userId]);
    const base = 'sma cross on NIFTY, 15-minute, swing (from the backtest of 2024-06-03 to 2024-06-07)';
    expect(rows).toEqual([base, `${base} (2)`, `${base} (3)`, `${base} (4)`].map((name) => ({ name, interval_minutes: 15, strategy_type: 'swing' })));
  });

  it('refuses a manager who does not manage the user, and writes nothing', async () => {
    const trader = await newTrader();
    const stranger = await newTrader();
    const backtestRunId = await finishedBacktest(trader);
    const refused = issuesOf(await strategyFromBacktest(db.pool, { actorId: stranger.userId, userId: trader.userId, backtestRunId }));
    expect(codes(refused)).toEqual(['not-managed']);
    expect(await one('SELECT count(*)::int AS n FROM strategies WHERE user_id = $1', [trader.userId])).toEqual({ n: 0 });
  });
});

describe('stopStrategy and the licence slot', () => {
  it('gives the slot back once, however often it is released', async () => {
    const trader = await newTrader();
    const strategyId = await newStrategy(trader);
    const deployed = await deployStrategy(db.pool, { actorId: trader.userId, userId: trader.userId, strategyId, mode: 'PAPER', replay: REPLAY }, deps);
    if (!deployed.ok) throw new Error(JSON.stringify(deployed.error));
    expect(await utilized(trader.licenceId)).toBe(1);
    const stopped = await stopStrategy(db.pool, { actorId: trader.userId, userId: trader.userId, strategyId, squareOff: false });
    expect(stopped).toEqual({ ok: true, value: { runId: deployed.value.runId } });
    expect(await utilized(trader.licenceId)).toBe(0);
    const client = await db.pool.connect();
    try {
      expect(await releaseLicenceSlot(client, deployed.value.runId)).toBe(false);
    } finally {
      client.release();
    }
    expect(await utilized(trader.licenceId)).toBe(0);
    expect(await one('SELECT stop_square_off, stop_requested_at IS NOT NULL AS requested, licence_id FROM strategy_runs WHERE run_id = $1', [deployed.value.runId]))
      .toEqual({ stop_square_off: false, requested: true, licence_id: null });
    // Stopped already: a second stop is refused and changes nothing.
    expect(codes(issuesOf(await stopStrategy(db.pool, { actorId: trader.userId, userId: trader.userId, strategyId, squareOff: true })))).toEqual(['invalid-status']);
    expect(await one('SELECT stop_square_off FROM strategy_runs WHERE run_id = $1', [deployed.value.runId])).toEqual({ stop_square_off: false });
  });
});

describe('confirmSignal', () => {
  it('refuses a signal whose run has ended, and one already processed', async () => {
    const trader = await newTrader();
    const strategyId = await newStrategy(trader);
    const deployed = await deployStrategy(db.pool, { actorId: trader.userId, userId: trader.userId, strategyId, mode: 'PAPER', replay: REPLAY }, deps);
    if (!deployed.ok) throw new Error(JSON.stringify(deployed.error));
    const signal = async (): Promise<string> => (await one<{ pending_signal_id: string }>(
      `INSERT INTO pending_signals (strategy_id, user_id, run_id, payload, expires_at) VALUES ($1, $2, $3, '{"side": "BUY"}', now() + interval '1 hour') RETURNING pending_signal_id`,
      [strategyId, trader.userId, deployed.value.runId])).pending_signal_id;
    const first = await signal();
    const acting = { actorId: trader.userId, userId: trader.userId };
    expect((await confirmSignal(db.pool, { ...acting, pendingSignalId: first, accept: false })).ok).toBe(true);
    expect(issuesOf(await confirmSignal(db.pool, { ...acting, pendingSignalId: first, accept: true })))
      .toEqual([{ field: 'pending_signal_id', code: 'signal-processed', message: 'the signal was processed already (REJECTED)' }]);
    const second = await signal();
    await stopStrategy(db.pool, { ...acting, strategyId, squareOff: false });
    expect(codes(issuesOf(await confirmSignal(db.pool, { ...acting, pendingSignalId: second, accept: true })))).toEqual(['run-ended']);
    expect(await one('SELECT state, outcome FROM pending_signals WHERE pending_signal_id = $1', [second])).toEqual({ state: 'PENDING', outcome: null });
  });
});

describe('migration 0019 as any SQL client meets it', () => {
  async function refusal(sql: string, values: unknown[]): Promise<{ code: string; constraint: string; message: string }> {
    const error = await db.pool.query(sql, values).then(() => undefined, (caught: unknown) => caught as pg.DatabaseError);
    if (error === undefined) throw new Error(`expected ${sql} to be refused`);
    return { code: error.code ?? '', constraint: error.constraint ?? '', message: error.message };
  }

  it('walks an algo strategy only along its life, and ACTIVE only through deploy', async () => {
    const trader = await newTrader();
    const strategyId = await newStrategy(trader);
    const move = (status: string): Promise<unknown> => db.pool.query('UPDATE strategies SET status = $2 WHERE strategy_id = $1', [strategyId, status]);
    const refusedMove = (status: string): Promise<{ code: string; constraint: string; message: string }> =>
      refusal('UPDATE strategies SET status = $2 WHERE strategy_id = $1', [strategyId, status]);
    expect(await refusedMove('ACTIVE')).toEqual({
      code: '23514', constraint: 'strategies_status_transition', message: `a strategy becomes ACTIVE only through deploy_strategy (strategy ${strategyId})`,
    });
    expect((await refusedMove('PAUSED')).message).toBe(`strategy ${strategyId} cannot go from DRAFT to PAUSED `
      + '(DRAFT -> ACTIVE <-> PAUSED -> STOPPED; ARCHIVED from any status but ACTIVE; ARCHIVED -> DRAFT)');
    expect((await refusedMove('STOPPED')).constraint).toBe('strategies_status_transition');
    await move('ARCHIVED');
    expect((await refusedMove('STOPPED')).constraint).toBe('strategies_status_transition');
    await move('DRAFT');
    await deployStrategy(db.pool, { actorId: trader.userId, userId: trader.userId, strategyId, mode: 'PAPER', replay: REPLAY }, deps);
    expect(await statusOf(strategyId)).toBe('ACTIVE');
    expect((await refusedMove('ARCHIVED')).constraint).toBe('strategies_status_transition');
    expect((await refusedMove('DRAFT')).constraint).toBe('strategies_status_transition');
    await db.pool.query(`UPDATE strategies SET name = 'renamed while running' WHERE strategy_id = $1`, [strategyId]);
    await move('PAUSED');
    expect((await refusedMove('ACTIVE')).constraint).toBe('strategies_status_transition');
    await move('STOPPED');
    await move('ARCHIVED');
    // The flag holds only in the transaction that sets it.
    const client = await db.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(`SET LOCAL vyuha.deploying = 'on'`);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    await move('DRAFT');
    expect((await refusedMove('ACTIVE')).constraint).toBe('strategies_status_transition');
  });

  it('refuses inserting an ACTIVE algo strategy, and leaves a basket its free label except ACTIVE', async () => {
    const trader = await newTrader();
    expect((await refusal(
      `INSERT INTO strategies (user_id, name, kind, algorithm_id, algorithm_version, status) VALUES ($1, 'sneaky', 'algo', $2, 1, 'ACTIVE')`,
      [trader.userId, trader.algorithmId])).constraint).toBe('strategies_status_transition');
    const basket = await newStrategy(trader, {}, { kind: 'basket' });
    await db.pool.query(`UPDATE strategies SET status = 'PAUSED' WHERE strategy_id = $1`, [basket]);
    await db.pool.query(`UPDATE strategies SET status = 'DRAFT' WHERE strategy_id = $1`, [basket]);
    expect((await refusal(`UPDATE strategies SET status = 'ACTIVE' WHERE strategy_id = $1`, [basket])).constraint).toBe('strategies_status_transition');
  });

  it('keeps PENDING without an outcome and PROCESSED with one; a plain update to PROCESSED is a dismissal', async () => {
    const trader = await newTrader();
    const strategyId = await newStrategy(trader);
    const { pending_signal_id: id } = await one<{ pending_signal_id: string }>(
      `INSERT INTO pending_signals (strategy_id, user_id, payload) VALUES ($1, $2, '{}') RETURNING pending_signal_id`, [strategyId, trader.userId]);
    expect((await refusal(`UPDATE pending_signals SET outcome = 'ACCEPTED' WHERE pending_signal_id = $1`, [id])).constraint)
      .toBe('pending_signals_outcome_matches_state');
    await db.pool.query(`UPDATE pending_signals SET state = 'PROCESSED' WHERE pending_signal_id = $1`, [id]);
    expect(await one('SELECT state, outcome, processed_at IS NOT NULL AS processed FROM pending_signals WHERE pending_signal_id = $1', [id]))
      .toEqual({ state: 'PROCESSED', outcome: 'REJECTED', processed: true });
    expect((await refusal(`UPDATE pending_signals SET outcome = 'SOMETIMES' WHERE pending_signal_id = $1`, [id])).code).toBe('23514');
  });
});
