// One job of a sweep: a chunk (combinations from..to - 1) or a whole walk-forward. The job loads
// the instrument's stored candles and the engine inputs as a backtest does
// (backtest/stored-run.ts), runs the engine's runSweepChunk / runWalkForward, and writes rows.
// An index is traded through its near-month futures as its backtest is: one FuturesChain over the
// stored range, built once per sweep and process and shared by every run (it is only read). Option
// legs: one trader factory (a fresh trader per run) over the stored leg candles; a slice of runs
// is run again until every option candle its runs asked for was loaded (as runPrepared does), so
// its rows are those of runs with all their candles. A walk-forward of option legs makes each run's
// trader for its own bars (INDIA VIX and option candles cut to them: optionsLegsWindowTraders).
// With worker threads, option-legs runs go to them as other runs do, with their traders' data and
// the candles loaded so far (../sweep/sweep-legs.ts), pass after pass until no run asked for a
// candle not loaded; without, a walk-forward of option legs runs on the event loop's thread a slice
// of in-sample runs at a time, with progress and cancel between slices, and again until every
// option candle was loaded.
//
// Invariants:
// - Rows are written with ON CONFLICT DO NOTHING on (sweep_id, position): a retried or
//   duplicated chunk adds nothing; `rows_done` grows by the rows actually inserted.
// - Every write locks the sweep row first and requires it IN PROGRESS, so writes of one sweep are
//   serialised, a cancelled or ended sweep gets nothing, and the write that brings rows_done to
//   `combinations` completes the sweep (best row, stability, credits used) in the same
//   transaction: a sweep completes exactly once (migration 0031's trigger refuses any later change).
// - A chunk is written in slices (SLICE_CANDLES of runs), yielding to the event loop between
//   them; a retried chunk skips slices whose rows all exist.
// - Failures of the sweep's own inputs (no candles, an instrument sweeps cannot trade, a
//   combination the document refuses) end the sweep in ERROR with the reason, no retry;
//   infrastructure errors are thrown to pg-boss, which retries the job (sweep-workers.ts).
// - Credits: a completed sweep keeps the candles its runs processed, at most the estimate; an
//   ended one (ERROR, CANCELLED) keeps those of the rows written, at most the estimate.
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { istDate } from '@vyuha/core';
import type { Paise } from '@vyuha/core';
import {
  BacktestConfigError, bestCell, formatAlgorithmError, inSampleRequest, OptionsLegsConfigError, parseOptionsLegsConfig, runSweepChunk, runWalkForward, stability, SweepError,
  walkForwardFromSweeps, walkForwardWindows,
} from '@vyuha/engine';
import type {
  BacktestConfigInput, BarSeries, ContractChain, OptionsLegsConfig, SweepRequest, TraderFactory, ParameterBindings, SweepMetrics, SweepRow, WalkForwardRequest,
  WalkForwardResult, WalkForwardWindow, WindowTraders,
} from '@vyuha/engine';
import type pg from 'pg';
import { passesUntilLoaded } from '../backtest/stored-candles';
import type { CandleRange, StoredLegCandles } from '../backtest/stored-candles';
import { prepareStoredRun, StoredRunError } from '../backtest/stored-run';
import type { FuturesRecipe, LegsTraderData } from '../backtest/prepared-run';
import { threadable, threadParts } from '../sweep/stored-passes';
import { storedInstrumentOf } from '../backtest/trade-plan';
import { inTransaction } from '../db/transaction';
import { readSweepRequest, SLICE_CANDLES, sweepCombinations, sweepDocument, SweepRequestError } from './sweep-request';
import type { SweepThreads } from './sweep-threads';
import { SweepAborted } from '../sweep/run-pool';
import type { SweepJobRequest } from './sweep-request';

/** A problem with the sweep's own inputs: it ends in ERROR with this message, no retry. */
export class SweepRunFailure extends Error {
  override readonly name = 'SweepRunFailure';
}

/** The sweep is no longer IN PROGRESS (cancelled, failed, or completed): stop quietly. */
export class SweepNoLongerRunning extends Error {
  override readonly name = 'SweepNoLongerRunning';
}

export type SweepDisposition = 'written' | 'complete' | 'error' | 'skipped';

