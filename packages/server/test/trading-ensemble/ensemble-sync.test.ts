// Ensemble sync (migration 0029) on a real PostgreSQL at 1-Dec-2026 10:00 IST with NIFTY at
// Rs 24,000 (the basket tests' world): a member algo strategy whose PAPER run holds 2 lots of the
// December NIFTY future on an investment of Rs 10 lakh; account A invests Rs 20 lakh (target 4
// lots), account B Rs 7.5 lakh (1.5 lots, rounded down to 1). The preview's orders are the ones
// apply places; inputs changed after the preview refuse the apply; a second apply of one token
// places nothing, also when two applies race; a LIVE account the server cannot trade through is
// refused at apply with nothing placed; a BACKTEST run of the member never counts; every
// role but administrator and superadmin is refused; bad input (as_of, history_from before
// 2021-01-01 included) names its field and writes nothing.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ensembleDetailAction, ensembleActions, ensembleSyncApplyAction, ensembleSyncPreviewAction,
} from '../../src/graphql/actions/ensemble-actions';
import type { GraphqlSession } from '../../src/graphql/types';
import { GraphqlFailure } from '../../src/graphql/types';
import { checkAccountRisk } from '../../src/trading/account-risk';
import { quoteBasket, registerLegInstruments } from '../../src/trading/baskets/basket-quotes';
import { freshDatabase, type TestDatabase } from '../helpers/db';
import { addUser, FUTURE, LOT, NOW, setLastPrices, TODAY } from '../trading-baskets/basket-support';
import { indexId } from '../trading-feeds/feed-test-support';
import { algorithm, createTrader, deployable, strategyOf } from '../trading-runner/runner-test-support';

let db: TestDatabase;
let admin: string;
let futureId: number;
let memberId: string;
let memberRun: string;
let accountA: string;
let accountB: string;
let ensembleId: string;
let fillSeq = 0;

const options = (): { pool: TestDatabase['pool']; now: () => number } => ({ pool: db.pool, now: () => NOW });

function sessionOf(userId: string, role: string): GraphqlSession {
  return { role, admin: false, variables: { 'x-hasura-user-id': userId, 'x-hasura-role': role } };
}

async function refusal(promise: Promise<unknown>): Promise<GraphqlFailure> {
  const error = await promise.then(() => undefined, (caught: unknown) => caught);
  expect(error).toBeInstanceOf(GraphqlFailure);
  return error as GraphqlFailure;
}

/** A filled order of `runId` (as its signals would leave it), at NOW minus a minute. */
async function fill(runId: string, side: 'BUY' | 'SELL', quantity: number): Promise<void> {
  fillSeq += 1;
  const { rows } = await db.pool.query<{ order_id: string }>(
    `INSERT INTO orders (client_order_id, run_id, strategy_id, user_id, instrument_id, side, quantity, filled_quantity, order_type, product, status, average_price_paise)
     SELECT $1, r.run_id, r.strategy_id, r.user_id, $2, $3, $4, $4, 'MARKET', 'NRML', 'FILLED', 2400000 FROM strategy_runs r WHERE r.run_id = $5 RETURNING order_id`,
    [`seed-${fillSeq}-${randomUUID().slice(0, 8)}`, futureId, side, quantity, runId]);
  await db.pool.query(`INSERT INTO fills (order_id, trade_id, quantity, price_paise, ts) VALUES ($1, $2, $3, 2400000, to_timestamp($4::float8 / 1000))`,
    [rows[0]!.order_id, `t${fillSeq}`, quantity, NOW - 60_000]);
}

async function brokerAccount(userId: string): Promise<string> {
  const { rows } = await db.pool.query<{ user_broker_id: string }>(
    `INSERT INTO user_brokers (user_id, broker, client_id) VALUES ($1, 'zerodha', $2) RETURNING user_broker_id`, [userId, `EN${randomUUID().slice(0, 6).toUpperCase()}`]);
  return rows[0]!.user_broker_id;
}

async function action(name: string, args: Record<string, unknown>, session = sessionOf(admin, 'administrator')): Promise<Record<string, unknown>> {
  const declared = ensembleActions(options()).find((candidate) => candidate.name === name);
  if (declared === undefined) throw new Error(`no action ${name}`);
  return await declared.handler({ session, args }) as Record<string, unknown>;
}

interface PlacedOrder { user_broker_id: string; symbol: string; side: string; quantity: number; status: string }

