// Regression (issue 15, item 13): a backtest of an index "traded the instrument itself" with no
// charges at all (₹0.00 on every fill). An index cannot be traded; now it is traded as its
// near-month future (lots, rolls, futures charges), a stock with equity charges, and what cannot
// be traded is refused by run_backtest at the field it is about, writing nothing.
import { istEpochMs } from '@vyuha/core';
import { algorithmFromExpressions } from '@vyuha/engine';
import type { IsoDate } from '@vyuha/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRunCandles } from '../src/backtest/stored-candles';
import { backtestActions } from '../src/graphql/actions/backtest-actions';
import { GraphqlFailure } from '../src/graphql/types';
import { executeBacktestRun } from '../src/jobs/backtest-run';
import { createJobQueue } from '../src/jobs/job-queue';
import type { JobQueue } from '../src/jobs/job-queue';
import { writeCandles } from '../src/market-data/candle-store';
import { backtestInput, demoUserId, graphqlSession, saveAlgorithm, writeSyntheticHistory } from './graphql/actions-support';
import { freshDatabase } from './helpers/db';
import type { TestDatabase } from './helpers/db';

const NOW = Date.UTC(2025, 0, 15, 6, 0);
const MAY = { from: '2024-05-06' as IsoDate, to: '2024-05-31' as IsoDate };

let db: TestDatabase;
let queue: JobQueue;
let algorithmId: string;
let run: (input: Record<string, unknown>, tier?: 'advanced' | 'administrator') => Promise<{ strategy_id: string; run_ids: string[] }>;

interface FillRow {
  readonly trading_symbol: string;
  readonly kind: string;
  readonly side: string;
  readonly tag: string;
  readonly quantity: number;
  readonly price_paise: string;
  readonly ts: Date;
  readonly charges_paise: Record<string, number>;
}

async function fillsOf(runId: string): Promise<FillRow[]> {
  const { rows } = await db.pool.query<FillRow>(
    `SELECT i.trading_symbol, i.kind, o.side, o.tag, f.quantity, f.price_paise, f.ts, f.charges_paise
     FROM fills f JOIN orders o USING (order_id) JOIN instruments i USING (instrument_id) WHERE o.run_id = $1 ORDER BY f.ts, o.client_order_id`, [runId]);
  return rows;
}

const total = (charges: Record<string, number>): number => Object.values(charges).reduce((sum, value) => sum + Number(value), 0);

async function refusal(input: Record<string, unknown>, tier: 'advanced' | 'administrator' = 'advanced'): Promise<GraphqlFailure> {
  const before = Number((await db.pool.query<{ n: string }>('SELECT count(*) AS n FROM strategy_runs')).rows[0]?.n);
  const error = await run(input, tier).then(() => undefined, (caught: unknown) => caught);
  expect(error).toBeInstanceOf(GraphqlFailure);
  expect(Number((await db.pool.query<{ n: string }>('SELECT count(*) AS n FROM strategy_runs')).rows[0]?.n)).toBe(before);
  return error as GraphqlFailure;
}

