// `run_backtest`: checks (role, permission, form, tier dates, instrument, legs, algorithms,
// credits), then in ONE transaction a strategies row, one strategy_runs row per cell and one
// pg-boss job per run. A refusal writes nothing.
import { randomUUID } from 'node:crypto';
import { estimateCandles, expandBacktestRequest, formatRequestIssues, OptionsLegsConfigError, parseOptionsLegsConfig } from '@vyuha/engine';
import type { BacktestRequest, BacktestRun } from '@vyuha/engine';
import type pg from 'pg';
import { tradeRequestIssues } from '../../backtest/trade-plan';
import { BACKTEST_PARAMS_FORMAT } from '../../jobs/backtest-params';
import type { BacktestRunParams } from '../../jobs/backtest-params';
import { enqueueBacktestRuns } from '../../jobs/job-queue';
import type { JobQueue } from '../../jobs/job-queue';
import { resolveInstrument, UnknownInstrumentError } from '../../market-data/instrument-lookup';
import type { InstrumentRef } from '../../market-data/instrument-lookup';
import type { ActionInvocation } from '../metadata/types';
import { GraphqlFailure } from '../types';
import { checkAlgorithmCompiles, checkNotFuture, checkTierDates, inputPath, parseRunBacktestInput } from './backtest-input';
import { actorId, BACKTEST_ROLES, requirePermission, requireRole, targetUserId } from './session-access';

/** The error code of a request the user's BACKTEST credits cannot cover. */
export const INSUFFICIENT_CREDITS = 'insufficient-credits';

export interface BacktestActionContext {
  readonly pool: pg.Pool;
  readonly queue: JobQueue;
  /** Wall clock, epoch ms. */
  readonly now: () => number;
}

export interface RunBacktestOutput {
  readonly strategy_id: string;
  readonly run_ids: readonly string[];
  readonly candles: number;
}

interface StoredAlgorithm {
  readonly algorithmId: string;
  readonly name: string;
  readonly version: number;
}

async function instrumentOf(pool: pg.Pool, name: string): Promise<InstrumentRef> {
  try {
    return await resolveInstrument(pool, name);
  } catch (error) {
    if (error instanceof UnknownInstrumentError) throw new GraphqlFailure('validation-failed', `instrument: ${error.message}`, inputPath('instrument'));
    throw error;
  }
}

function checkLegs(request: BacktestRequest, instrument: InstrumentRef): void {
  if (request.tradeInstrumentsConfig === null) return;
  let underlying: string;
  try {
    underlying = parseOptionsLegsConfig(request.tradeInstrumentsConfig).underlying;
  } catch (error) {
    if (error instanceof OptionsLegsConfigError) {
      throw new GraphqlFailure('validation-failed', `tradeInstrumentsConfig.${error.message}`, inputPath(`tradeInstrumentsConfig.${error.field}`));
    }
    throw error;
  }
  if (underlying !== instrument.tradingSymbol) {
    throw new GraphqlFailure('validation-failed', `tradeInstrumentsConfig.underlying: ${underlying} is not the instrument of this backtest (${instrument.tradingSymbol})`,
      inputPath('tradeInstrumentsConfig.underlying'));
  }
}

/**
 * Without option legs the instrument itself is traded: it must be tradeable (an index through its
 * futures, a stock), its futures must exist in each range, and each investment must cover one lot.
 */
async function checkTrade(pool: pg.Pool, request: BacktestRequest, instrument: InstrumentRef): Promise<void> {
  if (request.tradeInstrumentsConfig !== null) return;
  const issues = await tradeRequestIssues(pool, {
    instrument, strategyType: request.strategyType, dateRanges: request.dateRanges, investments: request.frequenciesAndInvestments.map((pair) => pair.investment),
  });
  const first = issues[0];
  if (first !== undefined) throw new GraphqlFailure('validation-failed', formatRequestIssues(issues).replaceAll('\n', '; '), inputPath(first.path));
}

