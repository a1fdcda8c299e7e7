// Issue 6 acceptance: a backtest started by `run_backtest` over HTTP is followed to completion
// through a graphql-ws subscription on strategy_runs, with real pg-boss workers running it; its
// metrics equal the engine's run directly on the same stored candles.
import { addDays, istEpochMs, type IsoDate, type Paise } from '@vyuha/core';
import { algorithmFromExpressions, compileAlgorithm, FuturesChain, runBacktest } from '@vyuha/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metricsOf } from '../../src/backtest/run-metrics';
import { seriesOf } from '../../src/backtest/series';
import { readCandles } from '../../src/market-data/candle-store';
import { saveAlgorithm, writeSyntheticHistory } from './actions-support';
import { LiveFeed, dataOf, startSpecServer, type SpecServer } from './spec-server';

const RULES = { entry: 'close > sma(close, 10)', exit: 'close < sma(close, 10)' };
const RANGE = { from: '2024-05-02' as IsoDate, to: '2024-06-28' as IsoDate };
const INVESTMENT_RUPEES = 500_000;

const RUN_BACKTEST = `mutation RunBacktest($input: run_backtest_input!) {
  run_backtest(input: $input) { strategy_id run_ids candles }
}`;

const FOLLOW_RUNS = `subscription FollowRuns($userId: uuid!, $since: timestamptz!) {
  strategy_runs(where: { user_id: { _eq: $userId }, kind: { _eq: "BACKTEST" }, started_at: { _gt: $since } }) {
    run_id strategy_id status progress candles error metrics finished_at
  }
}`;

const RUN_RESULTS = `query RunResults($runId: uuid!) {
  orders_aggregate(where: { run_id: { _eq: $runId } }) { aggregate { count } }
  daily_pnl_aggregate(where: { run_id: { _eq: $runId } }) { aggregate { count sum { pnl_paise } } }
}`;

interface RunRow {
  readonly run_id: string;
  readonly strategy_id: string;
  readonly status: string;
  readonly progress: number;
  readonly candles: number;
  readonly error: string | null;
  readonly metrics: unknown;
  readonly finished_at: string | null;
}

let server: SpecServer;
let token: string;
let userId: string;
let algorithmId: string;

beforeAll(async () => {
  server = await startSpecServer({ workers: true });
  // The demo tier may backtest (strategy:backtest) from 2023 on, with BACKTEST credits left.
  token = await server.token('demo');
  userId = await server.userId('demo');
  await writeSyntheticHistory(server.db.pool, RANGE);
  algorithmId = await saveAlgorithm(server.db.pool, { userId, name: 'sma cross', graph: algorithmFromExpressions(RULES) });
}, 120_000);

afterAll(async () => {
  await server?.close();
});

/** The engine run directly, as a user of the engine would: the stored candles of the whole range in one read, NIFTY traded as its near-month futures. */
async function directRun(): Promise<{ metrics: unknown; orders: number; days: number; netPnl: number }> {
  const { rows } = await server.db.pool.query<{ instrument_id: number }>(`SELECT instrument_id FROM instruments WHERE name = 'NIFTY 50'`);
  const candles = await readCandles(server.db.pool, {
    instrumentId: rows[0]?.instrument_id as number, from: istEpochMs(RANGE.from, '00:00'), to: istEpochMs(addDays(RANGE.to, 1), '00:00'), intervalMinutes: 5,
  });
  const series = seriesOf(candles);
  const compiled = compileAlgorithm(algorithmFromExpressions(RULES));
  if (!compiled.ok) throw new Error('the test algorithm does not compile');
  const result = runBacktest({
    series, program: compiled.value, contracts: new FuturesChain({ underlying: 'NIFTY', index: series, type: 'intraday', rollTime: '15:15' }),
    config: { capital: (INVESTMENT_RUPEES * 100) as Paise, type: 'intraday', instrument: 'NIFTY', direction: 'long-only', charges: { kind: 'schedule', exchange: 'NSE', instrument: 'future' } },
  });
  return { metrics: JSON.parse(JSON.stringify(metricsOf(result, series) ?? null)) as unknown, orders: result.orders.length, days: result.days.length, netPnl: result.summary.netPnl };
}

