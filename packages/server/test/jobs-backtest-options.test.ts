import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addDays, formatIstDateTime, istEpochMs, isoDate } from '@vyuha/core';
import type { Paise } from '@vyuha/core';
import { algorithmFromExpressions, compileAlgorithm, optionsLegsTraderFactory, parseOptionsLegsConfig, runBacktest } from '@vyuha/engine';
import type { BacktestResult, BarSeries } from '@vyuha/engine';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { metricsOf } from '../src/backtest/run-metrics';
import { seriesOf } from '../src/backtest/series';
import { backtestCommand } from '../src/commands/backtest';
import { backtestActions } from '../src/graphql/actions/backtest-actions';
import { startBacktestWorkers } from '../src/jobs/backtest-workers';
import type { BacktestWorkers } from '../src/jobs/backtest-workers';
import { createJobQueue } from '../src/jobs/job-queue';
import type { JobQueue } from '../src/jobs/job-queue';
import { readCandles } from '../src/market-data/candle-store';
import { backtestInput, demoUserId, graphqlSession, saveAlgorithm, waitFor, writeSyntheticHistory } from './graphql/actions-support';
import { useCommandDatabase } from './helpers/db';

// An option-leg backtest through run_backtest and a pg-boss worker: a week of synthetic NIFTY 50
// and INDIA VIX minutes in the store and no option candles, so every leg is priced from the
// synthetic chain on the stored VIX. A 09:20 short ATM straddle, 20% stop per leg, a daily loss
// limit, squared off at 15:15. The same run is computed twice more: by the engine directly on the
// stored candles (built here, not through the worker's loader) and by `vyuha backtest --options`.

const FROM = isoDate('2024-06-03');
const TO = isoDate('2024-06-07');
const ENTRY = 'time() >= "09:20"';
const INTERVAL = 5;
const INVESTMENT_RUPEES = 500_000;
const leg = (option: 'CE' | 'PE'): object => ({ option, side: 'sell', strike: { by: 'atm-offset', steps: 0 }, expiry: 'current-weekly', lots: 1, stopLoss: { percent: 20 } });
const LEGS = { underlying: 'NIFTY', onBuy: [leg('CE'), leg('PE')], dailyMaxLossRupees: 20_000 };
/** STT on the sell side of option premium before 1-Oct-2024 (docs/MARKET-RULES.md), in parts per million. */
const STT_PER_MILLION = 625;

interface OrderRow { id: number; symbol: string; exchange: string; kind: string; underlying: number; lot: number; side: string; quantity: number; status: string; tag: string; price: string | null; placed: string }
/** fills.charges_paise, as backtest-rows.ts writes it. */
interface FillCharges { brokerage: number; stt: number; exchange: number; investor_protection: number; sebi: number; stamp: number; gst: number }
interface FillRow { id: number; quantity: number; price: string; charges: FillCharges; time: string }

/** `vyuha backtest ... --json` in this process: its exit code and what it printed (stderr stays visible, for a failing run's reason). */
async function backtestJson(args: readonly string[]): Promise<{ code: number; printed: string }> {
  const printed: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => printed.push(String(chunk)) > 0);
  try {
    return { code: await backtestCommand.run([...args, '--json']), printed: printed.join('') };
  } finally {
    spy.mockRestore();
  }
}

