// Sweeps of an index traded as its backtest trades it: through its near-month futures (a sweep's
// chunk job and a walk-forward job give exactly the engine's serial runSweep / runWalkForward over
// the same stored-run inputs, one FuturesChain shared by every run) or through option legs (a
// sweep equal to the serial runSweep with the run's trader factory, a walk-forward equal to the
// serial runWalkForward with window traders), here and on worker threads; last, option legs with
// imported option candles, loaded as runs ask for them: on the threads too, pass after pass, rows
// equal to the serial loop's.
import type { IsoDate, Paise } from '@vyuha/core';
import { algorithmFromExpressions, optionsLegsTraderFactory, parameterGrid, runSweep, runWalkForward, walkForwardWindows } from '@vyuha/engine';
import type { AlgorithmParameter, SweepResult } from '@vyuha/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseOptionsLegsConfig } from '@vyuha/engine';
import { prepareStoredRun } from '../src/backtest/stored-run';
import type { PreparedRun } from '../src/backtest/stored-run';
import { storedInstrumentOf } from '../src/backtest/trade-plan';
import { backtestActions } from '../src/graphql/actions/backtest-actions';
import { sweepActions } from '../src/graphql/actions/sweep-actions';
import type { GraphqlSession } from '../src/graphql/types';
import { createJobQueue, SWEEP_CHUNK_QUEUE } from '../src/jobs/job-queue';
import type { JobQueue } from '../src/jobs/job-queue';
import { readSweepRequest, sweepDocument } from '../src/jobs/sweep-request';
import { executeSweepJob, walkForwardRecords } from '../src/jobs/sweep-run';
import { SweepThreads } from '../src/jobs/sweep-threads';
import { backtestInput, demoUserId, graphqlSession, saveAlgorithm, writeSyntheticHistory } from './graphql/actions-support';
import { freshDatabase } from './helpers/db';
import { contractsAsked, writeOptionContracts } from './helpers/option-contracts';
import type { TestDatabase } from './helpers/db';

const NOW = Date.UTC(2025, 0, 15, 6, 0);
const RANGE = { from: '2024-05-02' as IsoDate, to: '2024-06-14' as IsoDate };
const FAST: AlgorithmParameter = { name: 'fast', default: 5, from: 5, to: 15, step: 5 };
const SLOW: AlgorithmParameter = { name: 'slow', default: 20, from: 10, to: 40, step: 10 };
const CONSTRAINTS = ['$fast < $slow'];
const GRAPH = {
  ...algorithmFromExpressions({ entry: 'crossover(sma(close, $fast), sma(close, $slow))', exit: 'crossunder(sma(close, $fast), sma(close, $slow))' }),
  parameters: [FAST, SLOW], constraints: CONSTRAINTS,
};
const DOCUMENT = sweepDocument(GRAPH, { parameters: [FAST, SLOW], constraints: CONSTRAINTS });

let db: TestDatabase;
let queue: JobQueue;
let session: GraphqlSession;
let algorithmId: string;
let runId: string;
let actions: ReturnType<typeof sweepActions>;

const json = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

function start(input: Record<string, unknown>, run = runId): Promise<Record<string, unknown>> {
  const action = actions.find((item) => item.name === 'start_sweep');
  if (action === undefined) throw new Error('no start_sweep');
  return action.handler({ args: { input: { run_id: run, ...input } }, session }) as Promise<Record<string, unknown>>;
}

async function backtestRun(overrides: Record<string, unknown>): Promise<string> {
  const [runBacktest] = backtestActions({ pool: db.pool, queue, now: () => NOW });
  const output = await runBacktest?.handler({
    args: { input: backtestInput([algorithmId], { strategyType: 'swing', dateRanges: [RANGE], window: 15, frequenciesAndInvestments: [{ interval: 15, investment: 500_000 }], ...overrides }) },
    session,
  }) as { run_ids: string[] };
  return output.run_ids[0] as string;
}

