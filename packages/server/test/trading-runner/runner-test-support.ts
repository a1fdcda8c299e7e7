// The runner tests' world: stored synthetic NIFTY 50 history, a trader, algorithms from rules,
// PAPER runs of deployable configurations, the fills a run stored and the fills the backtest
// makes over the same range (the engine's runBacktest on the backtest's own preparation).
import { randomUUID } from 'node:crypto';
import type { IsoDate, Paise } from '@vyuha/core';
import { compileAlgorithm, parseOptionsLegsConfig, runBacktest, serializeDeployableConfig } from '@vyuha/engine';
import type { CompiledAlgorithm, DeployableConfig, LedgerFill } from '@vyuha/engine';
import type pg from 'pg';
import { prepareStoredRun } from '../../src/backtest/stored-run';
import type { PreparedRun } from '../../src/backtest/stored-run';
import { storedInstrumentOf } from '../../src/backtest/trade-plan';
import { buySellGraph, EXAMPLE_ALGORITHMS } from '../../src/db/seed/demo-research';
import { paperConfigOf, preparePaperReplay, readPaperRunParams } from '../../src/trading/runner/replay-run';
import { indexId, storeSyntheticHistory } from '../trading-feeds/feed-test-support';

/** A user of `tier` (default advanced) with the given permissions. */
export async function createTrader(pool: pg.Pool, options: { tier?: string; permissions?: readonly string[] } = {}): Promise<string> {
  const userId = randomUUID();
  const tier = options.tier ?? 'advanced';
  await pool.query(`INSERT INTO auth.users (id, email, default_role) VALUES ($1, $2, $3)`, [userId, `${userId}@example.com`, tier]);
  await pool.query(`INSERT INTO users (user_id, name, tier) VALUES ($1, 'Paper trader', $2)`, [userId, tier]);
  for (const permission of options.permissions ?? []) await pool.query('INSERT INTO user_permissions (user_id, permission) VALUES ($1, $2)', [userId, permission]);
  return userId;
}

/** A saved algorithm (version 1) of `userId`: Buy on one rule, Sell on another. */
export async function algorithm(pool: pg.Pool, userId: string, rules: { buy: string; sell: string }): Promise<{ id: string; version: number }> {
  const graph = buySellGraph({ buy: { label: 'buy', expression: rules.buy }, sell: { label: 'sell', expression: rules.sell } });
  const { rows } = await pool.query<{ algorithm_id: string }>(
    `INSERT INTO algorithms (user_id, name, latest_version) VALUES ($1, $2, 1) RETURNING algorithm_id`, [userId, `runner ${randomUUID()}`]);
  const id = rows[0]!.algorithm_id;
  await pool.query(`INSERT INTO algorithm_versions (algorithm_id, version, graph, schema_version, created_by) VALUES ($1, 1, $2, $3, $4)`,
    [id, JSON.stringify(graph), graph.version, userId]);
  return { id, version: 1 };
}

/** A deployable configuration on NIFTY 50 (5-minute, intraday, all-in, Rs 10 lakh) with `overrides`. */
export function deployable(algorithmRef: { id: string; version: number }, overrides: Partial<DeployableConfig> = {}): DeployableConfig {
  return {
    algorithm: algorithmRef, legs: null, instrument: 'NIFTY 50', interval: 5, type: 'intraday', investment: 1_000_000_00 as DeployableConfig['investment'],
    sizing: { kind: 'all-in' }, manual: false, ...overrides,
  } as DeployableConfig;
}

/** A DRAFT strategy of `userId` for `config` on `instrumentId`. */
export async function strategyOf(pool: pg.Pool, request: { userId: string; instrumentId: number; config: DeployableConfig }): Promise<string> {
  const { userId, instrumentId, config } = request;
  const { rows } = await pool.query<{ strategy_id: string }>(
    `INSERT INTO strategies (user_id, name, kind, algorithm_id, algorithm_version, instrument_id, interval_minutes, strategy_type, config)
     VALUES ($1, $2, 'algo', $3, $4, $5, $6, $7, $8) RETURNING strategy_id`,
    [userId, `runner ${randomUUID()}`, config.algorithm.id, config.algorithm.version, instrumentId, config.interval, config.type,
      JSON.stringify(serializeDeployableConfig(config))]);
  return rows[0]!.strategy_id;
}

/** A PAPER run row replaying `range` at `speed` (what deploy writes), on a new strategy. */
export async function paperRunRow(pool: pg.Pool, request: { userId: string; instrumentId: number; config: DeployableConfig; range: { from: IsoDate; to: IsoDate }; speed?: number }): Promise<string> {
  const { userId, instrumentId, config, range } = request;
  const strategyId = await strategyOf(pool, { userId, instrumentId, config });
  const params = { mode: 'PAPER', config: serializeDeployableConfig(config), instrumentId, intervalMinutes: config.interval, replay: { ...range, speed: request.speed ?? 0 } };
  const run = await pool.query<{ run_id: string }>(
    `INSERT INTO strategy_runs (strategy_id, user_id, kind, params) VALUES ($1, $2, 'PAPER', $3) RETURNING run_id`, [strategyId, userId, JSON.stringify(params)]);
  return run.rows[0]!.run_id;
}

