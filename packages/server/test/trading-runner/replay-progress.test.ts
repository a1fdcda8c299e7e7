// A paced paper replay writes how far it has got on its run row while it plays (replay-progress.ts):
// the market time of the last tick taken (params.replayedUntilMs) and the percent of its ticks
// (progress), at most about once a second of wall time, only forward, never on an ended run.
import { isoDate } from '@vyuha/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualScheduler } from '../../src/trading/feeds/scheduler';
import { ReplayProgress } from '../../src/trading/runner/replay-progress';
import { replayPaperRun } from '../../src/trading/runner/replay-run';
import { freshDatabase, type TestDatabase } from '../helpers/db';
import { indexId, storeSyntheticHistory } from '../trading-feeds/feed-test-support';
import { algorithm, bareRunRow, createTrader, deployable, paperRunRow } from './runner-test-support';

let db: TestDatabase;
let nifty: number;
let userId: string;

const FROM = isoDate('2025-02-03');
const TO = isoDate('2025-02-04');

beforeAll(async () => {
  db = await freshDatabase({ seeded: true });
  await storeSyntheticHistory(db.pool, { from: FROM, to: TO, instruments: ['NIFTY 50'], seed: 'replay-progress' });
  nifty = await indexId(db.pool, 'NIFTY 50');
  userId = await createTrader(db.pool);
}, 120_000);

afterAll(async () => {
  await db.close();
});

interface Reached {
  readonly status: string;
  readonly progress: number;
  readonly untilMs: number | null;
}

async function reached(runId: string): Promise<Reached> {
  const { rows } = await db.pool.query<{ status: string; progress: number; until: string | null }>(
    `SELECT status, progress, params ->> 'replayedUntilMs' AS until FROM strategy_runs WHERE run_id = $1`, [runId]);
  const row = rows[0]!;
  return { status: row.status, progress: row.progress, untilMs: row.until === null ? null : Number(row.until) };
}

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('a paced paper replay\'s progress on its run row', () => {
  it('moves forward while the replay plays, and keeps where a stop left it', async () => {
    const ref = await algorithm(db.pool, userId, { buy: 'crossover(ema(close, 5), ema(close, 13))', sell: 'crossunder(ema(close, 5), ema(close, 13))' });
    const runId = await paperRunRow(db.pool, { userId, instrumentId: nifty, range: { from: FROM, to: TO }, speed: 600, config: deployable(ref) });
    expect(await reached(runId)).toEqual({ status: 'IN PROGRESS', progress: 0, untilMs: null });
    // At 600x a 5-minute bar takes 0.5 s of the pacing clock: 10 s of it are 20 bars of market time.
    const clock = new ManualScheduler(Date.UTC(2026, 0, 1));
    const stop = new AbortController();
    const replay = replayPaperRun({ pool: db.pool, runId, pacing: clock, signal: stop.signal });
    await clock.advanceTo(clock.now() + 10_000);
    await until(async () => (await reached(runId)).untilMs !== null, 'the first write');
    const first = await reached(runId);
    // The next write waits for a second of wall time, however far the replay goes meanwhile.
    await clock.advanceTo(clock.now() + 10_000);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await clock.advanceTo(clock.now() + 10_000);
    await until(async () => ((await reached(runId)).untilMs ?? 0) > (first.untilMs ?? 0), 'a later write');
    const later = await reached(runId);
    expect(later.status).toBe('IN PROGRESS');
    expect(later.progress).toBeGreaterThan(0);
    expect(later.progress).toBeLessThan(100);
    expect(later.progress).toBeGreaterThanOrEqual(first.progress);
    // The later write is of the third stretch of 20 bars, the first of the first one: 10 bars of 5 minutes apart at the least.
    expect((later.untilMs ?? 0) - (first.untilMs ?? 0)).toBeGreaterThanOrEqual(10 * 5 * 60_000);
    stop.abort({ squareOff: false });
    await clock.advanceTo(clock.now() + 1_000);
    const summary = await replay;
    expect(summary.stopped).toBe(true);
    // The stop's own position is on the row (the last write waits for nothing once the feed ends).
    const end = await reached(runId);
    expect(end.untilMs).toBeGreaterThanOrEqual(later.untilMs ?? 0);
  }, 120_000);

  it('writes at most once per interval, keeps the greater values, and leaves an ended run alone', async () => {
    const runId = await bareRunRow(db.pool, userId);
    let now = 0;
    const progress = new ReplayProgress({ pool: db.pool, runId, everyMs: 1_000, now: () => now });
    progress.note(1_000_000, 10, 100);
    await progress.flush();
    expect(await reached(runId)).toMatchObject({ progress: 10, untilMs: 1_000_000 });
    // Within the second: noted, not written, until flushed.
    now = 500;
    progress.note(2_000_000, 20, 100);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await reached(runId)).toMatchObject({ progress: 10, untilMs: 1_000_000 });
    now = 1_000;
    progress.note(3_000_000, 30, 100);
    await progress.flush();
    expect(await reached(runId)).toMatchObject({ progress: 30, untilMs: 3_000_000 });
    // A replay taken over starts again from its first bar: the row does not go back.
    const again = new ReplayProgress({ pool: db.pool, runId });
    again.note(1_500_000, 5, 100);
    await again.flush();
    expect(await reached(runId)).toMatchObject({ progress: 30, untilMs: 3_000_000 });
    await db.pool.query(`UPDATE strategy_runs SET status = 'ERROR', error = 'ended by the test', finished_at = now() WHERE run_id = $1`, [runId]);
    const late = new ReplayProgress({ pool: db.pool, runId });
    late.note(9_000_000, 90, 100);
    await late.flush();
    expect(await reached(runId)).toMatchObject({ status: 'ERROR', progress: 30, untilMs: 3_000_000 });
  }, 60_000);
});