/** What a sweep job runs: a range of combinations, or (walk-forward) the whole thing. */
export interface SweepJob {
  readonly sweepId: string;
  readonly from: number;
  readonly to: number;
}

/** Everything a job needs from the database, loaded once per sweep and process (see `inputsCache`). */
interface SweepInputs {
  readonly series: BarSeries;
  readonly config: BacktestConfigInput;
  readonly document: Record<string, unknown>;
  readonly combinations: readonly ParameterBindings[];
  /** An index's futures, as its backtest trades them. */
  readonly contracts?: ContractChain;
  /** How `contracts` was built: worker threads build the same chain from it. */
  readonly futures?: FuturesRecipe;
  /** Option legs: the trader factory and the stored leg candles it reads (loaded as runs ask). */
  readonly trader?: TraderFactory;
  /** Option legs: the same traders made for a walk-forward's windows. */
  readonly windowTraders?: WindowTraders;
  readonly legCandles?: StoredLegCandles;
  /** Option legs: what `trader` was made from (worker threads make the same traders from it). */
  readonly legsTrader?: LegsTraderData;
}

function legsOf(request: SweepJobRequest): OptionsLegsConfig | undefined {
  const config = request.tradeInstrumentsConfig;
  if (config === undefined || config === null) return undefined;
  try {
    return parseOptionsLegsConfig(config);
  } catch (error) {
    if (error instanceof OptionsLegsConfigError) throw new SweepRunFailure(`tradeInstrumentsConfig.${error.message}`);
    throw error;
  }
}

interface SweepRecord {
  readonly status: string;
  readonly kind: string;
  readonly request: unknown;
}

async function loadSweep(pool: pg.Pool, sweepId: string): Promise<SweepRecord | undefined> {
  const { rows } = await pool.query<SweepRecord>('SELECT status, kind, request FROM sweeps WHERE sweep_id = $1', [sweepId]);
  return rows[0];
}

async function loadInputs(pool: pg.Pool, request: SweepJobRequest): Promise<SweepInputs> {
  const { rows } = await pool.query<{ graph: unknown }>('SELECT graph FROM algorithm_versions WHERE algorithm_id = $1 AND version = $2',
    [request.algorithm.algorithmId, request.algorithm.version]);
  if (rows[0] === undefined) throw new SweepRunFailure(`algorithm ${request.algorithm.name} version ${request.algorithm.version} no longer exists`);
  const combinations = sweepCombinations(request);
  if (!combinations.ok) throw new SweepRunFailure(`the parameter grid: ${combinations.error.map(formatAlgorithmError).join('; ')}`);
  if (combinations.value.length !== request.combinations) {
    throw new SweepRunFailure(`the parameter grid has ${combinations.value.length} combinations, the sweep was started with ${request.combinations}`);
  }
  let prepared;
  try {
    prepared = await prepareStoredRun({
      pool, instrument: await storedInstrumentOf(pool, request.instrument), strategyType: request.strategyType, dateRange: request.dateRange,
      intervalMinutes: request.interval, capital: request.investmentPaise as Paise, legs: legsOf(request),
    });
  } catch (error) {
    if (error instanceof StoredRunError) throw new SweepRunFailure(error.message);
    throw error;
  }
  return {
    series: prepared.series, config: prepared.config, document: sweepDocument(rows[0].graph, request), combinations: combinations.value,
    ...(prepared.contracts === undefined ? {} : { contracts: prepared.contracts }),
    ...(prepared.futures === undefined ? {} : { futures: prepared.futures }),
    ...(prepared.trader === undefined ? {} : { trader: prepared.trader }),
    ...(prepared.windowTraders === undefined ? {} : { windowTraders: prepared.windowTraders }),
    ...(prepared.legCandles === undefined ? {} : { legCandles: prepared.legCandles }),
    ...(prepared.legsTrader === undefined ? {} : { legsTrader: prepared.legsTrader }),
  };
}

/** The inputs of the last few sweeps this process ran: consecutive chunks of one sweep load the candles once. */
const inputsCache = new Map<string, Promise<SweepInputs>>();
const CACHED_SWEEPS = 2;

