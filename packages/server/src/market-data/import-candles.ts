// `vyuha import candles FILE --symbol S`: one vendor CSV of 1-minute candles for one instrument.

import { readFile } from 'node:fs/promises';
import { parseCandleCsv } from '@vyuha/market';
import type pg from 'pg';
import { writeCandles } from './candle-store';
import { ImportError, inFile } from './import-errors';
import { resolveInstrument, type InstrumentRef } from './instrument-lookup';

export interface ImportCandlesInput {
  readonly pool: pg.Pool;
  /** Path of the CSV file. */
  readonly file: string;
  /** Trading symbol or index name of the instrument the candles belong to. */
  readonly symbol: string;
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

/**
 * Parses and stores a candle CSV with source 'import'; all or nothing, and idempotent.
 * Throws ImportError (line:column issues) or UnknownInstrumentError, having written nothing.
 */
export async function importCandles(input: ImportCandlesInput): Promise<ImportCandlesResult> {
  const instrument = await resolveInstrument(input.pool, input.symbol);
  const parsed = parseCandleCsv(await readFile(input.file, 'utf8'), { requireWholeMinutes: true });
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