/** Runs the sweep's queued job here, as a worker would (on `threads` when given). */
async function runQueuedJob(sweepId: string, threads?: SweepThreads): Promise<void> {
  const [job] = await queue.boss.fetch(SWEEP_CHUNK_QUEUE, { batchSize: 1 });
  expect(job?.data).toMatchObject({ sweepId });
  expect(await executeSweepJob(db.pool, job?.data as { sweepId: string; from: number; to: number }, threads === undefined ? {} : { threads })).toBe('complete');
  await queue.boss.complete(SWEEP_CHUNK_QUEUE, job?.id as string);
}

/** The sweep's rows as written, in the engine's row shape. */
async function writtenRows(sweepId: string): Promise<unknown[]> {
  const { rows } = await db.pool.query<{ position: number; bindings: unknown; metrics: unknown }>(
    'SELECT position, bindings, metrics FROM sweep_results WHERE sweep_id = $1 ORDER BY position', [sweepId]);
  return rows.map((row) => ({ index: row.position, bindings: row.bindings, metrics: row.metrics }));
}

/** The walk-forward's rows as written equal the records of `expected` (a serial runWalkForward). */
async function expectWalkForwardRows(sweepId: string, expected: ReturnType<typeof walkForwardRecords>): Promise<void> {
  const { rows } = await db.pool.query<{ position: number; bindings: unknown; metrics: unknown }>(
    'SELECT position, bindings, metrics FROM sweep_results WHERE sweep_id = $1 ORDER BY position', [sweepId]);
  expect(rows).toEqual(json(expected.rows.map((row) => ({ position: row.position, bindings: row.bindings, metrics: row.metrics }))));
}

/** SweepThreads that count the jobs they ran, so a test knows its runs went to the threads. */
class CountingThreads extends SweepThreads {
  ran = 0;

  override rows(...args: Parameters<SweepThreads['rows']>): ReturnType<SweepThreads['rows']> {
    this.ran += 1;
    return super.rows(...args);
  }

  override walkForward(...args: Parameters<SweepThreads['walkForward']>): ReturnType<SweepThreads['walkForward']> {
    this.ran += 1;
    return super.walkForward(...args);
  }
}

/** Runs the queued jobs of these sweeps, in order, on 2 counting threads; resolves to the thread jobs they made. */
async function jobsOnCountingThreads(sweepIds: readonly string[]): Promise<number> {
  const threads = new CountingThreads({ threads: 2 });
  try {
    for (const sweepId of sweepIds) await runQueuedJob(sweepId, threads);
  } finally {
    await threads.close();
  }
  return threads.ran;
}

const LEGS = { underlying: 'NIFTY', onBuy: [{ option: 'CE', side: 'buy', strike: { by: 'atm-offset', steps: 0 }, expiry: 'current-weekly', lots: 1 }] };

/** The inputs a worker builds for the sweep's request, for the engine's serial reference runs. */
async function serialInputs(sweepId: string, legs?: unknown): Promise<PreparedRun> {
  const { rows } = await db.pool.query<{ request: unknown }>('SELECT request FROM sweeps WHERE sweep_id = $1', [sweepId]);
  const request = readSweepRequest(rows[0]?.request);
  return prepareStoredRun({
    pool: db.pool, instrument: await storedInstrumentOf(db.pool, request.instrument), strategyType: request.strategyType, dateRange: request.dateRange,
    intervalMinutes: request.interval, capital: request.investmentPaise as Paise, legs: legs === undefined ? undefined : parseOptionsLegsConfig(legs),
  });
}

function combinations(): ReturnType<typeof parameterGrid> & { ok: true } {
  const grid = parameterGrid([FAST, SLOW], CONSTRAINTS);
  if (!grid.ok) throw new Error('the grid is valid');
  return grid;
}

