// A LIVE strategy through the whole path a user takes: deploy_strategy's data layer deploys it on
// the user's Zerodha account (a session for today), the worker's strategy runners take the LIVE run
// through its LiveAccounts, and, the session having died since, the run does not trade: it waits,
// leased, saying "Log in to Zerodha for today" in its status reason, and the user is alerted with
// the login link. A new login lets it go on; stopping the strategy ends the run.
import { istEpochMs } from '@vyuha/core';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invalidateBrokerSession } from '../../src/brokers/broker-sessions';
import { createJobQueue, type JobQueue } from '../../src/jobs/job-queue';
import { enqueueStrategyRun } from '../../src/jobs/strategy-run-jobs';
import { deployStrategy, stopStrategy } from '../../src/trading/deployments';
import { KillSwitchWatch } from '../../src/trading/kill-switch-watch';
import { LiveAccounts } from '../../src/trading/live/live-accounts';
import { startStrategyRunners } from '../../src/trading/runner/strategy-runners';
import type { RunOutcome } from '../../src/trading/runner/strategy-runners';
import { freshDatabase, type TestDatabase } from '../helpers/db';
import { algorithm, strategyOf } from '../trading-runner/runner-test-support';
import { createLiveWorld, logIn, relianceConfig, TODAY, type LiveWorld } from './live-test-support';

let db: TestDatabase;
let world: LiveWorld;
let queue: JobQueue;
let killSwitches: KillSwitchWatch;

beforeAll(async () => {
  db = await freshDatabase({ seeded: true });
  world = await createLiveWorld(db.pool);
  queue = createJobQueue({ connectionString: db.url, supervise: false });
  await queue.start();
  killSwitches = await KillSwitchWatch.open({ pool: db.pool });
  await db.pool.query('INSERT INTO user_permissions (user_id, permission) VALUES ($1, $2)', [world.userId, 'strategy:deploy']);
  await db.pool.query(`INSERT INTO deployed_strategies (user_id, available, utilized, expiry) VALUES ($1, 2, 0, '2099-01-01')`, [world.userId]);
}, 180_000);

afterAll(async () => {
  await killSwitches?.close();
  await queue?.stop();
  await world?.standIn.close();
  await db?.close();
});

async function until<T>(read: () => Promise<T | undefined>, what: string): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('a LIVE strategy deployed and taken by the strategy runners', () => {
  it('waits, saying to log in for today, while its account has no session, and ends when stopped', async () => {
    const ref = await algorithm(db.pool, world.userId, { buy: 'crossover(ema(close, 2), ema(close, 5))', sell: 'close < 0' });
    const strategyId = await strategyOf(db.pool, { userId: world.userId, instrumentId: world.reliance, config: relianceConfig(ref, { instrument: 'RELIANCE INDUSTRIES' }) });
    await db.pool.query(`UPDATE strategies SET algo_id = 'ALGO-RUNNER' WHERE strategy_id = $1`, [strategyId]);
    const deployed = await deployStrategy(db.pool, { actorId: world.userId, userId: world.userId, strategyId, mode: 'LIVE', userBrokerId: world.userBrokerId }, {
      enqueue: (client: pg.PoolClient, runId: string) => enqueueStrategyRun(queue, { client, runId }),
      now: () => world.scheduler.now(),
    });
    if (!deployed.ok) throw new Error(JSON.stringify(deployed.error));
    const { runId } = deployed.value;
    // The run started on the test's day (the database's clock is the real one; the runners' is the test's).
    await db.pool.query(`UPDATE strategy_runs SET started_at = $2 WHERE run_id = $1`, [runId, new Date(istEpochMs(TODAY, '08:00'))]);
    // The session dies after the deploy (the user logged in elsewhere).
    await invalidateBrokerSession(db.pool, world.userBrokerId, 'logged in elsewhere');
    const accounts = new LiveAccounts({
      pool: db.pool, keys: [world.key], kite: { apiUrl: world.standIn.apiUrl, tickerUrl: world.standIn.tickerUrl }, scheduler: world.scheduler, killSwitches, pollMs: 500,
    });
    const ended: RunOutcome[] = [];
    const runners = await startStrategyRunners({
      pool: db.pool, queue, log: () => undefined, marketClock: world.scheduler, scanIntervalMs: 200, heartbeatMs: 100,
      live: { accounts }, onRunEnded: (_runId, outcome) => ended.push(outcome),
    });
    try {
      await until(async () => (runners.running.has(runId) ? true : undefined), 'the runner to take the LIVE run');
      await world.scheduler.advanceTo(istEpochMs(TODAY, '09:14'));
      const reason = await until(async () => {
        const { rows } = await db.pool.query<{ status_reason: string | null }>('SELECT status_reason FROM strategy_runs WHERE run_id = $1', [runId]);
        return rows[0]?.status_reason?.startsWith('waiting: ') === true ? rows[0].status_reason : undefined;
      }, 'the waiting reason');
      expect(reason).toContain('Log in to Zerodha for today');
      const { rows: alerts } = await db.pool.query<{ kind: string; action_path: string }>('SELECT kind, action_path FROM trading_alerts WHERE user_id = $1', [world.userId]);
      expect(alerts).toEqual([{ kind: 'broker-session-missing', action_path: `/api/broker_login/zerodha/${world.clientId}` }]);
      // A new login: the run looks again within its minute (on the test's clock) and the wait ends.
      await logIn(world);
      await world.scheduler.advanceTo(istEpochMs(TODAY, '09:15'));
      await until(async () => {
        const { rows } = await db.pool.query<{ status_reason: string | null }>('SELECT status_reason FROM strategy_runs WHERE run_id = $1', [runId]);
        return rows[0]?.status_reason === null ? true : undefined;
      }, 'the wait to end after the login');
      const stopped = await stopStrategy(db.pool, { actorId: world.userId, userId: world.userId, strategyId, squareOff: false });
      expect(stopped.ok).toBe(true);
      await until(async () => (ended.length > 0 ? true : undefined), 'the run to end');
      expect(ended[0]).toMatchObject({ status: 'COMPLETE' });
      const { rows: [run] } = await db.pool.query<{ kind: string; status: string }>('SELECT kind, status FROM strategy_runs WHERE run_id = $1', [runId]);
      expect(run).toEqual({ kind: 'LIVE', status: 'COMPLETE' });
    } finally {
      await runners.stop();
      await accounts.closeAll();
    }
  }, 120_000);
});