describe('an option-leg backtest job', () => {
  const database = useCommandDatabase({ seeded: true });
  const folder = mkdtempSync(join(tmpdir(), 'vyuha-options-job-'));
  let queue: JobQueue;
  let workers: BacktestWorkers | undefined;
  let niftyId: number;
  let vixId: number;

  beforeAll(async () => {
    const { pool, url } = database();
    await writeSyntheticHistory(pool, { from: FROM, to: TO });
    const ids = new Map((await pool.query<{ name: string; instrument_id: number }>(`SELECT name, instrument_id FROM instruments WHERE kind = 'index'`)).rows.map((row) => [row.name, row.instrument_id]));
    niftyId = ids.get('NIFTY 50') as number;
    vixId = ids.get('INDIA VIX') as number;
    queue = createJobQueue({ connectionString: url, supervise: false });
    await queue.start();
  });
  afterAll(async () => {
    await workers?.stop();
    await queue?.stop({ timeoutMs: 5_000 });
    rmSync(folder, { recursive: true, force: true });
  });

  /** The engine on the stored candles, with VIX matched to each bar by time (the synthetic series share their minutes). */
  async function directRun(): Promise<{ result: BacktestResult; series: BarSeries }> {
    const { pool } = database();
    const range = { from: istEpochMs(FROM, '00:00'), to: istEpochMs(addDays(TO, 1), '00:00'), intervalMinutes: INTERVAL };
    const series = seriesOf(await readCandles(pool, { instrumentId: niftyId, ...range }));
    const vix = await readCandles(pool, { instrumentId: vixId, ...range });
    const vixAt = new Map(Array.from(vix.time, (time, row) => [time, (vix.close[row] as number) / 100]));
    const levels = Float64Array.from(series.time, (time) => vixAt.get(time) ?? Number.NaN);
    expect(levels.every((level) => level > 0)).toBe(true);
    const compiled = compileAlgorithm(algorithmFromExpressions({ entry: ENTRY }));
    if (!compiled.ok) throw new Error('the entry expression does not compile');
    const trader = optionsLegsTraderFactory({ config: parseOptionsLegsConfig(LEGS), vix: levels, fill: 'next-open', slippage: { kind: 'none' } });
    const result = runBacktest({
      series, program: compiled.value, trader,
      config: {
        capital: (INVESTMENT_RUPEES * 100) as Paise, type: 'intraday', instrument: 'NIFTY', direction: 'long-only',
        charges: { kind: 'schedule', exchange: 'NSE', instrument: 'option' }, dailyMaxLoss: (LEGS.dailyMaxLossRupees * 100) as Paise,
      },
    });
    return { result, series };
  }

  it('runs to COMPLETE on a worker: option-contract orders and fills with NFO charges, metrics as the engine run directly and as the CLI', async () => {
    const { pool } = database();
    const userId = await demoUserId(pool, 'advanced');
    const algorithmId = await saveAlgorithm(pool, { userId, name: '09:20 straddle', graph: algorithmFromExpressions({ entry: ENTRY }) });
    const [runAction] = backtestActions({ pool, queue, now: () => Date.UTC(2025, 0, 15, 6, 0) });
    const output = await runAction?.handler({
      args: { input: backtestInput([algorithmId], { dateRanges: [{ from: FROM, to: TO }], frequenciesAndInvestments: [{ interval: INTERVAL, investment: INVESTMENT_RUPEES }], tradeInstrumentsConfig: LEGS }) },
      session: graphqlSession({ tier: 'advanced', userId }),
    }) as { run_ids: string[] };
    const runId = output.run_ids[0] as string;
    const seen: number[] = [];
    workers = await startBacktestWorkers({ pool, queue, log: () => undefined, pollingIntervalSeconds: 0.5, recoveryIntervalMs: 0, progressIntervalMs: 0, onProgress: (_run, percent) => seen.push(percent) });
    const row = await waitFor(async () => {
      const { rows } = await pool.query<{ status: string; progress: number; error: string | null; metrics: unknown; candles: string }>(
        'SELECT status, progress, error, metrics, candles FROM strategy_runs WHERE run_id = $1', [runId]);
      return rows[0]?.status === 'IN PROGRESS' ? undefined : rows[0];
    });
    expect({ status: row.status, error: row.error, progress: row.progress }).toEqual({ status: 'COMPLETE', error: null, progress: 100 });
    expect(seen.at(-1)).toBe(100);

    const direct = await directRun();
    expect(row.metrics).toEqual(JSON.parse(JSON.stringify(metricsOf(direct.result, direct.series) ?? null)));
    expect(Number(row.candles)).toBe(direct.result.candlesProcessed);

    // Orders: the option contracts the engine traded, registered as NFO options of NIFTY 50 with the dated lot.
    const orders = (await pool.query<OrderRow>(
      `SELECT split_part(o.client_order_id, '-', 2)::int AS id, i.trading_symbol AS symbol, i.exchange, i.kind, i.underlying_instrument_id AS underlying,
              i.lot_size AS lot, o.side, o.quantity, o.status, o.tag, o.average_price_paise AS price, (extract(epoch FROM o.created_at) * 1000)::bigint AS placed
       FROM orders o JOIN instruments i USING (instrument_id) WHERE o.run_id = $1 ORDER BY id`, [runId])).rows;
    const fillOf = new Map(direct.result.fills.map((fill) => [fill.orderId, fill]));
    expect(orders.map((order) => [order.id, order.symbol, order.side, order.quantity, order.status, order.tag, order.price, Number(order.placed)])).toEqual(
      direct.result.orders.map((order) => [order.id, order.instrument, order.side.toUpperCase(), order.quantity, 'FILLED', order.reason, String(fillOf.get(order.id)?.price), order.placedTime]));
    for (const order of orders) {
      expect({ exchange: order.exchange, kind: order.kind, underlying: order.underlying, symbol: order.symbol }).toEqual({ exchange: 'NFO', kind: 'option', underlying: niftyId, symbol: expect.stringMatching(/^NIFTY24[0-9A-Z]+(CE|PE)$/) });
      expect(order.quantity).toBe(order.lot);
    }
    const entries = orders.filter((order) => order.tag === 'entry');
    expect(entries).toHaveLength(10);
    expect(entries.every((order) => order.side === 'SELL')).toBe(true);
    const exits = orders.filter((order) => order.tag !== 'entry');
    expect(exits).toHaveLength(10);
    expect(exits.every((order) => order.side === 'BUY' && ['stop', 'square-off', 'daily-max-loss'].includes(order.tag))).toBe(true);
    expect(exits.some((order) => order.tag === 'stop')).toBe(true);

    // Fills: the engine's charges to the paisa, and the NSE options schedule visibly applied.
    const fills = (await pool.query<FillRow>(
      `SELECT split_part(o.client_order_id, '-', 2)::int AS id, f.quantity, f.price_paise AS price, f.charges_paise AS charges, (extract(epoch FROM f.ts) * 1000)::bigint AS time
       FROM fills f JOIN orders o USING (order_id) WHERE o.run_id = $1 ORDER BY id`, [runId])).rows;
    expect(fills.map((fill) => [fill.id, fill.quantity, Number(fill.price), Number(fill.time), fill.charges.stt, fill.charges.exchange, fill.charges.gst])).toEqual(
      direct.result.fills.map((fill) => [fill.orderId, fill.quantity, fill.price, fill.time, fill.charges.stt, fill.charges.exchangeTransaction, fill.charges.gst]));
    // `time() >= "09:20"` first holds at the close of the 09:15 bar: the legs fill at the 09:20 open.
    const entryIds = new Set(entries.map((order) => order.id));
    expect(fills.filter((fill) => entryIds.has(fill.id)).map((fill) => formatIstDateTime(Number(fill.time)).slice(11))).toEqual(Array(10).fill('09:20:00'));
    for (const fill of fills) {
      const sell = orders.find((order) => order.id === fill.id)?.side === 'SELL';
      const premium = Number(fill.price) * fill.quantity;
      expect(fill.charges.brokerage).toBe(2_000);
      expect(fill.charges.exchange).toBeGreaterThan(0);
      // STT: sell side only, whole rupees, 0.0625% of the premium.
      expect(fill.charges.stt % 100).toBe(0);
      if (sell) expect(Math.abs(fill.charges.stt - (premium * STT_PER_MILLION) / 1_000_000)).toBeLessThanOrEqual(50);
      else expect(fill.charges.stt).toBe(0);
      expect(fill.charges.stamp > 0).toBe(!sell);
    }

    // The CLI on the same store computes the same run.
    const legsFile = join(folder, 'straddle.json');
    writeFileSync(legsFile, JSON.stringify(LEGS));
    const cli = await backtestJson(['--symbol', 'NIFTY', '--options', legsFile, '--entry', ENTRY, '--from', FROM, '--to', TO, '--interval', String(INTERVAL), '--capital', String(INVESTMENT_RUPEES)]);
    expect(cli.code).toBe(0);
    const printed = JSON.parse(cli.printed) as { metrics: unknown; fills: unknown; summary: unknown };
    expect(printed.metrics).toEqual(row.metrics);
    expect(printed.fills).toEqual(JSON.parse(JSON.stringify(direct.result.fills)));
    expect(printed.summary).toEqual(JSON.parse(JSON.stringify(direct.result.summary)));
  });
});
