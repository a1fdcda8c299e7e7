import type { CandleColumns } from '@vyuha/market';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aggregateCandles, barStart } from '../src/market-data/candle-aggregate';
import { readCandles, writeCandles } from '../src/market-data/candle-store';
import { freshDatabase, type TestDatabase } from './helpers/db';

const MINUTE = 60_000;
/** IST wall time on a date as epoch ms, computed through UTC (IST = UTC+05:30). */
function ist(date: string, time: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const [hh, mm] = time.split(':').map(Number) as [number, number];
  return Date.UTC(y, m - 1, d, hh, mm) - 330 * MINUTE;
}

/** One full session 09:15-15:29 of 1-minute candles; candle i opens at 10000+i paise. */
function session(date: string, options: { withOi?: boolean } = {}): CandleColumns {
  const count = 375;
  const start = ist(date, '09:15');
  const candles = {
    length: count,
    time: Float64Array.from({ length: count }, (_, i) => start + i * MINUTE),
    open: Int32Array.from({ length: count }, (_, i) => 10_000 + i),
    high: Int32Array.from({ length: count }, (_, i) => 10_050 + i),
    low: Int32Array.from({ length: count }, (_, i) => 9_950 + i),
    close: Int32Array.from({ length: count }, (_, i) => 10_001 + i),
    volume: Float64Array.from({ length: count }, () => 2),
  };
  return options.withOi ? { ...candles, oi: Float64Array.from({ length: count }, (_, i) => 1_000 + i) } : candles;
}

function concat(a: CandleColumns, b: CandleColumns): CandleColumns {
  const join = <T extends Float64Array | Int32Array>(x: T, y: T, make: (n: number) => T): T => {
    const out = make(x.length + y.length);
    out.set(x);
    out.set(y, x.length);
    return out;
  };
  const f = (n: number) => new Float64Array(n);
  const i = (n: number) => new Int32Array(n);
  return {
    length: a.length + b.length, time: join(a.time, b.time, f), open: join(a.open, b.open, i), high: join(a.high, b.high, i),
    low: join(a.low, b.low, i), close: join(a.close, b.close, i), volume: join(a.volume, b.volume, f),
  };
}

describe('barStart and aggregateCandles (alignment to the 09:15 IST session open)', () => {
  it('puts 120-minute bars at 09:15, 11:15, 13:15 and a partial 15:15-15:30 bar', () => {
    const bars = aggregateCandles(session('2024-01-05'), 120);
    expect([...bars.time]).toEqual([ist('2024-01-05', '09:15'), ist('2024-01-05', '11:15'), ist('2024-01-05', '13:15'), ist('2024-01-05', '15:15')]);
    // Bar k covers candles 120k .. 120k+119 (the last one 360..374).
    expect([...bars.open]).toEqual([10_000, 10_120, 10_240, 10_360]);
    expect([...bars.close]).toEqual([10_001 + 119, 10_001 + 239, 10_001 + 359, 10_001 + 374]);
    expect([...bars.high]).toEqual([10_050 + 119, 10_050 + 239, 10_050 + 359, 10_050 + 374]);
    expect([...bars.low]).toEqual([9_950, 9_950 + 120, 9_950 + 240, 9_950 + 360]);
    expect([...bars.volume]).toEqual([240, 240, 240, 30]);
  });

  it('gives 180-minute bars 09:15, 12:15, 15:15 and 60-minute bars ending with 15:15', () => {
    expect([...aggregateCandles(session('2024-01-05'), 180).time]).toEqual(['09:15', '12:15', '15:15'].map((t) => ist('2024-01-05', t)));
    const hourly = aggregateCandles(session('2024-01-05'), 60);
    expect([...hourly.time]).toEqual(['09:15', '10:15', '11:15', '12:15', '13:15', '14:15', '15:15'].map((t) => ist('2024-01-05', t)));
    expect(hourly.volume[6]).toBe(30);
  });

  it('gives one 1440 bar per trading day, stamped 09:15, with oi = last', () => {
    const twoDays = concat(session('2024-01-05'), session('2024-01-08'));
    const daily = aggregateCandles({ ...twoDays, oi: Float64Array.from({ length: 750 }, (_, i) => i) }, 1440);
    expect([...daily.time]).toEqual([ist('2024-01-05', '09:15'), ist('2024-01-08', '09:15')]);
    expect([...daily.volume]).toEqual([750, 750]);
    expect([...(daily.oi ?? [])]).toEqual([374, 749]);
  });

  it('keeps every interval of docs/PRODUCT.md section 9 aligned: each bar starts k*interval minutes after 09:15', () => {
    for (const interval of [1, 2, 3, 5, 10, 15, 30, 60, 120, 180]) {
      const bars = aggregateCandles(session('2024-01-05'), interval);
      expect(bars.length, `${interval}`).toBe(Math.ceil(375 / interval));
      bars.time.forEach((time) => expect((time - ist('2024-01-05', '09:15')) % (interval * MINUTE)).toBe(0));
      expect(bars.volume.reduce((a, b) => a + b, 0)).toBe(750);
    }
  });

  it('puts a pre-open minute (09:05) in a bar before the open and 15:29 in the last partial bar', () => {
    expect(barStart(ist('2024-01-05', '09:05'), 15)).toBe(ist('2024-01-05', '09:00'));
    expect(barStart(ist('2024-01-05', '15:29'), 30)).toBe(ist('2024-01-05', '15:15'));
    expect(barStart(ist('2024-01-05', '11:14'), 120)).toBe(ist('2024-01-05', '09:15'));
    expect(barStart(ist('2024-01-05', '11:15'), 120)).toBe(ist('2024-01-05', '11:15'));
  });
});