describe('run_backtest followed through a subscription', () => {
  it('shows the run IN PROGRESS, progress rising, then COMPLETE at 100 with the metrics of the engine run directly', async () => {
    const { rows } = await server.db.pool.query<{ now: string }>(`SELECT (to_json(now() - interval '1 second') #>> '{}') AS now`);
    const client = server.wsClient({ Authorization: `Bearer ${token}` });
    const feed = new LiveFeed<{ strategy_runs: RunRow[] }>(client, { query: FOLLOW_RUNS, variables: { userId, since: rows[0]?.now } });
    expect((await feed.next(() => true)).data.strategy_runs).toEqual([]);

    const input = {
      strategyType: 'intraday', algorithms: [algorithmId], instrument: 'NIFTY 50', dateRanges: [RANGE], window: 5,
      frequenciesAndInvestments: [{ interval: 5, investment: INVESTMENT_RUPEES }], tradeInstrumentsConfig: null,
    };
    const started = dataOf(await server.graphql({ query: RUN_BACKTEST, variables: { input } }, { token })).run_backtest as { strategy_id: string; run_ids: string[]; candles: number };
    expect(started.run_ids).toHaveLength(1);
    expect(started.candles).toBeGreaterThan(0);
    const runId = started.run_ids[0] as string;

    const done = await feed.next((data) => data.strategy_runs[0]?.status !== undefined && data.strategy_runs[0].status !== 'IN PROGRESS', { timeoutMs: 60_000 });
    feed.close();
    const seen = feed.values.map((value) => value.data.strategy_runs[0]).filter((run): run is RunRow => run !== undefined);
    expect(seen.every((run) => run.run_id === runId && run.strategy_id === started.strategy_id)).toBe(true);
    const final = done.data.strategy_runs[0] as RunRow;
    expect({ status: final.status, progress: final.progress, error: final.error }).toEqual({ status: 'COMPLETE', progress: 100, error: null });
    expect(final.finished_at).not.toBeNull();
    // Every value before the last was IN PROGRESS, the first one below 100, and progress never fell.
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(seen.slice(0, -1).every((run) => run.status === 'IN PROGRESS')).toBe(true);
    expect(seen[0]?.progress).toBeLessThan(100);
    for (let index = 1; index < seen.length; index += 1) expect((seen[index] as RunRow).progress).toBeGreaterThanOrEqual((seen[index - 1] as RunRow).progress);
    expect(new Set(seen.map((run) => run.progress)).size).toBeGreaterThanOrEqual(2);
    // Credits actually used: the candles the run read, no more than were reserved.
    expect(Number(final.candles)).toBeGreaterThan(0);
    expect(Number(final.candles)).toBeLessThanOrEqual(started.candles);

    const direct = await directRun();
    expect(direct.orders).toBeGreaterThan(0);
    expect(direct.metrics).toMatchObject({ tradingDays: direct.days, netPnl: direct.netPnl });
    expect(final.metrics).toEqual(direct.metrics);
    const results = dataOf(await server.graphql({ query: RUN_RESULTS, variables: { runId } }, { token })) as {
      orders_aggregate: { aggregate: { count: number } }; daily_pnl_aggregate: { aggregate: { count: number; sum: { pnl_paise: number | string } } };
    };
    expect(results.orders_aggregate.aggregate.count).toBe(direct.orders);
    expect(results.daily_pnl_aggregate.aggregate.count).toBe(direct.days);
    expect(Number(results.daily_pnl_aggregate.aggregate.sum.pnl_paise)).toBe(direct.netPnl);
  });
});
