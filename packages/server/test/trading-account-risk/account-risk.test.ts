// Account-level risk (migration 0026): set_account_risk's refusals (roles, accounts not managed,
// bad values naming their field: nothing written) and what it writes; then the account watch on
// accounts with seeded PAPER runs: a stop hit asks each run on the account to stop with its
// square-off once (a second pass asks nothing), a target, a trailing stop and a trailing target
// do the same, settings off do nothing, and a halted account refuses a deploy for the rest of the day.
// The square-off itself through a real runner and paper venue: account-risk-runner.test.ts.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setAccountRiskAction } from '../../src/graphql/actions/account-risk-action';
import type { GraphqlSession } from '../../src/graphql/types';
import { GraphqlFailure } from '../../src/graphql/types';
import { checkAccountRisk } from '../../src/trading/account-risk';
import { deployStrategy } from '../../src/trading/deployments';
import { freshDatabase, type TestDatabase } from '../helpers/db';
import { indexId } from '../trading-feeds/feed-test-support';
import { algorithm, createTrader, deployable, strategyOf } from '../trading-runner/runner-test-support';

let db: TestDatabase;
let nifty: number;
let manager: string;
let trader: string;
let algo: { id: string; version: number };

function sessionOf(userId: string, role: string): GraphqlSession {
  return { role, admin: false, variables: { 'x-hasura-user-id': userId, 'x-hasura-role': role } };
}

async function refusal(promise: Promise<unknown>): Promise<GraphqlFailure> {
  const error = await promise.then(() => undefined, (caught: unknown) => caught);
  expect(error).toBeInstanceOf(GraphqlFailure);
  return error as GraphqlFailure;
}

/** A new broker account of `userId`. */
async function brokerAccount(userId: string): Promise<string> {
  const { rows } = await db.pool.query<{ user_broker_id: string }>(
    `INSERT INTO user_brokers (user_id, broker, client_id, investment_amt_paise) VALUES ($1, 'zerodha', $2, 100000000) RETURNING user_broker_id`,
    [userId, `ZX${randomUUID().slice(0, 6).toUpperCase()}`]);
  return rows[0]!.user_broker_id;
}

/** An ACTIVE strategy of the trader with a PAPER run in progress on `userBrokerId` whose day (2026-01-05) made `pnlPaise`. */
async function runOn(userBrokerId: string, pnlPaise: number): Promise<{ strategyId: string; runId: string }> {
  const strategyId = await strategyOf(db.pool, { userId: trader, instrumentId: nifty, config: deployable(algo) });
  const client = await db.pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(`SET LOCAL vyuha.deploying = 'on'`);
    await client.query(`UPDATE strategies SET status = 'ACTIVE', mode = 'PAPER' WHERE strategy_id = $1`, [strategyId]);
    await client.query('COMMIT');
  } finally {
    client.release();
  }
  const { rows } = await db.pool.query<{ run_id: string }>(
    `INSERT INTO strategy_runs (strategy_id, user_id, kind, status, params) VALUES ($1, $2, 'PAPER', 'IN PROGRESS', $3) RETURNING run_id`,
    [strategyId, trader, JSON.stringify({ mode: 'PAPER', userBrokerId })]);
  const runId = rows[0]!.run_id;
  await setPnl(runId, pnlPaise);
  return { strategyId, runId };
}

async function setPnl(runId: string, pnlPaise: number): Promise<void> {
  await db.pool.query(
    `INSERT INTO daily_pnl (run_id, date, pnl_paise) VALUES ($1, '2026-01-05', $2) ON CONFLICT (run_id, date) DO UPDATE SET pnl_paise = EXCLUDED.pnl_paise`,
    [runId, pnlPaise]);
}

async function settings(userBrokerId: string, changes: Record<string, unknown>): Promise<void> {
  await setAccountRiskAction({ pool: db.pool }, { session: sessionOf(manager, 'manager'), args: { user_broker_ids: [userBrokerId], changes } });
}

