// LIVE baskets through the whole path: place_basket (mode LIVE, the trader's Zerodha account)
// writes the run and its job, the worker's strategy runners take it through their LiveAccounts,
// and the legs go to the Kite stand-in one at a time. Both legs filling ends the run COMPLETE
// with the broker's fills; a leg the broker rejects stops the placement (the legs after it are
// not sent) and the user squares the filled one off, again through the runners. A LIMIT leg that
// does not fill within LIVE_LEG_FILL_WAIT_MS is cancelled at the broker. A run taken over by
// another worker mid-leg sends nothing twice. A session lost after the placement was accepted
// ends the run ERROR saying so, nothing sent. The action's refusals (no account, someone else's,
// a paper-only tier) write nothing. A COMPLETE basket's position is squared off from /positions
// (square_off_positions) through the runners, once: the close goes to the broker and the run ends
// COMPLETE: SQUARED OFF; resumed after a worker died before ending it, it sends nothing again.
// The choice's square-off closes what the run holds, not what its legs say (the stand-in fills an
// order whole, so a leg's part filled before its cancel is written on the run's position here, as
// its fill would).
import { istEpochMs } from '@vyuha/core';
import { chargeModelOf } from '@vyuha/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basketActions } from '../../src/graphql/actions/basket-actions';
import { squareOffPositionsAction } from '../../src/graphql/actions/square-off-action';
import type { GraphqlSession } from '../../src/graphql/types';
import { GraphqlFailure } from '../../src/graphql/types';
import { invalidateBrokerSession } from '../../src/brokers/broker-sessions';
import { createJobQueue, STRATEGY_RUN_QUEUE, type JobQueue } from '../../src/jobs/job-queue';
import { enqueueStrategyRun } from '../../src/jobs/strategy-run-jobs';
import { LIVE_LEG_FILL_WAIT_MS } from '../../src/trading/baskets/live-basket';
import type { LiveAccounts } from '../../src/trading/live/live-accounts';
import { startStrategyRunners, type StrategyRunners } from '../../src/trading/runner/strategy-runners';
import { logIn, RELIANCE_TOKEN, TODAY, useLiveWorld } from '../trading-live/live-test-support';
import { createTrader } from '../trading-runner/runner-test-support';

const suite = useLiveWorld();
/** RELIANCE's last price (its last stored candle's close), the broker's price too. */
let PRICE = 0;
let queue: JobQueue;
let accounts: LiveAccounts;
let runners: StrategyRunners;

async function startRunners(): Promise<StrategyRunners> {
  const { db, world } = suite();
  return startStrategyRunners({
    pool: db.pool, queue, log: () => undefined, marketClock: world.scheduler, scanIntervalMs: 200, heartbeatMs: 100,
    live: { accounts, defaultAlgoId: 'ALGO-BASKET-TEST' },
  });
}

/** The run row once it has ended, the clock moving meanwhile. */
async function ended(runId: string): Promise<{ status: string; result: { legs: Array<{ status: string }> } }> {
  const { db, world } = suite();
  const deadline = Date.now() + 30_000;
  for (;;) {
    const { rows: [run] } = await db.pool.query<{ status: string; result: { legs: Array<{ status: string }> } }>('SELECT status, result FROM strategy_runs WHERE run_id = $1', [runId]);
    if (run !== undefined && run.status !== 'IN PROGRESS') return run;
    if (Date.now() > deadline) throw new Error(`run ${runId} did not end`);
    await new Promise((resolve) => setTimeout(resolve, 25));
    await world.scheduler.advanceTo(world.scheduler.now() + 100);
  }
}

beforeAll(async () => {
  const { db, world } = suite();
  await world.scheduler.advanceTo(istEpochMs(TODAY, '10:00'));
  const { rows: [last] } = await db.pool.query<{ price: number }>('SELECT price_paise::int AS price FROM instrument_last_prices WHERE instrument_id = $1', [world.reliance]);
  PRICE = last!.price;
  world.standIn.tick(RELIANCE_TOKEN, PRICE);
  queue = createJobQueue({ connectionString: db.url, supervise: false });
  await queue.start();
  accounts = suite().accounts();
  runners = await startRunners();
}, 180_000);

afterAll(async () => {
  await runners?.stop();
  await accounts?.closeAll();
  await queue?.stop();
});

