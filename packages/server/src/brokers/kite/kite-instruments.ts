// Kite's daily instruments dump: downloaded (GET <KITE_API_URL>/instruments, a gzip-encoded CSV),
// parsed (kite-instruments-csv.ts) and stored in broker_instruments (migration 0023), each row
// mapped to our instrument when we have it, so the ticker's tokens and the order API's trading
// symbols can be looked up from our instrument ids (`instrumentTokens`).
//
// Invariants:
// - One dump per day: storing replaces the broker's rows in one transaction (F&O tokens change
//   with every expiry) and records the day in broker_instrument_dumps. The same day again changes
//   nothing; an older day than the one stored is refused.
// - Only the exchanges the platform trades are stored (NSE, BSE, NFO, BFO); the currency and
//   commodity segments are left out.
// - Mapping: an index by its exchange and name (Kite's "NIFTY 50", "NIFTY BANK" against our
//   index's trading symbol or official name, packages/market's MARKET_INDICES), an equity by its
//   NSE trading symbol, a future by underlying (Kite's `name`) and expiry, an option by
//   underlying, expiry, strike and CE/PE. Each instrument maps to at most one token.
// - Futures and options of our option indices (NIFTY, BANKNIFTY, FINNIFTY, MIDCPNIFTY, SENSEX)
//   that we lack become instruments (our trading symbols, as the bhavcopy import writes them; lot
//   and tick from the dump), so a live strategy can trade any listed contract.
// - Nothing here logs; download failures never carry the API key or the access token.
import { gunzipSync } from 'node:zlib';
import { err, ok, paise, paiseToRupees } from '@vyuha/core';
import type { IsoDate, Result } from '@vyuha/core';
import { derivativesExchangeOf, isOptionUnderlying, OPTION_UNDERLYINGS } from '@vyuha/market';
import type pg from 'pg';
import { contractSymbol } from '../../market-data/bhavcopy-rows';
import type { KiteTokenLookup } from './kite-feed-hub';
import { KITE_TIMEOUT_MS } from './kite-http';
import { parseKiteInstrumentsCsv, WHOLE_PAISE_EXCHANGES } from './kite-instruments-csv';
import type { KiteInstrumentRow } from './kite-instruments-csv';
import { KITE_API_VERSION } from './kite-login';

export { parseKiteInstrumentsCsv };
export type { KiteInstrumentRow };

export const ZERODHA = 'zerodha';
/** The dump is a few megabytes gzipped; a minute means Kite is not sending it. */
export const KITE_INSTRUMENTS_TIMEOUT_MS = Math.max(KITE_TIMEOUT_MS, 60_000);
/** Rows per INSERT (each column an array parameter). */
const INSERT_BATCH = 20_000;

/** Why a download failed; the kinds are broker_requests.outcome's. */
export interface KiteDownloadFailure {
  readonly kind: 'token' | 'rate-limited' | 'refused' | 'server' | 'timeout' | 'unreachable' | 'malformed';
  readonly reason: string;
}

export interface KiteInstrumentsRequest {
  /** kiteApiBaseUrl(env), without a trailing slash. */
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly accessToken: string;
  /** Default KITE_INSTRUMENTS_TIMEOUT_MS. */
  readonly timeoutMs?: number;
}

/**
 * GET /instruments: the dump's CSV text. fetch undoes a gzip Content-Encoding; a body that is
 * gzip without saying so is unzipped here.
 */