async function runState(runId: string): Promise<{ stop: boolean; squareOff: boolean; strategy: string }> {
  const { rows } = await db.pool.query<{ stop: boolean; square_off: boolean; strategy: string }>(
    `SELECT r.stop_requested_at IS NOT NULL AS stop, r.stop_square_off AS square_off, s.status AS strategy
       FROM strategy_runs r JOIN strategies s ON s.strategy_id = r.strategy_id WHERE r.run_id = $1`, [runId]);
  return { stop: rows[0]!.stop, squareOff: rows[0]!.square_off, strategy: rows[0]!.strategy };
}

async function riskRow(userBrokerId: string): Promise<Record<string, unknown> | undefined> {
  const { rows } = await db.pool.query(
    `SELECT enable_sl, sl::float8 AS sl, default_sl::float8 AS default_sl, trail_mode, enable_target, tgt::float8 AS tgt, updated_by
       FROM account_risk WHERE user_broker_id = $1`, [userBrokerId]);
  return rows[0];
}

beforeAll(async () => {
  db = await freshDatabase({ seeded: true });
  nifty = await indexId(db.pool, 'NIFTY 50');
  manager = await createTrader(db.pool, { tier: 'manager' });
  trader = await createTrader(db.pool, { permissions: ['strategy:deploy'] });
  await db.pool.query('INSERT INTO managers (manager_id, user_id) VALUES ($1, $2)', [manager, trader]);
  await db.pool.query(
    `INSERT INTO deployed_strategies (user_id, available, utilized, expiry) VALUES ($1, 5, 0, (now() AT TIME ZONE 'Asia/Kolkata')::date + 365)`, [trader]);
  algo = await algorithm(db.pool, trader, { buy: 'crossover(ema(close, 5), ema(close, 13))', sell: 'crossunder(ema(close, 5), ema(close, 13))' });
}, 120_000);

afterAll(async () => {
  await db?.close();
});

