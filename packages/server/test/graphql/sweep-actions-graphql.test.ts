// Sweeps over the GraphQL transport, as the web app will use them: estimate_sweep's field errors
// in extensions.issues, start_sweep, the sweep followed through a graphql-ws subscription on
// `sweeps` to COMPLETE with real pg-boss workers, its rows read through `sweep_results`, and
// another user who can neither read nor cancel it.
import type { IsoDate } from '@vyuha/core';
import { algorithmFromExpressions } from '@vyuha/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRunCandles } from '../../src/backtest/stored-candles';
import { writeCandles } from '../../src/market-data/candle-store';
import { saveAlgorithm, writeSyntheticHistory } from './actions-support';
import { dataOf, LiveFeed, startSpecServer, type SpecServer } from './spec-server';

const RANGE = { from: '2024-05-02' as IsoDate, to: '2024-05-31' as IsoDate };
const GRAPH = {
  ...algorithmFromExpressions({ entry: 'crossover(sma(close, $fast), sma(close, $slow))', exit: 'crossunder(sma(close, $fast), sma(close, $slow))' }),
  parameters: [{ name: 'fast', default: 5, from: 5, to: 15, step: 5 }, { name: 'slow', default: 20, from: 10, to: 40, step: 10 }],
  constraints: ['$fast < $slow'],
};

const RUN_BACKTEST = `mutation ($input: run_backtest_input!) { run_backtest(input: $input) { run_ids } }`;
const ESTIMATE = `query ($input: sweep_input!) {
  estimate_sweep(input: $input) { kind combinations grid_combinations windows candles_per_run chunks credits remaining_credits parameters constraints }
}`;
const START = `mutation ($input: sweep_input!) { start_sweep(input: $input) { sweep_id combinations chunks credits } }`;
const CANCEL = `mutation ($id: uuid!) { cancel_sweep(sweep_id: $id) { sweep_id status cancelled } }`;
const FOLLOW = `subscription ($id: uuid!) { sweeps_by_pk(sweep_id: $id) { status progress rows_done combinations candles estimated_candles summary } }`;
const RESULTS = `query ($id: uuid!) {
  sweeps(where: { sweep_id: { _eq: $id } }) { kind status run_id }
  sweep_results(where: { sweep_id: { _eq: $id } }, order_by: { position: asc }) { position bindings metrics }
}`;

interface SweepState {
  readonly status: string;
  readonly progress: number;
  readonly rows_done: number;
  readonly combinations: number;
  readonly summary: { best: { position: number; bindings: Record<string, number> } | null } | null;
}

let server: SpecServer;
let token: string;
let runId: string;

beforeAll(async () => {
  server = await startSpecServer({ workers: true });
  token = await server.token('demo');
  const userId = await server.userId('demo');
  const pool = server.db.pool;
  await pool.query(`INSERT INTO user_credits (user_id, credits, expiry, category, subcategory) VALUES ($1, 10000000, '2099-01-01', 'BACKTEST', 'CANDLES')`, [userId]);
  await writeSyntheticHistory(pool, RANGE, ['NIFTY 50']);
  const { rows } = await pool.query<{ instrument_id: number }>(
    `INSERT INTO instruments (exchange, segment, kind, trading_symbol, name) VALUES ('NSE', 'EQ', 'equity', 'ACME', 'ACME LTD') RETURNING instrument_id`);
  const nifty = (await pool.query<{ instrument_id: number }>(`SELECT instrument_id FROM instruments WHERE name = 'NIFTY 50'`)).rows[0]?.instrument_id as number;
  const index = await loadRunCandles({ pool, instrumentId: nifty, dateRange: RANGE, intervalMinutes: 1 });
  const scaled = (column: Int32Array): Int32Array => column.map((value) => Math.round(value / 10));
  await writeCandles(pool, {
    instrumentId: rows[0]?.instrument_id as number, source: 'import',
    candles: { length: index.length, time: index.time, open: scaled(index.open), high: scaled(index.high), low: scaled(index.low), close: scaled(index.close), volume: index.volume },
  });
  const algorithmId = await saveAlgorithm(pool, { userId, name: 'sma cross', graph: GRAPH });
  const input = {
    strategyType: 'swing', algorithms: [algorithmId], instrument: 'NSE:ACME', dateRanges: [RANGE], window: 15,
    frequenciesAndInvestments: [{ interval: 15, investment: 100_000 }], tradeInstrumentsConfig: null,
  };
  runId = ((dataOf(await server.graphql({ query: RUN_BACKTEST, variables: { input } }, { token })).run_backtest as { run_ids: string[] }).run_ids[0]) as string;
}, 120_000);

