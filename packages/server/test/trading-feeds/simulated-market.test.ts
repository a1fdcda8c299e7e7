// The simulated market continues the stored synthetic history in real time on a manual clock:
// on a trading day at 10:00 IST it stores the minutes already past, then ticks every second,
// labelled synthetic; the day opens at the last stored close (no gap) and its minutes follow
// without a hole; the candle builder fed its ticks gives back the stored candles; the last price
// moves with the ticks; a restart mid-session makes the same ticks; and on a holiday, a Sunday
// or after 15:30 it makes nothing and says when the next session opens.
import { isoDate, istEpochMs } from '@vyuha/core';
import type { IsoDate } from '@vyuha/core';
import { CandleBuilder } from '@vyuha/engine';
import type { BuiltCandle, FeedTick } from '@vyuha/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCandles } from '../../src/market-data/candle-store';
import { loadDemoHistory, recordContinuedSession } from '../../src/market-data/demo-history';
import { ManualScheduler } from '../../src/trading/feeds/scheduler';
import { SimulatedMarket } from '../../src/trading/feeds/simulated-market';
import type { SimulatedMarketStatus } from '../../src/trading/feeds/simulated-market';
import { freshDatabase, type TestDatabase } from '../helpers/db';
import { indexId, storeSyntheticHistory } from './feed-test-support';

/** Wednesday; Tuesday 2026-11-24 is an NSE holiday (Guru Nanak Jayanti), so the last session before it is Monday 2026-11-23. */
const TODAY = isoDate('2026-11-25');
const LAST_SESSION = isoDate('2026-11-23');
const INSTRUMENTS = ['NIFTY 50', 'NIFTY BANK', 'INDIA VIX'] as const;

let db: TestDatabase;
let nifty: number;
let bank: number;
const logs: string[] = [];

beforeAll(async () => {
  db = await freshDatabase({ seeded: true });
  await storeSyntheticHistory(db.pool, { from: isoDate('2026-11-16'), to: LAST_SESSION, instruments: INSTRUMENTS, seed: 'vyuha-demo-world' });
  nifty = await indexId(db.pool, 'NIFTY 50');
  bank = await indexId(db.pool, 'NIFTY BANK');
});
afterAll(() => db?.close());

function market(scheduler: ManualScheduler): SimulatedMarket {
  return new SimulatedMarket({ pool: db.pool, scheduler, log: (line) => logs.push(line), instruments: INSTRUMENTS });
}

async function dayCandles(id: number, date: IsoDate) {
  return readCandles(db.pool, { instrumentId: id, from: istEpochMs(date, '00:00'), to: istEpochMs(date, '23:59') });
}

async function candleRows(date: IsoDate): Promise<string> {
  const { rows } = await db.pool.query<{ h: string; n: number }>(
    `SELECT count(*)::int AS n, md5(string_agg(instrument_id || ts::text || open_paise || high_paise || low_paise || close_paise || source, ',' ORDER BY instrument_id, ts)) AS h
     FROM candles WHERE ts >= $1::date AND ts < $1::date + 1`, [date]);
  return `${rows[0]!.n}:${rows[0]!.h}`;
}

/** Ticks of a subscribed feed while the clock moves to `until`. */
async function collect(market: SimulatedMarket, scheduler: ManualScheduler, request: { ids: number[]; until: number }): Promise<FeedTick[]> {
  const { ids, until } = request;
  const ticks: FeedTick[] = [];
  const feed = market.feed();
  expect(feed.subscribe(ids)).toEqual({ ok: true, value: undefined });
  const running = feed.run({ onTick: (tick) => { ticks.push(tick); } });
  await scheduler.advanceTo(until);
  feed.stop();
  expect(await running).toEqual({ reason: 'stopped' });
  return ticks;
}