/** Each algorithm must be the user's own or published, with at least one saved version (its latest runs) that compiles. */
async function algorithmsOf(pool: pg.Pool, request: { ids: readonly string[]; userId: string }): Promise<Map<string, StoredAlgorithm>> {
  const { rows } = await pool.query<{ algorithm_id: string; name: string; user_id: string; published: boolean; latest_version: number | null; graph: unknown }>(
    `SELECT a.algorithm_id, a.name, a.user_id, a.published, a.latest_version, v.graph
     FROM algorithms a LEFT JOIN algorithm_versions v ON v.algorithm_id = a.algorithm_id AND v.version = a.latest_version
     WHERE a.algorithm_id = ANY($1::uuid[])`, [request.ids]);
  const found = new Map(rows.map((row) => [row.algorithm_id, row]));
  const algorithms = new Map<string, StoredAlgorithm>();
  request.ids.forEach((id, index) => {
    const row = found.get(id);
    if (row === undefined || (row.user_id !== request.userId && !row.published)) {
      throw new GraphqlFailure('validation-failed', `algorithms[${index}]: no algorithm ${id} of yours or published`, inputPath(`algorithms[${index}]`));
    }
    if (row.latest_version === null || row.graph === null) {
      throw new GraphqlFailure('validation-failed', `algorithms[${index}]: algorithm ${row.name} has no saved version yet`, inputPath(`algorithms[${index}]`));
    }
    checkAlgorithmCompiles(index, { name: row.name, version: row.latest_version, graph: row.graph });
    algorithms.set(id, { algorithmId: id, name: row.name, version: row.latest_version });
  });
  return algorithms;
}

function paramsOf(run: BacktestRun, context: { algorithm: StoredAlgorithm; instrument: InstrumentRef; estimatedCandles: number; actorId: string }): BacktestRunParams {
  const { algorithm, instrument } = context;
  return {
    format: BACKTEST_PARAMS_FORMAT, key: run.key, strategyType: run.strategyType,
    instrument: { instrumentId: instrument.instrumentId, exchange: instrument.exchange, tradingSymbol: instrument.tradingSymbol, name: instrument.name },
    algorithm: { algorithmId: algorithm.algorithmId, version: algorithm.version, name: algorithm.name },
    dateRange: run.dateRange, interval: run.interval, window: run.window, investmentPaise: run.investment,
    tradeInstrumentsConfig: run.tradeInstrumentsConfig, estimatedCandles: context.estimatedCandles, actorId: context.actorId,
  };
}

interface PlannedRun {
  readonly runId: string;
  readonly params: BacktestRunParams;
}

/** Locks the user's credits for this transaction and refuses when `needed` exceeds what is left. */
async function reserveCredits(client: pg.PoolClient, request: { userId: string; needed: number }): Promise<void> {
  // Two requests of one user are serialised here, so both cannot spend the same credits.
  await client.query(`SELECT pg_advisory_xact_lock(hashtextextended('vyuha.backtest-credits:' || $1, 0))`, [request.userId]);
  const { rows } = await client.query<{ total_credits: string; utilized_credits: string }>(
    `SELECT total_credits, utilized_credits FROM licences WHERE user_id = $1 AND licence_type = 'backtest'`, [request.userId]);
  const available = Math.max(0, Number(rows[0]?.total_credits ?? 0) - Number(rows[0]?.utilized_credits ?? 0));
  if (request.needed > available) {
    throw new GraphqlFailure(INSUFFICIENT_CREDITS,
      `this backtest needs ${request.needed} BACKTEST credits (candles) and ${available} are available`, '$.selectionSet.run_backtest');
  }
}

