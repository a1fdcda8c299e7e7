// The simulated market on a manual clock for the market-run tests: a session played second by
// second, the clock moving on only once every running consumer has taken the tick, so each tick
// reaches the runs live.
import { istEpochMs } from '@vyuha/core';
import type { IsoDate } from '@vyuha/core';
import type { FeedPort, FeedTick } from '@vyuha/engine';
import type { SyntheticInstrument } from '@vyuha/market';
import type pg from 'pg';
import { expect } from 'vitest';
import { ManualScheduler } from '../../src/trading/feeds/scheduler';
import { SimulatedMarket } from '../../src/trading/feeds/simulated-market';

export interface OpenMarket {
  readonly scheduler: ManualScheduler;
  readonly market: SimulatedMarket;
  /** A feed factory that tells when its consumer took a tick. */
  readonly feed: () => FeedPort;
  /**
   * Plays `date`'s session (default the opening day) to its close, or to `until`, once `consumers`
   * runs (default 1) take its ticks; `everyMinute` runs at each whole minute of the session.
   */
  play(everyMinute?: (time: number) => Promise<void>, session?: { date?: IsoDate; until?: number; consumers?: number }): Promise<void>;
}

/** The simulated market of `instruments` from `today` 09:14 on a manual clock. */
export async function openMarketSession(request: { readonly pool: pg.Pool; readonly today: IsoDate; readonly instruments: readonly SyntheticInstrument[] }): Promise<OpenMarket> {
  const scheduler = new ManualScheduler(istEpochMs(request.today, '09:14'));
  const market = new SimulatedMarket({ pool: request.pool, scheduler, log: () => undefined, instruments: request.instruments });
  await market.start();
  // The last tick each running consumer took: the clock moves on once every one has taken it.
  const running = new Set<{ taken: number }>();
  const feed = (): FeedPort => {
    const inner = market.feed();
    return {
      kind: inner.kind, subscribe: (ids) => inner.subscribe(ids), unsubscribe: (ids) => inner.unsubscribe(ids), stop: () => inner.stop(),
      run: async (sink) => {
        const consumer = { taken: 0 };
        running.add(consumer);
        try {
          return await inner.run({
            onTick: async (tick: FeedTick) => {
              await sink.onTick(tick);
              consumer.taken = tick.time;
            },
          });
        } finally {
          running.delete(consumer);
        }
      },
    };
  };
  const behind = (time: number): boolean => [...running].some((consumer) => consumer.taken < time);
  const play: OpenMarket['play'] = async (everyMinute, session = {}) => {
    const date = session.date ?? request.today;
    const open = istEpochMs(date, '09:15');
    const close = istEpochMs(date, '15:30');
    if (scheduler.now() < open - 60_000) await scheduler.advanceTo(open - 60_000);
    const waitUntil = Date.now() + 60_000;
    while (running.size < (session.consumers ?? 1) && Date.now() < waitUntil) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(running.size).toBeGreaterThanOrEqual(session.consumers ?? 1);
    for (let time = scheduler.now() + 1_000; time <= Math.min(close + 5_000, session.until ?? Number.POSITIVE_INFINITY); time += 1_000) {
      await scheduler.advanceTo(time);
      if (time < open || time >= close) continue;
      const deadline = Date.now() + 10_000;
      while (behind(time) && Date.now() < deadline) await new Promise((resolve) => setImmediate(resolve));
      if (time % 60_000 === 0) await everyMinute?.(time);
    }
  };
  return { scheduler, market, feed, play };
}