describe('the simulated market', () => {
  let firstRun: FeedTick[] = [];

  it('on a trading day at 10:00 IST stores the minutes past, ticks every second labelled synthetic, and continues the last stored close without a gap', async () => {
    const scheduler = new ManualScheduler(istEpochMs(TODAY, '10:00'));
    const sim = market(scheduler);
    await sim.start();
    expect(sim.status).toMatchObject({ state: 'open', date: TODAY, closesAt: istEpochMs(TODAY, '15:30'), instruments: INSTRUMENTS, withoutHistory: [] });
    firstRun = await collect(sim, scheduler, { ids: [nifty, bank], until: istEpochMs(TODAY, '10:02:30') });
    await sim.flushed();

    // 10:00:01 .. 10:02:30 (the start's own instant has passed), one tick a second for each of the two subscribed indices.
    expect(firstRun).toHaveLength(150 * 2);
    expect(firstRun.filter((tick) => tick.instrumentId === nifty).map((tick) => tick.time)).toEqual(
      Array.from({ length: 150 }, (_, second) => istEpochMs(TODAY, '10:00:01') + second * 1_000));
    expect(firstRun.every((tick) => tick.synthetic && tick.volume === 0 && tick.price % 5 === 0)).toBe(true);

    for (const id of [nifty, bank, await indexId(db.pool, 'INDIA VIX')]) {
      const today = await dayCandles(id, TODAY);
      // 09:15 .. 10:01 stored (47 minutes); 10:02 is still running.
      expect(today.length).toBe(47);
      expect([...today.time]).toEqual(Array.from({ length: 47 }, (_, minute) => istEpochMs(TODAY, '09:15') + minute * 60_000));
      const before = await dayCandles(id, LAST_SESSION);
      expect(today.open[0]).toBe(before.close[before.length - 1]);
      for (let minute = 1; minute < today.length; minute += 1) expect(today.open[minute]).toBe(today.close[minute - 1]);
    }
    const { rows } = await db.pool.query<{ source: string; n: number }>(`SELECT source::text, count(*)::int AS n FROM candles WHERE ts >= $1::date GROUP BY 1`, [TODAY]);
    expect(rows).toEqual([{ source: 'synthetic', n: 47 * 3 }]);

    // The builder fed the ticks gives back the stored 10:00 and 10:01 candles exactly.
    const builder = new CandleBuilder({ intervalMinutes: 1, exchange: 'NSE' });
    const built: BuiltCandle[] = [];
    for (const tick of firstRun) {
      const closed = builder.push(tick);
      if (closed) built.push(closed);
    }
    built.push(...builder.closeDue(istEpochMs(TODAY, '10:02')));
    const stored = await dayCandles(nifty, TODAY);
    // 10:00 lacks its 10:00:00 tick (the open), so only 10:01 is whole: the builder gives it back exactly.
    const nifty1001 = built.find((candle) => candle.instrumentId === nifty && candle.time === istEpochMs(TODAY, '10:01'))!;
    expect(nifty1001).toEqual({ instrumentId: nifty, time: stored.time[46], open: stored.open[46], high: stored.high[46], low: stored.low[46], close: stored.close[46], volume: 0, synthetic: true, ticks: 60 });
    const nifty1000 = built.find((candle) => candle.instrumentId === nifty && candle.time === istEpochMs(TODAY, '10:00'))!;
    expect([nifty1000.close, nifty1000.ticks]).toEqual([stored.close[45], 59]);

    // The last price is the last tick, as of its second.
    const last = firstRun.filter((tick) => tick.instrumentId === nifty).at(-1)!;
    expect(last.time).toBe(istEpochMs(TODAY, '10:02:30'));
    const price = await db.pool.query(`SELECT price_paise::int AS price, source, updated_at FROM instrument_last_prices WHERE instrument_id = $1`, [nifty]);
    expect(price.rows[0]).toMatchObject({ price: last.price, source: 'recorded' });
    expect((price.rows[0] as { updated_at: Date }).updated_at.getTime()).toBe(istEpochMs(TODAY, '10:02:30'));
    await sim.stop();
    expect(sim.status).toEqual({ state: 'stopped' });
  });

  it('makes the same ticks and the same candles after a restart mid-session', async () => {
    const storedBefore = await candleRows(TODAY);
    const scheduler = new ManualScheduler(istEpochMs(TODAY, '10:01'));
    const sim = market(scheduler);
    await sim.start();
    await sim.flushed();
    expect(await candleRows(TODAY)).toBe(storedBefore);
    const again = await collect(sim, scheduler, { ids: [nifty, bank], until: istEpochMs(TODAY, '10:02:30') });
    expect(again).toHaveLength(90 * 2);
    expect(again).toEqual(firstRun.filter((tick) => tick.time > istEpochMs(TODAY, '10:01')));
    await sim.stop();
  });

  it('another seed makes another day', async () => {
    const scheduler = new ManualScheduler(istEpochMs(TODAY, '10:01'));
    const sim = new SimulatedMarket({ pool: db.pool, scheduler, log: () => undefined, instruments: ['NIFTY 50'], seed: 'another world' });
    const feed = sim.feed();
    await sim.start();
    feed.subscribe([nifty]);
    const ticks: FeedTick[] = [];
    const running = feed.run({ onTick: (tick) => { ticks.push(tick); } });
    await scheduler.advanceTo(istEpochMs(TODAY, '10:01:10'));
    await sim.stop();
    expect(await running).toEqual({ reason: 'stopped' });
    expect(ticks).toHaveLength(10);
    expect(ticks.map((tick) => tick.price)).not.toEqual(firstRun.filter((tick) => tick.instrumentId === nifty && tick.time > istEpochMs(TODAY, '10:01')).slice(0, 10).map((tick) => tick.price));
  });

  it.each([
    { when: 'on a holiday (2026-11-24)', start: istEpochMs(isoDate('2026-11-24'), '10:00'), nextOpen: istEpochMs(TODAY, '09:15'), text: '2026-11-25 09:15:00' },
    { when: 'on a Sunday (2026-11-22)', start: istEpochMs(isoDate('2026-11-22'), '10:00'), nextOpen: istEpochMs(LAST_SESSION, '09:15'), text: '2026-11-23 09:15:00' },
    { when: 'after 15:30', start: istEpochMs(TODAY, '15:30'), nextOpen: istEpochMs(isoDate('2026-11-26'), '09:15'), text: '2026-11-26 09:15:00' },
    { when: 'before 09:15', start: istEpochMs(isoDate('2026-11-26'), '08:00'), nextOpen: istEpochMs(isoDate('2026-11-26'), '09:15'), text: '2026-11-26 09:15:00' },
  ])('makes nothing $when and says when the next session opens', async ({ start, nextOpen, text }) => {
    const scheduler = new ManualScheduler(start);
    const sim = market(scheduler);
    const before = await db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM candles');
    await sim.start();
    expect(sim.status).toEqual<SimulatedMarketStatus>({ state: 'closed', nextOpen, message: `NSE is closed: the simulated market opens next at ${text} IST` });
    const ticks = await collect(sim, scheduler, { ids: [nifty], until: Math.min(nextOpen - 1, start + 3_600_000) });
    await sim.flushed();
    expect(ticks).toEqual([]);
    expect((await db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM candles')).rows[0]!.n).toBe(before.rows[0]!.n);
    await sim.stop();
  });

  it('stores the session\'s last minute at 15:30, then closes, names the next session and moves the demo history marker on', async () => {
    // The demo world's history marker says it reaches Monday, the session before today.
    await db.pool.query(`INSERT INTO app_meta (key, value) VALUES ('demo_history', $1)`, [JSON.stringify({ seed: 'vyuha-demo-world', month: '2026-11', lastDate: LAST_SESSION })]);
    const scheduler = new ManualScheduler(istEpochMs(TODAY, '15:29:57'));
    const sim = market(scheduler);
    await sim.start();
    const ticks = await collect(sim, scheduler, { ids: [nifty], until: istEpochMs(TODAY, '15:31') });
    await sim.flushed();
    expect(ticks.map((tick) => tick.time)).toEqual([istEpochMs(TODAY, '15:29:58'), istEpochMs(TODAY, '15:29:59')]);
    const today = await dayCandles(nifty, TODAY);
    expect(today.time[today.length - 1]).toBe(istEpochMs(TODAY, '15:29'));
    expect(today.close[today.length - 1]).toBe(ticks.at(-1)!.price);
    expect(sim.status).toMatchObject({ state: 'closed', nextOpen: istEpochMs(isoDate('2026-11-26'), '09:15') });
    await sim.stop();
    expect(today.length).toBe(375);
    const marker = await db.pool.query(`SELECT value FROM app_meta WHERE key = 'demo_history'`);
    expect(marker.rows[0]).toEqual({ value: { seed: 'vyuha-demo-world', month: '2026-11', lastDate: TODAY } });
    // So the next start's history load leaves the session the market made as it is.
    const stored = await candleRows(TODAY);
    expect(await loadDemoHistory({ pool: db.pool, through: TODAY, log: () => undefined })).toEqual({ monthsStored: 0, candlesStored: 0, through: TODAY });
    expect(await candleRows(TODAY)).toBe(stored);
  });

  it('opens the next session from the close just stored, even while that last write is slow', async () => {
    const thursday = isoDate('2026-11-26');
    // Today's last minute is stored again by this market at 15:30; a lock holds that write back.
    await db.pool.query('DELETE FROM candles WHERE ts = $1', [new Date(istEpochMs(TODAY, '15:29'))]);
    const scheduler = new ManualScheduler(istEpochMs(TODAY, '15:29:57'));
    const sim = market(scheduler);
    await sim.start();
    await sim.flushed();
    const locker = await db.pool.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE candles IN SHARE ROW EXCLUSIVE MODE');
      await scheduler.advanceTo(istEpochMs(TODAY, '15:31'));
      const ticks: FeedTick[] = [];
      const feed = sim.feed();
      expect(feed.subscribe([nifty])).toEqual({ ok: true, value: undefined });
      const running = feed.run({ onTick: (tick) => { ticks.push(tick); } });
      // The lock goes while the market is already waking for Thursday's open.
      setTimeout(() => void locker.query('COMMIT'), 300);
      await scheduler.advanceTo(istEpochMs(thursday, '09:15'));
      const deadline = Date.now() + 10_000;
      while (sim.status.state !== 'open' && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      await scheduler.advanceTo(istEpochMs(thursday, '09:15:02'));
      feed.stop();
      await running;
      await sim.flushed();
      const today = await dayCandles(nifty, TODAY);
      expect(today.time[today.length - 1]).toBe(istEpochMs(TODAY, '15:29'));
      // The two last closes differ, so opening from the one before the last would show.
      expect(today.close[today.length - 1]).not.toBe(today.close[today.length - 2]);
      expect(ticks[0]).toMatchObject({ time: istEpochMs(thursday, '09:15'), price: today.close[today.length - 1] });
    } finally {
      locker.release();
      await sim.stop();
    }
  });

  it('moves the history marker on only from the session just before (a gap is never recorded as stored)', async () => {
    await db.pool.query(`UPDATE app_meta SET value = $1 WHERE key = 'demo_history'`, [JSON.stringify({ seed: 'vyuha-demo-world', month: '2026-11', lastDate: '2026-11-20' })]);
    expect(await recordContinuedSession(db.pool, TODAY)).toBe(false);
    await db.pool.query(`UPDATE app_meta SET value = $1 WHERE key = 'demo_history'`, [JSON.stringify({ seed: 'another', month: '2026-11', lastDate: LAST_SESSION })]);
    expect(await recordContinuedSession(db.pool, TODAY)).toBe(false);
    expect((await db.pool.query(`SELECT value->>'lastDate' AS d FROM app_meta WHERE key = 'demo_history'`)).rows).toEqual([{ d: LAST_SESSION }]);
  });

  it('catches up, whole, the sessions the history lacks, exactly as they would have run live, and moves the marker on', async () => {
    const thursday = isoDate('2026-11-26');
    const friday = isoDate('2026-11-27');
    // Live on Thursday from 09:15 to 09:17, then the server is down until Friday evening.
    const live = new ManualScheduler(istEpochMs(thursday, '09:15'));
    const liveMarket = market(live);
    await liveMarket.start();
    const ticks = await collect(liveMarket, live, { ids: [nifty], until: istEpochMs(thursday, '09:17') });
    await liveMarket.stop();
    expect((await dayCandles(nifty, thursday)).length).toBe(2);
    await db.pool.query(`UPDATE app_meta SET value = $1 WHERE key = 'demo_history'`, [JSON.stringify({ seed: 'vyuha-demo-world', month: '2026-11', lastDate: TODAY })]);

    const evening = market(new ManualScheduler(istEpochMs(friday, '20:00')));
    expect(await evening.catchUp()).toEqual([thursday, friday]);
    const wednesday = await dayCandles(nifty, TODAY);
    const thursdayCandles = await dayCandles(nifty, thursday);
    const fridayCandles = await dayCandles(nifty, friday);
    expect([thursdayCandles.length, fridayCandles.length]).toEqual([375, 375]);
    expect(thursdayCandles.open[0]).toBe(wednesday.close[374]);
    expect(fridayCandles.open[0]).toBe(thursdayCandles.close[374]);
    // The 09:16 minute seen live is the one stored.
    const builder = new CandleBuilder({ intervalMinutes: 1, exchange: 'NSE' });
    const built = ticks.map((tick) => builder.push(tick)).filter((candle) => candle !== undefined);
    expect(built.at(-1)).toMatchObject({ time: istEpochMs(thursday, '09:16'), open: thursdayCandles.open[1], high: thursdayCandles.high[1], low: thursdayCandles.low[1], close: thursdayCandles.close[1] });
    expect((await db.pool.query(`SELECT value->>'lastDate' AS d FROM app_meta WHERE key = 'demo_history'`)).rows).toEqual([{ d: friday }]);
    expect(await evening.catchUp()).toEqual([]);
    // Eleven sessions behind: left to the history loader.
    const later = market(new ManualScheduler(istEpochMs(isoDate('2026-12-14'), '20:00')));
    expect(await later.catchUp()).toEqual([]);
    expect(logs.at(-1)).toBe('simulated market: the demo history is 11 sessions behind; the history loader fills them');
  });

  it('without history to continue it waits, looking again each minute, and opens once the history is there', async () => {
    const scheduler = new ManualScheduler(istEpochMs(TODAY, '11:00'));
    const sim = new SimulatedMarket({ pool: db.pool, scheduler, log: () => undefined, instruments: ['NIFTY MID SELECT'] });
    await sim.start();
    expect(sim.status).toEqual({
      state: 'closed', nextOpen: istEpochMs(isoDate('2026-11-26'), '09:15'),
      message: 'no demo index has stored history to continue yet: the simulated market looks again in a minute (the next session opens at 2026-11-26 09:15:00 IST)',
    });
    await storeSyntheticHistory(db.pool, { from: LAST_SESSION, to: LAST_SESSION, instruments: ['NIFTY MID SELECT'] });
    await scheduler.advanceBy(59_000);
    expect(sim.status.state).toBe('closed');
    await scheduler.advanceBy(1_000);
    // The wake-up reads the database: wait for that read, not for time.
    for (let polls = 0; polls < 500 && sim.status.state !== 'open'; polls += 1) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(sim.status).toMatchObject({ state: 'open', date: TODAY, instruments: ['NIFTY MID SELECT'] });
    await sim.stop();
  });

  it('refuses to subscribe an instrument it does not make, naming it', async () => {
    const sim = market(new ManualScheduler(istEpochMs(TODAY, '08:00')));
    await sim.start();
    expect(sim.feed().subscribe([nifty, 424_242])).toEqual({ ok: false, error: [{ field: 'instrumentIds[1]', message: 'instrument 424242 is not served by this feed' }] });
    await sim.stop();
  });
});