function inputsOf(pool: pg.Pool, sweepId: string, request: SweepJobRequest): Promise<SweepInputs> {
  const cached = inputsCache.get(sweepId);
  if (cached !== undefined) return cached;
  const loading = loadInputs(pool, request);
  inputsCache.set(sweepId, loading);
  loading.catch(() => inputsCache.delete(sweepId));
  while (inputsCache.size > CACHED_SWEEPS) inputsCache.delete(inputsCache.keys().next().value as string);
  return loading;
}

/** Engine errors caused by the sweep's inputs (pure code: a retry would throw the same). */
function engineFailure(error: unknown): never {
  if (error instanceof SweepError) throw new SweepRunFailure(error.message);
  if (error instanceof BacktestConfigError) throw new SweepRunFailure(`impossible config: ${error.message}`);
  if (error instanceof RangeError) throw new SweepRunFailure(error.message);
  throw error;
}

interface ResultRow {
  readonly position: number;
  readonly bindings: ParameterBindings;
  readonly metrics: unknown;
  readonly candles: number;
}

/** The candles of rows already written, capped at the estimate: what an ended sweep keeps charged. */
const CANDLES_OF_ROWS = `least(s.estimated_candles, (SELECT coalesce(sum(r.candles), 0) FROM sweep_results r WHERE r.sweep_id = s.sweep_id))`;

/**
 * Ends a sweep QUEUED or IN PROGRESS in ERROR with `reason`; false when it had already ended.
 * @example await failSweep(pool, { sweepId, reason: 'no stored candles ...' }) // true
 */
