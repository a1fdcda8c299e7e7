// The account stop end to end on one worker: a paper run of the EMA crossover, deployed for a broker
// account, replayed at 600x on a manual clock until it holds a position; a manager sets the
// account's stop-loss at the day's loss; the worker's account watch halts the account, the run's
// own runner closes the position at market with one square-off order and ends the run, the alert
// says why, and further passes ask nothing more.
import { isoDate } from '@vyuha/core';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setAccountRiskAction } from '../../src/graphql/actions/account-risk-action';
import { createJobQueue } from '../../src/jobs/job-queue';
import type { JobQueue } from '../../src/jobs/job-queue';
import { enqueueStrategyRun } from '../../src/jobs/strategy-run-jobs';
import { checkAccountRisk } from '../../src/trading/account-risk';
import { ManualScheduler } from '../../src/trading/feeds/scheduler';
import { deployStrategy } from '../../src/trading/deployments';
import { startStrategyRunners } from '../../src/trading/runner/strategy-runners';
import type { RunOutcome, StrategyRunners } from '../../src/trading/runner/strategy-runners';
import { freshDatabase, type TestDatabase } from '../helpers/db';
import { indexId, storeSyntheticHistory } from '../trading-feeds/feed-test-support';
import { algorithm, createTrader, deployable, strategyOf } from '../trading-runner/runner-test-support';

let db: TestDatabase;
let queue: JobQueue;
let worker: StrategyRunners;
let manager: string;
let trader: string;
let account: string;
let runId: string;
const clock = new ManualScheduler(Date.UTC(2026, 0, 1));
const ended = new Map<string, RunOutcome>();

const FROM = isoDate('2025-03-03');
const TO = isoDate('2025-03-07');

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 90_000): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function openPosition(): Promise<{ instrument_id: number; net_quantity: number } | undefined> {
  const { rows } = await db.pool.query<{ instrument_id: number; net_quantity: number }>(
    'SELECT instrument_id, net_quantity FROM positions WHERE run_id = $1 AND net_quantity <> 0', [runId]);
  return rows[0];
}

beforeAll(async () => {
  db = await freshDatabase({ seeded: true });
  await storeSyntheticHistory(db.pool, { from: FROM, to: TO, instruments: ['NIFTY 50'], seed: 'square-off' });
  const nifty = await indexId(db.pool, 'NIFTY 50');
  queue = createJobQueue({ connectionString: db.url, supervise: false });
  await queue.start();
  manager = await createTrader(db.pool, { tier: 'manager' });
  trader = await createTrader(db.pool, { permissions: ['strategy:deploy'] });
  await db.pool.query('INSERT INTO managers (manager_id, user_id) VALUES ($1, $2)', [manager, trader]);
  const { rows } = await db.pool.query<{ user_broker_id: string }>(
    `INSERT INTO user_brokers (user_id, broker, client_id, investment_amt_paise) VALUES ($1, 'zerodha', 'ZX1234', 100000000) RETURNING user_broker_id`, [trader]);
  account = rows[0]!.user_broker_id;
  await db.pool.query(
    `INSERT INTO deployed_strategies (user_id, available, utilized, expiry) VALUES ($1, 1, 0, (now() AT TIME ZONE 'Asia/Kolkata')::date + 365)`, [trader]);
  worker = await startStrategyRunners({
    pool: db.pool, queue, log: (message) => { if (message.startsWith('account risk')) process.stderr.write(`${message}\n`); }, workerId: 'account-risk', pacing: clock, scanIntervalMs: 200, staleAfterMs: 1_000, heartbeatMs: 100,
    accountRiskMs: 100, onRunEnded: (id, outcome) => ended.set(id, outcome),
  });
  const ref = await algorithm(db.pool, trader, { buy: 'crossover(ema(close, 5), ema(close, 13))', sell: 'crossunder(ema(close, 5), ema(close, 13))' });
  const strategyId = await strategyOf(db.pool, { userId: trader, instrumentId: nifty, config: deployable(ref) });
  const deployed = await deployStrategy(db.pool, {
    actorId: trader, userId: trader, strategyId, mode: 'PAPER', replay: { from: FROM, to: TO, speed: 600 }, userBrokerId: account,
  }, { enqueue: (client: pg.PoolClient, id: string) => enqueueStrategyRun(queue, { client, runId: id }) });
  if (!deployed.ok) throw new Error(deployed.error.map((issue) => issue.message).join('; '));
  runId = deployed.value.runId;
  await until('the run leased', async () => worker.running.has(runId));
  // Step the manual clock until the kernel holds a position with the replay asleep, so it stays until the test acts.
  await until('an open position', async () => {
    if (clock.waiting === 0) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      return false;
    }
    if ((await openPosition()) !== undefined && clock.waiting > 0) return true;
    await clock.advanceTo(clock.now() + 5_000);
    await new Promise((resolve) => setTimeout(resolve, 20));
    return false;
  });
}, 300_000);

