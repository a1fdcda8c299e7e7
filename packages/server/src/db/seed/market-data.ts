import { join } from 'node:path';
import type pg from 'pg';
import { CsvError, cellsOf, readCsvRecords } from './csv';
import type { CellReader } from './csv';
import { execute } from './execute';
import { INDEX_CONFIGS, MARKET_INDICES } from '@vyuha/market';

// Index instruments and configs come from @vyuha/market, the single source of truth, so the
// database, the engine and the web app can never disagree about an index.
const INDICES = MARKET_INDICES;

export interface MarketSeedCounts {
  readonly indexInstruments: number;
  readonly indexConfigs: number;
  readonly holidays: number;
  readonly specialSessions: number;
  readonly indexMonthlyCloses: number;
  readonly indexKeyPoints: number;
}

/** Index instruments and configs, calendars and index history from `dataDir`'s CSV files. */
export async function seedMarketData(client: pg.PoolClient, dataDir: string): Promise<{ counts: MarketSeedCounts; inserted: number }> {
  let inserted = 0;
  const indices = await ensureIndexInstruments(client);
  inserted += indices.inserted;
  inserted += await ensureIndexConfigs(client, indices.idBySymbol);
  const holidays = await seedHolidays(client, dataDir);
  const specialSessions = await seedSpecialSessions(client, dataDir);
  const closes = await seedMonthlyCloses(client, dataDir, indices.idByName);
  const keyPoints = await seedKeyPoints(client, dataDir, indices.idByName);
  // No last prices: an index's last price is its latest stored candle (the instrument_last_prices
  // view, migration 0015), never a month-end close standing in for one.
  inserted += holidays.inserted + specialSessions.inserted + closes.inserted + keyPoints.inserted;
  return {
    inserted,
    counts: {
      indexInstruments: INDICES.length,
      indexConfigs: INDEX_CONFIGS.length,
      holidays: holidays.count,
      specialSessions: specialSessions.count,
      indexMonthlyCloses: closes.count,
      indexKeyPoints: keyPoints.count,
    },
  };
}

async function ensureIndexInstruments(client: pg.PoolClient): Promise<{
  idBySymbol: ReadonlyMap<string, number>; idByName: ReadonlyMap<string, number>; inserted: number;
}> {
  const inserted = await execute(client,
    `INSERT INTO instruments (exchange, segment, kind, trading_symbol, name, lot_size, tick_size_paise)
     SELECT exchange, 'INDICES', 'index', trading_symbol, name, 1, 5
     FROM unnest($1::text[], $2::text[], $3::text[]) AS t(exchange, trading_symbol, name)
     ON CONFLICT (exchange, trading_symbol) DO NOTHING`,
    [INDICES.map((i) => i.exchange), INDICES.map((i) => i.tradingSymbol), INDICES.map((i) => i.indexName)]);
  const rows = await client.query<{ instrument_id: number; trading_symbol: string; name: string }>(
    `SELECT instrument_id, trading_symbol, name FROM instruments
     WHERE kind = 'index' AND (exchange, trading_symbol) IN (SELECT * FROM unnest($1::text[], $2::text[]))`,
    [INDICES.map((i) => i.exchange), INDICES.map((i) => i.tradingSymbol)]);
  if (rows.rows.length !== INDICES.length) {
    throw new Error(`expected ${INDICES.length} index instruments, found ${rows.rows.length}`);
  }
  return {
    inserted,
    idBySymbol: new Map(rows.rows.map((r) => [r.trading_symbol, r.instrument_id])),
    idByName: new Map(rows.rows.map((r) => [r.name, r.instrument_id])),
  };
}