export async function downloadKiteInstruments(request: KiteInstrumentsRequest): Promise<Result<string, KiteDownloadFailure>> {
  const timeoutMs = request.timeoutMs ?? KITE_INSTRUMENTS_TIMEOUT_MS;
  let response: Response;
  let body: Buffer;
  try {
    response = await fetch(`${request.baseUrl}/instruments`, {
      headers: { 'x-kite-version': KITE_API_VERSION, authorization: `token ${request.apiKey}:${request.accessToken}`, 'accept-encoding': 'gzip' },
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'error',
    });
    body = Buffer.from(await response.arrayBuffer());
  } catch (error) {
    const name = (error as Error).name;
    if (name === 'TimeoutError' || name === 'AbortError') return err({ kind: 'timeout', reason: `Kite did not send the instruments within ${timeoutMs / 1000} s` });
    return err({ kind: 'unreachable', reason: 'Kite could not be reached for the instruments' });
  }
  if (response.status !== 200) return err(statusFailure(response.status, body));
  const type = response.headers.get('content-type') ?? '';
  if (!type.toLowerCase().startsWith('text/csv')) return err({ kind: 'malformed', reason: `the instruments came as ${JSON.stringify(type)}, not text/csv` });
  try {
    const bytes = body[0] === 0x1f && body[1] === 0x8b ? gunzipSync(body) : body;
    return ok(bytes.toString('utf8'));
  } catch {
    return err({ kind: 'malformed', reason: 'the instruments looked gzipped but could not be unzipped' });
  }
}

function statusFailure(status: number, body: Buffer): KiteDownloadFailure {
  let message = '';
  try {
    const parsed = JSON.parse(body.toString('utf8')) as { message?: unknown };
    if (typeof parsed.message === 'string') message = `: ${parsed.message}`;
  } catch {
    // Not Kite's JSON error: the status says enough.
  }
  const reason = `Kite answered the instruments request with HTTP ${status}${message}`;
  if (status === 403) return { kind: 'token', reason };
  if (status === 429) return { kind: 'rate-limited', reason };
  if (status >= 500) return { kind: 'server', reason };
  return { kind: 'refused', reason };
}

/** What storing a dump did. */
export type KiteDumpStored =
  | { readonly outcome: 'stored'; readonly rows: number; readonly mapped: number; readonly created: number }
  | { readonly outcome: 'already-stored' }
  | { readonly outcome: 'older-than-stored'; readonly storedDate: IsoDate };

/** The day of the broker's stored dump, if any. */
export async function storedDumpDate(db: pg.Pool | pg.PoolClient, broker = ZERODHA): Promise<IsoDate | undefined> {
  const { rows } = await db.query<{ dump_date: string | null }>(
    `SELECT max(dump_date)::text AS dump_date FROM broker_instrument_dumps WHERE broker = $1`, [broker]);
  return (rows[0]?.dump_date ?? undefined) as IsoDate | undefined;
}

/**
 * Replaces the broker's rows with `rows` (parseKiteInstrumentsCsv's) in one transaction, maps them
 * to our instruments (creating our indices' missing contracts) and records the day.
 * @example await storeKiteInstruments(pool, rows, { dumpDate: '2026-11-27' }) // { outcome: 'stored', rows: 61234, mapped: 18800, created: 412 }
 */
export async function storeKiteInstruments(pool: pg.Pool, rows: readonly KiteInstrumentRow[], options: { dumpDate: IsoDate; broker?: string }): Promise<KiteDumpStored> {
  const broker = options.broker ?? ZERODHA;
  const kept = rows.filter((row) => WHOLE_PAISE_EXCHANGES.has(row.exchange));
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`broker_instruments:${broker}`]);
    const stored = await storedDumpDate(client, broker);
    if (stored !== undefined && stored >= options.dumpDate) {
      await client.query('ROLLBACK');
      return stored === options.dumpDate ? { outcome: 'already-stored' } : { outcome: 'older-than-stored', storedDate: stored };
    }
    await client.query('DELETE FROM broker_instruments WHERE broker = $1', [broker]);
    for (let start = 0; start < kept.length; start += INSERT_BATCH) {
      await insertRows(client, { broker, dumpDate: options.dumpDate, rows: kept.slice(start, start + INSERT_BATCH) });
    }
    const created = await createIndexContracts(client, kept);
    // Fresh statistics, or the planner joins tens of thousands of new rows as if there were none.
    await client.query('ANALYZE broker_instruments');
    if (created > 0) await client.query('ANALYZE instruments');
    const mapped = await mapRows(client, broker);
    await client.query(
      `INSERT INTO broker_instrument_dumps (broker, dump_date, row_count, mapped_count) VALUES ($1, $2, $3, $4)`,
      [broker, options.dumpDate, kept.length, mapped]);
    await client.query('COMMIT');
    return { outcome: 'stored', rows: kept.length, mapped, created };
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}

