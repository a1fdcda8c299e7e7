// `vyuha import candles FILE --symbol S`: one vendor CSV of 1-minute candles for one instrument.
// Every bar must open inside a session of the instrument's exchange and not after `now`
// (@vyuha/market session-check.ts); special sessions of the calendar only when asked for.

import { readFile } from 'node:fs/promises';
import { parseCandleCsv, SESSION_EXCHANGES, type SessionExchange } from '@vyuha/market';
import type pg from 'pg';
import { writeCandles } from './candle-store';
import { ImportError, ImportRefusedError, inFile } from './import-errors';
import { resolveInstrument, type InstrumentRef } from './instrument-lookup';

export interface ImportCandlesInput {
  readonly pool: pg.Pool;
  /** Path of the CSV file. */
  readonly file: string;
  /** Trading symbol or index name of the instrument the candles belong to. */
  readonly symbol: string;
  /** The wall clock, epoch ms: bars after it are refused. */
  readonly now: number;
  /** Accept bars of special sessions listed in the calendar (muhurat, weekend budget days, DR drills). */
  readonly specialSessions?: boolean;
}

export interface ImportCandlesResult {
  readonly instrument: InstrumentRef;
  /** Candle rows in the file. */
  readonly rows: number;
  readonly inserted: number;
  /** Rows already stored for that instrument and minute (left as they were). */
  readonly duplicates: number;
  /** First and last candle time (epoch ms), or null for a file with a header only. */
  readonly from: number | null;
  readonly to: number | null;
}

function sessionExchangeOf(instrument: InstrumentRef): SessionExchange {
  const exchange = SESSION_EXCHANGES.find((candidate) => candidate === instrument.exchange);
  if (exchange === undefined) {
    throw new ImportRefusedError(`${instrument.exchange}:${instrument.tradingSymbol}: ${instrument.exchange} has no session calendar here ` +
      `(calendars: ${SESSION_EXCHANGES.join(', ')}), so its bars cannot be checked`);
  }
  return exchange;
}

/**
 * Parses and stores a candle CSV with source 'import'; all or nothing, and idempotent.
 * Throws ImportError (line:column issues), ImportRefusedError or UnknownInstrumentError, having written nothing.
 */
export async function importCandles(input: ImportCandlesInput): Promise<ImportCandlesResult> {
  const instrument = await resolveInstrument(input.pool, input.symbol);
  const sessions = { exchange: sessionExchangeOf(instrument), now: input.now, specialSessions: input.specialSessions === true };
  const parsed = parseCandleCsv(await readFile(input.file, 'utf8'), { requireWholeMinutes: true, sessions });
  if (!parsed.ok) throw new ImportError(inFile(input.file, parsed.error));
  const candles = parsed.value;
  const written = await writeCandles(input.pool, { instrumentId: instrument.instrumentId, candles, source: 'import' });
  return {
    instrument,
    rows: candles.length,
    ...written,
    from: candles.length > 0 ? (candles.time[0] as number) : null,
    to: candles.length > 0 ? (candles.time[candles.length - 1] as number) : null,
  };
}
