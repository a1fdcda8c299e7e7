// square_off_positions, end to end on one worker: a paper run of the EMA crossover replayed at 600x on
// a manual clock holds a position; the action refuses what is not the caller's (another account's
// position, a bad id, a backtest's position, a role that may not trade) and changes nothing; asked
// for the trader's own position it stops the strategy with its square-off, the runner closes the
// position at market, and every fill before the square-off is the backtest kernel's.
import { isoDate } from '@vyuha/core';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { squareOffPositionsAction } from '../../src/graphql/actions/square-off-action';
import type { GraphqlSession } from '../../src/graphql/types';
import { GraphqlFailure } from '../../src/graphql/types';
import { createJobQueue } from '../../src/jobs/job-queue';
import type { JobQueue } from '../../src/jobs/job-queue';
import { enqueueStrategyRun } from '../../src/jobs/strategy-run-jobs';
import { ManualScheduler } from '../../src/trading/feeds/scheduler';
import { deployStrategy } from '../../src/trading/deployments';
import { startStrategyRunners } from '../../src/trading/runner/strategy-runners';
import type { RunOutcome, StrategyRunners } from '../../src/trading/runner/strategy-runners';
import { freshDatabase, type TestDatabase } from '../helpers/db';
import { indexId, storeSyntheticHistory } from '../trading-feeds/feed-test-support';
import { algorithm, backtestFillsOf, createTrader, deployable, storedFills, strategyOf } from '../trading-runner/runner-test-support';

let db: TestDatabase;
let queue: JobQueue;
let nifty: number;
let worker: StrategyRunners;
let trader: string;
let strategyId: string;
let runId: string;
const clock = new ManualScheduler(Date.UTC(2026, 0, 1));
const ended = new Map<string, RunOutcome>();

const FROM = isoDate('2025-03-03');
const TO = isoDate('2025-03-07');

function sessionOf(userId: string, role = 'advanced'): GraphqlSession {
  return { role, admin: false, variables: { 'x-hasura-user-id': userId, 'x-hasura-role': role } };
}

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

async function stateOf(): Promise<{ strategy: string; stopRequested: boolean; run: string }> {
  const { rows } = await db.pool.query<{ strategy: string; stop_requested: boolean; run: string }>(
    `SELECT s.status AS strategy, r.stop_requested_at IS NOT NULL AS stop_requested, r.status AS run
       FROM strategy_runs r JOIN strategies s ON s.strategy_id = r.strategy_id WHERE r.run_id = $1`, [runId]);
  return { strategy: rows[0]!.strategy, stopRequested: rows[0]!.stop_requested, run: rows[0]!.run };
}

async function refusal(promise: Promise<unknown>): Promise<GraphqlFailure> {
  const error = await promise.then(() => undefined, (caught: unknown) => caught);
  expect(error).toBeInstanceOf(GraphqlFailure);
  return error as GraphqlFailure;
}

