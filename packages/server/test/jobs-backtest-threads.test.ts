// Backtest runs computed on worker threads: the same outputs as the job's own thread (rows,
// metrics, result document) for stock runs of a grid, several at once, and for an index traded as
// its futures; the run's own failure with the same reason; a thread killed mid-run fails its run
// and is replaced;
// a job executed with threads writes the rows a job without them writes; and an option-legs run
// goes to a thread a pass at a time, the job loading the imported option candles each pass asked
// for, with the rows of a job without threads.
import type { Worker } from 'node:worker_threads';
import type { IsoDate, Paise } from '@vyuha/core';
import { algorithmFromExpressions, compileAlgorithm, optionsLegsTraderFactory, parseOptionsLegsConfig, runBacktest } from '@vyuha/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareStoredRun } from '../src/backtest/stored-run';
import type { PreparedRun } from '../src/backtest/stored-run';
import { storedInstrumentOf } from '../src/backtest/trade-plan';
import { backtestActions } from '../src/graphql/actions/backtest-actions';
import { BacktestRunFailure, runOutputs } from '../src/jobs/backtest-outputs';
import { executeBacktestRun } from '../src/jobs/backtest-run';
import { BacktestThreads, threadable } from '../src/jobs/backtest-threads';
import { createJobQueue } from '../src/jobs/job-queue';
import type { JobQueue } from '../src/jobs/job-queue';
import { backtestInput, demoUserId, graphqlSession, saveAlgorithm, writeScaledStock, writeSyntheticHistory } from './graphql/actions-support';
import { freshDatabase } from './helpers/db';
import { contractsAsked, writeOptionContracts } from './helpers/option-contracts';
import type { TestDatabase } from './helpers/db';

const NOW = Date.UTC(2025, 0, 15, 6, 0);
const RANGE = { from: '2024-05-02' as IsoDate, to: '2024-06-14' as IsoDate };
const GRAPH = algorithmFromExpressions({ entry: 'crossover(ema(close, 9), sma(close, 30)) and rsi(close, 14) > 45', exit: 'crossunder(ema(close, 9), sma(close, 30))' });

let db: TestDatabase;
let queue: JobQueue;
let userId: string;
let algorithmId: string;
const threads = new BacktestThreads({ threads: 2 });

async function prepared(request: { symbol: string; interval: number; capital: number; legs?: unknown }): Promise<PreparedRun> {
  const { rows } = await db.pool.query<{ instrument_id: number; exchange: string; trading_symbol: string; name: string }>(
    'SELECT instrument_id, exchange, trading_symbol, name FROM instruments WHERE trading_symbol = $1 OR name = $1 ORDER BY instrument_id LIMIT 1', [request.symbol]);
  const row = rows[0] as { instrument_id: number; exchange: string; trading_symbol: string; name: string };
  const instrument = await storedInstrumentOf(db.pool, { instrumentId: row.instrument_id, exchange: row.exchange, tradingSymbol: row.trading_symbol, name: row.name });
  return prepareStoredRun({
    pool: db.pool, instrument, strategyType: 'swing', dateRange: RANGE, intervalMinutes: request.interval, capital: request.capital as Paise,
    ...(request.legs === undefined ? {} : { legs: parseOptionsLegsConfig(request.legs) }),
  });
}

function compiled(): ReturnType<typeof compileAlgorithm> & { ok: true } {
  const result = compileAlgorithm(GRAPH);
  if (!result.ok) throw new Error('GRAPH does not compile');
  return result;
}

beforeAll(async () => {
  db = await freshDatabase({ seeded: true });
  queue = createJobQueue({ connectionString: db.url, supervise: false });
  await queue.start();
  userId = await demoUserId(db.pool, 'advanced');
  await writeSyntheticHistory(db.pool, RANGE, ['NIFTY 50', 'INDIA VIX']);
  await writeScaledStock(db.pool, { symbol: 'ACME', name: 'ACME LTD', range: RANGE });
  algorithmId = await saveAlgorithm(db.pool, { userId, name: 'ema cross', graph: GRAPH });
});

afterAll(async () => {
  await threads.close();
  await queue?.stop({ timeoutMs: 5_000 });
  await db?.close();
});