export interface FillRow {
  readonly instrument: string;
  readonly side: 'buy' | 'sell';
  readonly quantity: number;
  readonly price: number;
  readonly time: number;
  readonly charges: number;
}

/** The fills a run stored, in time order, with their charges summed. */
export async function storedFills(pool: pg.Pool, runId: string): Promise<FillRow[]> {
  const { rows } = await pool.query<{ symbol: string; side: string; quantity: number; price: string; ms: string; charges: string }>(
    `SELECT i.trading_symbol AS symbol, o.side, f.quantity, f.price_paise::text AS price, (extract(epoch FROM f.ts) * 1000)::bigint::text AS ms,
            (SELECT coalesce(sum(value::bigint), 0) FROM jsonb_each_text(f.charges_paise))::text AS charges
     FROM fills f JOIN orders o ON o.order_id = f.order_id JOIN instruments i ON i.instrument_id = o.instrument_id
     WHERE o.run_id = $1 ORDER BY f.ts, length(o.client_order_id), o.client_order_id`, [runId]);
  return rows.map((row) => ({
    instrument: row.symbol, side: row.side === 'BUY' ? 'buy' : 'sell', quantity: row.quantity, price: Number(row.price), time: Number(row.ms), charges: Number(row.charges),
  }));
}

function backtestFills(fills: readonly LedgerFill[]): FillRow[] {
  return fills.map((fill) => ({ instrument: fill.instrument, side: fill.side, quantity: fill.quantity, price: fill.price, time: fill.time, charges: fill.chargesTotal }));
}

/** The fills the backtest makes over the run's range, and the reasons of its fills. */
export async function backtestFillsOf(pool: pg.Pool, runId: string): Promise<{ fills: FillRow[]; reasons: Set<string> }> {
  const { rows } = await pool.query<{ params: unknown }>('SELECT params FROM strategy_runs WHERE run_id = $1', [runId]);
  const params = readPaperRunParams(rows[0]!.params);
  if (!params.ok) throw new Error(params.error);
  const prepared = await preparePaperReplay(pool, params.value);
  const version = await pool.query<{ graph: unknown }>('SELECT graph FROM algorithm_versions WHERE algorithm_id = $1', [params.value.config.algorithm.id]);
  const compiled = compileAlgorithm(version.rows[0]!.graph);
  if (!compiled.ok) throw new Error('the test algorithm does not compile');
  const result = runBacktest({
    series: prepared.series, program: compiled.value, config: paperConfigOf(prepared, params.value.config),
    ...(prepared.contracts === undefined ? {} : { contracts: prepared.contracts }),
  });
  return { fills: backtestFills(result.fills), reasons: new Set(result.fills.map((fill) => fill.reason)) };
}

/** Option legs on an index prepared over `range` as run_backtest prepares them (Rs 3 lakh). */
export async function prepareLegs(pool: pg.Pool, request: {
  readonly instrumentId: number; readonly range: { from: IsoDate; to: IsoDate }; readonly legs: unknown; readonly strategyType: 'intraday' | 'swing'; readonly intervalMinutes: number;
}): Promise<PreparedRun> {
  const { rows } = await pool.query<{ exchange: string; trading_symbol: string; name: string }>(
    'SELECT exchange, trading_symbol, name FROM instruments WHERE instrument_id = $1', [request.instrumentId]);
  const row = rows[0]!;
  const instrument = await storedInstrumentOf(pool, { instrumentId: request.instrumentId, exchange: row.exchange, tradingSymbol: row.trading_symbol, name: row.name });
  return prepareStoredRun({
    pool, instrument, strategyType: request.strategyType, dateRange: request.range, intervalMinutes: request.intervalMinutes, capital: 300_000_00 as Paise,
    legs: parseOptionsLegsConfig(request.legs),
  });
}

/** A bare PAPER run row of `userId` (the legs replays take their configuration from the request). */
export async function bareRunRow(pool: pg.Pool, userId: string): Promise<string> {
  const { rows } = await pool.query<{ run_id: string }>(`INSERT INTO strategy_runs (user_id, kind) VALUES ($1, 'PAPER') RETURNING run_id`, [userId]);
  return rows[0]!.run_id;
}

/**
 * What a legs replay test trades with: synthetic NIFTY 50 and INDIA VIX history over `range`
 * stored, NIFTY's id, a trader, and the seeded short straddle example compiled.
 */
export async function legsWorld(pool: pg.Pool, range: { from: IsoDate; to: IsoDate }): Promise<{ nifty: number; userId: string; program: CompiledAlgorithm }> {
  await storeSyntheticHistory(pool, { from: range.from, to: range.to, instruments: ['NIFTY 50', 'INDIA VIX'], seed: 'paper-legs-parity' });
  const nifty = await indexId(pool, 'NIFTY 50');
  const userId = await createTrader(pool);
  const example = EXAMPLE_ALGORITHMS.find((candidate) => candidate.key === 'short-straddle');
  const compiled = compileAlgorithm(example?.graph);
  if (!compiled.ok) throw new Error('the short straddle example does not compile');
  return { nifty, userId, program: compiled.value };
}
