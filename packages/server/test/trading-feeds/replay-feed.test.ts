// Replay plays stored candles as ticks through the one tick path: at speed 0 a stored week comes
// back through the candle builder as exactly the bars the backtest loads; at speed 60 each tick
// arrives at its market time / 60 on the scheduler (nights skipped); pause freezes market time,
// resume continues from it, stop ends the run; bad requests are refused naming the field.
import { isoDate, istEpochMs } from '@vyuha/core';
import { CandleBuilder } from '@vyuha/engine';
import type { BuiltCandle, FeedTick } from '@vyuha/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRunCandles } from '../../src/backtest/stored-candles';
import { ReplayFeed } from '../../src/trading/feeds/replay-feed';
import type { ReplayRequest } from '../../src/trading/feeds/replay-request';
import { ManualScheduler } from '../../src/trading/feeds/scheduler';
import { freshDatabase, type TestDatabase } from '../helpers/db';
import { indexId, storeSyntheticHistory } from './feed-test-support';

const FROM = isoDate('2024-06-03');
const TO = isoDate('2024-06-07');
const START = Date.UTC(2026, 10, 25, 4, 0);

let db: TestDatabase;
let nifty: number;
let bank: number;

beforeAll(async () => {
  db = await freshDatabase({ seeded: true });
  await storeSyntheticHistory(db.pool, { from: FROM, to: TO, instruments: ['NIFTY 50', 'NIFTY BANK'] });
  nifty = await indexId(db.pool, 'NIFTY 50');
  bank = await indexId(db.pool, 'NIFTY BANK');
});
afterAll(() => db?.close());

async function replay(request: Partial<ReplayRequest>, scheduler = new ManualScheduler(START)): Promise<ReplayFeed> {
  const loaded = await ReplayFeed.load({ pool: db.pool, scheduler, request: { instrumentIds: [nifty], from: FROM, to: TO, intervalMinutes: 1, speed: 0, ...request } });
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.error));
  return loaded.value;
}

function plain(candles: readonly BuiltCandle[]): { time: number; open: number; high: number; low: number; close: number; volume: number }[] {
  return candles.map(({ time, open, high, low, close, volume }) => ({ time, open, high, low, close, volume }));
}

