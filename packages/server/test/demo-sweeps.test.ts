// The demo world's sweep (db/seed/demo-sweeps.ts): the sweepable example validates with its 19
// combinations; seeding gives the administrator a COMPLETE backtest of it, a COMPLETE sweep whose
// rows equal a fresh engine runSweep of the same request over the same stored candles, and a
// COMPLETE walk-forward equal to a fresh runWalkForward, all counted in the credits; a second call
// adds nothing.
import type { IsoDate, Paise } from '@vyuha/core';
import { bestCell, parameterGrid, runSweep, runWalkForward, stability, validateAlgorithm, walkForwardWindows } from '@vyuha/engine';
import type { SweepRow } from '@vyuha/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareStoredRun } from '../src/backtest/stored-run';
import { storedInstrumentOf } from '../src/backtest/trade-plan';
import { DEMO_SWEEPS, seedDemoSweeps, SWEEP_EXAMPLE, sweepExampleId } from '../src/db/seed/demo-sweeps';
import type { SeedDemoSweepsResult } from '../src/db/seed/demo-sweeps';
import { createJobQueue } from '../src/jobs/job-queue';
import type { JobQueue } from '../src/jobs/job-queue';
import { readSweepRequest, sweepDocument } from '../src/jobs/sweep-request';
import type { SweepJobRequest } from '../src/jobs/sweep-request';
import { walkForwardRecords } from '../src/jobs/sweep-run';
import { writeSyntheticHistory } from './graphql/actions-support';
import { freshDatabase } from './helpers/db';
import type { TestDatabase } from './helpers/db';

/** The browser tests' world (tests/browser/global-setup.ts BROWSER_HISTORY). */
const RANGE = { from: '2026-08-03' as IsoDate, to: '2026-10-30' as IsoDate };
const NOW = Date.UTC(2026, 10, 16, 6, 0);

const json = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

describe('the sweepable example', () => {
  it('validates, and its grid has 19 combinations under $fast < $slow', () => {
    const validated = validateAlgorithm(SWEEP_EXAMPLE.graph);
    expect(validated.ok ? [] : validated.error).toEqual([]);
    const grid = parameterGrid(SWEEP_EXAMPLE.graph.parameters, SWEEP_EXAMPLE.graph.constraints);
    expect(grid.ok ? grid.value.length : grid.error).toBe(19);
    expect(DEMO_SWEEPS.map((plan) => plan.role)).toEqual(['administrator']);
  });
});