describe('set_account_risk', () => {
  it('refuses other roles, accounts of users not managed, and bad values naming the field, writing nothing', async () => {
    const account = await brokerAccount(trader);
    const owner = await refusal(setAccountRiskAction({ pool: db.pool }, {
      session: sessionOf(trader, 'advanced'), args: { user_broker_ids: [account], changes: { enable_sl: false } },
    }));
    expect(owner.code).toBe('permission-error');
    expect(owner.message).toBe('role advanced may not use set_account_risk');

    const strangerManager = await createTrader(db.pool, { tier: 'manager' });
    const notManaged = await refusal(setAccountRiskAction({ pool: db.pool }, {
      session: sessionOf(strangerManager, 'manager'), args: { user_broker_ids: [account], changes: { sl: 100 } },
    }));
    expect(notManaged.code).toBe('not-found');
    expect(notManaged.message).toBe(`user_broker_ids[0]: no broker account ${account} of a user you manage`);

    const bad = [
      [{ sl: -5 }, 'sl: must be a whole number of hundredths, 0 or more, got -5'],
      [{ trail_mode: 'TICKS' }, 'trail_mode: must be POINTS or PERCENT, got "TICKS"'],
      [{ enable_sl: 'yes' }, 'enable_sl: must be true or false, got "yes"'],
      [{ enable_sl: true }, 'sl: set a stop-loss above 0 to turn enableSl on'],
      [{ trail_mode: 'PERCENT', default_sl: 20_000 }, 'default_sl: at most 100% in PERCENT mode'],
      [{ trail_enabled: true }, 'trail_tsl: set a trailing stop above 0'],
      [{ nonsense: 1 }, 'nonsense: not a risk setting'],
    ] as const;
    for (const [changes, message] of bad) {
      const failure = await refusal(setAccountRiskAction({ pool: db.pool }, {
        session: sessionOf(manager, 'manager'), args: { user_broker_ids: [account], changes },
      }));
      expect(failure.code, JSON.stringify(changes)).toBe('validation-failed');
      expect(failure.message, JSON.stringify(changes)).toContain(message);
      expect(failure.path).toContain('.args.changes.');
    }
    // One bad account in a bulk change refuses the other too.
    const other = await brokerAccount(trader);
    const foreign = await brokerAccount(strangerManager);
    const bulk = await refusal(setAccountRiskAction({ pool: db.pool }, {
      session: sessionOf(manager, 'manager'), args: { user_broker_ids: [other, foreign], changes: { enable_sl: true, sl: 100, default_sl: 100 } },
    }));
    expect(bulk.message).toContain('user_broker_ids[1]');
    expect(await riskRow(account)).toBeUndefined();
    expect(await riskRow(other)).toBeUndefined();
  });

  it("writes a managed account's settings (today's levels rolled from the defaults), and a superadmin writes any", async () => {
    const account = await brokerAccount(trader);
    const answer = await setAccountRiskAction({ pool: db.pool }, {
      session: sessionOf(manager, 'manager'), args: { user_broker_ids: [account], changes: { enable_sl: true, default_sl: '250000' } },
    });
    expect(answer).toEqual({ user_broker_ids: [account] });
    expect(await riskRow(account)).toEqual({ enable_sl: true, sl: 250_000, default_sl: 250_000, trail_mode: 'POINTS', enable_target: false, tgt: 0, updated_by: manager });
    // Today's stop tightened; the default stays.
    await settings(account, { sl: 100_000 });
    expect(await riskRow(account)).toMatchObject({ sl: 100_000, default_sl: 250_000 });

    const superadmin = await createTrader(db.pool, { tier: 'superadmin' });
    const foreign = await brokerAccount(await createTrader(db.pool));
    await setAccountRiskAction({ pool: db.pool }, {
      session: sessionOf(superadmin, 'superadmin'), args: { user_broker_ids: [foreign], changes: { enable_target: true, default_tgt: 500_000 } },
    });
    expect(await riskRow(foreign)).toMatchObject({ enable_target: true, tgt: 500_000, updated_by: superadmin });
    const audit = await db.pool.query(`SELECT 1 FROM audit_log WHERE action = 'account_risk.updated' AND entity_id = $1`, [foreign]);
    expect(audit.rowCount).toBe(1);
  });
});