function session(userId: string): GraphqlSession {
  return { role: 'advanced', admin: false, variables: { 'x-hasura-user-id': userId, 'x-hasura-role': 'advanced' } };
}

/** The action's answer, the world's clock moving meanwhile as a wall clock does (100 ms every 25 ms): Kite's limits and the legs' waits run on it. */
async function call(name: string, request: { userId?: string; args: Record<string, unknown>; answerWaitMs?: number }): Promise<Record<string, unknown>> {
  const { db, world } = suite();
  const options = { pool: db.pool, queue, now: () => world.scheduler.now(), defaultAlgoId: 'ALGO-BASKET-TEST', ...(request.answerWaitMs === undefined ? {} : { answerWaitMs: request.answerWaitMs }) };
  const action = basketActions(options).find((candidate) => candidate.name === name);
  if (action === undefined) throw new Error(`no action ${name}`);
  let moving = true;
  const clock = (async () => {
    while (moving) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      await world.scheduler.advanceTo(world.scheduler.now() + 100);
    }
  })();
  try {
    return await action.handler({ session: session(request.userId ?? world.userId), args: request.args }) as Record<string, unknown>;
  } finally {
    moving = false;
    await clock;
  }
}

async function failureOf(work: Promise<unknown>): Promise<ReturnType<GraphqlFailure['toGraphqlError']>> {
  try {
    await work;
  } catch (error) {
    if (error instanceof GraphqlFailure) return error.toGraphqlError();
    throw error;
  }
  throw new Error('expected a refusal');
}

async function saveBasket(legs: ReadonlyArray<Record<string, unknown>>): Promise<string> {
  const saved = await call('save_basket', { args: { name: 'Live basket', product: 'MIS', legs } });
  return saved.strategy_id as string;
}

const buy = (quantity: number): Record<string, unknown> => ({ symbol: 'RELIANCE', side: 'BUY', quantity, order_type: 'MARKET' });

interface Placement {
  run_id: string; complete: boolean; needs_choice: boolean; pending: boolean; choice: string | null;
  legs: Array<{ status: string; message: string | null; average_price_paise: number | null; charges_paise: number; quantity: number }>;
  square_off: Array<{ status: string; side: string; quantity: number }>;
}

async function counts(): Promise<{ runs: number; jobs: number; orders: number }> {
  const { rows } = await suite().db.pool.query<{ runs: number; jobs: number; orders: number }>(
    `SELECT (SELECT count(*)::int FROM strategy_runs) AS runs, (SELECT count(*)::int FROM pgboss.job WHERE name = $1) AS jobs, (SELECT count(*)::int FROM orders) AS orders`,
    [STRATEGY_RUN_QUEUE]);
  return rows[0]!;
}

