// A replay handed over mid-run (its worker let go, or died) and resumed by another: the resumed
// replay starts again from the range's first bar, the OMS answers every decision already stored
// from its rows (nothing is sent twice), the paper venue's rebuilt orders wait for the replay to
// pass the time they were sent, and the run ends with exactly the backtest's fills, once each.
// Also: two replays of one user at the same time never touch each other's orders.
import { isoDate } from '@vyuha/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualScheduler } from '../../src/trading/feeds/scheduler';
import { RELEASE, replayPaperRun } from '../../src/trading/runner/replay-run';
import { freshDatabase, type TestDatabase } from '../helpers/db';
import { indexId, storeSyntheticHistory } from '../trading-feeds/feed-test-support';
import { algorithm, backtestFillsOf, createTrader, deployable, paperRunRow, storedFills } from './runner-test-support';

let db: TestDatabase;
let nifty: number;
let userId: string;

const FROM = isoDate('2025-02-03');
const TO = isoDate('2025-02-07');

beforeAll(async () => {
  db = await freshDatabase({ seeded: true });
  await storeSyntheticHistory(db.pool, { from: FROM, to: TO, instruments: ['NIFTY 50'], seed: 'paper-resume' });
  nifty = await indexId(db.pool, 'NIFTY 50');
  userId = await createTrader(db.pool);
}, 120_000);

afterAll(async () => {
  await db.close();
});

async function fillCount(runId: string): Promise<number> {
  const { rows } = await db.pool.query<{ count: string }>('SELECT count(*) AS count FROM fills f JOIN orders o ON o.order_id = f.order_id WHERE o.run_id = $1', [runId]);
  return Number(rows[0]!.count);
}

/** Paces a replay on a manual clock, `stepMs` at a time, until `until` says stop or the replay ends. */
async function pace(clock: ManualScheduler, replay: Promise<unknown>, until: () => Promise<boolean>): Promise<void> {
  let ended = false;
  void replay.finally(() => {
    ended = true;
  });
  while (!ended && !(await until())) {
    await clock.advanceTo(clock.now() + 5_000);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('a paper replay resumed after a hand-over', () => {
  it('ends with exactly the backtest\'s fills, none doubled, after being let go twice mid-run', async () => {
    const ref = await algorithm(db.pool, userId, { buy: 'crossover(ema(close, 5), ema(close, 13))', sell: 'crossunder(ema(close, 5), ema(close, 13))' });
    const runId = await paperRunRow(db.pool, {
      userId, instrumentId: nifty, range: { from: FROM, to: TO }, speed: 600,
      config: deployable(ref, { stopLoss: { kind: 'percent', percent: 0.3 }, target: { kind: 'percent', percent: 0.5 }, trailingStop: { kind: 'percent', percent: 0.25 } }),
    });
    const expected = await backtestFillsOf(db.pool, runId);
    expect(expected.fills.length).toBeGreaterThan(12);
    for (const share of [0.3, 0.6]) {
      const clock = new ManualScheduler(Date.UTC(2026, 0, 1));
      const release = new AbortController();
      const replay = replayPaperRun({ pool: db.pool, runId, pacing: clock, signal: release.signal });
      await pace(clock, replay, async () => (await fillCount(runId)) >= Math.floor(expected.fills.length * share));
      release.abort(RELEASE);
      await clock.advanceTo(clock.now() + 1_000);
      const summary = await replay;
      expect(summary.released).toBe(true);
      const sofar = await storedFills(db.pool, runId);
      // What was filled before the hand-over is the backtest's beginning, and stays as it was.
      expect(sofar).toEqual(expected.fills.slice(0, sofar.length));
    }
    const clock = new ManualScheduler(Date.UTC(2026, 0, 1));
    const last = replayPaperRun({ pool: db.pool, runId, pacing: clock });
    await pace(clock, last, async () => false);
    const summary = await last;
    expect(summary.released).toBe(false);
    expect(await storedFills(db.pool, runId)).toEqual(expected.fills);
    const { rows } = await db.pool.query<{ orders: string; distinct_ids: string }>(
      'SELECT count(*) AS orders, count(DISTINCT client_order_id) AS distinct_ids FROM orders WHERE run_id = $1', [runId]);
    expect(rows[0]!.orders).toBe(rows[0]!.distinct_ids);
  }, 300_000);

  it('keeps two replays of one user apart: each run\'s venue sees only its own orders', async () => {
    const ref = await algorithm(db.pool, userId, { buy: 'crossover(ema(close, 3), ema(close, 8))', sell: 'crossunder(ema(close, 3), ema(close, 8))' });
    const config = deployable(ref, { stopLoss: { kind: 'points', points: 15 }, target: { kind: 'points', points: 40 } });
    const first = await paperRunRow(db.pool, { userId, instrumentId: nifty, config, range: { from: FROM, to: isoDate('2025-02-05') } });
    const second = await paperRunRow(db.pool, { userId, instrumentId: nifty, config, range: { from: isoDate('2025-02-05'), to: TO } });
    await Promise.all([replayPaperRun({ pool: db.pool, runId: first }), replayPaperRun({ pool: db.pool, runId: second })]);
    for (const runId of [first, second]) {
      const expected = await backtestFillsOf(db.pool, runId);
      expect(expected.fills.length).toBeGreaterThan(4);
      expect(await storedFills(db.pool, runId)).toEqual(expected.fills);
    }
  }, 300_000);
});
