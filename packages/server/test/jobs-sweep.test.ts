// Sweeps and walk-forwards as jobs: estimate_sweep's field errors, start_sweep -> chunk jobs ->
// rows equal to the engine's serial runSweep (the workers run a chunk's runs on their threads; a
// job run without threads runs them itself), chunks in any order and retried without duplicate
// rows, a chunk whose worker died retried by recovery, credits refused, another user kept out,
// cancelling, and a walk-forward job (its in-sample sweeps on threads) equal to a serial runWalkForward.
import type { IsoDate, Paise } from '@vyuha/core';
import { algorithmFromExpressions, estimateCandles, parameterGrid, runSweep, runWalkForward, stability, walkForwardWindows } from '@vyuha/engine';
import type { AlgorithmParameter, SweepRow, WalkForwardRequest, WalkForwardResult } from '@vyuha/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareStoredRun } from '../src/backtest/stored-run';
import { storedInstrumentOf } from '../src/backtest/trade-plan';
import { backtestActions } from '../src/graphql/actions/backtest-actions';
import { sweepActions } from '../src/graphql/actions/sweep-actions';
import type { GraphqlSession } from '../src/graphql/types';
import { IssuesFailure, GraphqlFailure } from '../src/graphql/types';
import { createJobQueue, SWEEP_CHUNK_QUEUE } from '../src/jobs/job-queue';
import type { JobQueue } from '../src/jobs/job-queue';
import { sweepDocument } from '../src/jobs/sweep-request';
import { executeSweepJob, walkForwardRecords } from '../src/jobs/sweep-run';
import { SweepThreads } from '../src/jobs/sweep-threads';
import { startSweepWorkers } from '../src/jobs/sweep-workers';
import { backtestInput, demoUserId, graphqlSession, saveAlgorithm, waitFor, writeScaledStock, writeSyntheticHistory } from './graphql/actions-support';
import { freshDatabase } from './helpers/db';
import type { TestDatabase } from './helpers/db';

const NOW = Date.UTC(2025, 0, 15, 6, 0);
const RANGE = { from: '2024-05-02' as IsoDate, to: '2024-06-14' as IsoDate };
const FAST: AlgorithmParameter = { name: 'fast', default: 5, from: 5, to: 15, step: 5 };
const SLOW: AlgorithmParameter = { name: 'slow', default: 20, from: 10, to: 40, step: 10 };
const GRAPH = {
  ...algorithmFromExpressions({ entry: 'crossover(sma(close, $fast), sma(close, $slow))', exit: 'crossunder(sma(close, $fast), sma(close, $slow))' }),
  parameters: [FAST, SLOW], constraints: ['$fast < $slow'],
};

let db: TestDatabase;
let queue: JobQueue;
let userId: string;
let otherId: string;
let session: GraphqlSession;
let runId: string;
let actions: ReturnType<typeof sweepActions>;

type Handler = (args: Record<string, unknown>, as?: GraphqlSession) => Promise<Record<string, unknown>>;
const call = (name: string): Handler => (args, as = session) => {
  const action = actions.find((item) => item.name === name);
  if (action === undefined) throw new Error(`no action ${name}`);
  return action.handler({ args, session: as }) as Promise<Record<string, unknown>>;
};
const estimate = (input: Record<string, unknown>, as?: GraphqlSession) => call('estimate_sweep')({ input: { run_id: runId, ...input } }, as);
const start = (input: Record<string, unknown>, as?: GraphqlSession) => call('start_sweep')({ input: { run_id: runId, ...input } }, as);

async function refusal(work: Promise<unknown>): Promise<GraphqlFailure> {
  const error = await work.then(() => undefined, (caught: unknown) => caught);
  if (!(error instanceof GraphqlFailure)) throw new Error(`expected a refusal, got ${String(error)}`);
  return error;
}

async function issuesOf(work: Promise<unknown>): Promise<Array<{ path: string; message: string }>> {
  const error = await refusal(work);
  if (!(error instanceof IssuesFailure)) throw new Error(`expected field issues, got ${error.message}`);
  return error.issues as Array<{ path: string; message: string }>;
}