async function insertRows(client: pg.PoolClient, batch: { broker: string; dumpDate: IsoDate; rows: readonly KiteInstrumentRow[] }): Promise<void> {
  const { rows } = batch;
  const column = <T>(pick: (row: KiteInstrumentRow) => T): T[] => rows.map(pick);
  await client.query(
    `INSERT INTO broker_instruments (broker, instrument_token, exchange_token, trading_symbol, name, exchange, segment, instrument_type,
                                     expiry, strike_paise, tick_size_paise, lot_size, dump_date)
     SELECT $1, t.token, t.exchange_token, t.symbol, t.name, t.exchange, t.segment, t.type, t.expiry, nullif(t.strike, 0), t.tick, t.lot, $2
     FROM unnest($3::bigint[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::date[], $11::bigint[], $12::int[], $13::int[])
       AS t(token, exchange_token, symbol, name, exchange, segment, type, expiry, strike, tick, lot)`,
    [batch.broker, batch.dumpDate, column((row) => row.instrumentToken), column((row) => row.exchangeToken), column((row) => row.tradingSymbol),
      column((row) => row.name), column((row) => row.exchange), column((row) => row.segment), column((row) => row.instrumentType),
      column((row) => row.expiry), column((row) => row.strikePaise), column((row) => row.tickSizePaise), column((row) => row.lotSize)]);
}

/** Our instrument for every listed future and option of our option indices that we lack; returns how many were made. */
async function createIndexContracts(client: pg.PoolClient, rows: readonly KiteInstrumentRow[]): Promise<number> {
  const { rows: indices } = await client.query<{ instrument_id: number; trading_symbol: string }>(
    `SELECT instrument_id, trading_symbol FROM instruments WHERE kind = 'index' AND trading_symbol = ANY($1::text[])`, [[...OPTION_UNDERLYINGS]]);
  const underlyingOf = new Map(indices.map((index) => [index.trading_symbol, index.instrument_id]));
  const contracts = rows.flatMap((row) => {
    const underlyingId = underlyingOf.get(row.name);
    if (underlyingId === undefined || !isOptionUnderlying(row.name) || row.exchange !== derivativesExchangeOf(row.name) || row.expiry === null) return [];
    const option = row.instrumentType === 'CE' || row.instrumentType === 'PE';
    if (!option && row.instrumentType !== 'FUT') return [];
    const strike = option ? paise(row.strikePaise) : null;
    const optionType = option ? row.instrumentType as 'CE' | 'PE' : null;
    const symbol = contractSymbol({ symbol: row.name, instrumentType: option ? 'index_option' : 'index_future', expiry: row.expiry, strike, optionType });
    const name = option ? `${row.name} ${row.expiry} ${paiseToRupees(row.strikePaise)} ${row.instrumentType}` : `${row.name} ${row.expiry} FUT`;
    const contract: NewContract = { row, underlyingId, symbol, name, strike, optionType };
    return [contract];
  });
  const futures = contracts.filter((contract) => contract.optionType === null);
  const options = contracts.filter((contract) => contract.optionType !== null);
  // A contract we have already (by underlying, expiry, strike and type, whatever its symbol) is
  // left alone; one whose symbol another contract holds is skipped (it stays unmapped). Futures
  // and options apart, so each test of "we have it" is an index lookup.
  return await insertContracts(client, futures, `i.kind = 'future'`) + await insertContracts(client, options, `i.kind = 'option' AND i.strike_paise = t.strike AND i.option_type = t.option_type`);
}

interface NewContract {
  readonly row: KiteInstrumentRow;
  readonly underlyingId: number;
  readonly symbol: string;
  readonly name: string;
  readonly strike: number | null;
  readonly optionType: 'CE' | 'PE' | null;
}

