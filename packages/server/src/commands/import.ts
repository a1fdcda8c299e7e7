// `vyuha import candles FILE --symbol S` and `vyuha import bhavcopy FILE...`.

import { formatIstDateTime, isIsoDate } from '@vyuha/core';
import { isOptionUnderlying, isSpecialSessionRefusal, lotSize } from '@vyuha/market';
import { readConfig } from '../config';
import type { Database } from '../db/database';
import { ImportError, ImportRefusedError } from '../market-data/import-errors';
import type { LotSizeFor } from '../market-data/bhavcopy-rows';
import { UnknownInstrumentError } from '../market-data/instrument-lookup';
import { UsageError, parseOptions, print, requireOption, type CliCommand } from './command';

async function withDatabase<T>(work: (database: Database) => Promise<T>): Promise<T> {
  const config = readConfig();
  const [{ default: pino }, { openDatabase }] = await Promise.all([import('pino'), import('../db/database')]);
  const logger = pino({ level: config.logLevel });
  const database = await openDatabase({ config, log: (message) => logger.info(message), seed: false });
  try {
    return await work(database);
  } finally {
    await database.close();
  }
}

/** The flag that lets special sessions of the calendar in (both import commands). */
const SPECIAL_SESSIONS_FLAG = { 'special-sessions': { type: 'boolean' } } as const;

/** Expected failures (bad file, unknown symbol) print their lines and exit 1; anything else propagates. */
function reportFailure(error: unknown): number {
  if (error instanceof ImportError || error instanceof UnknownInstrumentError || error instanceof ImportRefusedError) {
    const special = error instanceof ImportError && error.issues.some((issue) => isSpecialSessionRefusal(issue.reason));
    const hint = special ? 'Special sessions listed in the market calendar (muhurat, weekend budget days, DR drills) are imported with --special-sessions.\n' : '';
    process.stderr.write(`${error.message}\n${hint}Nothing was imported.\n`);
    return 1;
  }
  throw error;
}

async function runImportCandles(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseOptions(args, { symbol: { type: 'string' }, ...SPECIAL_SESSIONS_FLAG }, true);
  const symbol = requireOption(values, 'symbol');
  if (positionals.length !== 1) throw new UsageError(`expected one FILE, got ${positionals.length}`);
  const file = positionals[0] as string;
  const specialSessions = values['special-sessions'] === true;
  const { importCandles } = await import('../market-data/import-candles');
  try {
    const result = await withDatabase((database) => importCandles({ pool: database.pool, file, symbol, now: Date.now(), specialSessions }));
    const range = result.from === null || result.to === null ? '' : ` from ${formatIstDateTime(result.from)} to ${formatIstDateTime(result.to)} IST`;
    print(`${file}: ${result.rows} candles for ${result.instrument.exchange}:${result.instrument.tradingSymbol}${range}; ` +
      `${result.inserted} imported, ${result.duplicates} skipped as duplicates.`);
    return 0;
  } catch (error) {
    return reportFailure(error);
  }
}

/**
 * Legacy bhavcopies carry no lot size: index contracts take it from the dated schedule of
 * @vyuha/market (the lot in force for that trade date and expiry). Stocks have no schedule here,
 * so their lot stays as stored (1 for a new contract) until a UDiFF file or contract master says.
 */
const lotSizeFromSchedule: LotSizeFor = (symbol, tradeDate, expiry) => {
  if (!isOptionUnderlying(symbol) || !isIsoDate(tradeDate) || !isIsoDate(expiry)) return undefined;
  try {
    return lotSize({ symbol, tradeDate, expiry });
  } catch (error) {
    if (error instanceof RangeError) return undefined; // A date the schedule does not reach.
    throw error;
  }
};

async function runImportBhavcopy(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseOptions(args, SPECIAL_SESSIONS_FLAG, true);
  if (positionals.length === 0) throw new UsageError('expected at least one FILE');
  const specialSessions = values['special-sessions'] === true;
  const { importBhavcopy } = await import('../market-data/import-bhavcopy');
  try {
    const result = await withDatabase((database) => importBhavcopy({
      pool: database.pool, files: positionals, lotSizeFor: lotSizeFromSchedule, now: Date.now(), specialSessions,
    }));
    print(`${result.files} bhavcopy file(s), ${result.contracts} contract rows: ${result.eodInserted} end-of-day prices imported, ` +
      `${result.duplicates} skipped as duplicates; ${result.instrumentsCreated} instruments created, ${result.expiriesAdded} expiries added, ` +
      `${result.lotSizesUpdated} lot sizes updated, ${result.ltpsUpdated} last prices updated.`);
    return 0;
  } catch (error) {
    return reportFailure(error);
  }
}

export const importCandlesCommand: CliCommand = {
  name: 'import candles',
  usage: `Usage: vyuha import candles FILE --symbol SYMBOL [--special-sessions]

Imports 1-minute candles from a CSV (datetime,open,high,low,close,volume[,oi] and common variants;
times without a zone are IST) for one instrument, named by trading symbol or index name
(NIFTY, "NIFTY 50", BANKNIFTY, NSE:SENSEX ...). All or nothing; importing again changes nothing.

Each bar is stamped with its opening minute and must open inside a session of the instrument's
exchange (NSE, NFO, BSE, BFO: 09:15 to 15:29) on a day it trades, and not in the future: a bar
at 03:00, on a weekend or a holiday, or after now refuses the file.
  --special-sessions   also accept bars of the special sessions listed in the market calendar
                       (muhurat, weekend budget days, DR drills), within their hours
Errors print as FILE:line:column: reason, with exit code 1.
`,
  run: runImportCandles,
};

export const importBhavcopyCommand: CliCommand = {
  name: 'import bhavcopy',
  usage: `Usage: vyuha import bhavcopy FILE... [--special-sessions]

Imports NSE F&O bhavcopies (legacy fo*bhav.csv to 8-Jul-2024, UDiFF BhavCopy_NSE_FO_*.csv from
then on; .csv or .zip): end-of-day prices, missing instruments, expiries and last prices.
All files or none; importing again changes nothing. A file dated on a weekend, a holiday or
after today is refused.
  --special-sessions   also accept files of special sessions listed in the market calendar
                       (muhurat, weekend budget days)
Errors print as FILE:line:column: reason, with exit code 1.
`,
  run: runImportBhavcopy,
};