async function sweepRow(sweepId: string): Promise<{ status: string; progress: number; rows_done: number; combinations: number; candles: string; estimated_candles: string; summary: Record<string, unknown> | null; error: string | null }> {
  const { rows } = await db.pool.query('SELECT status, progress, rows_done, combinations, candles, estimated_candles, summary, error FROM sweeps WHERE sweep_id = $1', [sweepId]);
  return rows[0];
}

async function storedRows(sweepId: string): Promise<Array<{ index: number; bindings: unknown; metrics: unknown }>> {
  const { rows } = await db.pool.query<{ position: number; bindings: unknown; metrics: unknown }>(
    'SELECT position, bindings, metrics FROM sweep_results WHERE sweep_id = $1 ORDER BY position', [sweepId]);
  return rows.map((row) => ({ index: row.position, bindings: row.bindings, metrics: row.metrics }));
}

/** The same inputs a worker builds, for the engine's serial reference runs. */
async function serialInputs(): Promise<{ series: Awaited<ReturnType<typeof prepareStoredRun>>['series']; config: Awaited<ReturnType<typeof prepareStoredRun>>['config'] }> {
  const { rows } = await db.pool.query<{ instrument_id: number; exchange: string; trading_symbol: string; name: string }>(
    `SELECT instrument_id, exchange, trading_symbol, name FROM instruments WHERE trading_symbol = 'ACME'`);
  const row = rows[0] as { instrument_id: number; exchange: string; trading_symbol: string; name: string };
  const instrument = await storedInstrumentOf(db.pool, { instrumentId: row.instrument_id, exchange: row.exchange, tradingSymbol: row.trading_symbol, name: row.name });
  const prepared = await prepareStoredRun({ pool: db.pool, instrument, strategyType: 'swing', dateRange: RANGE, intervalMinutes: 15, capital: 10_000_000 as Paise });
  return { series: prepared.series, config: prepared.config };
}

const json = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