describe('candle store', () => {
  let db: TestDatabase;
  let instrumentId: number;
  beforeAll(async () => {
    db = await freshDatabase({ seeded: true });
    const { rows } = await db.pool.query<{ instrument_id: number }>(`SELECT instrument_id FROM instruments WHERE trading_symbol = 'NIFTY'`);
    instrumentId = rows[0]!.instrument_id;
  });
  afterAll(() => db.close());

  it('writes with COPY, reads back the same typed arrays, and a second write changes nothing', async () => {
    const candles = session('2024-01-05', { withOi: true });
    expect(await writeCandles(db.pool, { instrumentId, candles, source: 'import' })).toEqual({ inserted: 375, duplicates: 0 });
    expect(await writeCandles(db.pool, { instrumentId, candles, source: 'import' })).toEqual({ inserted: 0, duplicates: 375 });
    const back = await readCandles(db.pool, { instrumentId, from: ist('2024-01-05', '00:00'), to: ist('2024-01-06', '00:00') });
    expect(back).toEqual(candles);
    const { rows } = await db.pool.query(`SELECT count(*)::int AS n, min(source::text) AS source FROM candles WHERE instrument_id = $1`, [instrumentId]);
    expect(rows[0]).toEqual({ n: 375, source: 'import' });
  });

  it('reads a half-open range and aggregates on read', async () => {
    const part = await readCandles(db.pool, { instrumentId, from: ist('2024-01-05', '09:20'), to: ist('2024-01-05', '09:25') });
    expect([...part.time]).toEqual([0, 1, 2, 3, 4].map((i) => ist('2024-01-05', '09:20') + i * MINUTE));
    const bars = await readCandles(db.pool, { instrumentId, from: ist('2024-01-05', '00:00'), to: ist('2024-01-06', '00:00'), intervalMinutes: 120 });
    expect([...bars.volume]).toEqual([240, 240, 240, 30]);
    const empty = await readCandles(db.pool, { instrumentId, from: ist('2023-01-05', '00:00'), to: ist('2023-01-06', '00:00') });
    expect(empty.length).toBe(0);
    expect(empty.oi).toBeUndefined();
  });

  it('writes nothing when any row is refused (one transaction)', async () => {
    const day = session('2024-01-08');
    // A candle off the whole minute violates candles_whole_minute on the last row only.
    day.time[374] = (day.time[374] as number) + 30_000;
    await expect(writeCandles(db.pool, { instrumentId, candles: day, source: 'import' })).rejects.toMatchObject({ constraint: 'candles_whole_minute' });
    const after = await readCandles(db.pool, { instrumentId, from: ist('2024-01-08', '00:00'), to: ist('2024-01-09', '00:00') });
    expect(after.length).toBe(0);
  });

  it('reads back more rows than its first buffer holds (4,096) without losing the rows where it grows', async () => {
    const days = ['2024-02-05', '2024-02-06', '2024-02-07', '2024-02-08', '2024-02-09', '2024-02-12', '2024-02-13', '2024-02-14',
      '2024-02-15', '2024-02-16', '2024-02-19', '2024-02-20', '2024-02-21', '2024-02-22', '2024-02-23', '2024-02-26',
      '2024-02-27', '2024-02-28', '2024-02-29', '2024-03-01', '2024-03-04', '2024-03-05', '2024-03-06'];
    const candles = days.map((day) => session(day, { withOi: true })).reduce((all, day) => ({ ...concat(all, day), oi: Float64Array.of(...(all.oi ?? []), ...(day.oi ?? [])) }));
    expect(candles.length).toBeGreaterThan(2 * 4096);
    await writeCandles(db.pool, { instrumentId, candles, source: 'import' });
    const back = await readCandles(db.pool, { instrumentId, from: ist('2024-02-05', '00:00'), to: ist('2024-03-07', '00:00') });
    expect(back.length).toBe(candles.length);
    expect(back).toEqual(candles);
  });

  it('refuses a non-integer range bound before building SQL', async () => {
    await expect(readCandles(db.pool, { instrumentId, from: 1.5, to: 2 })).rejects.toThrow('from must be an integer');
  });
});
