// Where paper runs run: two workers (two sets of strategy runners) on one database and one pg-boss
// queue. A deployed strategy's run is run by exactly one of them; when its worker stops holding
// it (here: the worker stops; the chaos test kills processes), the other takes it over from the
// stale heartbeat and resumes it, and the run still ends with exactly the backtest's fills. A run
// that ends frees its licence slot and stops its strategy; a stop request ends a run early.
import { isoDate } from '@vyuha/core';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobQueue } from '../../src/jobs/job-queue';
import type { JobQueue } from '../../src/jobs/job-queue';
import { enqueueStrategyRun } from '../../src/jobs/strategy-run-jobs';
import { ManualScheduler } from '../../src/trading/feeds/scheduler';
import { deployStrategy, stopStrategy } from '../../src/trading/deployments';
import { startStrategyRunners } from '../../src/trading/runner/strategy-runners';
import type { RunOutcome, StrategyRunners } from '../../src/trading/runner/strategy-runners';
import { freshDatabase, type TestDatabase } from '../helpers/db';
import { indexId, storeSyntheticHistory } from '../trading-feeds/feed-test-support';
import { algorithm, backtestFillsOf, createTrader, deployable, storedFills, strategyOf } from './runner-test-support';

let db: TestDatabase;
let queue: JobQueue;
let nifty: number;

const FROM = isoDate('2025-03-03');
const TO = isoDate('2025-03-07');

beforeAll(async () => {
  db = await freshDatabase({ seeded: true });
  await storeSyntheticHistory(db.pool, { from: FROM, to: TO, instruments: ['NIFTY 50'], seed: 'strategy-runners' });
  nifty = await indexId(db.pool, 'NIFTY 50');
  queue = createJobQueue({ connectionString: db.url, supervise: false });
  await queue.start();
}, 120_000);

afterAll(async () => {
  await queue?.stop({ graceful: false });
  await db?.close();
});

async function trader(slots: number): Promise<{ userId: string; licenceId: string }> {
  const userId = await createTrader(db.pool, { permissions: ['strategy:deploy'] });
  const { rows } = await db.pool.query<{ id: string }>(
    `INSERT INTO deployed_strategies (user_id, available, utilized, expiry) VALUES ($1, $2, 0, (now() AT TIME ZONE 'Asia/Kolkata')::date + 365) RETURNING id`,
    [userId, slots]);
  return { userId, licenceId: rows[0]!.id };
}

async function deploy(userId: string, speed: number): Promise<{ strategyId: string; runId: string }> {
  const ref = await algorithm(db.pool, userId, { buy: 'crossover(ema(close, 5), ema(close, 13))', sell: 'crossunder(ema(close, 5), ema(close, 13))' });
  const config = deployable(ref, { stopLoss: { kind: 'percent', percent: 0.3 }, trailingStop: { kind: 'percent', percent: 0.25 } });
  const strategyId = await strategyOf(db.pool, { userId, instrumentId: nifty, config });
  const deployed = await deployStrategy(db.pool, { actorId: userId, userId, strategyId, mode: 'PAPER', replay: { from: FROM, to: TO, speed } }, {
    enqueue: (client: pg.PoolClient, runId: string) => enqueueStrategyRun(queue, { client, runId }),
  });
  if (!deployed.ok) throw new Error(deployed.error.map((issue) => issue.message).join('; '));
  return { strategyId, runId: deployed.value.runId };
}