describe('sweep jobs', () => {
  beforeAll(async () => {
    db = await freshDatabase({ seeded: true });
    queue = createJobQueue({ connectionString: db.url, supervise: false });
    await queue.start();
    userId = await demoUserId(db.pool, 'advanced');
    await db.pool.query(`INSERT INTO user_credits (user_id, credits, expiry, category, subcategory) VALUES ($1, 10000000, '2099-01-01', 'BACKTEST', 'CANDLES')`, [userId]);
    otherId = await demoUserId(db.pool, 'demo');
    session = graphqlSession({ tier: 'advanced', userId });
    // A stock: NIFTY's synthetic minutes scaled down (sweeps trade stocks).
    await writeSyntheticHistory(db.pool, RANGE, ['NIFTY 50']);
    await writeScaledStock(db.pool, { symbol: 'ACME', name: 'ACME LTD', range: RANGE });
    const algorithmId = await saveAlgorithm(db.pool, { userId, name: 'sma cross', graph: GRAPH });
    const [runBacktest] = backtestActions({ pool: db.pool, queue, now: () => NOW });
    const output = await runBacktest?.handler({
      args: { input: backtestInput([algorithmId], { instrument: 'NSE:ACME', strategyType: 'swing', dateRanges: [RANGE], window: 15, frequenciesAndInvestments: [{ interval: 15, investment: 100_000 }] }) },
      session,
    }) as { run_ids: string[] };
    runId = output.run_ids[0] as string;
    actions = sweepActions({ pool: db.pool, queue, now: () => NOW });
  });
  afterAll(async () => {
    await queue?.stop({ timeoutMs: 5_000 });
    await db?.close();
  });

  it('estimates a sweep: combinations after constraints, candles per run, credits', async () => {
    const output = await estimate({});
    // fast 5, 10, 15 x slow 10..40 with fast < slow: 4 + 3 + 3 = 10.
    expect(output).toMatchObject({ kind: 'sweep', combinations: 10, grid_combinations: 12, windows: null, chunks: 1, constraints: ['$fast < $slow'] });
    expect(output.credits).toBe(10 * (output.candles_per_run as number));
    expect(output.candles_per_run).toBe(estimateCandles({ dateRange: RANGE, interval: 15, instrument: 'ACME' }));
    expect(output.remaining_credits as number).toBeGreaterThan(0);
    const narrowed = await estimate({ parameters: [{ name: 'slow', from: 20, to: 20, step: 10 }], sample: { count: 2, seed: 7 } });
    expect(narrowed.combinations).toBe(2);
    expect((narrowed.parameters as AlgorithmParameter[])[1]).toEqual({ name: 'slow', default: 20, from: 20, to: 20, step: 10 });
  });

  it('refuses bad ranges, unknown parameters, too many combinations and broken constraints, field by field', async () => {
    const ranges = await issuesOf(estimate({ parameters: [{ name: 'fast', from: 5, to: 15, step: 4 }, { name: 'slwo', from: 1, to: 2, step: 1 }], metric: 'sortino' }));
    expect(ranges.map((issue) => issue.path)).toEqual(['metric']);
    expect(ranges[0]?.message).toContain('must be one of netPnl');
    const unknown = await issuesOf(estimate({ parameters: [{ name: 'slwo', from: 1, to: 2, step: 1 }] }));
    expect(unknown[0]).toMatchObject({ path: 'parameters[0].name' });
    expect(unknown[0]?.message).toContain('declares no parameter $slwo (declared: $fast, $slow)');
    const step = await issuesOf(estimate({ parameters: [{ name: 'slow', from: 10, to: 40, step: 0 }] }));
    expect(step[0]?.path).toBe('parameters[0].step');
    const offGrid = await issuesOf(estimate({ parameters: [{ name: 'fast', from: 5, to: 15, step: 4 }] }));
    expect(offGrid[0]?.path).toBe('parameters[0].step');
    expect(offGrid[0]?.message).toContain('(to - from) / step must be a whole number');
    const huge = await issuesOf(estimate({ parameters: [{ name: 'fast', from: 1, to: 1000, step: 1 }, { name: 'slow', from: 1, to: 1000, step: 1 }], constraints: [] }));
    expect(huge[0]?.message).toContain('has 1,000,000 combinations, more than 100,000');
    const broken = await issuesOf(estimate({ constraints: ['$fast < $slow', '$fast <'] }));
    expect(broken[0]?.path).toBe('constraints[1]');
    expect(broken[0]?.message).toMatch(/^constraints\[1\]: 1:\d+: /);
    const windows = await issuesOf(estimate({ kind: 'walkforward', walkForward: { inSampleDays: 30, outOfSampleDays: 10 } }));
    expect(windows[0]).toMatchObject({ path: 'walkForward.inSampleDays' });
    expect(windows[0]?.message).toMatch(/^walkForward\.inSampleDays: the run's range has 32 trading days; one window needs 40 \(in-sample \+ out-of-sample\)$/);
    const overlap = await issuesOf(estimate({ kind: 'walkforward', walkForward: { inSampleDays: 10, outOfSampleDays: 5, stepDays: 3 } }));
    expect(overlap[0]?.path).toBe('walkForward.stepDays');
  });

  it('runs a started sweep through the chunk queue: rows equal the serial runSweep, completed once, credits used recorded', async () => {
    const started = await start({ metric: 'netPnl' });
    const sweepId = started.sweep_id as string;
    expect(started).toMatchObject({ combinations: 10, chunks: 1 });
    expect(await sweepRow(sweepId)).toMatchObject({ status: 'QUEUED', rows_done: 0, candles: String(started.credits) });
    const workers = await startSweepWorkers({ pool: db.pool, queue, log: () => undefined, pollingIntervalSeconds: 0.5, recoveryIntervalMs: 0 });
    try {
      await waitFor(async () => (await sweepRow(sweepId)).status === 'COMPLETE', 20_000);
    } finally {
      await workers.stop();
    }
    const { series, config } = await serialInputs();
    const combinations = parameterGrid([FAST, SLOW], ['$fast < $slow']);
    if (!combinations.ok) throw new Error('grid');
    const serial = runSweep({ series, document: sweepDocument(GRAPH, { parameters: [FAST, SLOW], constraints: ['$fast < $slow'] }), config, combinations: combinations.value, metric: 'netPnl' });
    expect(await storedRows(sweepId)).toEqual(json(serial.rows));
    const row = await sweepRow(sweepId);
    expect(row).toMatchObject({ status: 'COMPLETE', progress: 100, rows_done: 10 });
    expect(row.summary?.best).toEqual(json({ position: serial.best?.index, bindings: serial.best?.bindings, metrics: serial.best?.metrics }));
    expect(row.summary?.stability).toEqual(json(stability(serial.rows, { best: serial.best as SweepRow, metric: 'netPnl', parameters: [FAST, SLOW] })));
    expect(Number(row.candles)).toBe(Math.min(serial.candlesProcessed, Number(row.estimated_candles)));
    expect(serial.candlesProcessed).toBeGreaterThan(0);
  });

  it('merges chunks run in any order and at once; a retried chunk adds no row and the sweep completes exactly once', async () => {
    const sweepId = (await start({ metric: 'sharpe' })).sweep_id as string;
    await db.pool.query(`DELETE FROM ${queue.schema}.job WHERE name = $1 AND data->>'sweepId' = $2`, [SWEEP_CHUNK_QUEUE, sweepId]);
    expect(await executeSweepJob(db.pool, { sweepId, from: 6, to: 10 })).toBe('written');
    expect(await executeSweepJob(db.pool, { sweepId, from: 6, to: 10 })).toBe('written');
    expect(await sweepRow(sweepId)).toMatchObject({ status: 'IN PROGRESS', rows_done: 4, progress: 40 });
    const outcomes = await Promise.all([
      executeSweepJob(db.pool, { sweepId, from: 3, to: 6 }), executeSweepJob(db.pool, { sweepId, from: 0, to: 3 }), executeSweepJob(db.pool, { sweepId, from: 0, to: 10 }),
    ]);
    expect(outcomes.filter((outcome) => outcome === 'complete')).toHaveLength(1);
    expect(await executeSweepJob(db.pool, { sweepId, from: 0, to: 3 })).toBe('skipped');
    const { rows } = await db.pool.query<{ n: string }>('SELECT count(*) AS n FROM sweep_results WHERE sweep_id = $1', [sweepId]);
    expect(Number(rows[0]?.n)).toBe(10);
    const { series, config } = await serialInputs();
    const combinations = parameterGrid([FAST, SLOW], ['$fast < $slow']);
    if (!combinations.ok) throw new Error('grid');
    const serial = runSweep({ series, document: sweepDocument(GRAPH, { parameters: [FAST, SLOW], constraints: ['$fast < $slow'] }), config, combinations: combinations.value, metric: 'sharpe' });
    expect(await storedRows(sweepId)).toEqual(json(serial.rows));
    expect(await sweepRow(sweepId)).toMatchObject({ status: 'COMPLETE', rows_done: 10 });
    await expect(db.pool.query(`UPDATE sweeps SET status = 'ERROR' WHERE sweep_id = $1`, [sweepId])).rejects.toThrow(/already ended/);
  });

  it('retries a chunk whose worker died: recovery fails the job, pg-boss runs it again, the sweep completes', async () => {
    const sweepId = (await start({ sample: { count: 4, seed: 3 } })).sweep_id as string;
    // A worker takes the job and dies: the job stays active with no lock held.
    const [taken] = await queue.boss.fetch(SWEEP_CHUNK_QUEUE, { batchSize: 1 });
    expect(taken?.data).toMatchObject({ sweepId, from: 0, to: 4 });
    await db.pool.query(`UPDATE ${queue.schema}.job SET started_on = now() - interval '1 hour' WHERE id = $1`, [taken?.id]);
    const workers = await startSweepWorkers({ pool: db.pool, queue, log: () => undefined, pollingIntervalSeconds: 0.5, recoveryIntervalMs: 0, recoveryGraceSeconds: 5 });
    try {
      await waitFor(async () => (await sweepRow(sweepId)).status === 'COMPLETE', 20_000);
    } finally {
      await workers.stop();
    }
    expect(await sweepRow(sweepId)).toMatchObject({ rows_done: 4, combinations: 4 });
    const { rows } = await db.pool.query<{ retry_count: number }>(`SELECT retry_count FROM ${queue.schema}.job WHERE id = $1`, [taken?.id]);
    expect(rows[0]?.retry_count).toBe(1);
  });

  it('runs a walk-forward as one job, its in-sample sweeps on worker threads, equal to the serial runWalkForward', async () => {
    const walkForward = { inSampleDays: 10, outOfSampleDays: 5 };
    const estimated = await estimate({ kind: 'walkforward', walkForward });
    // 32 trading days: windows start on days 0, 5, 10 and 15.
    expect(estimated).toMatchObject({ kind: 'walkforward', windows: 4, chunks: 1 });
    const sweepId = (await start({ kind: 'walkforward', walkForward, metric: 'returnPercent' })).sweep_id as string;
    const [job] = await queue.boss.fetch(SWEEP_CHUNK_QUEUE, { batchSize: 1 });
    expect(job?.data).toMatchObject({ sweepId });
    const threads = new SweepThreads({ threads: 2 });
    try {
      expect(await executeSweepJob(db.pool, job?.data as { sweepId: string; from: number; to: number }, { threads })).toBe('complete');
    } finally {
      await threads.close();
    }
    await queue.boss.complete(SWEEP_CHUNK_QUEUE, job?.id as string);
    const { series, config } = await serialInputs();
    const combinations = parameterGrid([FAST, SLOW], ['$fast < $slow']);
    const windows = walkForwardWindows(series, walkForward);
    if (!combinations.ok || !windows.ok) throw new Error('grid or windows');
    const serial = runWalkForward({
      series, document: sweepDocument(GRAPH, { parameters: [FAST, SLOW], constraints: ['$fast < $slow'] }), config,
      combinations: combinations.value, metric: 'returnPercent', windows: windows.value,
    });
    const expected = walkForwardRecords(serial);
    const { rows } = await db.pool.query<{ position: number; bindings: unknown; metrics: unknown }>(
      'SELECT position, bindings, metrics FROM sweep_results WHERE sweep_id = $1 ORDER BY position', [sweepId]);
    expect(rows).toEqual(json(expected.rows.map((row) => ({ position: row.position, bindings: row.bindings, metrics: row.metrics }))));
    expect(rows.map((row) => (row.metrics as { chosenIndex: number }).chosenIndex)).toEqual(serial.windows.map((window) => window.chosenIndex));
    const row = await sweepRow(sweepId);
    expect(row).toMatchObject({ status: 'COMPLETE', progress: 100, combinations: serial.windows.length, rows_done: serial.windows.length });
    expect(row.summary).toEqual(json(expected.summary));
    expect((row.summary as { overfitting: unknown }).overfitting).toEqual(json(serial.overfitting));
  });

  it('stops a walk-forward cancelled while its in-sample tasks run: skipped, CANCELLED, no row written', async () => {
    const walkForward = { inSampleDays: 10, outOfSampleDays: 5 };
    const sweepId = (await start({ kind: 'walkforward', walkForward, metric: 'returnPercent' })).sweep_id as string;
    const [job] = await queue.boss.fetch(SWEEP_CHUNK_QUEUE, { batchSize: 1 });
    let tasksDone = 0;
    // The user cancels once the job is running on the threads; its next progress write finds the sweep CANCELLED.
    class CancellingThreads extends SweepThreads {
      override async walkForward(request: WalkForwardRequest, options: Parameters<SweepThreads['walkForward']>[1] = {}): Promise<WalkForwardResult> {
        expect(await sweepRow(sweepId)).toMatchObject({ status: 'IN PROGRESS', progress: 10 });
        expect(await call('cancel_sweep')({ sweep_id: sweepId })).toMatchObject({ status: 'CANCELLED', cancelled: true });
        return super.walkForward(request, {
          ...options,
          onTaskDone: (done, total) => {
            tasksDone = done;
            options.onTaskDone?.(done, total);
          },
        });
      }
    }
    const threads = new CancellingThreads({ threads: 2 });
    try {
      expect(await executeSweepJob(db.pool, job?.data as { sweepId: string; from: number; to: number }, { threads })).toBe('skipped');
    } finally {
      await threads.close();
    }
    expect(tasksDone).toBeGreaterThan(0);
    expect(await sweepRow(sweepId)).toMatchObject({ status: 'CANCELLED', progress: 10, rows_done: 0 });
    expect(await storedRows(sweepId)).toEqual([]);
  });

  it('cancels: CANCELLED, the queued job cancelled, charged only the rows written; another user can neither cancel nor start from the run', async () => {
    const sweepId = (await start({})).sweep_id as string;
    const other = graphqlSession({ tier: 'demo', userId: otherId });
    const notYours = await refusal(call('cancel_sweep')({ sweep_id: sweepId }, other));
    expect(notYours.code).toBe('not-found');
    const startForeign = await refusal(start({}, other));
    expect(startForeign.code).toBe('not-found');
    expect(startForeign.message).toContain(`no backtest run ${runId} of yours`);
    const cancelled = await call('cancel_sweep')({ sweep_id: sweepId });
    expect(cancelled).toEqual({ sweep_id: sweepId, status: 'CANCELLED', cancelled: true });
    expect(await sweepRow(sweepId)).toMatchObject({ status: 'CANCELLED', candles: '0' });
    expect((await sweepRow(sweepId)).error).toMatch(/^cancelled by the user at /);
    const { rows } = await db.pool.query<{ state: string }>(`SELECT state FROM ${queue.schema}.job WHERE name = $1 AND data->>'sweepId' = $2`, [SWEEP_CHUNK_QUEUE, sweepId]);
    expect(rows.map((row) => row.state)).toEqual(['cancelled']);
    expect(await executeSweepJob(db.pool, { sweepId, from: 0, to: 10 })).toBe('skipped');
    expect(await call('cancel_sweep')({ sweep_id: sweepId })).toEqual({ sweep_id: sweepId, status: 'CANCELLED', cancelled: false });
  });

  it('refuses a sweep the remaining credits cannot cover, writing nothing; sweeps count in the licence', async () => {
    const { rows: before } = await db.pool.query<{ total_credits: string; utilized_credits: string }>(
      `SELECT total_credits, utilized_credits FROM licences WHERE user_id = $1 AND licence_type = 'backtest'`, [userId]);
    const { rows: charged } = await db.pool.query<{ runs: string; sweeps: string }>(
      `SELECT (SELECT coalesce(sum(candles), 0) FROM strategy_runs WHERE user_id = $1) AS runs, (SELECT coalesce(sum(candles), 0) FROM sweeps WHERE user_id = $1) AS sweeps`, [userId]);
    expect(Number(before[0]?.utilized_credits)).toBe(Number(charged[0]?.runs) + Number(charged[0]?.sweeps));
    expect(Number(charged[0]?.sweeps)).toBeGreaterThan(0);
    const needed = (await estimate({})).credits as number;
    const used = Number(before[0]?.utilized_credits);
    // Leave fewer credits than the sweep needs.
    await db.pool.query(`UPDATE user_credits SET credits = 0 WHERE user_id = $1 AND category = 'BACKTEST'`, [userId]);
    await db.pool.query(`INSERT INTO user_credits (user_id, credits, expiry, category, subcategory) VALUES ($1, $2, '2099-01-01', 'BACKTEST', 'CANDLES')`, [userId, used + needed - 1]);
    const { rows: count } = await db.pool.query<{ n: string }>('SELECT count(*) AS n FROM sweeps WHERE user_id = $1', [userId]);
    const error = await refusal(start({}));
    expect(error.code).toBe('insufficient-credits');
    expect(error.message).toBe(`this sweep needs ${needed} BACKTEST credits (candles: 10 combinations x ${needed / 10} candles) and ${needed - 1} are available`);
    const { rows: after } = await db.pool.query<{ n: string }>('SELECT count(*) AS n FROM sweeps WHERE user_id = $1', [userId]);
    expect(after[0]?.n).toBe(count[0]?.n);
  });
});