export async function failSweep(db: pg.Pool | pg.PoolClient, request: { sweepId: string; reason: string }): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE sweeps s SET status = 'ERROR', error = $2, finished_at = now(), candles = ${CANDLES_OF_ROWS}
     WHERE s.sweep_id = $1 AND s.status IN ('QUEUED', 'IN PROGRESS')`, [request.sweepId, request.reason]);
  return (rowCount ?? 0) > 0;
}

/**
 * Cancels a sweep QUEUED or IN PROGRESS (status CANCELLED, `reason` in error); false when it had
 * already ended. Its running chunks stop at their next write.
 */
export async function cancelSweepRow(db: pg.Pool | pg.PoolClient, request: { sweepId: string; userId: string; reason: string }): Promise<{ status: string; cancelled: boolean } | undefined> {
  const { rows } = await db.query<{ status: string; cancelled: boolean }>(
    `WITH target AS (
       SELECT sweep_id, status FROM sweeps WHERE sweep_id = $1 AND user_id = $2 FOR UPDATE
     ), ended AS (
       UPDATE sweeps s SET status = 'CANCELLED', error = $3, finished_at = now(), candles = ${CANDLES_OF_ROWS}
       FROM target WHERE s.sweep_id = target.sweep_id AND target.status IN ('QUEUED', 'IN PROGRESS')
       RETURNING s.status
     )
     SELECT coalesce((SELECT status FROM ended), target.status) AS status, EXISTS (SELECT 1 FROM ended) AS cancelled FROM target`,
    [request.sweepId, request.userId, request.reason]);
  return rows[0];
}

interface LockedSweep {
  readonly combinations: number;
  readonly rows_done: number;
  readonly estimated_candles: string;
  readonly request: unknown;
}

async function lockRunning(client: pg.PoolClient, sweepId: string): Promise<LockedSweep> {
  const { rows } = await client.query<LockedSweep & { status: string }>(
    'SELECT status, combinations, rows_done, estimated_candles, request FROM sweeps WHERE sweep_id = $1 FOR UPDATE', [sweepId]);
  const row = rows[0];
  if (row === undefined || row.status !== 'IN PROGRESS') throw new SweepNoLongerRunning(`sweep ${sweepId} is no longer IN PROGRESS`);
  return row;
}

async function insertRows(client: pg.PoolClient, sweepId: string, rows: readonly ResultRow[]): Promise<number> {
  const { rowCount } = await client.query(
    `INSERT INTO sweep_results (sweep_id, position, bindings, metrics, candles)
     SELECT $1, t.position, t.bindings, t.metrics, t.candles FROM unnest($2::int[], $3::jsonb[], $4::jsonb[], $5::bigint[]) AS t(position, bindings, metrics, candles)
     ON CONFLICT (sweep_id, position) DO NOTHING`,
    [sweepId, rows.map((row) => row.position), rows.map((row) => JSON.stringify(row.bindings)), rows.map((row) => JSON.stringify(row.metrics)), rows.map((row) => row.candles)]);
  return rowCount ?? 0;
}

/** The summary of a complete sweep from its stored rows: the best row by the metric and the stability around it. */
async function sweepSummary(client: pg.PoolClient, sweepId: string, request: SweepJobRequest): Promise<{ summary: unknown; candles: number }> {
  const { rows } = await client.query<{ position: number; bindings: ParameterBindings; metrics: SweepMetrics; candles: string }>(
    'SELECT position, bindings, metrics, candles FROM sweep_results WHERE sweep_id = $1 ORDER BY position', [sweepId]);
  const measured: SweepRow[] = rows.map((row) => ({ index: row.position, bindings: row.bindings, metrics: row.metrics }));
  const best = bestCell(measured, request.metric);
  const candles = rows.reduce((sum, row) => sum + Number(row.candles), 0);
  return {
    candles,
    summary: {
      metric: request.metric,
      best: best === undefined ? null : { position: best.index, bindings: best.bindings, metrics: best.metrics },
      stability: best === undefined ? null : stability(measured, { best, metric: request.metric, parameters: request.parameters }),
      candlesProcessed: candles,
    },
  };
}

/** Writes rows of a chunk; completes the sweep when they were its last. Throws SweepNoLongerRunning. */
async function writeChunkRows(pool: pg.Pool, sweepId: string, rows: readonly ResultRow[]): Promise<'written' | 'complete'> {
  return inTransaction(pool, async (client) => {
    const locked = await lockRunning(client, sweepId);
    const inserted = await insertRows(client, sweepId, rows);
    const done = locked.rows_done + inserted;
    if (done < locked.combinations) {
      await client.query('UPDATE sweeps SET rows_done = $2, progress = $3 WHERE sweep_id = $1', [sweepId, done, Math.min(99, Math.floor((done * 100) / locked.combinations))]);
      return 'written';
    }
    const { summary, candles } = await sweepSummary(client, sweepId, readSweepRequest(locked.request));
    await client.query(
      `UPDATE sweeps SET rows_done = $2, progress = 100, status = 'COMPLETE', summary = $3, candles = least(estimated_candles, $4::bigint), finished_at = now()
       WHERE sweep_id = $1`, [sweepId, done, JSON.stringify(summary), candles]);
    return 'complete';
  });
}

/** Positions of [from, to) already written (a retried chunk skips them). */
async function writtenPositions(pool: pg.Pool, job: SweepJob): Promise<Set<number>> {
  const { rows } = await pool.query<{ position: number }>('SELECT position FROM sweep_results WHERE sweep_id = $1 AND position >= $2 AND position < $3',
    [job.sweepId, job.from, job.to]);
  return new Set(rows.map((row) => row.position));
}

/** The engine's sweep request over a sweep's inputs. */
function engineRequest(inputs: SweepInputs, request: Pick<SweepJobRequest, 'metric'>): SweepRequest {
  return {
    series: inputs.series, document: inputs.document, config: inputs.config, combinations: inputs.combinations, metric: request.metric,
    ...(inputs.contracts === undefined ? {} : { contracts: inputs.contracts }),
    ...(inputs.trader === undefined ? {} : { trader: inputs.trader }),
  };
}

/** The candles the sweep's runs cover: the range its option candles are loaded over. */
function candleRangeOf(request: SweepJobRequest): CandleRange {
  return { dateRange: request.dateRange, intervalMinutes: request.interval };
}

/** Rows of combinations from .. to - 1 (on `threads` when given and the runs allow); with option legs, run again until every option candle the runs asked for was loaded. */
async function chunkRows(pool: pg.Pool, job: { sweepId: string; inputs: SweepInputs; request: SweepJobRequest; from: number; to: number; threads: SweepThreads | undefined }): Promise<SweepRow[]> {
  const { inputs, request, from, to, threads } = job;
  return passesUntilLoaded(pool, { candles: inputs.legCandles, range: candleRangeOf(request) }, async (onWanted) => {
    try {
      return threads !== undefined && threadable(inputs)
        ? await threads.rows({
          series: inputs.series, job: { document: inputs.document, config: inputs.config, combinations: inputs.combinations, metric: request.metric, ...threadParts(inputs) }, from, to,
        }, { onWanted })
        : runSweepChunk({ ...engineRequest(inputs, request), from, to });
    } catch (error) {
      engineFailure(error);
    }
  });
}

/** How a job runs: its sweep's request, and the threads to run on (undefined: here). */
interface JobRun {
  readonly request: SweepJobRequest;
  readonly threads: SweepThreads | undefined;
}

async function runChunk(pool: pg.Pool, job: SweepJob, run: JobRun): Promise<SweepDisposition> {
  const { request, threads } = run;
  const inputs = await inputsOf(pool, job.sweepId, request);
  if (!Number.isSafeInteger(job.from) || !Number.isSafeInteger(job.to) || job.from < 0 || job.to > inputs.combinations.length || job.from >= job.to) {
    throw new SweepRunFailure(`chunk ${job.from}..${job.to} is outside the sweep's ${inputs.combinations.length} combinations`);
  }
  const written = await writtenPositions(pool, job);
  const slice = Math.max(1, Math.floor(SLICE_CANDLES / Math.max(1, inputs.series.length)));
  let outcome: SweepDisposition = 'written';
  for (let at = job.from; at < job.to; at += slice) {
    const end = Math.min(job.to, at + slice);
    let missing = false;
    for (let position = at; position < end && !missing; position += 1) missing = !written.has(position);
    if (!missing) continue;
    const rows = await chunkRows(pool, { sweepId: job.sweepId, inputs, request, from: at, to: end, threads });
    outcome = await writeChunkRows(pool, job.sweepId, rows.map((row) => ({ position: row.index, bindings: row.bindings, metrics: row.metrics, candles: row.metrics.candlesProcessed })));
    await yieldToEventLoop();
  }
  return outcome;
}