async function ensureIndexConfigs(client: pg.PoolClient, idBySymbol: ReadonlyMap<string, number>): Promise<number> {
  let inserted = 0;
  for (const [order, config] of INDEX_CONFIGS.entries()) {
    inserted += await execute(client,
      `INSERT INTO index_configs (id, instrument_id, exchange, name, signal_key, value, ticker, oc_step, oc_enabled,
         oc_greeks, benchmark, short_text, background, color, entry_l_bracket, entry_u_bracket, sort_order)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)
       ON CONFLICT (id) DO NOTHING`,
      [config.id, idBySymbol.get(config.value), config.exchange, config.name, config.signalKey,
        config.value, config.ticker, config.ocStep, config.ocEnabled, config.ocGreeks, config.benchmark, config.shortText,
        config.background, config.color, config.entry_l_bracket, config.entry_u_bracket, order + 1]);
  }
  return inserted;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^\d{2}:\d{2}(:\d{2})?$/;
const DECIMAL = /^\d+(\.\d+)?$/;

async function seedHolidays(client: pg.PoolClient, dataDir: string): Promise<{ count: number; inserted: number }> {
  const records = await readCsvRecords(join(dataDir, 'holidays.csv'), ['date', 'exchange', 'event']);
  const rows = records.map((record, i) => {
    const cells = cellsOf(record, `holidays.csv row ${i + 2}`);
    return { date: cells.matching('date', DATE), exchange: cells.required('exchange'), event: cells.required('event') };
  });
  const inserted = await execute(client,
    `INSERT INTO holidays (date, exchange, event)
     SELECT * FROM unnest($1::date[], $2::text[], $3::text[])
     ON CONFLICT (exchange, date) DO NOTHING`,
    [rows.map((r) => r.date), rows.map((r) => r.exchange), rows.map((r) => r.event)]);
  return { count: rows.length, inserted };
}

/** The CSV's `IN` (whole Indian market) is stored as a NULL exchange. */
const MARKET_WIDE = 'IN';

async function seedSpecialSessions(client: pg.PoolClient, dataDir: string): Promise<{ count: number; inserted: number }> {
  const records = await readCsvRecords(join(dataDir, 'special-sessions.csv'), ['date', 'exchange', 'kind', 'start', 'end', 'note']);
  const rows = records.map((record, i) => {
    const cells = cellsOf(record, `special-sessions.csv row ${i + 2}`);
    const exchange = cells.required('exchange');
    return {
      date: cells.matching('date', DATE),
      exchange: exchange === MARKET_WIDE ? null : exchange,
      kind: cells.required('kind'),
      start: cells.optionalMatching('start', TIME),
      end: cells.optionalMatching('end', TIME),
      note: cells.optional('note'),
    };
  });
  const inserted = await execute(client,
    `INSERT INTO special_sessions (date, exchange, kind, start_time, end_time, note)
     SELECT * FROM unnest($1::date[], $2::text[], $3::text[], $4::time[], $5::time[], $6::text[])
     ON CONFLICT ON CONSTRAINT special_sessions_natural_key DO NOTHING`,
    [rows.map((r) => r.date), rows.map((r) => r.exchange), rows.map((r) => r.kind),
      rows.map((r) => r.start), rows.map((r) => r.end), rows.map((r) => r.note)]);
  return { count: rows.length, inserted };
}

function instrumentFor(idByName: ReadonlyMap<string, number>, cells: CellReader): number {
  const name = cells.required('index');
  const id = idByName.get(name);
  if (id === undefined) throw new CsvError(`${cells.where}: unknown index "${name}"`);
  return id;
}

async function seedMonthlyCloses(client: pg.PoolClient, dataDir: string, idByName: ReadonlyMap<string, number>): Promise<{ count: number; inserted: number }> {
  const records = await readCsvRecords(join(dataDir, 'index-monthly-closes.csv'), ['month', 'index', 'close']);
  const rows = records.map((record, i) => {
    const cells = cellsOf(record, `index-monthly-closes.csv row ${i + 2}`);
    return {
      month: `${cells.matching('month', /^\d{4}-\d{2}$/)}-01`,
      instrumentId: instrumentFor(idByName, cells),
      // Empty = a gap in the source data, kept as NULL so the gap stays visible.
      close: cells.optionalMatching('close', DECIMAL),
    };
  });
  const inserted = await execute(client,
    `INSERT INTO index_monthly_closes (instrument_id, month, close)
     SELECT * FROM unnest($1::integer[], $2::date[], $3::numeric[])
     ON CONFLICT (instrument_id, month) DO NOTHING`,
    [rows.map((r) => r.instrumentId), rows.map((r) => r.month), rows.map((r) => r.close)]);
  return { count: rows.length, inserted };
}

async function seedKeyPoints(client: pg.PoolClient, dataDir: string, idByName: ReadonlyMap<string, number>): Promise<{ count: number; inserted: number }> {
  const records = await readCsvRecords(join(dataDir, 'index-key-points.csv'), ['date', 'index', 'kind', 'value', 'source']);
  const rows = records.map((record, i) => {
    const cells = cellsOf(record, `index-key-points.csv row ${i + 2}`);
    return {
      instrumentId: instrumentFor(idByName, cells),
      date: cells.matching('date', DATE),
      kind: cells.required('kind'),
      value: cells.matching('value', DECIMAL),
      source: cells.required('source'),
    };
  });
  const inserted = await execute(client,
    `INSERT INTO index_key_points (instrument_id, date, kind, value, source)
     SELECT * FROM unnest($1::integer[], $2::date[], $3::text[], $4::numeric[], $5::text[])
     ON CONFLICT (instrument_id, date, kind) DO NOTHING`,
    [rows.map((r) => r.instrumentId), rows.map((r) => r.date), rows.map((r) => r.kind),
      rows.map((r) => r.value), rows.map((r) => r.source)]);
  return { count: rows.length, inserted };
}