async function placedOrders(): Promise<PlacedOrder[]> {
  const { rows } = await db.pool.query<PlacedOrder>(
    `SELECT r.params ->> 'userBrokerId' AS user_broker_id, i.trading_symbol AS symbol, o.side, o.quantity, o.status
       FROM orders o JOIN strategy_runs r ON r.run_id = o.run_id JOIN instruments i ON i.instrument_id = o.instrument_id
      WHERE r.params -> 'ensemble' ->> 'ensembleId' = $1 ORDER BY 1, 2, 3`, [ensembleId]);
  return rows;
}

async function syncCount(): Promise<number> {
  const { rows } = await db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM ensemble_syncs WHERE ensemble_id = $1', [ensembleId]);
  return rows[0]!.n;
}

beforeAll(async () => {
  db = await freshDatabase({ seeded: true });
  await setLastPrices(db.pool);
  const nifty = await indexId(db.pool, 'NIFTY 50');
  admin = await createTrader(db.pool, { tier: 'administrator' });
  const trader = await createTrader(db.pool, { permissions: ['strategy:deploy'] });
  const algo = await algorithm(db.pool, trader, { buy: 'crossover(ema(close, 5), ema(close, 13))', sell: 'crossunder(ema(close, 5), ema(close, 13))' });
  memberId = await strategyOf(db.pool, { userId: trader, instrumentId: nifty, config: deployable(algo) });
  const quoted = await quoteBasket(db.pool, { version: 1, product: 'NRML', legs: [{ symbol: FUTURE, side: 'BUY', lots: 1, order_type: 'MARKET' }] }, NOW);
  futureId = (await registerLegInstruments(db.pool, quoted.legs, NOW))[0]!.instrumentId as number;
  const started = new Date(NOW - 3_600_000).toISOString();
  const { rows } = await db.pool.query<{ run_id: string }>(
    `INSERT INTO strategy_runs (strategy_id, user_id, kind, status, params, started_at) VALUES ($1, $2, 'PAPER', 'IN PROGRESS', $3, $4) RETURNING run_id`,
    [memberId, trader, JSON.stringify({ mode: 'PAPER', config: { investment: 100_000_000 } }), started]);
  memberRun = rows[0]!.run_id;
  await fill(memberRun, 'BUY', 2 * LOT);
  // A newer BACKTEST of the member holding 50 lots short: never counted.
  const backtest = await db.pool.query<{ run_id: string }>(
    `INSERT INTO strategy_runs (strategy_id, user_id, kind, status, params, started_at) VALUES ($1, $2, 'BACKTEST', 'IN PROGRESS', $3, $4) RETURNING run_id`,
    [memberId, trader, JSON.stringify({ config: { investment: 100_000_000 } }), new Date(NOW - 60_000).toISOString()]);
  await fill(backtest.rows[0]!.run_id, 'SELL', 50 * LOT);
  accountA = await brokerAccount(await addUser(db.pool));
  accountB = await brokerAccount(await addUser(db.pool));
}, 120_000);

afterAll(async () => {
  await db?.close();
});

describe('ensemble management', () => {
  it('creates an ensemble with a member and two accounts, refusing bad input by field', async () => {
    ensembleId = (await action('create_ensemble', { name: 'Index momentum' })).ensemble_id as string;
    const notAlgo = await refusal(action('set_ensemble_member', { ensemble_id: ensembleId, member_strategy_id: ensembleId }));
    expect(notAlgo.message).toBe('member_strategy_id: a member must be an algo strategy, this one is a ensemble');
    await action('set_ensemble_member', { ensemble_id: ensembleId, member_strategy_id: memberId });
    const zero = await refusal(action('set_ensemble_account', { ensemble_id: ensembleId, user_broker_id: accountA, investment_paise: 0, mode: 'PAPER' }));
    expect(zero.message).toBe('investment_paise: a whole number of paise above 0, got 0');
    expect(zero.toGraphqlError().extensions.path).toBe('$.selectionSet.set_ensemble_account.args.investment_paise');
    const live = await refusal(action('set_ensemble_account', { ensemble_id: ensembleId, user_broker_id: accountA, investment_paise: 100, mode: 'LIVE' }));
    expect(live.message).toMatch(/^mode: LIVE needs an account that can trade now: /);
    const unknown = randomUUID();
    const missing = await refusal(action('set_ensemble_account', { ensemble_id: ensembleId, user_broker_id: unknown, investment_paise: 100, mode: 'PAPER' }));
    expect(missing.message).toBe(`user_broker_id: no broker account ${unknown}`);
    const { rows } = await db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM ensemble_accounts WHERE ensemble_id = $1', [ensembleId]);
    expect(rows[0]!.n).toBe(0);
    await action('set_ensemble_account', { ensemble_id: ensembleId, user_broker_id: accountA, investment_paise: 200_000_000, mode: 'PAPER' });
    await action('set_ensemble_account', { ensemble_id: ensembleId, user_broker_id: accountB, investment_paise: 75_000_000, mode: 'PAPER' });
  });

  it('refuses manager, user, support and a tier at every action', async () => {
    for (const role of ['manager', 'user', 'support', 'advanced']) {
      const session = sessionOf(admin, role);
      for (const name of ['ensembles', 'ensemble_detail', 'ensemble_sync_preview', 'ensemble_sync_apply', 'create_ensemble', 'set_ensemble_account']) {
        const refused = await refusal(action(name, { ensemble_id: ensembleId, name: 'x', preview_token: '0'.repeat(64) }, session));
        expect(refused.code).toBe('permission-error');
        expect(refused.message).toBe(`role ${role} may not use ${name}`);
      }
    }
  });
});