/** The stitched out-of-sample equity as one point per IST day (its last bar): what the results screen plots. */
function dailyEquity(equity: WalkForwardResult['equity']): { dates: string[]; equity: number[] } {
  const dates: string[] = [];
  const values: number[] = [];
  for (let index = 0; index < equity.times.length; index += 1) {
    const date = istDate(equity.times[index] as number);
    if (dates[dates.length - 1] === date) values[values.length - 1] = equity.equity[index] as number;
    else {
      dates.push(date);
      values.push(equity.equity[index] as number);
    }
  }
  return { dates, equity: values };
}

/** A walk-forward's rows (one per window) and summary, as stored. */
export function walkForwardRecords(result: WalkForwardResult): { rows: ResultRow[]; summary: unknown } {
  const rows = result.windows.map((window) => ({
    position: window.index,
    bindings: window.chosen,
    candles: window.candlesProcessed,
    metrics: {
      chosenIndex: window.chosenIndex,
      inSample: { fromDate: window.inSample.fromDate, toDate: window.inSample.toDate, days: window.inSample.toDay - window.inSample.fromDay },
      outOfSample: { fromDate: window.outOfSample.fromDate, toDate: window.outOfSample.toDate, days: window.outOfSample.toDay - window.outOfSample.fromDay },
      inSampleMetrics: window.inSampleMetrics,
      outOfSampleMetrics: window.outOfSampleMetrics,
      warmupBars: window.warmupBars,
      outOfSampleNetPnl: window.outOfSampleNetPnl,
    },
  }));
  const summary = {
    metric: result.metric, windows: result.windows.length, outOfSampleMetrics: result.outOfSampleMetrics, meanInSampleMetric: result.meanInSampleMetric,
    overfitting: result.overfitting, candlesProcessed: result.candlesProcessed, equity: dailyEquity(result.equity),
  };
  return { rows, summary };
}

/** A walk-forward's progress is written at most this often while its in-sample tasks finish. */
const PROGRESS_WRITE_MS = 250;

/**
 * A walk-forward job on threads, watched: as its in-sample tasks finish, progress from 10 to 90%
 * (one write at a time, at most every PROGRESS_WRITE_MS); a write that finds the sweep no longer
 * IN PROGRESS (cancelled) aborts the run, which stops after the tasks running. `settled` waits
 * for the last write. A failed progress write is not the job's failure: the final write decides.
 */
