// `vyuha import bhavcopy FILE...`: NSE F&O end-of-day files (legacy or UDiFF, CSV or zip).
// Every file is parsed before anything is written; then one transaction stages all contracts
// with COPY and derives instruments, expiries, end-of-day prices and last prices from them with
// set-based SQL. Idempotent: a repeat import finds every row already there and changes nothing.
// A file dated on a day NSE F&O did not trade (weekend, holiday, special session unless asked
// for) or after today is refused (@vyuha/market session-check.ts).

import { parseBhavcopy, type BhavcopyContract, type SessionRules } from '@vyuha/market';
import type pg from 'pg';
import { readBhavcopyTexts } from './bhavcopy-files';
import { STAGING_COLUMNS, stagingLine, type LotSizeFor } from './bhavcopy-rows';
import { copyLinesInto } from './copy-stream';
import { ImportError, inFile, type FileIssue } from './import-errors';

export type { LotSizeFor } from './bhavcopy-rows';

export interface ImportBhavcopyInput {
  readonly pool: pg.Pool;
  readonly files: readonly string[];
  /** The wall clock, epoch ms: a trade date after its IST day is refused. */
  readonly now: number;
  /** Accept files of special sessions listed in the calendar (muhurat, weekend budget days, DR drills). */
  readonly specialSessions?: boolean;
  /**
   * Lot size for contracts of files that carry none (legacy format). When absent or undefined
   * for a contract, a new instrument gets lot size 1 and an existing one keeps its own.
   */
  readonly lotSizeFor?: LotSizeFor;
}

export interface ImportBhavcopyResult {
  /** CSV texts read (a zip may hold several). */
  readonly files: number;
  /** Contract rows in the files. */
  readonly contracts: number;
  /** New underlyings (indices, equities) and contracts. */
  readonly instrumentsCreated: number;
  readonly eodInserted: number;
  /** Contract days already stored (left as they were). */
  readonly duplicates: number;
  readonly expiriesAdded: number;
  readonly lotSizesUpdated: number;
  readonly ltpsUpdated: number;
}

interface ParsedFile {
  readonly name: string;
  readonly contracts: readonly BhavcopyContract[];
}

/**
 * Imports bhavcopy files all or nothing. Throws ImportError (FILE:line:column issues) having
 * written nothing when any file is bad.
 */