async function insertContracts(client: pg.PoolClient, contracts: readonly NewContract[], sameContract: string): Promise<number> {
  if (contracts.length === 0) return 0;
  const column = <T>(pick: (contract: NewContract) => T): T[] => contracts.map(pick);
  const result = await client.query(
    `INSERT INTO instruments (exchange, segment, kind, trading_symbol, name, underlying_instrument_id, expiry, strike_paise, option_type, lot_size, tick_size_paise)
     SELECT t.exchange, CASE WHEN t.option_type IS NULL THEN 'FUT' ELSE 'OPT' END, CASE WHEN t.option_type IS NULL THEN 'future' ELSE 'option' END,
            t.symbol, t.name, t.underlying_id, t.expiry, t.strike, t.option_type, greatest(t.lot, 1), CASE WHEN t.tick > 0 THEN t.tick ELSE 5 END
     FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::date[], $6::bigint[], $7::text[], $8::int[], $9::int[])
       AS t(exchange, symbol, name, underlying_id, expiry, strike, option_type, lot, tick)
     WHERE NOT EXISTS (SELECT 1 FROM instruments i WHERE i.underlying_instrument_id = t.underlying_id AND i.expiry = t.expiry AND ${sameContract})
     ON CONFLICT DO NOTHING`,
    [column((c) => c.row.exchange), column((c) => c.symbol), column((c) => c.name), column((c) => c.underlyingId), column((c) => c.row.expiry),
      column((c) => c.strike), column((c) => c.optionType), column((c) => c.row.lotSize), column((c) => c.row.tickSizePaise)]);
  return result.rowCount ?? 0;
}

/** Sets instrument_id on the broker's rows that are ours; returns how many are mapped. */
async function mapRows(client: pg.PoolClient, broker: string): Promise<number> {
  const result = await client.query(
    `UPDATE broker_instruments b SET instrument_id = m.instrument_id
     FROM (
       SELECT DISTINCT ON (c.instrument_id) c.instrument_token, c.instrument_id
       FROM (
         SELECT k.instrument_token, i.instrument_id,
                CASE WHEN i.trading_symbol = k.trading_symbol THEN 0 WHEN i.name = k.trading_symbol THEN 1 ELSE 2 END AS rank
         FROM broker_instruments k
         JOIN instruments i ON i.kind = 'index' AND i.exchange = k.exchange
           AND (i.trading_symbol = k.trading_symbol OR i.name = k.trading_symbol OR i.name = k.name)
         WHERE k.broker = $1 AND k.segment = 'INDICES'
         UNION ALL
         SELECT k.instrument_token, i.instrument_id, 0
         FROM broker_instruments k
         JOIN instruments i ON i.kind = 'equity' AND i.exchange = 'NSE' AND i.trading_symbol = k.trading_symbol
         WHERE k.broker = $1 AND k.exchange = 'NSE' AND k.segment = 'NSE' AND k.instrument_type = 'EQ'
         UNION ALL
         SELECT k.instrument_token, i.instrument_id, 0
         FROM broker_instruments k
         JOIN instruments u ON u.kind IN ('index', 'equity') AND u.trading_symbol = k.name
           AND u.exchange = CASE k.exchange WHEN 'NFO' THEN 'NSE' ELSE 'BSE' END
         JOIN instruments i ON i.underlying_instrument_id = u.instrument_id AND i.expiry = k.expiry AND i.kind = 'future' AND i.exchange = k.exchange
         WHERE k.broker = $1 AND k.exchange IN ('NFO', 'BFO') AND k.instrument_type = 'FUT'
         UNION ALL
         SELECT k.instrument_token, i.instrument_id, 0
         FROM broker_instruments k
         JOIN instruments u ON u.kind IN ('index', 'equity') AND u.trading_symbol = k.name
           AND u.exchange = CASE k.exchange WHEN 'NFO' THEN 'NSE' ELSE 'BSE' END
         JOIN instruments i ON i.underlying_instrument_id = u.instrument_id AND i.expiry = k.expiry AND i.strike_paise = k.strike_paise
           AND i.option_type = k.instrument_type AND i.kind = 'option' AND i.exchange = k.exchange
         WHERE k.broker = $1 AND k.exchange IN ('NFO', 'BFO') AND k.instrument_type IN ('CE', 'PE')
       ) c
       ORDER BY c.instrument_id, c.rank, c.instrument_token
     ) m
     WHERE b.broker = $1 AND b.instrument_token = m.instrument_token`, [broker]);
  return result.rowCount ?? 0;
}

