// Parity for option legs: the demo world's 09:20 short straddle (sell the ATM CE and PE of the
// current weekly NIFTY expiry, a 30% stop on each leg's premium, squared off at 15:15) replayed
// through the paper runtime (replay feed, candle builder, stepped kernel with the option-legs
// trader, OMS, paper venue, the database) over stored synthetic NIFTY 50 and INDIA VIX history
// makes exactly the fills the backtest makes over the same prepared range: contract, time, side,
// quantity, price and charges, to the paisa; and the positions the OMS stored are the fold of
// those fills. A venue whose premiums are not the kernel's is reported as a divergence.
import { isoDate } from '@vyuha/core';
import type { IsoDate } from '@vyuha/core';
import type { CompiledAlgorithm, LedgerFill } from '@vyuha/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPrepared } from '../../src/backtest/stored-run';
import type { PreparedRun } from '../../src/backtest/stored-run';
import { SHORT_STRADDLE_LEGS } from '../../src/db/seed/demo-research';
import type { LegsPaperRun } from '../../src/trading/runner/legs-paper-run';
import { runLegsPaperReplay } from '../../src/trading/runner/legs-replay';
import { ManualScheduler } from '../../src/trading/feeds/scheduler';
import { PaperRunFailure, RELEASE } from '../../src/trading/runner/replay-run';
import { freshDatabase, type TestDatabase } from '../helpers/db';
import { indexId } from '../trading-feeds/feed-test-support';
import { bareRunRow, legsWorld, prepareLegs, storedFills } from './runner-test-support';
import type { FillRow } from './runner-test-support';

let db: TestDatabase;
let nifty: number;
let userId: string;
let program: CompiledAlgorithm;

// Three weeks of sessions, three weekly expiries among them.
const FROM = isoDate('2025-01-06');
const TO = isoDate('2025-01-24');
const INTERVAL = 5;

beforeAll(async () => {
  db = await freshDatabase({ seeded: true });
  ({ nifty, userId, program } = await legsWorld(db.pool, { from: FROM, to: TO }));
}, 120_000);

afterAll(async () => {
  await db.close();
});

/** A variant with every kind of exit: a target and a trailing stop on the call, a stop and a target in points on two lots of the put one strike up. */
const TRAILING_LEGS = {
  underlying: 'NIFTY',
  onBuy: [
    { option: 'CE', side: 'sell', strike: { by: 'atm-offset', steps: 0 }, expiry: 'current-weekly', lots: 1, target: { percent: 35 }, trailingStop: { percent: 15 } },
    { option: 'PE', side: 'sell', strike: { by: 'atm-offset', steps: 1 }, expiry: 'current-weekly', lots: 2, stopLoss: { points: 25 }, target: { points: 20 } },
  ],
  maxEntriesPerDay: 1,
};

/** A straddle of `legs` prepared over `range` as run_backtest prepares it (Rs 3 lakh, intraday, 5-minute bars). */
async function prepareStraddle(range: { from: IsoDate; to: IsoDate }, legs: unknown = SHORT_STRADDLE_LEGS): Promise<PreparedRun> {
  return prepareLegs(db.pool, { instrumentId: nifty, range, legs, strategyType: 'intraday', intervalMinutes: INTERVAL });
}

async function paperRunRow(): Promise<string> {
  return bareRunRow(db.pool, userId);
}

interface ReplayOptions {
  readonly range: { from: IsoDate; to: IsoDate };
  readonly onPaperRun?: (paper: LegsPaperRun) => void;
  /** Paced at 600x on this clock, ended early by `signal`; else as fast as possible. */
  readonly paced?: { readonly clock: ManualScheduler; readonly signal: AbortSignal };
}

function replay(runId: string, prepared: PreparedRun, options: ReplayOptions): ReturnType<typeof runLegsPaperReplay> {
  const { range, onPaperRun, paced } = options;
  return runLegsPaperReplay({
    pool: db.pool, runId, userId, strategyId: null, algoId: null, instrumentId: nifty, prepared, program, intervalMinutes: INTERVAL,
    replay: { ...range, speed: paced === undefined ? 0 : 600 }, ...(onPaperRun === undefined ? {} : { onPaperRun }),
    ...(paced === undefined ? {} : { pacing: paced.clock, signal: paced.signal }),
  });
}

/** Fills in one order: time, then contract, then side (two legs square off at the same moment). */
function ordered(fills: readonly FillRow[]): FillRow[] {
  return [...fills].sort((a, b) => a.time - b.time || a.instrument.localeCompare(b.instrument) || a.side.localeCompare(b.side));
}