function walkForwardWatch(pool: pg.Pool, sweepId: string): { onTaskDone: (done: number, total: number) => void; signal: AbortSignal; settled: () => Promise<void> } {
  const controller = new AbortController();
  let writing: Promise<void> | undefined;
  let lastWrite = 0;
  return {
    signal: controller.signal,
    onTaskDone: (done, total) => {
      if (writing !== undefined || Date.now() - lastWrite < PROGRESS_WRITE_MS) return;
      lastWrite = Date.now();
      const percent = 10 + Math.floor((80 * done) / total);
      writing = pool.query(`UPDATE sweeps SET progress = greatest(progress, $2) WHERE sweep_id = $1 AND status = 'IN PROGRESS'`, [sweepId, percent])
        .then((result) => {
          if (result.rowCount === 0) controller.abort();
        }, () => undefined)
        .finally(() => {
          writing = undefined;
        });
    },
    settled: async () => {
      await writing;
    },
  };
}

/**
 * A walk-forward of option legs, here on the event loop's thread: each window's in-sample sweep a
 * slice of runs (SLICE_CANDLES) at a time, progress written from 10 to 90% between slices and a
 * cancelled sweep stopped there (SweepNoLongerRunning); then the out-of-sample runs. Run again
 * until every option candle its runs asked for was loaded, so it is the walk-forward of runs with
 * all their candles. Throws SweepNoLongerRunning, and the engine's errors.
 */
async function legsWalkForward(pool: pg.Pool, job: { sweepId: string; inputs: SweepInputs; request: SweepJobRequest; windows: readonly WalkForwardWindow[] }): Promise<WalkForwardResult> {
  const { inputs, request, windows } = job;
  const { trader: _wholeSeries, ...rest } = engineRequest(inputs, request);
  const engine: WalkForwardRequest = { ...rest, windows, ...(inputs.windowTraders === undefined ? {} : { traders: inputs.windowTraders }) };
  return passesUntilLoaded(pool, { candles: inputs.legCandles, range: candleRangeOf(request) }, async () => {
    const inSampleRows: SweepRow[][] = [];
    for (const window of windows) {
      const sweep = inSampleRequest(engine, window);
      const slice = Math.max(1, Math.floor(SLICE_CANDLES / Math.max(1, sweep.series.length)));
      const rows: SweepRow[] = [];
      for (let from = 0; from < sweep.combinations.length; from += slice) {
        rows.push(...runSweepChunk({ ...sweep, from, to: Math.min(sweep.combinations.length, from + slice) }));
        const done = inSampleRows.length + rows.length / sweep.combinations.length;
        const { rowCount } = await pool.query(`UPDATE sweeps SET progress = greatest(progress, $2) WHERE sweep_id = $1 AND status = 'IN PROGRESS'`,
          [job.sweepId, 10 + Math.floor((80 * done) / windows.length)]);
        if (rowCount === 0) throw new SweepNoLongerRunning(`sweep ${job.sweepId} is no longer IN PROGRESS`);
      }
      inSampleRows.push(rows);
    }
    return walkForwardFromSweeps(engine, (_window, index) => inSampleRows[index] as SweepRow[]);
  });
}

/**
 * A walk-forward with its in-sample sweeps on the threads; with option legs, run again (the threads
 * given the candles loaded since) until no run, in sample on a thread or out of sample here, asked
 * for a stored option candle that was not loaded. Throws what the engine throws, and SweepAborted.
 */
async function threadsWalkForward(pool: pg.Pool, job: {
  sweepId: string; inputs: SweepInputs; request: SweepJobRequest; windows: readonly WalkForwardWindow[]; threads: SweepThreads; watch: ReturnType<typeof walkForwardWatch>;
}): Promise<WalkForwardResult> {
  const { inputs, request, windows, threads, watch } = job;
  // A walk-forward makes each run's trader for its own bars: the window traders, not the whole series' factory.
  const { trader: _wholeSeries, ...rest } = engineRequest(inputs, request);
  const engine: WalkForwardRequest = { ...rest, windows, ...(inputs.windowTraders === undefined ? {} : { traders: inputs.windowTraders }) };
  return passesUntilLoaded(pool, { candles: inputs.legCandles, range: candleRangeOf(request) }, (onWanted) => threads.walkForward(engine, {
    ...threadParts(inputs), onTaskDone: watch.onTaskDone, signal: watch.signal, onWanted,
  }));
}