async function store(context: BacktestActionContext, plan: { userId: string; strategy: Record<string, unknown>; runs: readonly PlannedRun[]; needed: number }): Promise<string> {
  const client = await context.pool.connect();
  try {
    await client.query('BEGIN');
    await reserveCredits(client, { userId: plan.userId, needed: plan.needed });
    const s = plan.strategy;
    const { rows } = await client.query<{ strategy_id: string }>(
      `INSERT INTO strategies (user_id, name, strategy_type, mode, status, kind, algorithm_id, algorithm_version, instrument_id, interval_minutes, config)
       VALUES ($1, $2, $3, 'PAPER', 'DRAFT', 'algo', $4, $5, $6, $7, $8) RETURNING strategy_id`,
      [plan.userId, s.name, s.strategyType, s.algorithmId, s.algorithmVersion, s.instrumentId, s.window, JSON.stringify(s.config)]);
    const strategyId = (rows[0] as { strategy_id: string }).strategy_id;
    await client.query(
      `INSERT INTO strategy_runs (run_id, strategy_id, user_id, kind, status, progress, candles, params)
       SELECT t.run_id, $1, $2, 'BACKTEST', 'IN PROGRESS', 0, t.candles, t.params
       FROM unnest($3::uuid[], $4::bigint[], $5::jsonb[]) AS t(run_id, candles, params)`,
      [strategyId, plan.userId, plan.runs.map((run) => run.runId), plan.runs.map((run) => run.params.estimatedCandles), plan.runs.map((run) => JSON.stringify(run.params))]);
    await enqueueBacktestRuns(context.queue, { client, runIds: plan.runs.map((run) => run.runId) });
    await client.query('COMMIT');
    return strategyId;
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}

/**
 * The `run_backtest` handler.
 * @example await runBacktestAction(context, { args: { input }, session }) // { strategy_id, run_ids: [...], candles: 375 }
 */
export async function runBacktestAction(context: BacktestActionContext, invocation: ActionInvocation): Promise<RunBacktestOutput> {
  const { session } = invocation;
  requireRole(session, BACKTEST_ROLES, 'run_backtest');
  requirePermission(session, 'strategy:backtest', 'run_backtest');
  const userId = targetUserId(session);
  const request = parseRunBacktestInput(invocation.args.input);
  checkNotFuture(request, context.now());
  checkTierDates(request, session);
  const instrument = await instrumentOf(context.pool, request.instrument);
  checkLegs(request, instrument);
  await checkTrade(context.pool, request, instrument);
  const algorithms = await algorithmsOf(context.pool, { ids: request.algorithms.map((algorithm) => (algorithm.kind === 'id' ? algorithm.id : '')), userId });
  const actor = actorId(session);
  const runs = expandBacktestRequest(request).map((run) => {
    const algorithm = algorithms.get(run.algorithm.kind === 'id' ? run.algorithm.id : '') as StoredAlgorithm;
    const estimatedCandles = estimateCandles({ dateRange: run.dateRange, interval: run.interval, instrument: instrument.tradingSymbol });
    return { runId: randomUUID(), params: paramsOf(run, { algorithm, instrument, estimatedCandles, actorId: actor }) };
  });
  const needed = runs.reduce((sum, run) => sum + run.params.estimatedCandles, 0);
  const first = runs[0]?.params as BacktestRunParams;
  const lastRange = request.dateRanges[request.dateRanges.length - 1] ?? first.dateRange;
  const strategy = {
    name: request.name ?? `Backtest ${instrument.tradingSymbol} ${first.dateRange.from}..${lastRange.to}`,
    strategyType: request.strategyType, algorithmId: first.algorithm.algorithmId, algorithmVersion: first.algorithm.version,
    instrumentId: instrument.instrumentId, window: request.window,
    config: {
      backtest: {
        algorithms: [...algorithms.values()].map((algorithm) => ({ id: algorithm.algorithmId, version: algorithm.version })),
        dateRanges: request.dateRanges, window: request.window,
        frequenciesAndInvestments: request.frequenciesAndInvestments.map((pair) => ({ interval: pair.interval, investmentPaise: pair.investment })),
        tradeInstrumentsConfig: request.tradeInstrumentsConfig,
      },
    },
  };
  const strategyId = await store(context, { userId, strategy, runs, needed });
  return { strategy_id: strategyId, run_ids: runs.map((run) => run.runId), candles: needed };
}
