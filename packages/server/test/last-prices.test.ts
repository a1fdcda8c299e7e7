// One source of an instrument's last price (migration 0015, the instrument_last_prices view that
// GraphQL serves as the spec's `ltps`): the newer of the latest stored candle's close and the
// recorded price. The payoff screen once showed NIFTY 50 at a seeded month-end close (23,547.75)
// while the chart's option chain showed the last stored candle (21,443.20).
import { istEpochMs, isoDate } from '@vyuha/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoWorld } from '../src/db/seed';
import { loadMigrations, migrate } from '../src/db/migrate';
import { createGraphqlEngine } from '../src/graphql/engine';
import { vyuhaMetadata } from '../src/graphql/metadata/index';
import type { GraphqlEngine } from '../src/graphql/types';
import { readCandles, writeCandles } from '../src/market-data/candle-store';
import { marketDataDir, migrationsDir } from '../src/paths';
import { freshDatabase, type TestDatabase } from './helpers/db';
import { demoUserId, graphqlSession } from './graphql/actions-support';

/** The payoff screen's query (packages/web/src/pages/trading/PayoffPage.tsx). */
const PAYOFF_QUERY = `query {
  index_configs(order_by: { sort_order: asc }) { name instrument_id instrument { ltps { price_paise updated_at source } } }
}`;

interface LastPriceRow { price_paise: number | string; updated_at: string; source: string }
interface PayoffIndexRow { name: string; instrument_id: number; instrument: { ltps: LastPriceRow[] } | null }

/** Three NIFTY 50 minutes of 2026-10-30 from 15:27 IST; closes 21,443.00, 21,444.10, 21,443.20. */
const MINUTES = [['15:27', 2_144_300], ['15:28', 2_144_410], ['15:29', 2_144_320]] as const;