async function runRow(runId: string): Promise<{ status: string; lease_owner: string | null; status_reason: string | null }> {
  const { rows } = await db.pool.query<{ status: string; lease_owner: string | null; status_reason: string | null }>(
    'SELECT status, lease_owner, status_reason FROM strategy_runs WHERE run_id = $1', [runId]);
  return rows[0]!;
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function runners(name: string, pacing: ManualScheduler, ended: Map<string, RunOutcome[]>): Promise<StrategyRunners> {
  return startStrategyRunners({
    pool: db.pool, queue, log: () => undefined, workerId: name, pacing, scanIntervalMs: 200, staleAfterMs: 1_000, heartbeatMs: 100,
    onRunEnded: (runId, outcome) => ended.set(runId, [...(ended.get(runId) ?? []), outcome]),
  });
}

describe('strategy runners on two workers', () => {
  it('run each deployed run once, hand a stopped worker\'s runs over, and end them with the backtest\'s fills', async () => {
    const { userId, licenceId } = await trader(3);
    const ended = new Map<string, RunOutcome[]>();
    // Paced at 600x on manual clocks: the runs stay in progress until the test moves the clocks.
    const clockA = new ManualScheduler(Date.UTC(2026, 0, 1));
    const clockB = new ManualScheduler(Date.UTC(2026, 0, 1));
    const a = await runners('worker-a', clockA, ended);
    const runs = [await deploy(userId, 600), await deploy(userId, 600)];
    await until('both runs leased by A', async () => runs.every(({ runId }) => a.running.has(runId)));
    // B starts now: A's leases are live, so B takes nothing, whatever it scans or is woken for.
    const b = await runners('worker-b', clockB, ended);
    await b.scan();
    expect([...b.running]).toEqual([]);
    for (const { runId } of runs) expect((await runRow(runId)).lease_owner).toBe('worker-a');
    // Let A's runs trade for a while (600x: 2 s of A's clock is 20 minutes of market), then stop A: its runs are released, not ended.
    await until('some fills on both runs', async () => {
      await clockA.advanceTo(clockA.now() + 2_000);
      const counts = await Promise.all(runs.map(async ({ runId }) => (await storedFills(db.pool, runId)).length));
      return counts.every((count) => count >= 2);
    });
    await a.stop();
    for (const { runId } of runs) {
      expect(ended.get(runId)?.map((outcome) => outcome.status)).toEqual(['released']);
      expect((await runRow(runId)).status).toBe('IN PROGRESS');
    }
    // B takes them over from their stale heartbeats and finishes them.
    await until('every run taken over by B', async () => runs.every(({ runId }) => b.running.has(runId)));
    await until('every run complete', async () => {
      await clockB.advanceTo(clockB.now() + 5_000);
      return (await Promise.all(runs.map(({ runId }) => runRow(runId)))).every((row) => row.status === 'COMPLETE');
    }, 120_000);
    await b.stop();
    for (const { runId, strategyId } of runs) {
      const expected = await backtestFillsOf(db.pool, runId);
      expect(expected.fills.length).toBeGreaterThan(6);
      expect(await storedFills(db.pool, runId)).toEqual(expected.fills);
      const { rows } = await db.pool.query<{ status: string }>('SELECT status FROM strategies WHERE strategy_id = $1', [strategyId]);
      expect(rows[0]!.status).toBe('STOPPED');
    }
    const licence = await db.pool.query<{ utilized: number }>('SELECT utilized FROM deployed_strategies WHERE id = $1', [licenceId]);
    expect(licence.rows[0]!.utilized).toBe(0);
  }, 300_000);

  it('pause a running strategy: no entry while paused, the pause kept on the run in market time, resumed by deploy', async () => {
    const { userId } = await trader(1);
    const ended = new Map<string, RunOutcome[]>();
    const clock = new ManualScheduler(Date.UTC(2026, 0, 1));
    const worker = await runners('worker-p', clock, ended);
    try {
    const { runId, strategyId } = await deploy(userId, 600);
    await until('the run leased', async () => worker.running.has(runId));
    const step = async (times: number): Promise<void> => {
      for (let index = 0; index < times; index += 1) {
        await clock.advanceTo(clock.now() + 5_000);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    await step(10);
    await db.pool.query(`UPDATE strategies SET status = 'PAUSED' WHERE strategy_id = $1`, [strategyId]);
    const pausesOf = async (): Promise<Array<{ fromMs: number; toMs: number | null }>> =>
      ((await db.pool.query<{ pauses: Array<{ fromMs: number; toMs: number | null }> | null }>(`SELECT params->'pauses' AS pauses FROM strategy_runs WHERE run_id = $1`, [runId])).rows[0]!.pauses ?? []);
    await until('the pause recorded', async () => (await pausesOf()).length === 1);
    await step(10);
    const resumed = await deployStrategy(db.pool, { actorId: userId, userId, strategyId, mode: 'PAPER' }, {
      enqueue: (client: pg.PoolClient, id: string) => enqueueStrategyRun(queue, { client, runId: id }),
    });
    expect(resumed.ok ? resumed.value.runId : resumed.error).toBe(runId);
    await until('the resume recorded', async () => (await pausesOf())[0]?.toMs !== null);
    const [pause] = await pausesOf();
    expect(pause!.toMs! > pause!.fromMs).toBe(true);
    await until('the run complete', async () => {
      await clock.advanceTo(clock.now() + 5_000);
      return (await runRow(runId)).status === 'COMPLETE';
    }, 120_000);
    // Entries are the orders that are not square-offs; none was filled inside the pause.
    const { rows } = await db.pool.query<{ ms: string }>(
      `SELECT (extract(epoch FROM f.ts) * 1000)::bigint::text AS ms FROM fills f JOIN orders o ON o.order_id = f.order_id
       WHERE o.run_id = $1 AND NOT o.square_off`, [runId]);
    const entries = rows.map((row) => Number(row.ms));
    expect(entries.length).toBeGreaterThan(2);
    expect(entries.filter((ms) => ms > pause!.fromMs && ms < pause!.toMs!)).toEqual([]);
    } finally {
      await worker.stop();
    }
  }, 300_000);

  it('end a run early on stop_strategy, closing what is open, with its square-off status', async () => {
    const { userId } = await trader(1);
    const ended = new Map<string, RunOutcome[]>();
    const clock = new ManualScheduler(Date.UTC(2026, 0, 1));
    const worker = await runners('worker-c', clock, ended);
    const { runId, strategyId } = await deploy(userId, 600);
    await until('the run leased', async () => worker.running.has(runId));
    for (let step = 0; step < 10; step += 1) {
      await clock.advanceTo(clock.now() + 5_000);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const stopped = await stopStrategy(db.pool, { actorId: userId, userId, strategyId, squareOff: true });
    expect(stopped.ok).toBe(true);
    await until('the run ended', async () => (await runRow(runId)).status !== 'IN PROGRESS');
    await worker.stop();
    expect(await runRow(runId)).toMatchObject({ status: 'COMPLETE: SQUARED OFF', status_reason: null });
    // Nothing is left open: every run's fills net to zero per instrument.
    const { rows } = await db.pool.query<{ net: string }>(
      `SELECT coalesce(sum(CASE o.side WHEN 'BUY' THEN f.quantity ELSE -f.quantity END), 0)::text AS net
       FROM fills f JOIN orders o ON o.order_id = f.order_id WHERE o.run_id = $1 GROUP BY o.instrument_id`, [runId]);
    for (const row of rows) expect(Number(row.net)).toBe(0);
    const { rows: working } = await db.pool.query(`SELECT 1 FROM orders WHERE run_id = $1 AND status IN ('OPEN', 'SUBMITTED', 'PENDING_SUBMIT', 'UNKNOWN')`, [runId]);
    expect(working).toEqual([]);
  }, 300_000);
});
