// A broker feed's minutes stored as they complete (src/trading/live/recorded-feed.ts): every tick
// reaches the run unchanged, each 1-minute candle the ticks complete is written once (source
// 'broker'), and a minute still forming is not written.
import { istEpochMs, isoDate } from '@vyuha/core';
import type { FeedTick } from '@vyuha/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QueuedFeed } from '../../src/trading/feeds/queued-feed';
import { RecordedFeed } from '../../src/trading/live/recorded-feed';
import { freshDatabase, type TestDatabase } from '../helpers/db';

let db: TestDatabase;
let instrumentId: number;

beforeAll(async () => {
  db = await freshDatabase({ seeded: true });
  const { rows } = await db.pool.query<{ instrument_id: number }>(
    `INSERT INTO instruments (exchange, segment, kind, trading_symbol, name, lot_size, tick_size_paise) VALUES ('NSE', 'EQ', 'equity', 'INFY', 'INFOSYS', 1, 5) RETURNING instrument_id`);
  instrumentId = rows[0]!.instrument_id;
});

afterAll(async () => {
  await db?.close();
});

describe('RecordedFeed', () => {
  it('passes every tick on and stores each completed minute once, as the broker\'s', async () => {
    const inner = new QueuedFeed('live', () => new Set([instrumentId]));
    const feed = new RecordedFeed(inner, { pool: db.pool });
    expect(feed.subscribe([instrumentId]).ok).toBe(true);
    const at = istEpochMs(isoDate('2026-11-25'), '10:00');
    const prices = [150_000, 150_500, 149_800, 150_200, 150_300, 150_100];
    const ticks: FeedTick[] = prices.map((price, index) => ({ instrumentId, time: at + index * 20_000, price, volume: index + 1, synthetic: false }));
    const taken: FeedTick[] = [];
    const running = feed.run({ onTick: (tick) => void taken.push(tick) });
    for (const tick of ticks) inner.push(tick);
    inner.push(ticks[5]!);
    await new Promise((resolve) => setTimeout(resolve, 50));
    feed.stop();
    await running;
    await feed.flushed();
    expect(taken).toEqual([...ticks, ticks[5]]);
    const { rows } = await db.pool.query(
      `SELECT (extract(epoch FROM ts) * 1000)::bigint::text AS ms, open_paise, high_paise, low_paise, close_paise, volume::int AS volume, source::text
       FROM candles WHERE instrument_id = $1 ORDER BY ts`, [instrumentId]);
    // 10:00 (ticks 0-2) and 10:01 (ticks 3-5) : only 10:00 is complete (10:01's minute has not ended; no tick of 10:02 came).
    expect(rows).toEqual([{ ms: String(at), open_paise: 150_000, high_paise: 150_500, low_paise: 149_800, close_paise: 149_800, volume: 6, source: 'broker' }]);
  });
});