function rowsOf(fills: readonly LedgerFill[]): FillRow[] {
  return fills.map((fill) => ({ instrument: fill.instrument, side: fill.side, quantity: fill.quantity, price: fill.price, time: fill.time, charges: fill.chargesTotal }));
}

/** Replays `legs` over the whole range on paper and runs the backtest on a second preparation of it; both runs' fills and what the OMS stored. */
async function paperAndBacktest(legs: unknown): Promise<{
  runId: string; paper: LegsPaperRun; reasons: string[]; stops: number; expected: FillRow[]; actual: FillRow[]; outcomeFills: number;
}> {
  const range = { from: FROM, to: TO };
  const runId = await paperRunRow();
  let paper: LegsPaperRun | undefined;
  const outcome = await replay(runId, await prepareStraddle(range, legs), { range, onPaperRun: (run) => { paper = run; } });
  const backtest = await runPrepared(db.pool, { prepared: await prepareStraddle(range, legs), program, dateRange: range, intervalMinutes: INTERVAL });
  expect(outcome.result.fills.length).toBe(backtest.fills.length);
  return {
    runId, paper: paper!, reasons: [...new Set(backtest.fills.map((fill) => fill.reason))].sort(), outcomeFills: outcome.fills,
    stops: backtest.fills.filter((fill) => fill.reason === 'stop').length,
    expected: ordered(rowsOf(backtest.fills)), actual: ordered(await storedFills(db.pool, runId)),
  };
}

/** The run's orders by type and final status, with how many. */
async function orderCounts(runId: string): Promise<Record<string, number>> {
  const { rows } = await db.pool.query<{ key: string; count: number }>(
    `SELECT order_type || ' ' || status AS key, count(*)::int AS count FROM orders WHERE run_id = $1 GROUP BY 1`, [runId]);
  return Object.fromEntries(rows.map((row) => [row.key, row.count]));
}