describe('a LIVE basket placed through the strategy runners', () => {
  it('sends both legs to the broker, takes its fills and ends the run COMPLETE', async () => {
    const { db, world } = suite();
    const strategyId = await saveBasket([buy(10), buy(5)]);
    const before = world.standIn.orders(world.clientId).length;
    const placed = await call('place_basket', { args: { strategy_id: strategyId, mode: 'LIVE', user_broker_id: world.userBrokerId } }) as unknown as Placement;
    expect(placed).toMatchObject({ complete: true, needs_choice: false, pending: false, legs: [{ status: 'FILLED' }, { status: 'FILLED' }] });
    const charged = chargeModelOf({ kind: 'schedule', exchange: 'NSE', instrument: 'equity-intraday' });
    for (const [index, quantity] of [10, 5].entries()) {
      expect(placed.legs[index]).toMatchObject({ quantity, average_price_paise: PRICE, message: null });
      expect(placed.legs[index]!.charges_paise).toBeCloseTo(charged({ date: TODAY, side: 'buy', price: PRICE as never, quantity }).total, 6);
    }
    const atBroker = world.standIn.orders(world.clientId).slice(before);
    expect(atBroker.map((order) => [order.status, order.quantity, order.transaction_type])).toEqual([['COMPLETE', 10, 'BUY'], ['COMPLETE', 5, 'BUY']]);
    const { rows: [run] } = await db.pool.query<{ kind: string; status: string; user_broker_id: string; filled: number; brokered: number }>(
      `SELECT r.kind, r.status, r.params ->> 'userBrokerId' AS user_broker_id,
         (SELECT count(*)::int FROM fills f JOIN orders o USING (order_id) WHERE o.run_id = r.run_id) AS filled,
         (SELECT count(*)::int FROM orders o WHERE o.run_id = r.run_id AND o.broker_order_id IS NOT NULL AND o.user_broker_id = $2) AS brokered
       FROM strategy_runs r WHERE r.run_id = $1`, [placed.run_id, world.userBrokerId]);
    expect(run).toEqual({ kind: 'LIVE', status: 'COMPLETE', user_broker_id: world.userBrokerId, filled: 2, brokered: 2 });
  }, 60_000);

  it('stops at a leg the broker rejects, sends none after it, and squares the filled leg off when asked', async () => {
    const { db, world } = suite();
    // Some Rs 60 crore of RELIANCE is past the account's Rs 50 crore of cash: the stand-in rejects it.
    const huge = Math.ceil(60_00_00_000_00 / PRICE);
    const strategyId = await saveBasket([buy(10), buy(huge), buy(5)]);
    const before = world.standIn.orders(world.clientId).length;
    const placed = await call('place_basket', { args: { strategy_id: strategyId, mode: 'LIVE', user_broker_id: world.userBrokerId } }) as unknown as Placement;
    expect(placed).toMatchObject({ complete: false, needs_choice: true, pending: false, legs: [{ status: 'FILLED' }, { status: 'REJECTED' }, { status: 'NOT_SENT' }] });
    expect(placed.legs[1]!.message).toContain('Insufficient funds');
    expect(world.standIn.orders(world.clientId).slice(before).map((order) => [order.status, order.quantity])).toEqual([['COMPLETE', 10], ['REJECTED', huge]]);
    const { rows: [ended] } = await db.pool.query<{ status: string; status_reason: string }>('SELECT status, status_reason FROM strategy_runs WHERE run_id = $1', [placed.run_id]);
    expect(ended!.status).toBe('ERROR');
    expect(ended!.status_reason).toContain('leg 2 (RELIANCE) was refused');

    const chosen = await call('choose_basket_outcome', { args: { run_id: placed.run_id, choice: 'square-off' } }) as unknown as Placement;
    expect(chosen).toMatchObject({ choice: 'square-off', pending: false, needs_choice: false, square_off: [{ status: 'FILLED', side: 'SELL', quantity: 10 }] });
    const sent = world.standIn.orders(world.clientId).slice(before);
    expect(sent.map((order) => [order.status, order.quantity, order.transaction_type])).toEqual([['COMPLETE', 10, 'BUY'], ['REJECTED', huge, 'BUY'], ['COMPLETE', 10, 'SELL']]);
    const { rows: [squared] } = await db.pool.query<{ status: string; status_reason: string; open: number }>(
      `SELECT status, status_reason, (SELECT count(*)::int FROM positions p WHERE p.run_id = r.run_id AND p.net_quantity <> 0) AS open FROM strategy_runs r WHERE run_id = $1`,
      [placed.run_id]);
    expect(squared).toEqual({ status: 'ERROR: SQUARED OFF', status_reason: ended!.status_reason, open: 0 });
    // Recorded once.
    const again = await failureOf(call('choose_basket_outcome', { args: { run_id: placed.run_id, choice: 'square-off' } }));
    expect(again.message).toContain('not a basket placement of yours waiting');
  }, 90_000);

  it('cancels a LIMIT leg the broker has not filled within the bounded wait', async () => {
    const { db, world } = suite();
    const strategyId = await saveBasket([{ symbol: 'RELIANCE', side: 'BUY', quantity: 3, order_type: 'LIMIT', price_paise: PRICE - 500 }, buy(5)]);
    const before = world.standIn.orders(world.clientId).length;
    const startedAt = world.scheduler.now();
    const placed = await call('place_basket', { args: { strategy_id: strategyId, mode: 'LIVE', user_broker_id: world.userBrokerId } }) as unknown as Placement;
    expect(world.scheduler.now() - startedAt).toBeGreaterThanOrEqual(LIVE_LEG_FILL_WAIT_MS);
    expect(placed).toMatchObject({ complete: false, needs_choice: false, pending: false, legs: [{ status: 'NOT_FILLED' }, { status: 'NOT_SENT' }] });
    expect(placed.legs[0]!.message).toBe('the LIMIT order did not fill within 30 s at Zerodha, so it was cancelled');
    expect(world.standIn.orders(world.clientId).slice(before).map((order) => order.status)).toEqual(['CANCELLED']);
    const { rows: [run] } = await db.pool.query<{ status: string }>('SELECT status FROM strategy_runs WHERE run_id = $1', [placed.run_id]);
    expect(run!.status).toBe('ERROR');
  }, 60_000);

  it('resumed by another runner, answers the leg already sent from its rows and sends only what is left', async () => {
    const { world } = suite();
    const strategyId = await saveBasket([{ symbol: 'RELIANCE', side: 'BUY', quantity: 2, order_type: 'LIMIT', price_paise: PRICE - 500 }, buy(4)]);
    const before = world.standIn.orders(world.clientId).length;
    const pending = await call('place_basket', { args: { strategy_id: strategyId, mode: 'LIVE', user_broker_id: world.userBrokerId }, answerWaitMs: 1_500 }) as unknown as Placement;
    expect(pending).toMatchObject({ pending: true, complete: false, needs_choice: false, legs: [{ status: 'PENDING' }, { status: 'PENDING' }] });
    expect(world.standIn.orders(world.clientId).slice(before).map((order) => order.status)).toEqual(['OPEN']);
    // The worker goes away with the LIMIT leg working at the broker; another one takes the run over.
    await runners.stop();
    runners = await startRunners();
    world.standIn.tick(RELIANCE_TOKEN, PRICE - 500);
    const run = await ended(pending.run_id);
    world.standIn.tick(RELIANCE_TOKEN, PRICE);
    expect(run).toMatchObject({ status: 'COMPLETE', result: { legs: [{ status: 'FILLED' }, { status: 'FILLED' }] } });
    expect(world.standIn.orders(world.clientId).slice(before).map((order) => [order.status, order.quantity])).toEqual([['COMPLETE', 2], ['COMPLETE', 4]]);
  }, 90_000);

  it('refuses LIVE without an account or with someone else\'s, writing nothing', async () => {
    const { db, world } = suite();
    const strategyId = await saveBasket([buy(1)]);
    const other = await createTrader(db.pool);
    const { rows: [account] } = await db.pool.query<{ user_broker_id: string }>(
      `INSERT INTO user_brokers (user_id, broker, client_id) VALUES ($1, 'zerodha', 'ZX9999') RETURNING user_broker_id`, [other]);
    const before = await counts();
    const none = await failureOf(call('place_basket', { args: { strategy_id: strategyId, mode: 'LIVE' } }));
    expect(none.message).toBe('user_broker_id: a LIVE strategy trades through one of your broker accounts: choose it');
    expect(none.extensions.path).toBe('$.selectionSet.place_basket.args.user_broker_id');
    const theirs = await failureOf(call('place_basket', { args: { strategy_id: strategyId, mode: 'LIVE', user_broker_id: account!.user_broker_id } }));
    expect(theirs.message).toBe(`user_broker_id: no broker account ${account!.user_broker_id} of yours`);
    // A paper-only tier is refused LIVE with deploy's words, whatever the account.
    const demo = await createTrader(db.pool, { tier: 'demo' });
    await db.pool.query(`INSERT INTO strategies (user_id, name, kind, status, mode, config) SELECT $1, name, kind, status, mode, config FROM strategies WHERE strategy_id = $2`, [demo, strategyId]);
    const { rows: [demoBasket] } = await db.pool.query<{ strategy_id: string }>(`SELECT strategy_id FROM strategies WHERE user_id = $1`, [demo]);
    const paperOnly = await failureOf(call('place_basket', { userId: demo, args: { strategy_id: demoBasket!.strategy_id, mode: 'LIVE', user_broker_id: world.userBrokerId } }));
    expect(paperOnly.message).toContain('demo and backtest accounts trade on PAPER only');
    expect(await counts()).toEqual(before);
  }, 30_000);

  it('ends ERROR with the session problem in words when the account lost its session after the placement was accepted', async () => {
    const { db, world } = suite();
    const strategyId = await saveBasket([buy(1)]);
    const { rows: [saved] } = await db.pool.query<{ basket: Record<string, unknown> }>(`SELECT config -> 'basket' AS basket FROM strategies WHERE strategy_id = $1`, [strategyId]);
    await invalidateBrokerSession(db.pool, world.userBrokerId, 'logged in elsewhere');
    const before = world.standIn.orders(world.clientId).length;
    const client = await db.pool.connect();
    let runId: string;
    try {
      // The run as place_basket writes it, the session ending just after.
      const { rows: [run] } = await client.query<{ run_id: string }>(
        `INSERT INTO strategy_runs (strategy_id, user_id, kind, status, params) VALUES ($1, $2, 'LIVE', 'IN PROGRESS', $3) RETURNING run_id`,
        [strategyId, world.userId, JSON.stringify({ basket: { ...saved!.basket, prices: [PRICE] }, userBrokerId: world.userBrokerId })]);
      runId = run!.run_id;
      await enqueueStrategyRun(queue, { client, runId });
    } finally {
      client.release();
    }
    const run = await ended(runId);
    await logIn(world);
    expect(run).toMatchObject({ status: 'ERROR', result: { legs: [{ status: 'NOT_SENT' }] } });
    const { rows: [row] } = await db.pool.query<{ status_reason: string }>('SELECT status_reason FROM strategy_runs WHERE run_id = $1', [runId]);
    expect(row!.status_reason).toContain('the basket was not placed');
    expect(row!.status_reason).toContain('Log in to Zerodha for today');
    expect(world.standIn.orders(world.clientId).length).toBe(before);
  }, 60_000);
});

