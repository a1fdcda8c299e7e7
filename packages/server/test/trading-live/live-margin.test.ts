// The margin check of a LIVE run's entries: when the account's available margin at Kite falls below
// what a new position of the strategy may take (its investment), no entry is sent and the user is
// told (a `margin-short` alert); exits still go; once the margin is back, entries go again.
import { istEpochMs } from '@vyuha/core';
import type { FeedTick } from '@vyuha/engine';
import { describe, expect, it } from 'vitest';
import type { PaperRun } from '../../src/trading/runner/paper-run';
import { runLiveSession } from '../../src/trading/runner/live-run';
import { algorithm } from '../trading-runner/runner-test-support';
import { useLiveWorld, marketRun, playDay, relianceConfig, RELIANCE_TOKEN, TODAY, type TickTaker } from './live-test-support';

const suite = useLiveWorld();

describe('a LIVE run whose account runs short of margin', () => {
  it('sends no entry while the margin is below the investment, tells the user, and enters again once it is back', async () => {
    const { db, world, killSwitches } = suite();
    const ref = await algorithm(db.pool, world.userId, { buy: 'crossover(ema(close, 2), ema(close, 5))', sell: 'crossunder(ema(close, 2), ema(close, 5))' });
    const runId = await marketRun(world, relianceConfig(ref, { interval: 3 }), 'LIVE');
    const accounts = suite().accounts({ pollMs: 300, marginCheckMs: 50,
    });
    const runs: TickTaker[] = [];
    const short = istEpochMs(TODAY, '11:00');
    const restored = istEpochMs(TODAY, '13:00');
    const live = runLiveSession({ pool: db.pool, runId, accounts, scheduler: world.scheduler, killSwitches, onPaperRun: (run) => runs.push(run as PaperRun) });
    try {
      await playDay(world, {
        consumers: 1, runs: () => runs,
        send: (tick: FeedTick) => world.standIn.tick(RELIANCE_TOKEN, tick.price, { atMs: tick.time }),
        before: async (time) => {
          // ₹1 lakh against an investment of ₹2 lakh; then ₹50 crore again. A moment for the next margin read.
          if (time === short) world.standIn.setCash(world.clientId, 1_00_000_00);
          if (time === restored) world.standIn.setCash(world.clientId, 50_00_00_000_00);
          if (time === short || time === restored) await new Promise((resolve) => setTimeout(resolve, 300));
        },
      });
      expect(await live).toMatchObject({ sessionEnded: true, stopped: false, released: false });
    } finally {
      await accounts.closeAll();
    }
    const { rows: entries } = await db.pool.query<{ broker_order_id: string }>(
      'SELECT broker_order_id FROM orders WHERE run_id = $1 AND NOT square_off AND broker_order_id IS NOT NULL', [runId]);
    const atKite = world.standIn.orders(world.clientId);
    const enteredAt = entries.map((entry) => {
      const order = atKite.find((candidate) => candidate.order_id === entry.broker_order_id);
      return Date.parse(`${String(order?.order_timestamp).replace(' ', 'T')}+05:30`);
    });
    expect(enteredAt.filter((at) => at < short).length).toBeGreaterThan(0);
    expect(enteredAt.filter((at) => at >= short && at < restored)).toEqual([]);
    expect(enteredAt.filter((at) => at >= restored).length).toBeGreaterThan(0);
    const { rows: alerts } = await db.pool.query<{ kind: string; message: string }>(`SELECT kind, message FROM trading_alerts WHERE user_id = $1`, [world.userId]);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]!.kind).toBe('margin-short');
    expect(alerts[0]!.message).toContain('below the strategy\'s investment of ₹2,00,000.00');
  }, 300_000);
});