describe('a paper replay of option legs makes exactly the backtest\'s fills', () => {
  it('for the 09:20 short straddle with a 30% stop per leg', async () => {
    const { runId, reasons, stops, expected, actual, outcomeFills } = await paperAndBacktest(SHORT_STRADDLE_LEGS);
    // What the test means to cover happened: legs' stops fired on some days, the rest were squared off at 15:15.
    expect(reasons).toEqual(['entry', 'square-off', 'stop']);
    expect(new Set(expected.map((fill) => Math.floor((fill.time + 19_800_000) / 86_400_000))).size).toBeGreaterThanOrEqual(10);
    expect(actual).toEqual(expected);
    expect(outcomeFills).toBe(actual.length);

    // The stops filled at the venue as SL-M orders on the legs' premium ticks; those still working at 15:15 were cancelled.
    const counts = await orderCounts(runId);
    expect(counts['SL-M FILLED']).toBe(stops);
    expect(counts['SL-M FILLED']! + counts['SL-M CANCELLED']!).toBe(expected.filter((fill) => fill.side === 'sell').length);
    expect(counts['MARKET FILLED']).toBe(actual.length - stops);

    // Every position is the fold of its fills: flat at the end, realised = sells - buys, charges summed.
    const { rows } = await db.pool.query<{ symbol: string; net: number; realised: string; charges: string }>(
      `SELECT i.trading_symbol AS symbol, p.net_quantity AS net, p.realised_pnl_paise::text AS realised, p.charges_paise::text AS charges
       FROM positions p JOIN instruments i ON i.instrument_id = p.instrument_id WHERE p.run_id = $1 ORDER BY 1`, [runId]);
    const folded = new Map<string, { net: number; realised: number; charges: number }>();
    for (const fill of actual) {
      const position = folded.get(fill.instrument) ?? { net: 0, realised: 0, charges: 0 };
      const signed = fill.side === 'buy' ? fill.quantity : -fill.quantity;
      folded.set(fill.instrument, { net: position.net + signed, realised: position.realised - signed * fill.price, charges: position.charges + fill.charges });
    }
    expect(rows.map((row) => [row.symbol, { net: row.net, realised: Number(row.realised), charges: Number(row.charges) }]))
      .toEqual([...folded].sort(([a], [b]) => a.localeCompare(b)));
    expect(rows.every((row) => row.net === 0)).toBe(true);
  }, 120_000);

  it('for legs with targets and a trailing stop', async () => {
    const { runId, reasons, expected, actual } = await paperAndBacktest(TRAILING_LEGS);
    expect(reasons).toEqual(expect.arrayContaining(['entry', 'stop', 'target', 'trailing']));
    expect(actual).toEqual(expected);
    const counts = await orderCounts(runId);
    expect(counts['LIMIT FILLED']).toBeGreaterThan(0);
    // The trailing stop moved with the premium: its order was modified at the venue.
    const { rows } = await db.pool.query<{ moved: number }>(`SELECT coalesce(sum(modify_count), 0)::int AS moved FROM orders WHERE run_id = $1`, [runId]);
    expect(rows[0]!.moved).toBeGreaterThan(0);
  }, 120_000);

  it('resumes after a hand-over mid-run with the backtest\'s fills, none doubled', async () => {
    const range = { from: isoDate('2025-01-13'), to: isoDate('2025-01-17') };
    const runId = await paperRunRow();
    const expected = ordered(rowsOf((await runPrepared(db.pool, { prepared: await prepareStraddle(range, TRAILING_LEGS), program, dateRange: range, intervalMinutes: INTERVAL })).fills));
    expect(expected.length).toBeGreaterThan(12);
    const clock = new ManualScheduler(Date.UTC(2026, 0, 1));
    const release = new AbortController();
    const first = replay(runId, await prepareStraddle(range, TRAILING_LEGS), { range, paced: { clock, signal: release.signal } });
    let ended = false;
    void first.finally(() => {
      ended = true;
    });
    while (!ended && (await storedFills(db.pool, runId)).length < expected.length / 2) {
      await clock.advanceTo(clock.now() + 5_000);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    release.abort(RELEASE);
    await clock.advanceTo(clock.now() + 1_000);
    expect((await first).released).toBe(true);
    // Handed over with legs open: their stops and targets were working at the venue and are rebuilt from the rows.
    const working = await db.pool.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM orders WHERE run_id = $1 AND status = 'OPEN' AND order_type IN ('SL-M', 'LIMIT')`, [runId]);
    expect(working.rows[0]!.count).toBeGreaterThan(0);
    const sofar = ordered(await storedFills(db.pool, runId));
    expect(sofar.length).toBeLessThan(expected.length);
    expect(sofar).toEqual(expected.slice(0, sofar.length));

    // Another worker takes it over: the replay starts again from the first bar under the same run.
    const outcome = await replay(runId, await prepareStraddle(range, TRAILING_LEGS), { range });
    expect(outcome.released).toBe(false);
    expect(ordered(await storedFills(db.pool, runId))).toEqual(expected);
    const { rows } = await db.pool.query<{ orders: string; distinct_ids: string }>(
      'SELECT count(*) AS orders, count(DISTINCT client_order_id) AS distinct_ids FROM orders WHERE run_id = $1', [runId]);
    expect(rows[0]!.orders).toBe(rows[0]!.distinct_ids);
  }, 120_000);

  it('reports a divergence when the venue\'s premiums are not the kernel\'s', async () => {
    const day = { from: isoDate('2025-01-07'), to: isoDate('2025-01-07') };
    // The kernel's pricing is prepared first; then INDIA VIX is doubled in the store, which only the venue's premiums read.
    const prepared = await prepareStraddle(day);
    const vix = await indexId(db.pool, 'INDIA VIX');
    const scale = (factor: string): Promise<unknown> => db.pool.query(
      `UPDATE candles SET open_paise = open_paise ${factor}, high_paise = high_paise ${factor}, low_paise = low_paise ${factor}, close_paise = close_paise ${factor}
       WHERE instrument_id = $1`, [vix]);
    await scale('* 2');
    try {
      const runId = await paperRunRow();
      const failure = await replay(runId, prepared, { range: day }).then(() => undefined, (error: unknown) => error);
      // The feed stops at the first differing fill (the run would end in ERROR with both fills in words).
      expect(failure).toBeInstanceOf(PaperRunFailure);
      expect((failure as Error).message).toMatch(/entry fill of NIFTY\S+(CE|PE) differs: paper SELL 75 at \d+ paise .* kernel SELL 75 at \d+ paise/);
      const paper = Number(/paper SELL 75 at (\d+)/.exec((failure as Error).message)?.[1]);
      const kernel = Number(/kernel SELL 75 at (\d+)/.exec((failure as Error).message)?.[1]);
      // A higher VIX makes every premium dearer.
      expect(paper).toBeGreaterThan(kernel);
    } finally {
      await scale('/ 2');
    }
  }, 120_000);
});