afterAll(async () => {
  await server?.close();
});

describe('sweeps over GraphQL', () => {
  it('names each bad field of an estimate in extensions.issues', async () => {
    const body = await server.graphql({ query: ESTIMATE, variables: { input: { run_id: runId, parameters: [{ name: 'fast', from: 5, to: 15, step: 4 }], constraints: ['$fast <'] } } }, { token });
    const error = body.errors?.[0] as { extensions?: { code?: string; issues?: Array<{ path: string; message: string }> } } | undefined;
    expect(error?.extensions?.code).toBe('validation-failed');
    expect(error?.extensions?.issues?.map((issue) => issue.path)).toEqual(['parameters[0].step']);
  });

  it('estimates, starts and follows a sweep to COMPLETE; its rows are the owner\'s alone', async () => {
    const estimate = dataOf(await server.graphql({ query: ESTIMATE, variables: { input: { run_id: runId } } }, { token })).estimate_sweep as Record<string, unknown>;
    expect(estimate).toMatchObject({ kind: 'sweep', combinations: 10, grid_combinations: 12, windows: null, chunks: 1, constraints: ['$fast < $slow'] });
    const started = dataOf(await server.graphql({ query: START, variables: { input: { run_id: runId, metric: 'netPnl' } } }, { token })).start_sweep as { sweep_id: string; credits: number };
    expect(started.credits).toBe(estimate.credits);
    const feed = new LiveFeed<{ sweeps_by_pk: SweepState | null }>(server.wsClient({ Authorization: `Bearer ${token}` }), { query: FOLLOW, variables: { id: started.sweep_id } });
    const done = await feed.next((data) => data.sweeps_by_pk?.status === 'COMPLETE', { timeoutMs: 30_000 });
    feed.close();
    const final = done.data.sweeps_by_pk as SweepState;
    expect(final).toMatchObject({ progress: 100, rows_done: 10, combinations: 10 });
    const results = dataOf(await server.graphql({ query: RESULTS, variables: { id: started.sweep_id } }, { token })) as {
      sweeps: Array<{ kind: string; status: string; run_id: string }>; sweep_results: Array<{ position: number; bindings: Record<string, number>; metrics: { netPnl: number } }>;
    };
    expect(results.sweeps).toEqual([{ kind: 'sweep', status: 'COMPLETE', run_id: runId }]);
    expect(results.sweep_results.map((row) => row.position)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const best = final.summary?.best;
    const top = Math.max(...results.sweep_results.map((row) => row.metrics.netPnl));
    expect(results.sweep_results[best?.position ?? -1]?.metrics.netPnl).toBe(top);

    const other = await server.token('advanced');
    const foreign = dataOf(await server.graphql({ query: RESULTS, variables: { id: started.sweep_id } }, { token: other }));
    expect(foreign).toEqual({ sweeps: [], sweep_results: [] });
    const cancel = await server.graphql({ query: CANCEL, variables: { id: started.sweep_id } }, { token: other });
    expect((cancel.errors?.[0] as { extensions?: { code?: string } } | undefined)?.extensions?.code).toBe('not-found');
    const own = dataOf(await server.graphql({ query: CANCEL, variables: { id: started.sweep_id } }, { token })).cancel_sweep;
    expect(own).toEqual({ sweep_id: started.sweep_id, status: 'COMPLETE', cancelled: false });
  });
});
