import { istEpochMs, isoDate, type IsoDate } from '@vyuha/core';
import { barSessionProblem, sessionOf, tradingDaysBetween } from '@vyuha/market';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastFinishedSession, loadDemoHistory } from '../src/market-data/demo-history';
import { freshDatabase, type TestDatabase } from './helpers/db';

let db: TestDatabase;
beforeAll(async () => {
  db = await freshDatabase({ seeded: true });
});
afterAll(() => db.close());

const quiet = () => undefined;

/** Bars the calendar says the six indices should have from 2020-01-01 through `through`. */
function expectedBars(through: string): number {
  const minutes = tradingDaysBetween('NSE', isoDate('2020-01-01'), isoDate(through))
    .reduce((sum, date) => sum + (sessionOf('NSE', date)!.close - sessionOf('NSE', date)!.open), 0);
  return minutes * 6;
}

async function candleCount(): Promise<number> {
  return (await db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM candles')).rows[0]!.n;
}

async function januaryFingerprint(): Promise<string> {
  const { rows } = await db.pool.query<{ h: string }>(
    `SELECT md5(string_agg(instrument_id || ts::text || open_paise || high_paise || low_paise || close_paise, ',' ORDER BY instrument_id, ts)) AS h
     FROM candles WHERE ts < '2020-02-01 00:00:00+05:30'`);
  return rows[0]!.h;
}

describe('the demo world synthetic market history', () => {
  it('stores every session minute of the six indices, on the tick, labelled synthetic, through month-end anchors', async () => {
    const result = await loadDemoHistory({ pool: db.pool, through: isoDate('2020-02-10'), log: quiet });
    expect(result).toMatchObject({ monthsStored: 2, through: '2020-02-10' });
    expect(await candleCount()).toBe(expectedBars('2020-02-10'));
    expect(result.candlesStored).toBe(expectedBars('2020-02-10'));
    const checks = await db.pool.query(
      `SELECT count(*) FILTER (WHERE source <> 'synthetic')::int AS not_synthetic,
              count(*) FILTER (WHERE open_paise % 5 <> 0 OR high_paise % 5 <> 0 OR low_paise % 5 <> 0 OR close_paise % 5 <> 0)::int AS off_tick,
              count(*) FILTER (WHERE low_paise > least(open_paise, close_paise) OR high_paise < greatest(open_paise, close_paise))::int AS inconsistent
       FROM candles`);
    expect(checks.rows[0]).toEqual({ not_synthetic: 0, off_tick: 0, inconsistent: 0 });
    // NIFTY 50 closed January 2020 at 11,962.10 (data/market/index-monthly-closes.csv).
    const lastJanuaryClose = await db.pool.query(
      `SELECT c.close_paise FROM candles c JOIN instruments i USING (instrument_id)
       WHERE i.name = 'NIFTY 50' AND c.ts < '2020-02-01 00:00:00+05:30' ORDER BY c.ts DESC LIMIT 1`);
    expect(lastJanuaryClose.rows[0]).toEqual({ close_paise: 1_196_210 });
  });

  it('stores only bars the importer would accept: inside an NSE session (special ones included), none in the future', async () => {
    const { rows } = await db.pool.query<{ ms: string }>(`SELECT DISTINCT (extract(epoch FROM ts) * 1000)::bigint::text AS ms FROM candles ORDER BY 1`);
    const rules = { exchange: 'NSE', now: Date.now(), specialSessions: true } as const;
    const refused = rows.map((row) => Number(row.ms)).filter((ms) => barSessionProblem(rules, ms) !== undefined);
    expect(rows.length).toBeGreaterThan(10_000);
    expect(refused.map((ms) => barSessionProblem(rules, ms))).toEqual([]);
  });

  it('stores nothing twice: a second run with the same end adds nothing', async () => {
    const before = await candleCount();
    const again = await loadDemoHistory({ pool: db.pool, through: isoDate('2020-02-10'), log: quiet });
    expect(again).toMatchObject({ monthsStored: 0, candlesStored: 0 });
    expect(await candleCount()).toBe(before);
  });

  it('extends a partly stored month whole, keeping earlier months and a trader\'s imported candles', async () => {
    const january = await januaryFingerprint();
    // A real candle a trader imported for a minute the history has not reached yet.
    const importedAt = istEpochMs(isoDate('2020-02-14'), '10:00');
    await db.pool.query(
      `INSERT INTO candles (ts, volume, oi, instrument_id, open_paise, high_paise, low_paise, close_paise, source)
       SELECT to_timestamp($1 / 1000.0), 7, NULL, instrument_id, 1_200_000, 1_200_500, 1_199_500, 1_200_100, 'import'
       FROM instruments WHERE name = 'NIFTY 50'`, [importedAt]);
    const result = await loadDemoHistory({ pool: db.pool, through: isoDate('2020-02-20'), log: quiet });
    expect(result).toMatchObject({ monthsStored: 1, through: '2020-02-20' });
    expect(await candleCount()).toBe(expectedBars('2020-02-20'));
    expect(await januaryFingerprint()).toBe(january);
    const kept = await db.pool.query(`SELECT source, volume::int FROM candles WHERE ts = to_timestamp($1 / 1000.0) AND volume = 7`, [importedAt]);
    expect(kept.rows).toEqual([{ source: 'import', volume: 7 }]);
  });

  it('stops between months when asked to, leaving only whole months', async () => {
    const other = await freshDatabase({ seeded: true });
    try {
      const controller = new AbortController();
      controller.abort();
      const result = await loadDemoHistory({ pool: other.pool, through: isoDate('2020-03-31'), log: quiet, signal: controller.signal });
      expect(result.monthsStored).toBe(0);
      expect((await other.pool.query('SELECT count(*)::int AS n FROM candles')).rows[0]).toEqual({ n: 0 });
    } finally {
      await other.close();
    }
  });
});

describe('lastFinishedSession', () => {
  const at = (date: string, time: string) => istEpochMs(isoDate(date), time);
  it.each<[string, string, IsoDate]>([
    ['2024-03-28', '15:45', '2024-03-28' as IsoDate], // after the close: that day
    ['2024-03-28', '11:00', '2024-03-27' as IsoDate], // during the session: the day before
    ['2024-03-29', '12:00', '2024-03-28' as IsoDate], // Good Friday holiday
    ['2024-03-31', '12:00', '2024-03-28' as IsoDate], // Sunday after the holiday
  ])('on %s at %s IST is %s', (date, time, expected) => {
    expect(lastFinishedSession(at(date, time))).toBe(expected);
  });
});
