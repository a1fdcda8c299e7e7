// Parity, the paper runtime's acceptance test: a PAPER run replaying stored synthetic history
// through the whole runtime (replay feed, candle builder, stepped kernel, OMS, paper venue, the
// database) makes exactly the fills the backtest makes over the same range with the same
// algorithm, instrument, interval, sizing and exits: time, side, quantity, price and charges, to
// the paisa. NIFTY 50 is traded as its near-month future (the backtest's plan for an index), so
// the fills are NIFTY futures contracts priced by the chain.
import { isoDate } from '@vyuha/core';
import type { IsoDate } from '@vyuha/core';
import type { DeployableConfig } from '@vyuha/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replayPaperRun } from '../../src/trading/runner/replay-run';
import { freshDatabase, type TestDatabase } from '../helpers/db';
import { indexId, storeSyntheticHistory } from '../trading-feeds/feed-test-support';
import { algorithm, backtestFillsOf, bareRunRow, createTrader, deployable, paperRunRow, storedFills } from './runner-test-support';

let db: TestDatabase;
let nifty: number;
let userId: string;

const FROM = isoDate('2025-01-06');
const TO = isoDate('2025-01-17');

beforeAll(async () => {
  db = await freshDatabase({ seeded: true });
  await storeSyntheticHistory(db.pool, { from: FROM, to: TO, instruments: ['NIFTY 50'], seed: 'paper-parity' });
  nifty = await indexId(db.pool, 'NIFTY 50');
  userId = await createTrader(db.pool);
}, 120_000);

afterAll(async () => {
  await db.close();
});

function paperRun(config: DeployableConfig, range: { from: IsoDate; to: IsoDate }): Promise<string> {
  return paperRunRow(db.pool, { userId, instrumentId: nifty, config, range });
}

function rules(buy: string, sell: string): Promise<{ id: string; version: number }> {
  return algorithm(db.pool, userId, { buy, sell });
}

describe('a paper replay makes exactly the backtest\'s fills', () => {
  it('for a rule strategy on an index, intraday, with a stop, a target and a trailing stop', async () => {
    const ref = await rules('crossover(ema(close, 5), ema(close, 13))', 'crossunder(ema(close, 5), ema(close, 13))');
    const runId = await paperRun(deployable(ref, {
      stopLoss: { kind: 'percent', percent: 0.3 }, target: { kind: 'percent', percent: 0.5 }, trailingStop: { kind: 'percent', percent: 0.25 },
    }), { from: FROM, to: TO });
    const summary = await replayPaperRun({ pool: db.pool, runId });
    const expected = await backtestFillsOf(db.pool, runId);
    const actual = await storedFills(db.pool, runId);
    expect(expected.fills.length).toBeGreaterThan(10);
    // The exits the test means to cover happened.
    expect(actual).toEqual(expected.fills);
    expect([...expected.reasons].sort()).toEqual(expect.arrayContaining(['entry', 'signal', 'target', 'trailing']));
    expect(summary.fills).toBe(actual.length);
  }, 300_000);

  it('for an afternoon entry held to the 15:15 square-off unless its fixed stop is hit first', async () => {
    const ref = await rules('time() >= "14:30"', 'close < 0');
    const runId = await paperRun(deployable(ref, { interval: 3, stopLoss: { kind: 'points', points: 20 } }), { from: FROM, to: TO });
    await replayPaperRun({ pool: db.pool, runId });
    const expected = await backtestFillsOf(db.pool, runId);
    const actual = await storedFills(db.pool, runId);
    expect(actual).toEqual(expected.fills);
    expect([...expected.reasons].sort()).toEqual(['entry', 'square-off', 'stop']);
  }, 300_000);

  it('for a swing strategy holding across days, in fixed lots', async () => {
    const ref = await rules('crossover(ema(close, 9), ema(close, 21))', 'crossunder(ema(close, 9), ema(close, 21))');
    const runId = await paperRun(deployable(ref, { type: 'swing', interval: 15, sizing: { kind: 'lots', lots: 2, lotSize: 75 } } as Partial<DeployableConfig>), { from: FROM, to: TO });
    await replayPaperRun({ pool: db.pool, runId });
    const expected = await backtestFillsOf(db.pool, runId);
    const actual = await storedFills(db.pool, runId);
    expect(expected.fills.length).toBeGreaterThan(4);
    // At least one position was held overnight: an entry on one IST day, its exit on a later one.
    const days = expected.fills.map((fill) => Math.floor((fill.time + 19_800_000) / 86_400_000));
    expect(days.some((day, index) => index % 2 === 1 && day !== days[index - 1])).toBe(true);
    expect(actual).toEqual(expected.fills);
  }, 300_000);

  it('while another run of the account holds a position (each replay is a market of its own: nothing to explain, nothing paused)', async () => {
    const holder = await bareRunRow(db.pool, userId);
    await db.pool.query('INSERT INTO positions (run_id, instrument_id, net_quantity, average_price_paise) VALUES ($1, $2, 75, 2400000)', [holder, nifty]);
    const ref = await rules('crossover(ema(close, 5), ema(close, 13))', 'crossunder(ema(close, 5), ema(close, 13))');
    const runId = await paperRun(deployable(ref), { from: FROM, to: TO });
    await replayPaperRun({ pool: db.pool, runId });
    const expected = await backtestFillsOf(db.pool, runId);
    expect(expected.fills.length).toBeGreaterThan(4);
    expect(await storedFills(db.pool, runId)).toEqual(expected.fills);
    const paused = await db.pool.query(`SELECT 1 FROM audit_log WHERE action = 'oms.alert' AND entity_id = $1`, [userId]);
    expect(paused.rowCount).toBe(0);
  }, 300_000);
});