describe('sweep jobs of an index traded through its futures', () => {
  beforeAll(async () => {
    db = await freshDatabase({ seeded: true });
    queue = createJobQueue({ connectionString: db.url, supervise: false });
    await queue.start();
    const userId = await demoUserId(db.pool, 'advanced');
    await db.pool.query(`INSERT INTO user_credits (user_id, credits, expiry, category, subcategory) VALUES ($1, 10000000, '2099-01-01', 'BACKTEST', 'CANDLES')`, [userId]);
    session = graphqlSession({ tier: 'advanced', userId });
    await writeSyntheticHistory(db.pool, RANGE, ['NIFTY 50', 'INDIA VIX']);
    algorithmId = await saveAlgorithm(db.pool, { userId, name: 'sma cross', graph: GRAPH });
    runId = await backtestRun({});
    actions = sweepActions({ pool: db.pool, queue, now: () => NOW });
  });
  afterAll(async () => {
    await queue?.stop({ timeoutMs: 5_000 });
    await db?.close();
  });

  it('runs a NIFTY sweep on its futures: rows equal the serial runSweep with the same chain', async () => {
    const sweepId = (await start({ metric: 'netPnl' })).sweep_id as string;
    await runQueuedJob(sweepId);
    const prepared = await serialInputs(sweepId);
    expect(prepared.plan.kind).toBe('index-futures');
    if (prepared.contracts === undefined) throw new Error('a futures run has its chain');
    const serial = runSweep({ series: prepared.series, document: DOCUMENT, config: prepared.config, combinations: combinations().value, metric: 'netPnl', contracts: prepared.contracts });
    const { rows } = await db.pool.query<{ position: number; bindings: unknown; metrics: unknown }>(
      'SELECT position, bindings, metrics FROM sweep_results WHERE sweep_id = $1 ORDER BY position', [sweepId]);
    expect(rows.map((row) => ({ index: row.position, bindings: row.bindings, metrics: row.metrics }))).toEqual(json(serial.rows));
    expect(serial.rows.some((row) => row.metrics.trades > 0)).toBe(true);
    // The futures, not the index's own candles: the index traded directly gives other P&L.
    const plain = runSweep({ series: prepared.series, document: DOCUMENT, config: { ...prepared.config, sizing: { kind: 'quantity', quantity: 25 } }, combinations: combinations().value, metric: 'netPnl' });
    expect(plain.rows.map((row) => row.metrics.netPnl)).not.toEqual(serial.rows.map((row) => row.metrics.netPnl));
    const { rows: sweep } = await db.pool.query<{ status: string; rows_done: number }>('SELECT status, rows_done FROM sweeps WHERE sweep_id = $1', [sweepId]);
    expect(sweep[0]).toEqual({ status: 'COMPLETE', rows_done: serial.rows.length });
  });

  it('runs a NIFTY walk-forward on its futures equal to the serial runWalkForward', async () => {
    const walkForward = { inSampleDays: 10, outOfSampleDays: 5 };
    const sweepId = (await start({ kind: 'walkforward', walkForward, metric: 'returnPercent' })).sweep_id as string;
    await runQueuedJob(sweepId);
    const prepared = await serialInputs(sweepId);
    const windows = walkForwardWindows(prepared.series, walkForward);
    if (!windows.ok || prepared.contracts === undefined) throw new Error('windows and a chain');
    const serial = runWalkForward({
      series: prepared.series, document: DOCUMENT, config: prepared.config, combinations: combinations().value, metric: 'returnPercent', windows: windows.value, contracts: prepared.contracts,
    });
    const expected = walkForwardRecords(serial);
    const { rows } = await db.pool.query<{ position: number; bindings: unknown; metrics: unknown }>(
      'SELECT position, bindings, metrics FROM sweep_results WHERE sweep_id = $1 ORDER BY position', [sweepId]);
    expect(rows).toEqual(json(expected.rows.map((row) => ({ position: row.position, bindings: row.bindings, metrics: row.metrics }))));
    expect(rows.length).toBe(4);
  });

  it('runs a NIFTY sweep on option legs equal to the serial runSweep with the run\'s trader', async () => {
    const legs = { underlying: 'NIFTY', onBuy: [{ option: 'CE', side: 'buy', strike: { by: 'atm-offset', steps: 0 }, expiry: 'current-weekly', lots: 1 }] };
    const legsRun = await backtestRun({ tradeInstrumentsConfig: legs });
    const sweepId = (await start({ metric: 'netPnl' }, legsRun)).sweep_id as string;
    await runQueuedJob(sweepId);
    const prepared = await serialInputs(sweepId, legs);
    expect(prepared.plan.kind).toBe('option-legs');
    if (prepared.trader === undefined) throw new Error('an option-legs run has its trader');
    const serial = runSweep({ series: prepared.series, document: DOCUMENT, config: prepared.config, combinations: combinations().value, metric: 'netPnl', trader: prepared.trader });
    const { rows } = await db.pool.query<{ position: number; bindings: unknown; metrics: unknown }>(
      'SELECT position, bindings, metrics FROM sweep_results WHERE sweep_id = $1 ORDER BY position', [sweepId]);
    expect(rows.map((row) => ({ index: row.position, bindings: row.bindings, metrics: row.metrics }))).toEqual(json(serial.rows));
    expect(serial.rows.some((row) => row.metrics.trades > 0)).toBe(true);
  });

  it('runs a NIFTY walk-forward on option legs equal to the serial runWalkForward with traders made for each window', async () => {
    const legs = { underlying: 'NIFTY', onBuy: [{ option: 'CE', side: 'buy', strike: { by: 'atm-offset', steps: 0 }, expiry: 'current-weekly', lots: 1 }] };
    const legsRun = await backtestRun({ tradeInstrumentsConfig: legs });
    const walkForward = { inSampleDays: 10, outOfSampleDays: 5 };
    const sweepId = (await start({ kind: 'walkforward', walkForward, metric: 'netPnl' }, legsRun)).sweep_id as string;
    await runQueuedJob(sweepId);
    const prepared = await serialInputs(sweepId, legs);
    const windows = walkForwardWindows(prepared.series, walkForward);
    if (!windows.ok || prepared.windowTraders === undefined) throw new Error('windows and the window traders');
    const serial = runWalkForward({
      series: prepared.series, document: DOCUMENT, config: prepared.config, combinations: combinations().value, metric: 'netPnl', windows: windows.value, traders: prepared.windowTraders,
    });
    const expected = walkForwardRecords(serial);
    const { rows } = await db.pool.query<{ position: number; bindings: unknown; metrics: unknown }>(
      'SELECT position, bindings, metrics FROM sweep_results WHERE sweep_id = $1 ORDER BY position', [sweepId]);
    expect(rows).toEqual(json(expected.rows.map((row) => ({ position: row.position, bindings: row.bindings, metrics: row.metrics }))));
    expect(rows.length).toBe(4);
    expect(serial.windows.some((window) => window.outOfSampleMetrics.trades > 0)).toBe(true);
    const { rows: sweep } = await db.pool.query<{ status: string; progress: number }>('SELECT status, progress FROM sweeps WHERE sweep_id = $1', [sweepId]);
    expect(sweep[0]).toEqual({ status: 'COMPLETE', progress: 100 });
  });

  it('stops a walk-forward on option legs cancelled between its in-sample slices: skipped, CANCELLED, no row written', async () => {
    const legs = { underlying: 'NIFTY', onBuy: [{ option: 'CE', side: 'buy', strike: { by: 'atm-offset', steps: 0 }, expiry: 'current-weekly', lots: 1 }] };
    const legsRun = await backtestRun({ tradeInstrumentsConfig: legs });
    const sweepId = (await start({ kind: 'walkforward', walkForward: { inSampleDays: 10, outOfSampleDays: 5 }, metric: 'netPnl' }, legsRun)).sweep_id as string;
    // The user cancels as the first window's progress is written (a trigger stands in for the
    // cancel arriving then); the next slice's progress write finds the sweep CANCELLED.
    await db.pool.query(`CREATE FUNCTION test_cancel_on_progress() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.progress > 10 AND OLD.status = 'IN PROGRESS' THEN NEW.status := 'CANCELLED'; NEW.finished_at := now(); END IF;
        RETURN NEW;
      END $$`);
    await db.pool.query('CREATE TRIGGER test_cancel_on_progress BEFORE UPDATE OF progress ON sweeps FOR EACH ROW EXECUTE FUNCTION test_cancel_on_progress()');
    try {
      const [job] = await queue.boss.fetch(SWEEP_CHUNK_QUEUE, { batchSize: 1 });
      expect(job?.data).toMatchObject({ sweepId });
      expect(await executeSweepJob(db.pool, job?.data as { sweepId: string; from: number; to: number })).toBe('skipped');
      await queue.boss.complete(SWEEP_CHUNK_QUEUE, job?.id as string);
    } finally {
      await db.pool.query('DROP TRIGGER test_cancel_on_progress ON sweeps');
      await db.pool.query('DROP FUNCTION test_cancel_on_progress()');
    }
    const { rows: sweep } = await db.pool.query<{ status: string; progress: number }>('SELECT status, progress FROM sweeps WHERE sweep_id = $1', [sweepId]);
    expect(sweep[0]?.status).toBe('CANCELLED');
    expect(sweep[0]?.progress).toBeGreaterThan(10);
    expect(sweep[0]?.progress).toBeLessThan(100);
    const { rows } = await db.pool.query<{ n: string }>('SELECT count(*) AS n FROM sweep_results WHERE sweep_id = $1', [sweepId]);
    expect(Number(rows[0]?.n)).toBe(0);
  });

  it('runs a NIFTY sweep and a walk-forward on option legs on worker threads, equal to the serial runs', async () => {
    const legsRun = await backtestRun({ tradeInstrumentsConfig: LEGS });
    const walkForward = { inSampleDays: 10, outOfSampleDays: 5 };
    const sweepId = (await start({ metric: 'netPnl' }, legsRun)).sweep_id as string;
    const walkId = (await start({ kind: 'walkforward', walkForward, metric: 'netPnl' }, legsRun)).sweep_id as string;
    expect(await jobsOnCountingThreads([sweepId, walkId])).toBe(2);
    const prepared = await serialInputs(sweepId, LEGS);
    if (prepared.trader === undefined || prepared.windowTraders === undefined) throw new Error('an option-legs run has its traders');
    const serial = runSweep({ series: prepared.series, document: DOCUMENT, config: prepared.config, combinations: combinations().value, metric: 'netPnl', trader: prepared.trader });
    expect(await writtenRows(sweepId)).toEqual(json(serial.rows));
    expect(serial.rows.some((row) => row.metrics.trades > 0)).toBe(true);
    const windows = walkForwardWindows(prepared.series, walkForward);
    if (!windows.ok) throw new Error('windows');
    const serialWalk = walkForwardRecords(runWalkForward({
      series: prepared.series, document: DOCUMENT, config: prepared.config, combinations: combinations().value, metric: 'netPnl', windows: windows.value, traders: prepared.windowTraders,
    }));
    await expectWalkForwardRows(walkId, serialWalk);
  });

  it('loads imported option candles as the runs ask for them, on the threads and without: a sweep and a walk-forward equal to the serial load-and-run-again loop', async () => {
    const legsRun = await backtestRun({ tradeInstrumentsConfig: LEGS });
    const probe = (await start({ metric: 'netPnl' }, legsRun)).sweep_id as string;
    const before = await serialInputs(probe, LEGS);
    if (before.legsTrader === undefined) throw new Error('an option-legs run has its trader data');
    // The contracts the runs look up, in the order they first do: the first few get imported candles.
    const legsTrader = before.legsTrader;
    const imported = contractsAsked((candles) => runSweep({
      series: before.series, document: DOCUMENT, config: before.config, combinations: combinations().value, metric: 'netPnl',
      trader: optionsLegsTraderFactory({ ...legsTrader, slippage: { kind: 'none' }, candles }),
    })).slice(0, 6);
    expect(imported.length).toBe(6);
    await writeOptionContracts(db.pool, { symbols: imported, underlying: 'NIFTY 50', range: RANGE });
    const walkForward = { inSampleDays: 10, outOfSampleDays: 5 };
    const sweepId = (await start({ metric: 'netPnl' }, legsRun)).sweep_id as string;
    const walkId = (await start({ kind: 'walkforward', walkForward, metric: 'netPnl' }, legsRun)).sweep_id as string;
    // A pass for each job, then one more each once the candles its runs asked for were loaded.
    expect(await jobsOnCountingThreads([probe, sweepId, walkId])).toBeGreaterThanOrEqual(6);
    // The serial reference: run, load what the runs asked for, run again until they ask for nothing.
    const prepared = await serialInputs(sweepId, LEGS);
    if (prepared.trader === undefined || prepared.windowTraders === undefined || prepared.legCandles === undefined) throw new Error('an option-legs run has its traders and candles');
    const candleRange = { dateRange: RANGE, intervalMinutes: 15 };
    const passes: SweepResult[] = [];
    do {
      passes.push(runSweep({ series: prepared.series, document: DOCUMENT, config: prepared.config, combinations: combinations().value, metric: 'netPnl', trader: prepared.trader }));
    } while (await prepared.legCandles.loadWanted(db.pool, candleRange));
    const serial = passes.at(-1) as SweepResult;
    expect(passes.length).toBeGreaterThan(1);
    // The imported candles priced some trades: the first pass (without them loaded) differs.
    expect(serial.rows.map((row) => row.metrics.netPnl)).not.toEqual(passes[0]?.rows.map((row) => row.metrics.netPnl));
    expect(await writtenRows(sweepId)).toEqual(json(serial.rows));
    expect(await writtenRows(probe)).toEqual(json(serial.rows));
    const windows = walkForwardWindows(prepared.series, walkForward);
    if (!windows.ok) throw new Error('windows');
    const walkRequest = { series: prepared.series, document: DOCUMENT, config: prepared.config, combinations: combinations().value, metric: 'netPnl' as const, windows: windows.value, traders: prepared.windowTraders };
    let serialWalk = runWalkForward(walkRequest);
    while (await prepared.legCandles.loadWanted(db.pool, candleRange)) serialWalk = runWalkForward(walkRequest);
    await expectWalkForwardRows(walkId, walkForwardRecords(serialWalk));
    // The walk-forward's first pass, over a store with nothing loaded, differs: the passes matter to it too.
    const fresh = await serialInputs(walkId, LEGS);
    if (fresh.windowTraders === undefined) throw new Error('an option-legs run has its window traders');
    const firstWalk = runWalkForward({ ...walkRequest, series: fresh.series, traders: fresh.windowTraders });
    expect(walkForwardRecords(firstWalk).rows).not.toEqual(walkForwardRecords(serialWalk).rows);

    // A worker process without threads runs the same passes itself: the same rows.
    const plainSweep = (await start({ metric: 'netPnl' }, legsRun)).sweep_id as string;
    const plainWalk = (await start({ kind: 'walkforward', walkForward, metric: 'netPnl' }, legsRun)).sweep_id as string;
    await runQueuedJob(plainSweep);
    await runQueuedJob(plainWalk);
    expect(await writtenRows(plainSweep)).toEqual(json(serial.rows));
    await expectWalkForwardRows(plainWalk, walkForwardRecords(serialWalk));
  }, 180_000);
});