describe('backtest threads', () => {
  it('compute a grid of runs, several at once, exactly as the job thread does', async () => {
    const grid = [{ interval: 1, capital: 10_000_000 }, { interval: 5, capital: 10_000_000 }, { interval: 15, capital: 2_500_000 }, { interval: 1, capital: 2_500_000 }];
    const inputs = await Promise.all(grid.map((cell) => prepared({ symbol: 'ACME', ...cell })));
    expect(inputs.every(threadable)).toBe(true);
    const program = compiled().value;
    const here = inputs.map((input, index) => runOutputs({ prepared: input, program, runId: `00000000-0000-4000-8000-00000000000${index}` }));
    expect(here.every((outputs) => outputs.rows.orders.length > 0)).toBe(true);
    const onThreads = await Promise.all(inputs.map((input, index) => threads.run({
      graph: GRAPH, algorithm: { label: 'ema cross', version: 1 }, prepared: input, runId: `00000000-0000-4000-8000-00000000000${index}`,
    })));
    onThreads.forEach((outputs, index) => expect(outputs).toStrictEqual(here[index]));
    // The series handed to the threads was copied: the caller's columns are intact.
    expect(inputs[0]?.series.close.length).toBeGreaterThan(0);
  });

  it('reject with the run\'s own failure, as the job thread throws it', async () => {
    const input = await prepared({ symbol: 'ACME', interval: 15, capital: 10_000_000 });
    const refused = { ...input, config: { ...input.config, slippage: { kind: 'ticks', ticks: -3 } } } as PreparedRun;
    const here = (() => {
      try {
        runOutputs({ prepared: refused, program: compiled().value, runId: '00000000-0000-4000-8000-000000000009' });
      } catch (error) {
        return error as Error;
      }
      return undefined;
    })();
    expect(here).toBeInstanceOf(BacktestRunFailure);
    expect(here?.message).toMatch(/^impossible config: /);
    const there = await threads.run({ graph: GRAPH, algorithm: { label: 'ema cross', version: 1 }, prepared: refused, runId: '00000000-0000-4000-8000-000000000009' })
      .then(() => undefined, (error: unknown) => error as Error);
    expect(there).toBeInstanceOf(BacktestRunFailure);
    expect(there?.message).toBe(here?.message);
  });

  it('fail the run of a thread killed mid-run and start a new thread for the next', async () => {
    const killable = new BacktestThreads({ threads: 1 });
    try {
      const input = await prepared({ symbol: 'ACME', interval: 1, capital: 10_000_000 });
      const request = { graph: GRAPH, algorithm: { label: 'ema cross', version: 1 }, prepared: input, runId: '00000000-0000-4000-8000-000000000007' };
      const first = killable.run(request).then(() => 'computed', (error: unknown) => (error as Error).message);
      const slots = (killable as unknown as { slots: Array<{ thread: Worker }> }).slots;
      await slots[0]?.thread.terminate();
      expect(await first).toMatch(/^a backtest thread stopped \(exit code \d+\)$/);
      expect(await killable.run(request)).toStrictEqual(runOutputs({ prepared: input, program: compiled().value, runId: request.runId }));
    } finally {
      await killable.close();
    }
  });

  it('compute an index traded as its futures, the chain built again on the thread, exactly as the job thread does; refuse a chain without its recipe', async () => {
    const index = await prepared({ symbol: 'NIFTY 50', interval: 15, capital: 1_00_00_000_00 });
    expect(index.contracts).toBeDefined();
    expect(threadable(index)).toBe(true);
    const runId = '00000000-0000-4000-8000-000000000008';
    const here = runOutputs({ prepared: index, program: compiled().value, runId });
    expect(here.rows.fills.length).toBeGreaterThan(0);
    expect((here.result as { traded: { kind: string } }).traded.kind).toBe('index-futures');
    expect(await threads.run({ graph: GRAPH, algorithm: { label: 'ema cross', version: 1 }, prepared: index, runId })).toStrictEqual(here);
    const { futures: _recipe, ...withoutRecipe } = index;
    expect(threadable(withoutRecipe)).toBe(false);
    await expect(threads.run({ graph: GRAPH, algorithm: { label: 'ema cross', version: 1 }, prepared: withoutRecipe, runId })).rejects.toThrow(/compute it here/);
  });

  it('write the same rows through a job with threads as through one without', async () => {
    const [runBacktest] = backtestActions({ pool: db.pool, queue, now: () => NOW });
    const started = async (): Promise<string> => {
      const output = await runBacktest?.handler({
        args: { input: backtestInput([algorithmId], { instrument: 'NSE:ACME', strategyType: 'swing', dateRanges: [RANGE], window: 15, frequenciesAndInvestments: [{ interval: 5, investment: 100_000 }] }) },
        session: graphqlSession({ tier: 'advanced', userId }),
      }) as { run_ids: string[] };
      return output.run_ids[0] as string;
    };
    const [plain, threaded] = [await started(), await started()];
    await db.pool.query(`UPDATE strategy_runs SET status = 'IN PROGRESS', started_at = now() WHERE run_id = ANY($1::uuid[])`, [[plain, threaded]]);
    expect(await executeBacktestRun({ pool: db.pool, runId: plain })).toBe('complete');
    expect(await executeBacktestRun({ pool: db.pool, runId: threaded, threads })).toBe('complete');
    const stored = async (runId: string): Promise<unknown> => {
      const { rows: [run] } = await db.pool.query('SELECT status, candles, metrics, result FROM strategy_runs WHERE run_id = $1', [runId]);
      const { rows: orders } = await db.pool.query(
        `SELECT side, quantity, status, filled_quantity, average_price_paise FROM orders WHERE run_id = $1 ORDER BY created_at, client_order_id`, [runId]);
      return { run, orders };
    };
    const [a, b] = [await stored(plain), await stored(threaded)];
    expect((a as { orders: unknown[] }).orders.length).toBeGreaterThan(0);
    expect(b).toEqual(a);
  });

  it('compute an option-legs run on a thread a pass at a time, the job loading the option candles each pass asked for: the rows of a job without threads', async () => {
    const legs = { underlying: 'NIFTY', onBuy: [{ option: 'CE', side: 'buy', strike: { by: 'atm-offset', steps: 0 }, expiry: 'current-weekly', lots: 1 }] };
    const before = await prepared({ symbol: 'NIFTY 50', interval: 15, capital: 50_000_000, legs });
    expect(threadable(before)).toBe(true);
    if (before.legsTrader === undefined) throw new Error('an option-legs run has its trader data');
    const legsTrader = before.legsTrader;
    // The first contracts the run looks up get imported candles.
    const imported = contractsAsked((candles) => runBacktest({
      series: before.series, program: compiled().value, config: before.config, trader: optionsLegsTraderFactory({ ...legsTrader, slippage: { kind: 'none' }, candles }),
    })).slice(0, 4);
    expect(imported.length).toBe(4);
    await writeOptionContracts(db.pool, { symbols: imported, underlying: 'NIFTY 50', range: RANGE });
    const [runBacktestAction] = backtestActions({ pool: db.pool, queue, now: () => NOW });
    const started = async (): Promise<string> => {
      const output = await runBacktestAction?.handler({
        args: { input: backtestInput([algorithmId], { strategyType: 'swing', dateRanges: [RANGE], window: 15, frequenciesAndInvestments: [{ interval: 15, investment: 500_000 }], tradeInstrumentsConfig: legs }) },
        session: graphqlSession({ tier: 'advanced', userId }),
      }) as { run_ids: string[] };
      return output.run_ids[0] as string;
    };
    const [plain, threaded] = [await started(), await started()];
    await db.pool.query(`UPDATE strategy_runs SET status = 'IN PROGRESS', started_at = now() WHERE run_id = ANY($1::uuid[])`, [[plain, threaded]]);
    let passes = 0;
    class CountingThreads extends BacktestThreads {
      override legsPass(...args: Parameters<BacktestThreads['legsPass']>): ReturnType<BacktestThreads['legsPass']> {
        passes += 1;
        return super.legsPass(...args);
      }
    }
    const legsThreads = new CountingThreads({ threads: 2 });
    try {
      expect(await executeBacktestRun({ pool: db.pool, runId: plain })).toBe('complete');
      expect(await executeBacktestRun({ pool: db.pool, runId: threaded, threads: legsThreads })).toBe('complete');
    } finally {
      await legsThreads.close();
    }
    // A first pass asked for the imported contracts, a later one had them.
    expect(passes).toBeGreaterThan(1);
    const stored = async (runId: string): Promise<{ run: unknown; orders: Array<{ symbol: string }> }> => {
      const { rows: [run] } = await db.pool.query('SELECT status, candles, metrics, result FROM strategy_runs WHERE run_id = $1', [runId]);
      const { rows: orders } = await db.pool.query<{ symbol: string }>(
        `SELECT i.trading_symbol AS symbol, o.side, o.quantity, o.status, o.filled_quantity, o.average_price_paise FROM orders o JOIN instruments i USING (instrument_id)
         WHERE o.run_id = $1 ORDER BY o.created_at, o.client_order_id`, [runId]);
      return { run, orders };
    };
    const [a, b] = [await stored(plain), await stored(threaded)];
    expect(a.orders.some((order) => imported.includes(order.symbol))).toBe(true);
    expect(b).toEqual(a);
  });
});