beforeAll(async () => {
  db = await freshDatabase({ seeded: true });
  await storeSyntheticHistory(db.pool, { from: FROM, to: TO, instruments: ['NIFTY 50'], seed: 'square-off' });
  nifty = await indexId(db.pool, 'NIFTY 50');
  queue = createJobQueue({ connectionString: db.url, supervise: false });
  await queue.start();
  trader = await createTrader(db.pool, { permissions: ['strategy:deploy'] });
  await db.pool.query(
    `INSERT INTO deployed_strategies (user_id, available, utilized, expiry) VALUES ($1, 1, 0, (now() AT TIME ZONE 'Asia/Kolkata')::date + 365)`, [trader]);
  worker = await startStrategyRunners({
    pool: db.pool, queue, log: () => undefined, workerId: 'square-off', pacing: clock, scanIntervalMs: 200, staleAfterMs: 1_000, heartbeatMs: 100,
    onRunEnded: (id, outcome) => ended.set(id, outcome),
  });
  const ref = await algorithm(db.pool, trader, { buy: 'crossover(ema(close, 5), ema(close, 13))', sell: 'crossunder(ema(close, 5), ema(close, 13))' });
  strategyId = await strategyOf(db.pool, { userId: trader, instrumentId: nifty, config: deployable(ref) });
  const deployed = await deployStrategy(db.pool, { actorId: trader, userId: trader, strategyId, mode: 'PAPER', replay: { from: FROM, to: TO, speed: 600 } }, {
    enqueue: (client: pg.PoolClient, id: string) => enqueueStrategyRun(queue, { client, runId: id }),
  });
  if (!deployed.ok) throw new Error(deployed.error.map((issue) => issue.message).join('; '));
  runId = deployed.value.runId;
  await until('the run leased', async () => worker.running.has(runId));
  // 600x on the manual clock: each 5 s step plays 50 minutes of market; step until the kernel holds a
  // position with the replay asleep (it has played every tick due), so the position stays until the tests act.
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

describe('square_off_positions', () => {
  it("refuses another account's position, a bad id, a backtest's position and a role that may not trade, changing nothing", async () => {
    const position = (await openPosition())!;
    const stranger = await createTrader(db.pool, { permissions: ['strategy:deploy'] });
    const theirs = await refusal(squareOffPositionsAction({ pool: db.pool, queue }, {
      session: sessionOf(stranger), args: { positions: [{ run_id: runId, instrument_id: position.instrument_id }] },
    }));
    expect(theirs.code).toBe('not-found');
    expect(theirs.message).toContain(`positions[0]: no position of run ${runId}`);

    const badId = await refusal(squareOffPositionsAction({ pool: db.pool, queue }, {
      session: sessionOf(trader), args: { positions: [{ run_id: 'not-a-uuid', instrument_id: position.instrument_id }] },
    }));
    expect(badId.code).toBe('validation-failed');
    expect(badId.message).toBe('positions[0].run_id must be a uuid, got "not-a-uuid"');

    const missing = await refusal(squareOffPositionsAction({ pool: db.pool, queue }, {
      session: sessionOf(trader), args: { positions: [{ run_id: runId, instrument_id: position.instrument_id + 999_999 }] },
    }));
    expect(missing.code).toBe('not-found');

    // A backtest's positions are results, not holdings: refused even when the rest of the request is good.
    const backtest = await db.pool.query<{ run_id: string }>(
      `INSERT INTO strategy_runs (strategy_id, user_id, kind, status, params) VALUES ($1, $2, 'BACKTEST', 'COMPLETE', '{}') RETURNING run_id`, [strategyId, trader]);
    const backtestRun = backtest.rows[0]!.run_id;
    await db.pool.query(
      'INSERT INTO positions (run_id, instrument_id, net_quantity, average_price_paise, open_cost_paise) VALUES ($1, $2, 50, 2200000, 110000000)', [backtestRun, nifty]);
    const both = await refusal(squareOffPositionsAction({ pool: db.pool, queue }, {
      session: sessionOf(trader),
      args: { positions: [{ run_id: runId, instrument_id: position.instrument_id }, { run_id: backtestRun, instrument_id: nifty }] },
    }));
    expect(both.message).toContain("positions[1]: NIFTY is a BACKTEST run's position");

    const trial = await refusal(squareOffPositionsAction({ pool: db.pool, queue }, {
      session: sessionOf(trader, 'trial'), args: { positions: [{ run_id: runId, instrument_id: position.instrument_id }] },
    }));
    expect(trial.code).toBe('permission-error');

    expect(await stateOf()).toEqual({ strategy: 'ACTIVE', stopRequested: false, run: 'IN PROGRESS' });
    expect(await openPosition()).toEqual(position);
  }, 60_000);

  it("closes the trader's paper position at market, stops the strategy, and keeps the kernel's fills", async () => {
    const position = (await openPosition())!;
    const answer = await squareOffPositionsAction({ pool: db.pool, queue }, {
      session: sessionOf(trader), args: { positions: [{ run_id: runId, instrument_id: position.instrument_id }] },
    });
    expect(answer).toEqual({ strategies: [{ strategy_id: strategyId, run_id: runId }] });
    // The runner reports the end (onRunEnded) just after it writes it.
    await until('the run ended', async () => (await stateOf()).run !== 'IN PROGRESS' && ended.has(runId));
    expect(await stateOf()).toEqual({ strategy: 'STOPPED', stopRequested: true, run: 'COMPLETE: SQUARED OFF' });
    expect(ended.get(runId)?.status).toBe('COMPLETE: SQUARED OFF');
    expect(await openPosition()).toBeUndefined();

    // Parity: every fill before the square-off is the backtest kernel's, in order; the last closes what was held.
    const stored = await storedFills(db.pool, runId);
    const expected = await backtestFillsOf(db.pool, runId);
    expect(stored.length).toBeGreaterThanOrEqual(2);
    expect(stored.slice(0, -1)).toEqual(expected.fills.slice(0, stored.length - 1));
    const last = stored.at(-1)!;
    expect(last.quantity).toBe(Math.abs(position.net_quantity));
    expect(last.side).toBe(position.net_quantity > 0 ? 'sell' : 'buy');
    const { rows } = await db.pool.query<{ square_off: boolean; order_type: string }>(
      `SELECT o.square_off, o.order_type FROM orders o WHERE o.run_id = $1 ORDER BY length(o.client_order_id) DESC, o.client_order_id DESC LIMIT 1`, [runId]);
    expect(rows[0]).toEqual({ square_off: true, order_type: 'MARKET' });

    // Asked again, the position is flat and its run has ended: refused, nothing changes.
    const again = await refusal(squareOffPositionsAction({ pool: db.pool, queue }, {
      session: sessionOf(trader), args: { positions: [{ run_id: runId, instrument_id: position.instrument_id }] },
    }));
    expect(again.message).toContain('has ended or is already stopping');
  }, 120_000);
});