describe('ensemble sync', () => {
  it('shows the drift from the PAPER run only (never the BACKTEST), rounded down to whole lots', async () => {
    const detail = await ensembleDetailAction(options(), { session: sessionOf(admin, 'administrator'), args: { ensemble_id: ensembleId } });
    const accounts = detail.accounts as Array<{ user_broker_id: string; in_sync: boolean; rows: Array<{ symbol: string; target: number; actual: number; drift: number }> }>;
    const byId = new Map(accounts.map((account) => [account.user_broker_id, account]));
    expect(byId.get(accountA)!.rows).toEqual([{ instrument_id: futureId, symbol: FUTURE, lot_size: LOT, target: 4 * LOT, actual: 0, drift: 4 * LOT }]);
    expect(byId.get(accountB)!.rows).toEqual([{ instrument_id: futureId, symbol: FUTURE, lot_size: LOT, target: LOT, actual: 0, drift: LOT }]);
    expect(byId.get(accountA)!.in_sync).toBe(false);
  });

  it('refuses as_of before 2021-01-01 naming the field', async () => {
    const early = await refusal(ensembleSyncPreviewAction(options(), { session: sessionOf(admin, 'superadmin'), args: { ensemble_id: ensembleId, as_of: '2020-12-31' } }));
    expect(early.message).toBe('as_of: the earliest ensemble sync date is 2021-01-01, got 2020-12-31');
    expect(early.toGraphqlError().extensions.path).toBe('$.selectionSet.ensemble_sync_preview.args.as_of');
  });

  it('refuses an apply after the positions changed, placing nothing', async () => {
    const preview = await ensembleSyncPreviewAction(options(), { session: sessionOf(admin, 'administrator'), args: { ensemble_id: ensembleId, as_of: TODAY } });
    await fill(memberRun, 'BUY', 2 * LOT);
    const stale = await refusal(ensembleSyncApplyAction(options(), {
      session: sessionOf(admin, 'administrator'), args: { ensemble_id: ensembleId, preview_token: preview.preview_token, as_of: TODAY },
    }));
    expect(stale.message).toBe('Positions changed since the preview; preview again');
    expect(await syncCount()).toBe(0);
    expect(await placedOrders()).toEqual([]);
    await fill(memberRun, 'SELL', 2 * LOT);
  });

  it('places exactly the previewed orders, and a second apply of the token places nothing', async () => {
    const session = sessionOf(admin, 'administrator');
    const preview = await ensembleSyncPreviewAction(options(), { session, args: { ensemble_id: ensembleId, as_of: TODAY } });
    const previewed = (preview.orders as Array<{ user_broker_id: string; symbol: string; side: string; quantity: number; estimated_price_paise: number }>)
      .map((order) => ({ user_broker_id: order.user_broker_id, symbol: order.symbol, side: order.side, quantity: order.quantity }))
      .sort((a, b) => a.user_broker_id.localeCompare(b.user_broker_id));
    expect(previewed).toHaveLength(2);
    expect(previewed).toContainEqual({ user_broker_id: accountA, symbol: FUTURE, side: 'BUY', quantity: 4 * LOT });
    expect(previewed).toContainEqual({ user_broker_id: accountB, symbol: FUTURE, side: 'BUY', quantity: LOT });
    const applied = await ensembleSyncApplyAction(options(), { session, args: { ensemble_id: ensembleId, preview_token: preview.preview_token, as_of: TODAY } });
    expect(applied).toMatchObject({ status: 'COMPLETE', already_applied: false });
    const placed = await placedOrders();
    expect(placed.map(({ status: _status, ...order }) => order).sort((a, b) => a.user_broker_id.localeCompare(b.user_broker_id))).toEqual(previewed);
    expect(placed.every((order) => order.status === 'FILLED')).toBe(true);

    const again = await ensembleSyncApplyAction(options(), { session, args: { ensemble_id: ensembleId, preview_token: preview.preview_token, as_of: TODAY } });
    expect(again).toEqual({ sync_id: applied.sync_id, status: 'COMPLETE', already_applied: true });
    expect(await placedOrders()).toHaveLength(2);
    expect(await syncCount()).toBe(1);

    const detail = await ensembleDetailAction(options(), { session, args: { ensemble_id: ensembleId } });
    expect((detail.accounts as Array<{ in_sync: boolean }>).every((account) => account.in_sync)).toBe(true);
    const history = detail.history as Array<{ sync_id: string; orders: Array<{ status: string; run_id: string | null; order_id: string | null }> }>;
    expect(history.map((row) => row.sync_id)).toEqual([applied.sync_id]);
    expect(history[0]!.orders.every((order) => order.status === 'FILLED' && order.run_id !== null && order.order_id !== null)).toBe(true);
    const { rows } = await db.pool.query<{ kind: string; owner: boolean }>(
      `SELECT DISTINCT r.kind, r.user_id = b.user_id AS owner FROM strategy_runs r JOIN user_brokers b ON b.user_broker_id = (r.params ->> 'userBrokerId')::uuid
        WHERE r.params -> 'ensemble' ->> 'ensembleId' = $1`, [ensembleId]);
    expect(rows).toEqual([{ kind: 'PAPER', owner: true }]);

    const quiet = await ensembleSyncPreviewAction(options(), { session, args: { ensemble_id: ensembleId, as_of: TODAY } });
    expect(quiet.orders).toEqual([]);
  });

  it('places one preview once when two applies of it race', async () => {
    const session = sessionOf(admin, 'superadmin');
    await fill(memberRun, 'SELL', 2 * LOT);
    const preview = await ensembleSyncPreviewAction(options(), { session, args: { ensemble_id: ensembleId, as_of: TODAY } });
    expect((preview.orders as Array<{ side: string; quantity: number }>).map((order) => [order.side, order.quantity]).sort())
      .toEqual([['SELL', 4 * LOT], ['SELL', LOT]].sort());
    const args = { ensemble_id: ensembleId, preview_token: preview.preview_token, as_of: TODAY };
    const both = await Promise.all([ensembleSyncApplyAction(options(), { session, args }), ensembleSyncApplyAction(options(), { session, args })]);
    expect(both.map((outcome) => outcome.already_applied).sort()).toEqual([false, true]);
    expect(both[0]!.sync_id).toBe(both[1]!.sync_id);
    const sells = (await placedOrders()).filter((order) => order.side === 'SELL');
    expect(sells.map((order) => order.quantity).sort((a, b) => a - b)).toEqual([LOT, 4 * LOT]);
    expect(await syncCount()).toBe(2);
  });

  it('refuses to apply to a LIVE account the server cannot trade through, placing nothing', async () => {
    const session = sessionOf(admin, 'administrator');
    const live = (await action('create_ensemble', { name: 'Live desk' })).ensemble_id as string;
    await action('set_ensemble_member', { ensemble_id: live, member_strategy_id: memberId });
    // Written as if its broker session had been good when it was subscribed.
    await db.pool.query(`INSERT INTO ensemble_accounts (ensemble_id, user_broker_id, investment_paise, mode) VALUES ($1, $2, 100000000, 'LIVE')`,
      [live, await brokerAccount(await addUser(db.pool))]);
    await fill(memberRun, 'BUY', 2 * LOT);
    const preview = await ensembleSyncPreviewAction(options(), { session, args: { ensemble_id: live, as_of: TODAY } });
    expect((preview.orders as Array<{ mode: string; side: string; quantity: number }>).map((order) => [order.mode, order.side, order.quantity])).toEqual([['LIVE', 'BUY', 2 * LOT]]);
    const refused = await refusal(ensembleSyncApplyAction(options(), { session, args: { ensemble_id: live, preview_token: preview.preview_token, as_of: TODAY } }));
    expect(refused.message).toBe('LIVE accounts cannot be synced on this server: no strategy worker queue is configured');
    const { rows } = await db.pool.query<{ syncs: number; runs: number }>(
      `SELECT (SELECT count(*)::int FROM ensemble_syncs WHERE ensemble_id = $1::uuid) AS syncs,
              (SELECT count(*)::int FROM strategy_runs WHERE params -> 'ensemble' ->> 'ensembleId' = $1::text) AS runs`, [live]);
    expect(rows[0]).toEqual({ syncs: 0, runs: 0 });
    await fill(memberRun, 'SELL', 2 * LOT);
  });

  it('filters the history from a date, refusing one before 2021-01-01 by its field', async () => {
    const session = sessionOf(admin, 'administrator');
    const early = await refusal(ensembleDetailAction(options(), { session, args: { ensemble_id: ensembleId, history_from: '2019-06-01' } }));
    expect(early.message).toBe('history_from: the earliest ensemble sync date is 2021-01-01, got 2019-06-01');
    expect(early.toGraphqlError().extensions.path).toBe('$.selectionSet.ensemble_detail.args.history_from');
    const all = await ensembleDetailAction(options(), { session, args: { ensemble_id: ensembleId, history_from: '2021-01-01' } });
    expect((all.history as unknown[]).length).toBe(2);
    const { rows } = await db.pool.query<{ created_at: Date }>('SELECT created_at FROM ensemble_syncs WHERE ensemble_id = $1 ORDER BY created_at DESC', [ensembleId]);
    expect((all.history as Array<{ created_at: string }>).map((row) => row.created_at)).toEqual(rows.map((row) => row.created_at.toISOString()));
  });

  it('squares off a halted account’s ensemble positions through the account watch, and syncs refuse the account that day', async () => {
    const session = sessionOf(admin, 'administrator');
    await fill(memberRun, 'BUY', 2 * LOT);
    const preview = await ensembleSyncPreviewAction(options(), { session, args: { ensemble_id: ensembleId, as_of: TODAY } });
    await ensembleSyncApplyAction(options(), { session, args: { ensemble_id: ensembleId, preview_token: preview.preview_token, as_of: TODAY } });
    const held = async (account: string): Promise<number[]> => (await db.pool.query<{ net: number }>(
      `SELECT p.net_quantity AS net FROM positions p JOIN strategy_runs r ON r.run_id = p.run_id
        WHERE r.params ->> 'userBrokerId' = $1 AND r.params -> 'ensemble' ->> 'ensembleId' = $2 AND p.net_quantity <> 0 ORDER BY r.started_at`,
      [account, ensembleId])).rows.map((row) => row.net);
    expect((await held(accountA)).reduce((sum, net) => sum + net, 0)).toBe(4 * LOT);
    const heldByB = await held(accountB);
    // Account A's stop was hit today (as the watch writes it).
    await db.pool.query(
      `INSERT INTO account_risk_days (user_broker_id, trading_day, pnl_paise, peak_pnl_paise, open_positions, investment_paise, session_state, halted_at, halt_kind, halt_message)
       VALUES ($1, $2, -500000, 0, 1, 200000000, 'NONE', to_timestamp($3::float8 / 1000), 'STOP', 'Account stop-loss of ₹5,000.00 hit')`, [accountA, TODAY, NOW]);
    const pass = await checkAccountRisk(db.pool, { nowMs: NOW });
    expect(pass.problems).toEqual([]);
    expect(new Set(pass.basketPositions.map((position) => position.userBrokerId))).toEqual(new Set([accountA]));
    expect(await held(accountA)).toEqual([]);
    expect(await held(accountB)).toEqual(heldByB);
    expect((await checkAccountRisk(db.pool, { nowMs: NOW })).basketPositions).toEqual([]);

    // The member still holds its 2 lots: account A's target is 4 lots again, and the sync would buy them.
    const next = await ensembleSyncPreviewAction(options(), { session, args: { ensemble_id: ensembleId, as_of: TODAY } });
    const refused = await refusal(ensembleSyncApplyAction(options(), { session, args: { ensemble_id: ensembleId, preview_token: next.preview_token, as_of: TODAY } }));
    expect(refused.message).toMatch(/^account EN\w+: takes no new orders today: Account stop-loss of ₹5,000.00 hit$/);
  });
});