/** Where an instrument trades at the broker. */
export interface BrokerContract {
  readonly exchange: string;
  readonly tradingSymbol: string;
}

/** Our instruments and the broker's tokens and symbols, as the stored dump maps them. */
export interface BrokerInstrumentLookup extends KiteTokenLookup {
  /** The day of the dump the lookup was read from; undefined when none is stored. */
  readonly dumpDate: IsoDate | undefined;
  contractOf(instrumentId: number): BrokerContract | undefined;
  instrumentOfContract(contract: BrokerContract): number | undefined;
}

/**
 * The lookup the feed hub and the venue need, read once from the broker's mapped rows.
 * @example (await instrumentTokens(pool, 'zerodha')).tokenOf(niftyId) // 256265
 */
export async function instrumentTokens(pool: pg.Pool, broker = ZERODHA): Promise<BrokerInstrumentLookup> {
  const dumpDate = await storedDumpDate(pool, broker);
  const { rows } = await pool.query<{ instrument_id: number; instrument_token: string; exchange: string; trading_symbol: string }>(
    `SELECT instrument_id, instrument_token::text, exchange, trading_symbol FROM broker_instruments WHERE broker = $1 AND instrument_id IS NOT NULL`,
    [broker]);
  const tokenById = new Map<number, number>();
  const idByToken = new Map<number, number>();
  const contractById = new Map<number, BrokerContract>();
  const idByContract = new Map<string, number>();
  for (const row of rows) {
    const token = Number(row.instrument_token);
    tokenById.set(row.instrument_id, token);
    idByToken.set(token, row.instrument_id);
    contractById.set(row.instrument_id, { exchange: row.exchange, tradingSymbol: row.trading_symbol });
    idByContract.set(`${row.exchange}:${row.trading_symbol}`, row.instrument_id);
  }
  return {
    dumpDate,
    tokenOf: (instrumentId) => tokenById.get(instrumentId),
    instrumentOf: (token) => idByToken.get(token),
    contractOf: (instrumentId) => contractById.get(instrumentId),
    instrumentOfContract: (contract) => idByContract.get(`${contract.exchange}:${contract.tradingSymbol}`),
  };
}

/** What `syncKiteInstruments` did. */
export type KiteInstrumentsSync =
  | { readonly outcome: 'up-to-date'; readonly dumpDate: IsoDate }
  | { readonly outcome: 'download-failed'; readonly failure: KiteDownloadFailure }
  | { readonly outcome: 'malformed'; readonly reason: string }
  | KiteDumpStored;

/**
 * Today's dump, unless it is stored already: downloaded, parsed (a broken dump is refused,
 * naming its line, with nothing written) and stored.
 */
export async function syncKiteInstruments(request: KiteInstrumentsRequest & { pool: pg.Pool; today: IsoDate }): Promise<KiteInstrumentsSync> {
  const stored = await storedDumpDate(request.pool);
  if (stored === request.today) return { outcome: 'up-to-date', dumpDate: stored };
  const text = await downloadKiteInstruments(request);
  if (!text.ok) return { outcome: 'download-failed', failure: text.error };
  const rows = parseKiteInstrumentsCsv(text.value);
  if (!rows.ok) return { outcome: 'malformed', reason: `Kite's instruments dump is broken: ${rows.error}` };
  return storeKiteInstruments(request.pool, rows.value, { dumpDate: request.today });
}