export async function importBhavcopy(input: ImportBhavcopyInput): Promise<ImportBhavcopyResult> {
  const sessions: SessionRules = { exchange: 'NFO', now: input.now, specialSessions: input.specialSessions === true };
  const parsed = parseAll(await readBhavcopyTexts(input.files), sessions);
  const lines = stagingLines(parsed, input.lotSizeFor);
  const client = await input.pool.connect();
  try {
    await client.query('BEGIN');
    const result = await storeStaged(client, lines);
    await client.query('COMMIT');
    return { files: parsed.length, ...result };
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}

function parseAll(texts: readonly { name: string; text: string }[], sessions: SessionRules): ParsedFile[] {
  const issues: FileIssue[] = [];
  const parsed: ParsedFile[] = [];
  for (const { name, text } of texts) {
    const result = parseBhavcopy(text, { sessions });
    if (result.ok) parsed.push({ name, contracts: result.value.contracts });
    else issues.push(...inFile(name, result.error));
  }
  if (issues.length > 0) throw new ImportError(issues);
  return parsed;
}

function stagingLines(files: readonly ParsedFile[], lotSizeFor: LotSizeFor | undefined): string[] {
  const lines: string[] = [];
  files.forEach((file, fileIndex) => {
    for (const contract of file.contracts) {
      const lotSize = contract.lotSize ?? lotSizeFor?.(contract.symbol, contract.tradeDate, contract.expiry) ?? null;
      if (lotSize !== null && (!Number.isSafeInteger(lotSize) || lotSize < 1)) {
        throw new Error(`${file.name}: lot size ${lotSize} for ${contract.symbol} expiring ${contract.expiry} is not a positive whole number`);
      }
      lines.push(stagingLine(contract, { fileIndex, lotSize }));
    }
  });
  return lines;
}

/** Join key of a contract: NULL strike and type (futures) become 0 and '' so a hash join works. */
const SAME_CONTRACT = `i.underlying_instrument_id = s.underlying_id AND i.kind = s.kind AND i.expiry = s.expiry
  AND coalesce(i.strike_paise, 0) = coalesce(s.strike_paise, 0) AND coalesce(i.option_type, '') = coalesce(s.option_type, '')`;

async function storeStaged(client: pg.PoolClient, lines: readonly string[]): Promise<Omit<ImportBhavcopyResult, 'files'>> {
  await client.query(`CREATE TEMP TABLE bhavcopy_staging (${STAGING_COLUMNS.join(', ')}, underlying_id integer, instrument_id integer) ON COMMIT DROP`);
  const contracts = await copyLinesInto(client, `COPY bhavcopy_staging (${STAGING_COLUMNS.map((c) => c.split(' ')[0]).join(', ')}) FROM STDIN`, lines);
  await client.query('ANALYZE bhavcopy_staging');
  const underlyings = await client.query(
    `INSERT INTO instruments (exchange, segment, kind, trading_symbol, name)
     SELECT DISTINCT ON (symbol) 'NSE', CASE underlying_kind WHEN 'index' THEN 'INDICES' ELSE 'EQ' END, underlying_kind, symbol, symbol
     FROM bhavcopy_staging s
     WHERE NOT EXISTS (SELECT 1 FROM instruments i WHERE i.exchange = 'NSE' AND i.trading_symbol = s.symbol)
     ORDER BY symbol
     ON CONFLICT DO NOTHING`);
  await client.query(
    `UPDATE bhavcopy_staging s SET underlying_id = i.instrument_id FROM instruments i WHERE i.exchange = 'NSE' AND i.trading_symbol = s.symbol`);
  const created = await client.query(
    `INSERT INTO instruments (exchange, segment, kind, trading_symbol, name, underlying_instrument_id, expiry, strike_paise, option_type, lot_size)
     SELECT DISTINCT ON (underlying_id, kind, expiry, coalesce(strike_paise, 0), coalesce(option_type, ''))
       'NFO', CASE kind WHEN 'option' THEN 'OPT' ELSE 'FUT' END, kind, trading_symbol, name, underlying_id, expiry, strike_paise, option_type,
       coalesce(lot_size, 1)
     FROM bhavcopy_staging s
     WHERE NOT EXISTS (SELECT 1 FROM instruments i WHERE ${SAME_CONTRACT})
     ORDER BY underlying_id, kind, expiry, coalesce(strike_paise, 0), coalesce(option_type, ''), trade_date DESC
     ON CONFLICT DO NOTHING`);
  await client.query(`UPDATE bhavcopy_staging s SET instrument_id = i.instrument_id FROM instruments i WHERE ${SAME_CONTRACT}`);
  await assertAllResolved(client);
  const lots = await client.query(
    `UPDATE instruments i SET lot_size = s.lot_size
     FROM (SELECT DISTINCT ON (instrument_id) instrument_id, lot_size FROM bhavcopy_staging
           WHERE lot_size IS NOT NULL ORDER BY instrument_id, trade_date DESC) s
     WHERE i.instrument_id = s.instrument_id AND i.lot_size <> s.lot_size`);
  const eod = await client.query(
    `INSERT INTO eod_prices (instrument_id, trade_date, open_paise, high_paise, low_paise, close_paise, settle_paise, contracts, volume, oi, source)
     SELECT instrument_id, trade_date, open_paise, high_paise, low_paise, close_paise, settle_paise, contracts, volume, oi, 'import'
     FROM bhavcopy_staging ORDER BY instrument_id, trade_date
     ON CONFLICT (instrument_id, trade_date) DO NOTHING`);
  const expiries = await insertExpiries(client);
  const ltps = await updateLtps(client);
  const eodInserted = eod.rowCount ?? 0;
  return {
    contracts,
    instrumentsCreated: (underlyings.rowCount ?? 0) + (created.rowCount ?? 0),
    eodInserted,
    duplicates: contracts - eodInserted,
    expiriesAdded: expiries,
    lotSizesUpdated: lots.rowCount ?? 0,
    ltpsUpdated: ltps,
  };
}

/** A contract left without an instrument means its trading symbol belongs to another contract. */
async function assertAllResolved(client: pg.PoolClient): Promise<void> {
  const { rows } = await client.query<{ trading_symbol: string }>(
    'SELECT DISTINCT trading_symbol FROM bhavcopy_staging WHERE instrument_id IS NULL ORDER BY 1 LIMIT 5');
  if (rows.length > 0) {
    throw new Error(`contracts could not be matched to instruments (their trading symbol is taken by another contract): ${rows.map((r) => r.trading_symbol).join(', ')}`);
  }
}

/**
 * One fno_expiries row per underlying, segment and expiry: monthly when it is the last expiry of
 * that symbol in its calendar month among the expiries of the same file (any file saying so
 * wins), else weekly. An existing row is kept as it is.
 */
async function insertExpiries(client: pg.PoolClient): Promise<number> {
  const result = await client.query(
    `INSERT INTO fno_expiries (instrument_id, segment, expiry, mode)
     SELECT underlying_id, segment, expiry, CASE WHEN bool_or(is_last) THEN 'monthly' ELSE 'weekly' END
     FROM (
       SELECT underlying_id, CASE kind WHEN 'option' THEN 'OPT' ELSE 'FUT' END AS segment, expiry,
              expiry = max(expiry) OVER (PARTITION BY file_index, symbol, date_trunc('month', expiry)) AS is_last
       FROM (SELECT DISTINCT file_index, symbol, underlying_id, kind, expiry FROM bhavcopy_staging) d
     ) e
     GROUP BY underlying_id, segment, expiry
     ORDER BY underlying_id, segment, expiry
     ON CONFLICT (instrument_id, segment, expiry) DO NOTHING`);
  return result.rowCount ?? 0;
}

/**
 * Last price = close, or the settlement price of a contract that did not trade, stamped 15:30 IST
 * of the trade date; written only over an older stamp, so an old file never replaces a newer price.
 */
async function updateLtps(client: pg.PoolClient): Promise<number> {
  const result = await client.query(
    `INSERT INTO ltps (instrument_id, price_paise, updated_at)
     SELECT DISTINCT ON (instrument_id) instrument_id, coalesce(close_paise, settle_paise),
            (trade_date + time '15:30') AT TIME ZONE 'Asia/Kolkata'
     FROM bhavcopy_staging WHERE coalesce(close_paise, settle_paise) IS NOT NULL
     ORDER BY instrument_id, trade_date DESC
     ON CONFLICT (instrument_id) DO UPDATE SET price_paise = EXCLUDED.price_paise, updated_at = EXCLUDED.updated_at
     WHERE ltps.updated_at < EXCLUDED.updated_at`);
  return result.rowCount ?? 0;
}