describe('a LIVE basket squared off through the strategy runners', () => {
  it('closes a COMPLETE basket\'s position from /positions at the broker, once, and ends the run SQUARED OFF', async () => {
    const { db, world } = suite();
    const strategyId = await saveBasket([buy(10), buy(5)]);
    const placed = await call('place_basket', { args: { strategy_id: strategyId, mode: 'LIVE', user_broker_id: world.userBrokerId } }) as unknown as Placement;
    expect(placed).toMatchObject({ complete: true, pending: false });
    const before = world.standIn.orders(world.clientId).length;
    const { rows: [held] } = await db.pool.query<{ instrument_id: number; net_quantity: number }>(
      'SELECT instrument_id, net_quantity FROM positions WHERE run_id = $1 AND net_quantity <> 0', [placed.run_id]);
    expect(held).toEqual({ instrument_id: world.reliance, net_quantity: 15 });
    const ask = (): Promise<unknown> => squareOffPositionsAction({ pool: db.pool, queue }, {
      session: session(world.userId), args: { positions: [{ run_id: placed.run_id, instrument_id: world.reliance }] },
    });
    // Two clicks at once: one is taken, the other refused with nothing sent twice.
    const [first, second] = await Promise.allSettled([ask(), ask()]);
    const taken = [first, second].filter((outcome) => outcome.status === 'fulfilled');
    const refused = [first, second].filter((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    expect(taken).toEqual([{ status: 'fulfilled', value: { strategies: [{ strategy_id: strategyId, run_id: placed.run_id }] } }]);
    expect(refused).toHaveLength(1);
    expect((refused[0]!.reason as GraphqlFailure).message).toContain('is already being squared off by the strategy worker');
    const run = await ended(placed.run_id) as unknown as { status: string; result: Placement & { squareOff: Placement['square_off']; legs: Placement['legs'] } };
    expect(run.status).toBe('COMPLETE: SQUARED OFF');
    expect(run.result.squareOff).toMatchObject([{ status: 'FILLED', side: 'SELL', quantity: 15 }]);
    expect(run.result.legs.map((leg) => leg.status)).toEqual(['FILLED', 'FILLED']);
    expect(world.standIn.orders(world.clientId).slice(before).map((order) => [order.status, order.quantity, order.transaction_type])).toEqual([['COMPLETE', 15, 'SELL']]);
    const { rows: [after] } = await db.pool.query<{ open: number; decisions: string[]; status_reason: string | null }>(
      `SELECT (SELECT count(*)::int FROM positions p WHERE p.run_id = r.run_id AND p.net_quantity <> 0) AS open,
         (SELECT array_agg(o.client_order_id ORDER BY o.client_order_id) FROM orders o WHERE o.run_id = r.run_id) AS decisions, r.status_reason
       FROM strategy_runs r WHERE r.run_id = $1`, [placed.run_id]);
    // Placement decisions 0 and 1, the requested square-off's from 200 on.
    expect(after).toEqual({ open: 0, decisions: [`${placed.run_id}-0`, `${placed.run_id}-10`, `${placed.run_id}-2000`], status_reason: null });
    // Flat now: asked again, refused.
    const again = await failureOf(ask());
    expect(again.message).toContain('is already flat');
    expect(world.standIn.orders(world.clientId).length).toBe(before + 1);
  }, 90_000);

  it('resumed after the worker died before ending the run, sends no closing order again', async () => {
    const { db, world } = suite();
    const strategyId = await saveBasket([buy(4)]);
    const placed = await call('place_basket', { args: { strategy_id: strategyId, mode: 'LIVE', user_broker_id: world.userBrokerId } }) as unknown as Placement;
    expect(placed).toMatchObject({ complete: true, pending: false });
    await squareOffPositionsAction({ pool: db.pool, queue }, { session: session(world.userId), args: { positions: [{ run_id: placed.run_id, instrument_id: world.reliance }] } });
    expect((await ended(placed.run_id)).status).toBe('COMPLETE: SQUARED OFF');
    const sent = world.standIn.orders(world.clientId).length;
    // The run as a worker leaves it when it dies after the close filled but before ending the run.
    const client = await db.pool.connect();
    try {
      await client.query(`UPDATE strategy_runs SET status = 'IN PROGRESS', finished_at = NULL WHERE run_id = $1`, [placed.run_id]);
      await enqueueStrategyRun(queue, { client, runId: placed.run_id });
    } finally {
      client.release();
    }
    const resumed = await ended(placed.run_id) as unknown as { status: string; result: { squareOff: Placement['square_off'] } };
    expect(resumed.status).toBe('COMPLETE: SQUARED OFF');
    expect(resumed.result.squareOff).toMatchObject([{ status: 'FILLED', side: 'SELL', quantity: 4 }]);
    expect(world.standIn.orders(world.clientId).length).toBe(sent);
    const { rows: [orders] } = await db.pool.query<{ ids: string[] }>(
      'SELECT array_agg(client_order_id ORDER BY client_order_id) AS ids FROM orders WHERE run_id = $1', [placed.run_id]);
    expect(orders!.ids).toEqual([`${placed.run_id}-0`, `${placed.run_id}-2000`]);
  }, 90_000);

  it('refuses a square-off from /positions while the basket waits for its choice, and the choice closes what the run holds', async () => {
    const { db, world } = suite();
    const strategyId = await saveBasket([buy(10), { symbol: 'RELIANCE', side: 'BUY', quantity: 3, order_type: 'LIMIT', price_paise: PRICE - 500 }]);
    const placed = await call('place_basket', { args: { strategy_id: strategyId, mode: 'LIVE', user_broker_id: world.userBrokerId } }) as unknown as Placement;
    expect(placed).toMatchObject({ complete: false, needs_choice: true, legs: [{ status: 'FILLED' }, { status: 'NOT_FILLED' }] });
    const waiting = await failureOf(squareOffPositionsAction({ pool: db.pool, queue }, {
      session: session(world.userId), args: { positions: [{ run_id: placed.run_id, instrument_id: world.reliance }] },
    }));
    expect(waiting.message).toContain('waits for your keep-or-square-off choice on Baskets');
    // The LIMIT leg's 2 of 3 filled before its cancel, as Kite's fill would write them on the run's position.
    await db.pool.query(
      `UPDATE positions SET net_quantity = net_quantity + 2, open_cost_paise = open_cost_paise + 2 * $3::bigint WHERE run_id = $1 AND instrument_id = $2`,
      [placed.run_id, world.reliance, PRICE]);
    const before = world.standIn.orders(world.clientId).length;
    const chosen = await call('choose_basket_outcome', { args: { run_id: placed.run_id, choice: 'square-off' } }) as unknown as Placement;
    expect(chosen).toMatchObject({ choice: 'square-off', pending: false, square_off: [{ status: 'FILLED', side: 'SELL', quantity: 12 }] });
    expect(world.standIn.orders(world.clientId).slice(before).map((order) => [order.status, order.quantity, order.transaction_type])).toEqual([['COMPLETE', 12, 'SELL']]);
    const { rows: [squared] } = await db.pool.query<{ status: string; open: number; closing: string[] }>(
      `SELECT status, (SELECT count(*)::int FROM positions p WHERE p.run_id = r.run_id AND p.net_quantity <> 0) AS open,
         (SELECT array_agg(o.client_order_id) FROM orders o WHERE o.run_id = r.run_id AND o.side = 'SELL') AS closing
       FROM strategy_runs r WHERE run_id = $1`, [placed.run_id]);
    expect(squared).toEqual({ status: 'ERROR: SQUARED OFF', open: 0, closing: [`${placed.run_id}-1000`] });
  }, 90_000);
});