describe('a backtest of an index trades its futures, never a chargeless fill', () => {
  beforeAll(async () => {
    db = await freshDatabase({ seeded: true });
    queue = createJobQueue({ connectionString: db.url, supervise: false });
    await queue.start();
    const userId = await demoUserId(db.pool, 'advanced');
    const adminId = await demoUserId(db.pool, 'administrator');
    await writeSyntheticHistory(db.pool);
    algorithmId = await saveAlgorithm(db.pool, { userId, name: 'sma cross', published: true });
    const [runAction] = backtestActions({ pool: db.pool, queue, now: () => NOW });
    run = (input, tier = 'advanced') => runAction?.handler({
      args: { input }, session: graphqlSession({ tier, userId: tier === 'advanced' ? userId : adminId }),
    }) as Promise<{ strategy_id: string; run_ids: string[] }>;
  });
  afterAll(async () => {
    await queue?.stop({ timeoutMs: 5_000 });
    await db?.close();
  });

  it('fills NIFTY 50 as NIFTY24MAYFUT and NIFTY24JUNFUT in whole lots, every fill charged', async () => {
    const output = await run(backtestInput([algorithmId], { dateRanges: [MAY], strategyType: 'swing' }));
    const runId = output.run_ids[0] as string;
    expect(await executeBacktestRun({ pool: db.pool, runId })).toBe('complete');
    const fills = await fillsOf(runId);
    expect(fills.length).toBeGreaterThan(4);
    for (const fill of fills) {
      expect(fill.kind).toBe('future');
      expect(fill.trading_symbol).toMatch(/^NIFTY24(MAY|JUN)FUT$/);
      // Lot 25 in 2024 (lots.ts); the margin sizing buys whole lots.
      expect(fill.quantity % 25).toBe(0);
      expect(total(fill.charges_paise)).toBeGreaterThan(0);
      if (fill.side === 'SELL') expect(fill.charges_paise.stt).toBeGreaterThan(0);
      if (fill.side === 'BUY') expect(fill.charges_paise.stamp).toBeGreaterThan(0);
    }
    // May's contract expires Thursday 30-May-2024: a swing position still open then is rolled at 15:15.
    const rolls = fills.filter((fill) => fill.tag === 'roll');
    for (const roll of rolls) {
      expect(roll.trading_symbol).toBe('NIFTY24MAYFUT');
      expect(roll.ts.getTime()).toBe(istEpochMs('2024-05-30' as IsoDate, '15:15'));
      expect(fills.some((fill) => fill.tag === 'entry' && fill.trading_symbol === 'NIFTY24JUNFUT' && fill.ts.getTime() === roll.ts.getTime())).toBe(true);
    }
    const { rows } = await db.pool.query<{ result: { summary: { charges: number }; traded: unknown } }>('SELECT result FROM strategy_runs WHERE run_id = $1', [runId]);
    expect(rows[0]?.result.summary.charges).toBe(fills.reduce((sum, fill) => sum + total(fill.charges_paise), 0));
    expect(rows[0]?.result.traded).toMatchObject({ kind: 'index-futures', underlying: 'NIFTY', charges: { exchange: 'NSE', instrument: 'future' }, modelPrices: true, rollTime: '15:15' });
  });

  it('rolls a swing position held into expiry: May sold and June bought at 15:15 on 30-May-2024, as a trader would', async () => {
    const userId = await demoUserId(db.pool, 'advanced');
    const alwaysLong = await saveAlgorithm(db.pool, { userId, name: 'always long', graph: algorithmFromExpressions({ entry: 'close > 0' }) });
    const output = await run(backtestInput([alwaysLong], { dateRanges: [{ from: '2024-05-27', to: '2024-06-04' }], strategyType: 'swing', frequenciesAndInvestments: [{ interval: 15, investment: 500_000 }] }));
    const runId = output.run_ids[0] as string;
    expect(await executeBacktestRun({ pool: db.pool, runId })).toBe('complete');
    const fills = await fillsOf(runId);
    const at1515 = istEpochMs('2024-05-30' as IsoDate, '15:15');
    expect(fills.map((fill) => [fill.trading_symbol, fill.side, fill.tag, fill.ts.getTime() === at1515])).toEqual([
      ['NIFTY24MAYFUT', 'BUY', 'entry', false],
      ['NIFTY24MAYFUT', 'SELL', 'roll', true],
      ['NIFTY24JUNFUT', 'BUY', 'entry', true],
      ['NIFTY24JUNFUT', 'SELL', 'end-of-data', false],
    ]);
  });

  it('prices a contract from its stored futures candles when the store has them', async () => {
    // NIFTY24MAYFUT imported: the index's own minutes 40 points higher. (The run above registered
    // the contract already, as a run does for every contract it trades.)
    const { rows: ids } = await db.pool.query<{ instrument_id: number; name: string }>(`SELECT instrument_id, name FROM instruments WHERE name = 'NIFTY 50'`);
    const nifty = ids[0]?.instrument_id as number;
    const { rows } = await db.pool.query<{ instrument_id: number }>(
      `INSERT INTO instruments (exchange, segment, kind, trading_symbol, name, underlying_instrument_id, expiry, lot_size)
       VALUES ('NFO', 'FUT', 'future', 'NIFTY24MAYFUT', 'NIFTY 2024-05-30 FUT', $1, '2024-05-30', 25)
       ON CONFLICT (exchange, trading_symbol) DO UPDATE SET name = EXCLUDED.name RETURNING instrument_id`, [nifty]);
    const index = await loadRunCandles({ pool: db.pool, instrumentId: nifty, dateRange: { from: MAY.from, to: '2024-05-30' as IsoDate }, intervalMinutes: 1 });
    const shifted = (column: Int32Array): Int32Array => column.map((value) => value + 4_000);
    await writeCandles(db.pool, {
      instrumentId: rows[0]?.instrument_id as number, source: 'import',
      candles: { length: index.length, time: index.time, open: shifted(index.open), high: shifted(index.high), low: shifted(index.low), close: shifted(index.close), volume: index.volume },
    });
    const output = await run(backtestInput([algorithmId], { dateRanges: [{ from: '2024-05-06', to: '2024-05-24' }] }));
    const runId = output.run_ids[0] as string;
    expect(await executeBacktestRun({ pool: db.pool, runId })).toBe('complete');
    const fills = await fillsOf(runId);
    expect(fills.length).toBeGreaterThan(0);
    const byTime = new Map(Array.from(index.time, (time, row) => [time, row]));
    for (const fill of fills) {
      // Intraday 5-minute bars: a fill at a bar's open is that minute's open + 40 points.
      const row = byTime.get(fill.ts.getTime());
      if (row !== undefined && fill.tag === 'entry') expect(Number(fill.price_paise)).toBe((index.open[row] as number) + 4_000);
    }
    const { rows: stored } = await db.pool.query<{ result: { traded: { contracts: unknown[]; modelPrices: boolean } } }>('SELECT result FROM strategy_runs WHERE run_id = $1', [runId]);
    expect(stored[0]?.result.traded).toMatchObject({ contracts: [{ tradingSymbol: 'NIFTY24MAYFUT', expiry: '2024-05-30', prices: 'candles' }], modelPrices: false });
  });

  it('refuses INDIA VIX at the instrument field: an index without futures cannot be traded', async () => {
    const error = await refusal(backtestInput([algorithmId], { instrument: 'INDIA VIX', dateRanges: [MAY] }));
    expect(error.code).toBe('validation-failed');
    expect(error.path).toBe('$.selectionSet.run_backtest.args.input.instrument');
    expect(error.message).toMatch(/^instrument: INDIA VIX cannot be traded: an index is traded through its futures or options, and INDIA VIX has none/);
  });

  it('refuses an investment that does not cover one lot, naming the contract and the margin estimate', async () => {
    const error = await refusal(backtestInput([algorithmId], { dateRanges: [MAY], frequenciesAndInvestments: [{ interval: 5, investment: 500_000 }, { interval: 15, investment: 20_000 }] }));
    expect(error.path).toBe('$.selectionSet.run_backtest.args.input.frequenciesAndInvestments[1].investment');
    expect(error.message).toMatch(/^frequenciesAndInvestments\[1\]\.investment: ₹20,000\.00 does not cover one lot of NIFTY24MAYFUT: on 2024-05-06 a lot of 25 at about ₹[\d,.]+ needs an estimated margin of ₹[\d,.]+ \(9% of its value\) plus ₹[\d,.]+ of charges$/);
  });

  it('refuses a range before an index\'s futures are known', async () => {
    const error = await refusal(backtestInput([algorithmId], { instrument: 'NSE:FINNIFTY', dateRanges: [{ from: '2020-06-01', to: '2020-06-05' }] }), 'administrator');
    expect(error.path).toBe('$.selectionSet.run_backtest.args.input.dateRanges[0]');
    expect(error.message).toContain('FINNIFTY futures are known from 2021-01-11');
  });

  it('trades a stock with equity charges: intraday (MIS) charges intraday, delivery STT on both sides swing', async () => {
    const { rows } = await db.pool.query<{ instrument_id: number }>(
      `INSERT INTO instruments (exchange, segment, kind, trading_symbol, name) VALUES ('NSE', 'EQ', 'equity', 'ACME', 'ACME LTD') RETURNING instrument_id`);
    const nifty = (await db.pool.query<{ instrument_id: number }>(`SELECT instrument_id FROM instruments WHERE name = 'NIFTY 50'`)).rows[0]?.instrument_id as number;
    const index = await loadRunCandles({ pool: db.pool, instrumentId: nifty, dateRange: MAY, intervalMinutes: 1 });
    const scaled = (column: Int32Array): Int32Array => column.map((value) => Math.round(value / 10));
    await writeCandles(db.pool, {
      instrumentId: rows[0]?.instrument_id as number, source: 'import',
      candles: { length: index.length, time: index.time, open: scaled(index.open), high: scaled(index.high), low: scaled(index.low), close: scaled(index.close), volume: index.volume },
    });
    for (const strategyType of ['intraday', 'swing'] as const) {
      const output = await run(backtestInput([algorithmId], { instrument: 'NSE:ACME', dateRanges: [MAY], strategyType }));
      const runId = output.run_ids[0] as string;
      expect(await executeBacktestRun({ pool: db.pool, runId })).toBe('complete');
      const fills = await fillsOf(runId);
      expect(fills.length).toBeGreaterThan(0);
      for (const fill of fills) {
        expect(fill.kind).toBe('equity');
        expect(total(fill.charges_paise)).toBeGreaterThan(0);
        // Intraday STT is on the sell only; delivery STT on the buy too.
        if (fill.side === 'BUY') expect(Number(fill.charges_paise.stt) > 0).toBe(strategyType === 'swing');
      }
    }
  });
});
