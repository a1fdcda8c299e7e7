import { randomUUID } from 'node:crypto';
import type { IsoDate } from '@vyuha/core';
import { compileAlgorithm, FuturesChain, runBacktest } from '@vyuha/engine';
import type { CompiledAlgorithm } from '@vyuha/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metricsOf } from '../src/backtest/run-metrics';
import { seriesOf } from '../src/backtest/series';
import { backtestActions } from '../src/graphql/actions/backtest-actions';
import type { GraphqlSession } from '../src/graphql/types';
import { writeBacktestResults } from '../src/jobs/backtest-results';
import { executeBacktestRun } from '../src/jobs/backtest-run';
import type { RunDisposition } from '../src/jobs/backtest-run';
import { startBacktestWorkers } from '../src/jobs/backtest-workers';
import type { BacktestWorkers } from '../src/jobs/backtest-workers';
import { BACKTEST_QUEUE, createJobQueue } from '../src/jobs/job-queue';
import type { JobQueue } from '../src/jobs/job-queue';
import { RunNoLongerInProgress, RunProgress } from '../src/jobs/run-progress';
import { loadRunCandles } from '../src/backtest/stored-candles';
import { backtestInput, demoUserId, saveAlgorithm, graphqlSession, waitFor, writeSyntheticHistory } from './graphql/actions-support';
import { freshDatabase } from './helpers/db';
import type { TestDatabase } from './helpers/db';

const NOW = Date.UTC(2025, 0, 15, 6, 0);
const GRAPH = { entry: 'close > sma(close, 10)', exit: 'close < sma(close, 10)' };

let db: TestDatabase;
let queue: JobQueue;
let userId: string;
let algorithmId: string;
let session: GraphqlSession;
let run: (input: Record<string, unknown>) => Promise<{ strategy_id: string; run_ids: string[] }>;
const log = (): void => undefined;

async function runRow(runId: string): Promise<{ status: string; progress: number; error: string | null; metrics: unknown; candles: string; result: { curves: { dates: string[] } } | null }> {
  const { rows } = await db.pool.query('SELECT status, progress, error, metrics, candles, result FROM strategy_runs WHERE run_id = $1', [runId]);
  return rows[0];
}

async function orderCount(runId: string): Promise<number> {
  return Number((await db.pool.query<{ n: string }>('SELECT count(*) AS n FROM orders WHERE run_id = $1', [runId])).rows[0]?.n);
}

/**
 * The engine run directly on the same stored candles, as a user of the engine would: an index is
 * traded as its near-month futures (no futures candles stored: the cost-of-carry model), whole
 * lots by margin, futures charges.
 */
async function directRun(range: { from: IsoDate; to: IsoDate }, interval: number): Promise<{ metrics: unknown; orders: number; fills: number; days: number; net: number; instruments: string[] }> {
  const nifty = (await db.pool.query<{ instrument_id: number }>(`SELECT instrument_id FROM instruments WHERE name = 'NIFTY 50'`)).rows[0]?.instrument_id as number;
  // Read through the loader the worker uses (10-day chunks, one progress step each).
  const candles = await loadRunCandles({ pool: db.pool, instrumentId: nifty, dateRange: range, intervalMinutes: interval });
  const series = seriesOf(candles);
  const { algorithmFromExpressions } = await import('@vyuha/engine');
  const program = compileAlgorithm(algorithmFromExpressions(GRAPH));
  const contracts = new FuturesChain({ underlying: 'NIFTY', index: series, type: 'intraday', rollTime: '15:15' });
  const result = runBacktest({
    series, program: (program as { value: CompiledAlgorithm }).value, contracts,
    config: { capital: 50_000_000 as never, type: 'intraday', instrument: 'NIFTY', direction: 'long-only', charges: { kind: 'schedule', exchange: 'NSE', instrument: 'future' } },
  });
  return {
    metrics: JSON.parse(JSON.stringify(metricsOf(result, series) ?? null)), orders: result.orders.length, fills: result.fills.length, days: result.days.length,
    net: result.summary.netPnl, instruments: [...new Set(result.fills.map((fill) => fill.instrument))],
  };
}