describe('the last price of an instrument', () => {
  let db: TestDatabase;
  let engine: GraphqlEngine;
  let advanced: string;
  let nifty: number;

  async function payoffRow(name: string): Promise<PayoffIndexRow> {
    const response = await engine.execute({ query: PAYOFF_QUERY }, graphqlSession({ tier: 'advanced', userId: advanced }));
    const body = JSON.parse(response.body) as { data?: { index_configs: PayoffIndexRow[] }; errors?: unknown };
    expect(body.errors).toBeUndefined();
    const row = body.data?.index_configs.find((entry) => entry.name === name);
    if (row === undefined) throw new Error(`no index_configs row ${name}`);
    return row;
  }

  beforeAll(async () => {
    db = await freshDatabase({ seeded: true });
    engine = await createGraphqlEngine({ pool: db.pool, metadata: vyuhaMetadata([]) });
    advanced = await demoUserId(db.pool, 'advanced');
    const { rows } = await db.pool.query<{ instrument_id: number }>(`SELECT instrument_id FROM instruments WHERE kind = 'index' AND name = 'NIFTY 50'`);
    nifty = (rows[0] as { instrument_id: number }).instrument_id;
  });
  afterAll(async () => { await db?.close(); });

  it('regression: the seed gives no index a made-up last price (a month-end close is not a trade)', async () => {
    expect((await db.pool.query('SELECT * FROM ltps')).rows).toEqual([]);
    expect((await payoffRow('NIFTY 50')).instrument?.ltps).toEqual([]);
  });

  it('is the latest stored candle\'s close, as of the end of that minute, where the chart reads it', async () => {
    const date = isoDate('2026-10-30');
    const time = Float64Array.from(MINUTES.map(([hhmm]) => istEpochMs(date, hhmm)));
    const closes = Int32Array.from(MINUTES.map(([, close]) => close));
    await writeCandles(db.pool, {
      instrumentId: nifty, source: 'synthetic',
      candles: { length: MINUTES.length, time, open: closes, high: closes, low: closes, close: closes, volume: new Float64Array(MINUTES.length) },
    });
    const chart = await readCandles(db.pool, { instrumentId: nifty, from: istEpochMs(date, '00:00'), to: istEpochMs(date, '23:59') });
    const chartLast = chart.close[chart.length - 1];
    const [price] = (await payoffRow('NIFTY 50')).instrument?.ltps ?? [];
    expect(Number(price?.price_paise)).toBe(chartLast);
    expect(Number(price?.price_paise)).toBe(2_144_320);
    expect(Date.parse(price?.updated_at ?? '')).toBe(istEpochMs(date, '15:30'));
    expect(price?.source).toBe('candle');
  });

  it('takes a recorded price (a bhavcopy, a feed) only when it is newer than the last candle', async () => {
    await db.pool.query(`INSERT INTO ltps (instrument_id, price_paise, updated_at) VALUES ($1, 2_000_000, '2026-10-29T10:00:00Z')`, [nifty]);
    expect((await payoffRow('NIFTY 50')).instrument?.ltps.map((row) => [Number(row.price_paise), row.source])).toEqual([[2_144_320, 'candle']]);
    await db.pool.query(`UPDATE ltps SET price_paise = 2_150_000, updated_at = '2026-10-31T10:00:00Z' WHERE instrument_id = $1`, [nifty]);
    expect((await payoffRow('NIFTY 50')).instrument?.ltps.map((row) => [Number(row.price_paise), row.source])).toEqual([[2_150_000, 'recorded']]);
    // The root field reads the same source.
    const response = await engine.execute({ query: `query($id: Int!) { ltps(where: { instrument_id: { _eq: $id } }) { price_paise source } }`, variables: { id: nifty } },
      graphqlSession({ tier: 'advanced', userId: advanced }));
    expect((JSON.parse(response.body) as { data: { ltps: LastPriceRow[] } }).data.ltps.map((row) => Number(row.price_paise))).toEqual([2_150_000]);
  });

  it('stays read-only through GraphQL', async () => {
    const response = await engine.execute({ query: `mutation { insert_ltps_one(object: { instrument_id: ${nifty}, price_paise: 1 }) { instrument_id } }` },
      graphqlSession({ tier: 'advanced', userId: advanced }));
    const body = JSON.parse(response.body) as { data?: unknown; errors?: Array<{ message: string }> };
    expect(body.data).toBeUndefined();
    expect(body.errors?.[0]?.message).toMatch(/insert_ltps_one/);
  });
});

describe('migration 0015', () => {
  it('removes the month-end last prices earlier seeds wrote and keeps every other recorded price', async () => {
    const db = await freshDatabase({ empty: true });
    try {
      const migrations = await loadMigrations(migrationsDir);
      await migrate(db.pool, migrations.filter((migration) => migration.version < 15));
      await seedDemoWorld(db.pool, { dataDir: marketDataDir });
      // What the seed used to write: each index's latest month-end close at 15:30 IST of the month's last day.
      await db.pool.query(`INSERT INTO ltps (instrument_id, price_paise, updated_at)
        SELECT DISTINCT ON (instrument_id) instrument_id, round(close * 100)::bigint,
               ((month + interval '1 month' - interval '1 day')::date + time '15:30') AT TIME ZONE 'Asia/Kolkata'
        FROM index_monthly_closes WHERE close IS NOT NULL ORDER BY instrument_id, month DESC`);
      const seeded = Number((await db.pool.query<{ n: string }>('SELECT count(*) AS n FROM ltps')).rows[0]?.n);
      expect(seeded).toBeGreaterThan(0);
      // A recorded price of another kind (an importer's, at another time) must survive.
      await db.pool.query(`UPDATE ltps SET updated_at = updated_at + interval '1 day'
        WHERE instrument_id = (SELECT instrument_id FROM instruments WHERE name = 'INDIA VIX')`);
      await migrate(db.pool, migrations);
      const left = await db.pool.query<{ name: string }>('SELECT i.name FROM ltps JOIN instruments i USING (instrument_id)');
      expect(left.rows.map((row) => row.name)).toEqual(['INDIA VIX']);
    } finally {
      await db.close();
    }
  });
});