describe('replay of stored candles', () => {
  it.each([1, 5, 15, 120, 1440])('at speed 0 gives back, through the candle builder at %i minutes, exactly the bars the backtest loads', async (interval) => {
    const feed = await replay({ instrumentIds: [nifty, bank], intervalMinutes: interval });
    const builder = new CandleBuilder({ intervalMinutes: interval, exchange: 'NSE' });
    const built = new Map<number, BuiltCandle[]>([[nifty, []], [bank, []]]);
    const ticks: FeedTick[] = [];
    const end = await feed.run({
      onTick(tick) {
        ticks.push(tick);
        const closed = builder.push(tick);
        if (closed) built.get(closed.instrumentId)!.push(closed);
      },
    });
    for (const candle of builder.closeDue(Number.MAX_SAFE_INTEGER)) built.get(candle.instrumentId)!.push(candle);
    expect(end).toEqual({ reason: 'finished' });
    expect(builder.unused).toEqual({ late: 0, outsideSession: 0 });
    for (const id of [nifty, bank]) {
      const stored = await loadRunCandles({ pool: db.pool, instrumentId: id, dateRange: { from: FROM, to: TO }, intervalMinutes: interval });
      const expected = Array.from({ length: stored.length }, (_, row) => ({
        time: stored.time[row]!, open: stored.open[row]!, high: stored.high[row]!, low: stored.low[row]!, close: stored.close[row]!, volume: stored.volume[row]!,
      }));
      if (interval === 1) expect(expected).toHaveLength(5 * 375);
      if (interval === 1440) expect(expected).toHaveLength(5);
      expect(plain(built.get(id)!)).toEqual(expected);
    }
    // Two instruments interleave by time; every tick is labelled synthetic (the candles are).
    expect(ticks.every((tick, index) => index === 0 || tick.time >= ticks[index - 1]!.time)).toBe(true);
    expect(new Set(ticks.map((tick) => tick.instrumentId))).toEqual(new Set([nifty, bank]));
    expect(ticks.every((tick) => tick.synthetic)).toBe(true);
    expect(feed.progress).toEqual({ delivered: ticks.length, total: ticks.length });
  });

  it('at speed 0 waits for the consumer: the next tick comes only after the handler settles', async () => {
    const feed = await replay({ from: FROM, to: FROM });
    let inHandler = 0;
    let overlapped = false;
    let count = 0;
    await feed.run({
      async onTick() {
        inHandler += 1;
        if (inHandler > 1) overlapped = true;
        if (count++ < 5) await new Promise((resolve) => setTimeout(resolve, 5));
        else await Promise.resolve();
        inHandler -= 1;
      },
    });
    expect(overlapped).toBe(false);
    expect(count).toBe(375 * 4);
  });

  it('at speed 60 delivers each tick at its market time / 60 on the scheduler, and starts the next session at once', async () => {
    const scheduler = new ManualScheduler(START);
    const feed = await replay({ speed: 60, from: FROM, to: isoDate('2024-06-04'), intervalMinutes: 5 }, scheduler);
    const seen: { market: number; wall: number }[] = [];
    const running = feed.run({ onTick: (tick) => { seen.push({ market: tick.time, wall: scheduler.now() }); } });
    const open = istEpochMs(FROM, '09:15');
    await scheduler.advanceBy(0);
    // The first bar's ticks at 09:15:00, 09:16:15, 09:17:30, 09:18:45 are due 0, 1.25, 2.5 and 3.75 s after the start.
    expect(seen.map((tick) => tick.market)).toEqual([open]);
    await scheduler.advanceBy(1_249);
    expect(seen).toHaveLength(1);
    await scheduler.advanceBy(1);
    expect(seen.map((tick) => tick.market - open)).toEqual([0, 75_000]);
    await scheduler.advanceBy(2_500);
    expect(seen.map((tick) => tick.wall - START)).toEqual([0, 1_250, 2_500, 3_750]);
    expect(feed.marketTime()).toBe(open + 3_750 * 60);
    // A session of 375 minutes takes 375 s at 60x; the next day's 09:15 follows the last tick at once.
    await scheduler.advanceBy(372_000);
    const nextOpen = istEpochMs(isoDate('2024-06-04'), '09:15');
    const firstOfNextDay = seen.find((tick) => tick.market === nextOpen)!;
    const lastOfFirstDay = seen.filter((tick) => tick.market < nextOpen).at(-1)!;
    expect(lastOfFirstDay.market).toBe(istEpochMs(FROM, '15:28:45'));
    expect(firstOfNextDay.wall).toBe(lastOfFirstDay.wall);
    const late = seen.filter((tick) => (tick.market < nextOpen
      ? tick.wall - START !== (tick.market - open) / 60
      : tick.wall - firstOfNextDay.wall !== (tick.market - nextOpen) / 60));
    expect(late).toEqual([]);
    // 2 s of wall after the session began at 60x is 2 minutes of market: the 09:16:15 tick, not yet 09:17:30.
    expect(seen.at(-1)!.market).toBe(istEpochMs(isoDate('2024-06-04'), '09:16:15'));
    feed.stop();
    expect(await running).toEqual({ reason: 'stopped' });
  });

  it('pauses (market time frozen, no ticks), resumes from where it paused, and stops', async () => {
    const scheduler = new ManualScheduler(START);
    const feed = await replay({ speed: 600, intervalMinutes: 1 }, scheduler);
    const seen: number[] = [];
    const running = feed.run({ onTick: (tick) => { seen.push(tick.time); } });
    const open = istEpochMs(FROM, '09:15');
    // At 600x a minute bar takes 100 ms: ticks every 25 ms.
    await scheduler.advanceBy(110);
    expect(seen).toEqual([0, 15, 30, 45, 60].map((seconds) => open + seconds * 1_000));
    await scheduler.advanceBy(10);
    feed.pause();
    expect(feed.state).toBe('paused');
    expect(feed.marketTime()).toBe(open + 120 * 600);
    await scheduler.advanceBy(60_000);
    expect(seen).toHaveLength(5);
    expect(feed.marketTime()).toBe(open + 72_000);
    feed.resume();
    // The market clock stood at 09:16:12; the 09:16:15 tick is 3 s of market = 5 ms of wall away.
    await scheduler.advanceBy(4);
    expect(seen).toHaveLength(5);
    await scheduler.advanceBy(1);
    expect(seen.at(-1)).toBe(open + 75_000);
    feed.stop();
    expect(await running).toEqual({ reason: 'stopped' });
    await scheduler.advanceBy(60_000);
    expect(seen).toHaveLength(6);
    expect(feed.state).toBe('ended');
  });

  it('delivers only subscribed instruments and refuses to subscribe one it does not play', async () => {
    const feed = await replay({ instrumentIds: [nifty, bank], from: FROM, to: FROM });
    feed.unsubscribe([bank]);
    expect(feed.subscribe([999_999])).toEqual({ ok: false, error: [{ field: 'instrumentIds[0]', message: 'instrument 999999 is not served by this feed' }] });
    const ids = new Set<number>();
    await feed.run({ onTick: (tick) => { ids.add(tick.instrumentId); } });
    expect(ids).toEqual(new Set([nifty]));
  });

  it('ends as failed, saying so, when the consumer throws', async () => {
    const feed = await replay({ from: FROM, to: FROM });
    let count = 0;
    const end = await feed.run({ onTick: () => { if (++count === 3) throw new Error('disk full'); } });
    expect(end).toEqual({ reason: 'failed', message: 'the consumer failed at tick 3: disk full' });
  });

  it('refuses a bad request naming each field: speed 7, from after to, an unknown instrument, interval 7.5', async () => {
    const load = (request: Partial<ReplayRequest>) => ReplayFeed.load({
      pool: db.pool, scheduler: new ManualScheduler(START), request: { instrumentIds: [nifty], from: FROM, to: TO, intervalMinutes: 5, speed: 60, ...request },
    });
    expect(await load({ speed: 7 })).toEqual({ ok: false, error: [{ field: 'speed', message: 'must be one of 0, 1, 10, 60, 600 (0 = as fast as possible), got 7' }] });
    expect(await load({ from: '2024-06-08', to: '2024-06-07' })).toEqual({ ok: false, error: [{ field: 'from', message: '2024-06-08 is after to (2024-06-07)' }] });
    expect(await load({ instrumentIds: [nifty, 987_654] })).toEqual({ ok: false, error: [{ field: 'instrumentIds[1]', message: 'no instrument 987654' }] });
    expect(await load({ intervalMinutes: 7.5, to: '2024-02-30' })).toEqual({
      ok: false,
      error: [
        { field: 'to', message: 'must be a date as YYYY-MM-DD, got "2024-02-30"' },
        { field: 'intervalMinutes', message: 'must be a whole number of minutes from 1 to 1440, got 7.5' },
      ],
    });
    expect(await load({ instrumentIds: [] })).toMatchObject({ ok: false, error: [{ field: 'instrumentIds' }] });
    expect(await load({ from: '2024-06-08', to: '2024-06-09' })).toEqual({ ok: false, error: [{ field: 'instrumentIds[0]', message: 'NIFTY has no stored candles from 2024-06-08 to 2024-06-09' }] });
  });
});