describe('the account watch', () => {
  it('squares off an account whose day P&L hits -sl, once, with the reason in words', async () => {
    const account = await brokerAccount(trader);
    const { runId, strategyId } = await runOn(account, -300_000);
    const bystander = await runOn(await brokerAccount(trader), -900_000);
    await settings(account, { enable_sl: true, sl: 250_000, default_sl: 250_000 });

    const pass = await checkAccountRisk(db.pool);
    expect(pass.halted).toEqual([{ userBrokerId: account, kind: 'STOP', message: expect.stringContaining('Account stop-loss of ₹2,500.00 hit on ZX') as unknown }]);
    expect(pass.stopped).toEqual([{ userBrokerId: account, strategyId }]);
    expect(await runState(runId)).toEqual({ stop: true, squareOff: true, strategy: 'STOPPED' });
    // An account without settings is watched (its day recorded) but never stopped.
    expect(await runState(bystander.runId)).toEqual({ stop: false, squareOff: false, strategy: 'ACTIVE' });
    const { rows: days } = await db.pool.query(
      `SELECT to_char(trading_day, 'YYYY-MM-DD') AS day, pnl_paise::float8 AS pnl, halt_kind FROM account_risk_days WHERE user_broker_id = $1`, [account]);
    expect(days).toEqual([{ day: '2026-01-05', pnl: -300_000, halt_kind: 'STOP' }]);
    const { rows: alerts } = await db.pool.query<{ message: string }>(
      `SELECT message FROM trading_alerts WHERE user_broker_id = $1 AND kind = 'account-risk'`, [account]);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]!.message).toMatch(/^Account stop-loss of ₹2,500\.00 hit on ZX\w+ \(day P&L -₹3,000\.00\): positions squared off/);

    // Again: nothing new is asked.
    const again = await checkAccountRisk(db.pool);
    expect(again.halted).toEqual([]);
    expect(again.stopped).toEqual([]);
    const stops = await db.pool.query(`SELECT 1 FROM audit_log WHERE action = 'strategy.stopped' AND entity_id = $1`, [strategyId]);
    expect(stops.rowCount).toBe(1);

    // The rest of the day the account takes no deploy.
    const next = await strategyOf(db.pool, { userId: trader, instrumentId: nifty, config: deployable(algo) });
    const deployed = await deployStrategy(db.pool, { actorId: trader, userId: trader, strategyId: next, mode: 'PAPER', userBrokerId: account }, {
      enqueue: async () => undefined,
    });
    expect(deployed.ok).toBe(false);
    if (!deployed.ok) expect(deployed.error.map((issue) => issue.message).join('; ')).toContain('user_broker_id: the account takes no new entries today: Account stop-loss');
  });

  it('squares off at the target, and in percent of the investment', async () => {
    const account = await brokerAccount(trader);
    const { runId } = await runOn(account, 1_000_000);
    // 1% of ₹10 lakh = ₹10,000 = 1_000_000 paise.
    await settings(account, { trail_mode: 'PERCENT', enable_target: true, tgt: 100, default_tgt: 100 });
    const pass = await checkAccountRisk(db.pool);
    expect(pass.halted.map((halt) => [halt.userBrokerId, halt.kind])).toEqual([[account, 'TARGET']]);
    expect(pass.halted[0]!.message).toContain('Account target of ₹10,000.00 reached');
    expect(await runState(runId)).toMatchObject({ stop: true, squareOff: true });
  });

  it('trails the stop behind the peak, and the target once reached', async () => {
    const stopAccount = await brokerAccount(trader);
    const stopRun = await runOn(stopAccount, 500_000);
    await settings(stopAccount, { trail_enabled: true, trail_tsl: 300_000 });
    const targetAccount = await brokerAccount(trader);
    const targetRun = await runOn(targetAccount, 500_000);
    await settings(targetAccount, { enable_target: true, tgt: 400_000, default_tgt: 400_000, trail_enabled: true, trail_ttg: 200_000 });

    // At 5,000 the target is reached but trails; the stop's peak is 5,000.
    expect((await checkAccountRisk(db.pool)).halted).toEqual([]);
    await setPnl(targetRun.runId, 650_000);
    await setPnl(stopRun.runId, 250_000);
    expect((await checkAccountRisk(db.pool)).halted).toEqual([]);
    // The stop's P&L falls 3,000 below its 5,000 peak; the target's 2,000 below its 6,500 peak.
    await setPnl(stopRun.runId, 200_000);
    await setPnl(targetRun.runId, 450_000);
    const pass = await checkAccountRisk(db.pool);
    expect(pass.halted.map((halt) => [halt.userBrokerId, halt.kind]).sort()).toEqual([[stopAccount, 'TRAILING_STOP'], [targetAccount, 'TRAILING_TARGET']].sort());
    expect(await runState(stopRun.runId)).toMatchObject({ stop: true, squareOff: true });
    expect(await runState(targetRun.runId)).toMatchObject({ stop: true, squareOff: true });
  });

  it('does nothing with the settings off', async () => {
    const account = await brokerAccount(trader);
    const { runId } = await runOn(account, -50_000_000);
    await settings(account, { enable_sl: true, sl: 100, default_sl: 100 });
    await settings(account, { enable_sl: false });
    const pass = await checkAccountRisk(db.pool);
    expect(pass.halted).toEqual([]);
    expect(pass.days.find((day) => day.userBrokerId === account)).toMatchObject({ pnlPaise: -50_000_000, halted: false });
    expect(await runState(runId)).toEqual({ stop: false, squareOff: false, strategy: 'ACTIVE' });
  });
});