afterAll(async () => {
  await worker?.stop();
  await queue?.stop({ graceful: false });
  await db?.close();
});

describe('the account stop on a running paper run', () => {
  it('squares the account off once when its day P&L reaches -sl', async () => {
    const position = (await openPosition())!;
    // The watch records the account's day as it goes.
    const today = async (): Promise<{ pnl: number; halted: boolean; open_positions: number } | undefined> => (await db.pool.query<{ pnl: number; halted: boolean; open_positions: number }>(
      `SELECT pnl_paise::float8 AS pnl, halted_at IS NOT NULL AS halted, open_positions FROM account_risk_days
        WHERE user_broker_id = $1 ORDER BY trading_day DESC LIMIT 1`, [account])).rows[0];
    await until('the account day recorded', async () => (await today())?.open_positions === 1).catch(async (error: unknown) => {
      const { rows } = await db.pool.query('SELECT * FROM account_risk_days');
      throw new Error(`${String(error)}: ${JSON.stringify(rows)} ${JSON.stringify(await checkAccountRisk(db.pool))}`);
    });
    const day = (await today())!;
    expect(day).toMatchObject({ halted: false, open_positions: 1 });
    // An entry's charges put the day below 0 until the market moves; the stop is set at that loss.
    expect(day.pnl).toBeLessThan(0);
    const sl = Math.max(1, -day.pnl);
    await setAccountRiskAction({ pool: db.pool }, {
      session: { role: 'manager', admin: false, variables: { 'x-hasura-user-id': manager, 'x-hasura-role': 'manager' } },
      args: { user_broker_ids: [account], changes: { enable_sl: true, sl, default_sl: sl } },
    });

    await until('the run ended', async () => ended.has(runId));
    expect(ended.get(runId)?.status).toBe('COMPLETE: SQUARED OFF');
    expect(await openPosition()).toBeUndefined();
    const { rows: squareOffs } = await db.pool.query<{ quantity: number; side: string }>(
      // The replay's earlier days closed at their session's end with square-offs of their own: count those after the open position's entry
      // (orders are stamped in market time).
      `SELECT quantity, side FROM orders WHERE run_id = $1 AND square_off
          AND created_at > (SELECT max(created_at) FROM orders WHERE run_id = $1 AND NOT square_off)`, [runId]);
    expect(squareOffs).toEqual([{ quantity: Math.abs(position.net_quantity), side: position.net_quantity > 0 ? 'SELL' : 'BUY' }]);
    const { rows: alerts } = await db.pool.query<{ message: string }>(
      `SELECT message FROM trading_alerts WHERE user_broker_id = $1 AND kind = 'account-risk'`, [account]);
    expect(alerts.map((alert) => alert.message)).toEqual([expect.stringMatching(/^Account stop-loss of ₹[\d,.]+ hit on ZX1234 \(day P&L -₹[\d,.]+\): positions squared off/)]);

    // Later passes ask nothing more.
    const again = await checkAccountRisk(db.pool);
    expect(again.halted).toEqual([]);
    expect(again.stopped).toEqual([]);
    const halts = await db.pool.query(`SELECT 1 FROM audit_log WHERE action = 'account_risk.halted' AND entity_id = $1`, [account]);
    expect(halts.rowCount).toBe(1);
  }, 120_000);
});