async function runWalkForwardJob(pool: pg.Pool, job: SweepJob, run: JobRun): Promise<SweepDisposition> {
  const { request, threads } = run;
  const inputs = await inputsOf(pool, job.sweepId, request);
  const spec = request.walkForward;
  if (spec === null) throw new SweepRunFailure('a walk-forward needs its windows (request.walkForward)');
  const windows = walkForwardWindows(inputs.series, spec);
  if (!windows.ok) throw new SweepRunFailure(`walkForward: ${windows.error.map((issue) => `${issue.field}: ${issue.message}`).join('; ')}`);
  // The candles are loaded and the windows laid out. On the threads (when given and the runs
  // allow) the in-sample tasks report progress and a cancel stops them (option legs: pass after
  // pass until every option candle was loaded, threadsWalkForward); without threads option legs run
  // here a slice at a time (legsWalkForward), the others in one call.
  const { rowCount } = await pool.query(`UPDATE sweeps SET progress = 10 WHERE sweep_id = $1 AND status = 'IN PROGRESS'`, [job.sweepId]);
  if (rowCount === 0) throw new SweepNoLongerRunning(`sweep ${job.sweepId} is no longer IN PROGRESS`);
  let result: WalkForwardResult;
  const watch = walkForwardWatch(pool, job.sweepId);
  try {
    if (threads !== undefined && threadable(inputs)) {
      result = await threadsWalkForward(pool, { sweepId: job.sweepId, inputs, request, windows: windows.value, threads, watch });
    } else if (inputs.windowTraders !== undefined) result = await legsWalkForward(pool, { sweepId: job.sweepId, inputs, request, windows: windows.value });
    else result = runWalkForward({ ...engineRequest(inputs, request), windows: windows.value });
  } catch (error) {
    if (error instanceof SweepAborted) throw new SweepNoLongerRunning(`sweep ${job.sweepId} is no longer IN PROGRESS (${error.message})`);
    engineFailure(error);
  } finally {
    await watch.settled();
  }
  const { rows, summary } = walkForwardRecords(result);
  await inTransaction(pool, async (client) => {
    await lockRunning(client, job.sweepId);
    const inserted = await insertRows(client, job.sweepId, rows);
    if (inserted !== rows.length) throw new Error(`walk-forward ${job.sweepId}: ${rows.length - inserted} window rows were already written by another job`);
    await client.query(
      `UPDATE sweeps SET combinations = $2, rows_done = $2, progress = 100, status = 'COMPLETE', summary = $3, candles = least(estimated_candles, $4::bigint), finished_at = now()
       WHERE sweep_id = $1`, [job.sweepId, rows.length, JSON.stringify(summary), result.candlesProcessed]);
  });
  return 'complete';
}

/**
 * Runs one sweep job. 'skipped' when the sweep is not running (cancelled, ended); 'error' when
 * its inputs made it fail (status ERROR, error = the reason); 'complete' when this job completed
 * it; 'written' otherwise. Infrastructure errors are thrown.
 */
export async function executeSweepJob(pool: pg.Pool, job: SweepJob, options: { threads?: SweepThreads } = {}): Promise<SweepDisposition> {
  return sweepJobOutcome(pool, job, options.threads);
}

async function sweepJobOutcome(pool: pg.Pool, job: SweepJob, threads: SweepThreads | undefined): Promise<SweepDisposition> {
  const sweep = await loadSweep(pool, job.sweepId);
  if (sweep === undefined || (sweep.status !== 'QUEUED' && sweep.status !== 'IN PROGRESS')) return 'skipped';
  try {
    const request = readSweepRequest(sweep.request);
    const { rowCount } = await pool.query(
      `UPDATE sweeps SET status = 'IN PROGRESS', started_at = coalesce(started_at, greatest(now(), created_at)) WHERE sweep_id = $1 AND status IN ('QUEUED', 'IN PROGRESS')`,
      [job.sweepId]);
    if (rowCount === 0) return 'skipped';
    return sweep.kind === 'walkforward' ? await runWalkForwardJob(pool, job, { request, threads }) : await runChunk(pool, job, { request, threads });
  } catch (error) {
    if (error instanceof SweepNoLongerRunning) return 'skipped';
    if (error instanceof SweepRunFailure || error instanceof SweepRequestError) {
      await failSweep(pool, { sweepId: job.sweepId, reason: error.message });
      return 'error';
    }
    throw error;
  }
}
