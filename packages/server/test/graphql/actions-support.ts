// Shared set-up for the backtest action and job tests: synthetic NIFTY 50 and INDIA VIX minutes
// in the store (the market package's seeded generator), a saved algorithm, and sessions shaped
// as the session layer builds them (lower-case Hasura variables from the token's claims).
import type { IsoDate } from '@vyuha/core';
import { algorithmFromExpressions } from '@vyuha/engine';
import { generateSyntheticMarket, sessionOf, tradingDaysBetween } from '@vyuha/market';
import type { SyntheticInstrument } from '@vyuha/market';
import type pg from 'pg';
import { postgresArrayLiteral } from '../../src/auth/claims';
import { windowClaims } from '../../src/auth/tier-windows';
import type { GraphqlSession } from '../../src/graphql/types';
import { loadRunCandles } from '../../src/backtest/stored-candles';
import { writeCandles } from '../../src/market-data/candle-store';

export const HISTORY_FROM = '2024-05-02' as IsoDate;
export const HISTORY_TO = '2024-06-28' as IsoDate;

const START_LEVELS: Readonly<Record<string, number>> = { 'NIFTY 50': 22_500, 'NIFTY BANK': 48_000, 'INDIA VIX': 14 };

/**
 * Writes synthetic minutes of the indices (default NIFTY 50 and INDIA VIX) for every NSE session
 * in the range.
 */
export async function writeSyntheticHistory(
  pool: pg.Pool,
  range: { from: IsoDate; to: IsoDate } = { from: HISTORY_FROM, to: HISTORY_TO },
  instruments: readonly SyntheticInstrument[] = ['NIFTY 50', 'INDIA VIX'],
): Promise<void> {
  const sessions = tradingDaysBetween('NSE', range.from, range.to).map((date) => {
    const session = sessionOf('NSE', date);
    if (session === undefined) throw new Error(`no session on ${date}`);
    return { date, openMinute: session.open, closeMinute: session.close };
  });
  const ids = new Map((await pool.query<{ name: string; instrument_id: number }>(`SELECT name, instrument_id FROM instruments WHERE kind = 'index'`)).rows
    .map((row) => [row.name, row.instrument_id]));
  const months = generateSyntheticMarket({ sessions, seed: 'backtest-jobs-test', instruments: [...instruments],
    startLevels: Object.fromEntries(instruments.map((name) => [name, START_LEVELS[name] ?? 10_000])) });
  for (const month of months) {
    for (const series of month.series) {
      const candles = { length: series.time.length, time: series.time, open: series.open, high: series.high, low: series.low, close: series.close, volume: series.volume };
      await writeCandles(pool, { instrumentId: ids.get(series.instrument) as number, candles, source: 'synthetic' });
    }
  }
}

/** The demo user of a tier. */
export async function demoUserId(pool: pg.Pool, tier: string): Promise<string> {
  const { rows } = await pool.query<{ user_id: string }>('SELECT user_id FROM users WHERE tier = $1 ORDER BY name LIMIT 1', [tier]);
  if (rows[0] === undefined) throw new Error(`no demo user of tier ${tier}`);
  return rows[0].user_id;
}

/** Saves an algorithm (version 1) for a user; `graph` defaults to a small two-rule graph. */
export async function saveAlgorithm(pool: pg.Pool, request: { userId: string; name: string; graph?: unknown; published?: boolean }): Promise<string> {
  const graph = request.graph ?? algorithmFromExpressions({ entry: 'close > sma(close, 10)', exit: 'close < sma(close, 10)' });
  const { rows } = await pool.query<{ algorithm_id: string }>(
    'INSERT INTO algorithms (user_id, name, published, latest_version) VALUES ($1, $2, $3, 1) RETURNING algorithm_id',
    [request.userId, request.name, request.published ?? false]);
  const algorithmId = (rows[0] as { algorithm_id: string }).algorithm_id;
  await pool.query('INSERT INTO algorithm_versions (algorithm_id, version, graph, schema_version, created_by) VALUES ($1, 1, $2, 1, $3)',
    [algorithmId, JSON.stringify(graph), request.userId]);
  return algorithmId;
}

/** A session as the session layer gives it for a signed-in user of `tier` (optionally acting for `actingFor`). */
export function graphqlSession(request: { tier: string; userId: string; permissions?: readonly string[]; actingFor?: string; role?: string }): GraphqlSession {
  const windows = Object.fromEntries(Object.entries(windowClaims(request.tier)).map(([name, date]) => [`x-hasura-${name.toLowerCase()}`, date]));
  return {
    role: request.role ?? request.tier,
    admin: false,
    variables: {
      ...windows,
      'x-hasura-role': request.role ?? request.tier,
      'x-hasura-default-role': request.tier,
      'x-hasura-allowed-roles': postgresArrayLiteral([request.tier, 'user', 'me']),
      'x-hasura-user-id': request.actingFor ?? request.userId,
      'x-hasura-actor-id': request.userId,
      'x-hasura-permissions': postgresArrayLiteral(request.permissions ?? ['strategy:backtest', 'strategy:deploy', 'strategy:manual']),
    },
  };
}

/** A run_backtest input over the synthetic history. */
export function backtestInput(algorithmIds: readonly string[], overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    strategyType: 'intraday', algorithms: algorithmIds, instrument: 'NIFTY 50',
    dateRanges: [{ from: '2024-05-06', to: '2024-05-31' }], window: 5,
    frequenciesAndInvestments: [{ interval: 5, investment: 500_000 }], tradeInstrumentsConfig: null,
    ...overrides,
  };
}

/** Waits until `check` resolves truthy (polling), or fails after `timeoutMs`. */
export async function waitFor<T>(check: () => Promise<T | undefined | false>, timeoutMs = 20_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * A stock (NSE equity `symbol`) whose 1-minute candles are NIFTY 50's stored synthetic minutes
 * over `range` scaled down ten times (NIFTY's history must be written first); its instrument id.
 * @example await writeScaledStock(pool, { symbol: 'ACME', name: 'ACME LTD', range })
 */
export async function writeScaledStock(pool: pg.Pool, request: { symbol: string; name: string; range: { from: IsoDate; to: IsoDate } }): Promise<number> {
  const { rows } = await pool.query<{ instrument_id: number }>(
    `INSERT INTO instruments (exchange, segment, kind, trading_symbol, name) VALUES ('NSE', 'EQ', 'equity', $1, $2) RETURNING instrument_id`, [request.symbol, request.name]);
  const nifty = (await pool.query<{ instrument_id: number }>(`SELECT instrument_id FROM instruments WHERE name = 'NIFTY 50'`)).rows[0]?.instrument_id as number;
  const index = await loadRunCandles({ pool, instrumentId: nifty, dateRange: request.range, intervalMinutes: 1 });
  const scaled = (column: Int32Array): Int32Array => column.map((value) => Math.round(value / 10));
  const instrumentId = rows[0]?.instrument_id as number;
  await writeCandles(pool, {
    instrumentId, source: 'import',
    candles: { length: index.length, time: index.time, open: scaled(index.open), high: scaled(index.high), low: scaled(index.low), close: scaled(index.close), volume: index.volume },
  });
  return instrumentId;
}