describe('backtest jobs', () => {
  beforeAll(async () => {
    db = await freshDatabase({ seeded: true });
    queue = createJobQueue({ connectionString: db.url, supervise: false });
    await queue.start();
    userId = await demoUserId(db.pool, 'advanced');
    await writeSyntheticHistory(db.pool);
    algorithmId = await saveAlgorithm(db.pool, { userId, name: 'sma cross' });
    session = graphqlSession({ tier: 'advanced', userId });
    const [runAction] = backtestActions({ pool: db.pool, queue, now: () => NOW });
    run = (input) => runAction?.handler({ args: { input }, session }) as Promise<{ strategy_id: string; run_ids: string[] }>;
  });
  afterAll(async () => {
    await queue?.stop({ timeoutMs: 5_000 });
    await db?.close();
  });

  it('runs IN PROGRESS -> COMPLETE with the metrics, orders and days of the engine run directly, progress rising to 100', async () => {
    const output = await run(backtestInput([algorithmId], { dateRanges: [{ from: '2024-05-02', to: '2024-06-28' }] }));
    const runId = output.run_ids[0] as string;
    expect((await runRow(runId)).status).toBe('IN PROGRESS');
    const seen: number[] = [];
    const disposition = await executeBacktestRun({ pool: db.pool, runId, progressIntervalMs: 0, onProgress: (percent) => seen.push(percent) });
    expect({ disposition, error: (await runRow(runId)).error }).toEqual({ disposition: 'complete', error: null });
    expect(seen[0]).toBe(0);
    expect(seen.at(-1)).toBe(100);
    expect(seen.length).toBeGreaterThanOrEqual(4);
    for (let index = 1; index < seen.length; index += 1) expect(seen[index] as number).toBeGreaterThan(seen[index - 1] as number);
    const row = await runRow(runId);
    const direct = await directRun({ from: '2024-05-02' as IsoDate, to: '2024-06-28' as IsoDate }, 5);
    expect(row.status).toBe('COMPLETE');
    expect(row.progress).toBe(100);
    expect(row.metrics).toEqual(direct.metrics);
    expect(direct.orders).toBeGreaterThan(0);
    expect(await orderCount(runId)).toBe(direct.orders);
    const fills = await db.pool.query<{ n: string; bad: string }>(
      `SELECT count(*) AS n, count(*) FILTER (WHERE o.status <> 'FILLED' OR o.filled_quantity <> f.quantity OR NOT f.charges_paise ? 'stt'
                                               OR (SELECT sum(value::bigint) FROM jsonb_each_text(f.charges_paise)) <= 0) AS bad
       FROM fills f JOIN orders o USING (order_id) WHERE o.run_id = $1`, [runId]);
    expect(Number(fills.rows[0]?.n)).toBe(direct.fills);
    expect(Number(fills.rows[0]?.bad)).toBe(0);
    const days = await db.pool.query<{ n: string; pnl: string }>('SELECT count(*) AS n, sum(pnl_paise) AS pnl FROM daily_pnl WHERE run_id = $1', [runId]);
    expect(Number(days.rows[0]?.n)).toBe(direct.days);
    expect(Number(days.rows[0]?.pnl)).toBe(direct.net);
    expect(row.result?.curves.dates).toHaveLength(direct.days);
    // One position per futures contract traded, each flat; together they realised the run's net P&L.
    const positions = await db.pool.query<{ trading_symbol: string; kind: string; net_quantity: number; realised_pnl_paise: string }>(
      'SELECT i.trading_symbol, i.kind, p.net_quantity, p.realised_pnl_paise FROM positions p JOIN instruments i USING (instrument_id) WHERE p.run_id = $1 ORDER BY i.expiry', [runId]);
    expect(positions.rows.map((row) => row.trading_symbol)).toEqual(direct.instruments);
    expect(direct.instruments).toEqual(['NIFTY24MAYFUT', 'NIFTY24JUNFUT', 'NIFTY24JULFUT'].filter((symbol) => direct.instruments.includes(symbol)));
    expect(positions.rows.every((row) => row.kind === 'future' && row.net_quantity === 0)).toBe(true);
    expect(positions.rows.reduce((sum, row) => sum + Number(row.realised_pnl_paise), 0)).toBe(direct.net);
    const traded = (row.result as unknown as { traded: { kind: string; contracts: Array<{ tradingSymbol: string; prices: string }>; modelPrices: boolean } }).traded;
    expect(traded).toMatchObject({ kind: 'index-futures', modelPrices: true });
    expect(traded.contracts.map((contract) => [contract.tradingSymbol, contract.prices])).toEqual(direct.instruments.map((symbol) => [symbol, 'model']));
    expect(Number(row.candles)).toBeGreaterThan(0);
    expect(await executeBacktestRun({ pool: db.pool, runId })).toBe('skipped');
    expect(await orderCount(runId)).toBe(direct.orders);
  });

  it('ends a run whose algorithm does not compile in ERROR with the reason and gives its credits back', async () => {
    const broken = await saveAlgorithm(db.pool, { userId, name: 'broken' });
    const output = await run(backtestInput([broken], { dateRanges: [{ from: '2024-06-03', to: '2024-06-07' }] }));
    const runId = output.run_ids[0] as string;
    // run_backtest refuses a graph that does not compile, so this run is pointed afterwards at a
    // version that does not (as a graph an engine upgrade no longer reads would be).
    await db.pool.query('INSERT INTO algorithm_versions (algorithm_id, version, graph, schema_version, created_by) VALUES ($1, 2, $2, 1, $3)',
      [broken, JSON.stringify({ format: 'vyuha.algorithm', version: 1, nodes: [{ id: 'c1', type: 'condition', expression: 'close > ' }], edges: [] }), userId]);
    await db.pool.query(`UPDATE strategy_runs SET params = jsonb_set(params, '{algorithm,version}', '2') WHERE run_id = $1`, [runId]);
    expect(await executeBacktestRun({ pool: db.pool, runId })).toBe('error');
    const row = await runRow(runId);
    expect(row.status).toBe('ERROR');
    expect(row.error).toMatch(/^algorithm broken version 2 does not compile: /);
    expect(row.candles).toBe('0');
    expect(await orderCount(runId)).toBe(0);
  });

  it('observes cancellation between steps: progress refuses, and the final write writes nothing', async () => {
    const output = await run(backtestInput([algorithmId], { dateRanges: [{ from: '2024-06-10', to: '2024-06-14' }] }));
    const runId = output.run_ids[0] as string;
    const progress = new RunProgress({ pool: db.pool, runId, now: () => 0, minimumIntervalMs: 0 });
    await progress.report(10);
    await db.pool.query(`UPDATE strategy_runs SET status = 'ERROR', error = 'cancelled', finished_at = now() WHERE run_id = $1`, [runId]);
    await expect(progress.report(20)).rejects.toBeInstanceOf(RunNoLongerInProgress);
    const rows = { orders: [{ clientOrderId: `bt-${randomUUID()}`, instrument: 'NIFTY', side: 'BUY' as const, quantity: 1, filledQuantity: 1, status: 'FILLED' as const, averagePricePaise: 100, tag: 'entry', statusMessage: null, placedAt: NOW, updatedAt: NOW }], fills: [], positions: [], days: [] };
    const nifty = (await db.pool.query<{ instrument_id: number }>(`SELECT instrument_id FROM instruments WHERE name = 'NIFTY 50'`)).rows[0]?.instrument_id as number;
    await expect(writeBacktestResults(db.pool, { runId, strategyId: output.strategy_id, userId, product: 'MIS', instrument: { instrumentId: nifty, tradingSymbol: 'NIFTY' }, rows, metrics: null, result: null, candles: 1 }))
      .rejects.toBeInstanceOf(RunNoLongerInProgress);
    expect(await orderCount(runId)).toBe(0);
    expect(await executeBacktestRun({ pool: db.pool, runId })).toBe('skipped');
    expect((await runRow(runId)).error).toBe('cancelled');
  });

  describe('workers', () => {
    let workers: BacktestWorkers[] = [];
    let secondQueue: JobQueue | undefined;
    afterAll(async () => {
      for (const worker of workers) await worker.stop();
      await secondQueue?.stop({ timeoutMs: 5_000 });
    });

    it('two workers never run the same run twice, even when it has two jobs', async () => {
      secondQueue = createJobQueue({ connectionString: db.url, supervise: false });
      await secondQueue.start();
      const handled: Array<[string, RunDisposition | 'locked-elsewhere']> = [];
      const onRunHandled = (runId: string, disposition: RunDisposition | 'locked-elsewhere'): void => {
        handled.push([runId, disposition]);
      };
      const output = await run(backtestInput([algorithmId], {
        dateRanges: [{ from: '2024-05-06', to: '2024-05-10' }, { from: '2024-05-13', to: '2024-05-17' }, { from: '2024-05-20', to: '2024-05-24' }],
        frequenciesAndInvestments: [{ interval: 5, investment: 500_000 }, { interval: 15, investment: 500_000 }],
      }));
      // A second job for every run, as a buggy resend or an expired-and-retried job would make.
      await queue.boss.insert(output.run_ids.map((runId) => ({ name: BACKTEST_QUEUE, data: { runId } })));
      const common = { pool: db.pool, log, concurrency: 2, pollingIntervalSeconds: 0.5, recoveryIntervalMs: 0, onRunHandled };
      workers = [await startBacktestWorkers({ ...common, queue }), await startBacktestWorkers({ ...common, queue: secondQueue })];
      const ours = (runId: string): number => handled.filter(([id]) => id === runId).length;
      await waitFor(async () => output.run_ids.every((runId) => ours(runId) === 2));
      for (const runId of output.run_ids) {
        const outcomes = handled.filter(([id]) => id === runId).map(([, disposition]) => disposition);
        expect(outcomes.filter((disposition) => disposition === 'complete')).toHaveLength(1);
        expect(outcomes.every((disposition) => disposition === 'complete' || disposition === 'skipped' || disposition === 'locked-elsewhere')).toBe(true);
        expect((await runRow(runId)).status).toBe('COMPLETE');
      }
      const duplicates = await db.pool.query<{ n: string }>(
        `SELECT count(*) AS n FROM (SELECT run_id, date FROM daily_pnl WHERE run_id = ANY($1::uuid[]) GROUP BY run_id, date HAVING count(*) > 1) d`, [output.run_ids]);
      expect(duplicates.rows[0]?.n).toBe('0');
    });

    it('a job whose worker died is retried and completes; with no retries left the run ends in ERROR with the reason', async () => {
      for (const worker of workers) await worker.stop();
      const output = await run(backtestInput([algorithmId], { dateRanges: [{ from: '2024-06-17', to: '2024-06-21' }, { from: '2024-06-24', to: '2024-06-28' }] }));
      const [retried, exhausted] = output.run_ids as [string, string];
      // A worker fetched both jobs and died: the jobs are active, nobody holds the runs' locks.
      const fetched = await queue.boss.fetch(BACKTEST_QUEUE, { batchSize: 10 });
      expect(fetched.map((job) => job.id).sort()).toEqual([retried, exhausted].sort());
      await db.pool.query('UPDATE pgboss.job SET retry_count = retry_limit WHERE id = $1', [exhausted]);
      const restarted = await startBacktestWorkers({ pool: db.pool, queue, log, pollingIntervalSeconds: 0.5, recoveryIntervalMs: 0, recoveryGraceSeconds: 0 });
      workers = [restarted];
      await restarted.recover();
      const done = await waitFor(async () => {
        const a = await runRow(retried);
        const b = await runRow(exhausted);
        return a.status !== 'IN PROGRESS' && b.status !== 'IN PROGRESS' ? { a, b } : undefined;
      });
      expect(done.a.status).toBe('COMPLETE');
      expect(done.b.status).toBe('ERROR');
      expect(done.b.error).toContain('the worker running this backtest stopped (process restart or crash)');
      expect(done.b.candles).toBe('0');
    });

    it('a run IN PROGRESS with no job left is ended in ERROR by recovery', async () => {
      const output = await run(backtestInput([algorithmId], { dateRanges: [{ from: '2024-05-27', to: '2024-05-31' }] }));
      const runId = output.run_ids[0] as string;
      await (workers[0] as BacktestWorkers).stop();
      await queue.boss.deleteJob(BACKTEST_QUEUE, runId);
      const result = await (workers[0] as BacktestWorkers).recover();
      expect(result.endedRuns).toBe(1);
      expect((await runRow(runId)).error).toContain('the backtest job was lost');
    });
  });
});