describe('the seeded demo sweep', () => {
  let db: TestDatabase;
  let queue: JobQueue;
  let seeded: SeedDemoSweepsResult;
  let creditsBefore: number;
  const log = (): void => undefined;

  const usedCredits = async (): Promise<number> => {
    const { rows } = await db.pool.query<{ used: string }>(
      `SELECT l.utilized_credits AS used FROM licences l JOIN users u USING (user_id) WHERE u.tier = 'administrator' AND l.licence_type = 'backtest'`);
    return Number(rows[0]?.used);
  };

  const sweepOf = async (sweepId: string): Promise<{ status: string; kind: string; run_id: string; combinations: number; rows_done: number; candles: string; estimated_candles: string; summary: unknown; request: SweepJobRequest }> => {
    const { rows } = await db.pool.query('SELECT status, kind, run_id, combinations, rows_done, candles, estimated_candles, summary, request FROM sweeps WHERE sweep_id = $1', [sweepId]);
    return { ...rows[0], request: readSweepRequest(rows[0].request) };
  };

  const resultRows = async (sweepId: string): Promise<Array<{ position: number; bindings: unknown; metrics: unknown; candles: string }>> =>
    (await db.pool.query('SELECT position, bindings, metrics, candles FROM sweep_results WHERE sweep_id = $1 ORDER BY position', [sweepId])).rows;

  /** The engine's inputs over the stored candles, built as a sweep job builds them. */
  const engineInputs = async (request: SweepJobRequest) => {
    const instrument = await storedInstrumentOf(db.pool, request.instrument);
    return prepareStoredRun({
      pool: db.pool, instrument, strategyType: request.strategyType, dateRange: request.dateRange, intervalMinutes: request.interval,
      capital: request.investmentPaise as Paise,
    });
  };

  beforeAll(async () => {
    db = await freshDatabase({ seeded: true });
    await writeSyntheticHistory(db.pool, RANGE, ['NIFTY 50']);
    queue = createJobQueue({ connectionString: db.url, supervise: false });
    await queue.start();
    creditsBefore = await usedCredits();
    seeded = await seedDemoSweeps({ pool: db.pool, queue, range: RANGE, log, now: () => NOW });
  }, 120_000);
  afterAll(async () => {
    await queue?.stop({ timeoutMs: 5_000 });
    await db.close();
  });

  it('gives the administrator a COMPLETE backtest of the published example, with trades', async () => {
    expect(seeded.skipped).toEqual([]);
    expect(seeded.seeded.map((item) => item.role)).toEqual(['administrator']);
    const { runId } = seeded.seeded[0] as { runId: string };
    const { rows } = await db.pool.query<{ status: string; tier: string; algorithm: string; published: boolean; fills: number }>(
      `SELECT r.status, u.tier, r.params->'algorithm'->>'algorithmId' AS algorithm, a.published,
              (SELECT count(*)::int FROM fills f JOIN orders o USING (order_id) WHERE o.run_id = r.run_id) AS fills
       FROM strategy_runs r JOIN users u USING (user_id) JOIN algorithms a ON a.algorithm_id = (r.params->'algorithm'->>'algorithmId')::uuid
       WHERE r.run_id = $1`, [runId]);
    expect(rows[0]).toMatchObject({ status: 'COMPLETE', tier: 'administrator', algorithm: sweepExampleId(), published: true });
    expect(rows[0]?.fills).toBeGreaterThan(0);
  });

  it('stores a COMPLETE sweep of that run whose rows equal a fresh engine runSweep of the same request', async () => {
    const { runId, sweepId } = seeded.seeded[0] as { runId: string; sweepId: string };
    const sweep = await sweepOf(sweepId);
    expect(sweep).toMatchObject({ status: 'COMPLETE', kind: 'sweep', run_id: runId, combinations: 19, rows_done: 19 });
    const { request } = sweep;
    const prepared = await engineInputs(request);
    const combinations = parameterGrid(request.parameters, request.constraints);
    if (!combinations.ok) throw new Error('grid');
    const fresh = runSweep({
      series: prepared.series, document: sweepDocument(SWEEP_EXAMPLE.graph, request), config: prepared.config, combinations: combinations.value,
      metric: request.metric, ...(prepared.contracts === undefined ? {} : { contracts: prepared.contracts }),
    });
    const rows = await resultRows(sweepId);
    expect(rows.map((row) => ({ index: row.position, bindings: row.bindings, metrics: row.metrics }))).toEqual(json(fresh.rows));
    expect(rows.map((row) => Number(row.candles))).toEqual(fresh.rows.map((row) => row.metrics.candlesProcessed));
    // Not a degenerate grid: the combinations trade, and differently.
    expect(new Set(fresh.rows.map((row) => row.metrics.netPnl)).size).toBeGreaterThan(1);
    const best = bestCell(fresh.rows, request.metric) as SweepRow;
    expect(sweep.summary).toMatchObject(json({
      metric: 'sharpe', best: { position: best.index, bindings: best.bindings, metrics: best.metrics },
      stability: stability(fresh.rows, { best, metric: 'sharpe', parameters: request.parameters }), candlesProcessed: fresh.candlesProcessed,
    }));
    expect(Number(sweep.candles)).toBe(Math.min(Number(sweep.estimated_candles), fresh.candlesProcessed));
  });

  it('stores a COMPLETE walk-forward of that run equal to a fresh engine runWalkForward', async () => {
    const { runId, walkForwardId } = seeded.seeded[0] as { runId: string; walkForwardId: string };
    const walk = await sweepOf(walkForwardId);
    const { request } = walk;
    expect(request.walkForward).toEqual({ inSampleDays: 20, outOfSampleDays: 10 });
    const prepared = await engineInputs(request);
    const combinations = parameterGrid(request.parameters, request.constraints);
    const windows = walkForwardWindows(prepared.series, request.walkForward ?? { inSampleDays: 0, outOfSampleDays: 0 });
    if (!combinations.ok || !windows.ok) throw new Error('grid or windows');
    const fresh = runWalkForward({
      series: prepared.series, document: sweepDocument(SWEEP_EXAMPLE.graph, request), config: prepared.config, combinations: combinations.value,
      metric: request.metric, windows: windows.value, ...(prepared.contracts === undefined ? {} : { contracts: prepared.contracts }),
    });
    expect(fresh.windows.length).toBeGreaterThanOrEqual(3);
    expect(walk).toMatchObject({ status: 'COMPLETE', kind: 'walkforward', run_id: runId, combinations: fresh.windows.length, rows_done: fresh.windows.length });
    const expected = walkForwardRecords(fresh);
    const rows = await resultRows(walkForwardId);
    expect(rows.map((row) => ({ position: row.position, bindings: row.bindings, metrics: row.metrics }))).toEqual(
      json(expected.rows.map((row) => ({ position: row.position, bindings: row.bindings, metrics: row.metrics }))));
    expect(walk.summary).toEqual(json(expected.summary));
    expect(Number(walk.candles)).toBe(Math.min(Number(walk.estimated_candles), fresh.candlesProcessed));
  });

  it('counts the backtest, the sweep and the walk-forward in the credits used', async () => {
    const { runId, sweepId, walkForwardId } = seeded.seeded[0] as { runId: string; sweepId: string; walkForwardId: string };
    const { rows } = await db.pool.query<{ candles: string }>(
      `SELECT (SELECT candles FROM strategy_runs WHERE run_id = $1) + (SELECT sum(candles) FROM sweeps WHERE sweep_id IN ($2, $3)) AS candles`,
      [runId, sweepId, walkForwardId]);
    const charged = Number(rows[0]?.candles);
    expect(charged).toBeGreaterThan(0);
    expect(await usedCredits()).toBe(creditsBefore + charged);
  });

  it('adds nothing on a second call', async () => {
    const count = async (): Promise<unknown> => (await db.pool.query(
      `SELECT (SELECT count(*)::int FROM sweeps) AS sweeps, (SELECT count(*)::int FROM strategy_runs) AS runs, (SELECT count(*)::int FROM algorithms) AS algorithms`)).rows[0];
    const before = await count();
    const again = await seedDemoSweeps({ pool: db.pool, queue, range: RANGE, log, now: () => NOW });
    expect(again).toMatchObject({ seeded: [], skipped: [{ role: 'administrator', reason: 'already has its example sweeps' }] });
    expect(await count()).toEqual(before);
  });
});
