// The kill switch against a running paper replay: turned on mid-run with square-off, the run's
// OMS cancels its working stops and targets and closes its position, the run places nothing more
// and ends in ERROR saying the kill switch stopped it, and the account is flat.
import { isoDate } from '@vyuha/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualScheduler } from '../../src/trading/feeds/scheduler';
import { setKillSwitch } from '../../src/trading/kill-switch';
import { KILL_SWITCH_HALT } from '../../src/trading/runner/paper-run';
import { replayPaperRun } from '../../src/trading/runner/replay-run';
import { freshDatabase, type TestDatabase } from '../helpers/db';
import { indexId, storeSyntheticHistory } from '../trading-feeds/feed-test-support';
import { algorithm, createTrader, deployable, paperRunRow } from './runner-test-support';

let db: TestDatabase;
let nifty: number;

const FROM = isoDate('2025-04-07');
const TO = isoDate('2025-04-11');

beforeAll(async () => {
  db = await freshDatabase({ seeded: true });
  await storeSyntheticHistory(db.pool, { from: FROM, to: TO, instruments: ['NIFTY 50'], seed: 'paper-kill-switch' });
  nifty = await indexId(db.pool, 'NIFTY 50');
}, 120_000);

afterAll(async () => {
  await db.close();
});

describe('a kill switch turned on during a paper replay', () => {
  it('closes the position through the OMS, stops the run with the reason, and nothing else leaves', async () => {
    const userId = await createTrader(db.pool);
    const ref = await algorithm(db.pool, userId, { buy: 'close > 0', sell: 'close < 0' });
    // Long from the first bar on, with a far stop and target: a position and two working orders to deal with.
    const runId = await paperRunRow(db.pool, {
      userId, instrumentId: nifty, range: { from: FROM, to: TO }, speed: 600, config: deployable(ref, {
        type: 'swing', stopLoss: { kind: 'percent', percent: 5 }, target: { kind: 'percent', percent: 5 },
      }),
    });
    const clock = new ManualScheduler(Date.UTC(2026, 0, 1));
    const replay = replayPaperRun({ pool: db.pool, runId, pacing: clock });
    const outcome = replay.then(() => 'finished', (error: unknown) => String(error));
    const working = async (): Promise<number> => Number((await db.pool.query<{ n: string }>(
      `SELECT count(*)::text AS n FROM orders WHERE run_id = $1 AND status = 'OPEN'`, [runId])).rows[0]!.n);
    while ((await working()) < 2) {
      await clock.advanceTo(clock.now() + 5_000);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const switchedAt = (await db.pool.query<{ at: Date }>('SELECT clock_timestamp() AS at')).rows[0]!.at;
    const switched = await setKillSwitch(db.pool, { userId, on: true, squareOff: true, by: userId, reason: 'test' });
    expect(switched.ok).toBe(true);
    let ended = false;
    void outcome.then(() => {
      ended = true;
    });
    for (let step = 0; step < 400 && !ended; step += 1) {
      await clock.advanceTo(clock.now() + 5_000);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(await outcome).toContain(KILL_SWITCH_HALT);
    expect(await working()).toBe(0);
    const { rows: positions } = await db.pool.query<{ net: number }>('SELECT net_quantity AS net FROM positions WHERE run_id = $1', [runId]);
    for (const position of positions) expect(position.net).toBe(0);
    // Written after the switch: only the switch's own square-off (reduce-only) orders.
    const { rows: later } = await db.pool.query<{ square_off: boolean }>(
      `SELECT o.square_off FROM orders o JOIN audit_log a ON a.entity = 'orders' AND a.entity_id = o.client_order_id AND a.action = 'order.created'
       WHERE o.run_id = $1 AND a.at > $2`, [runId, switchedAt]);
    expect(later.length).toBeGreaterThan(0);
    for (const row of later) expect(row.square_off).toBe(true);
  }, 300_000);
});
