// `vyuha backtest --data`: a candle CSV file as candles or as the engine's bar series. A plain file
// (what readPlainCandleBytes in market reads) is read from its bytes a chunk at a time, never held
// whole nor decoded; any other file goes through parseCandleCsv on its text, which alone reports
// issues (line:column). Either way the result is what parseCandleCsv (then seriesOf) gives.
import { closeSync, openSync, readSync } from 'node:fs';
import { ok, type Result } from '@vyuha/core';
import type { BarSeries } from '@vyuha/engine';
import { createPlainCandleReader, createPlainRupeeCandleReader, NOT_PLAIN, parseCandleCsv } from '@vyuha/market';
import type { CandleColumns, ParseIssue, PlainCandleReader, RupeeCandleColumns } from '@vyuha/market';
import { seriesOf, seriesOfRupees } from '../backtest/series';
import { dateRange, readNamed, readText, selectCandles, type Values } from './backtest-cli';

const LF = 10;
/** Bytes read from a file at a time; a longer line sends the file to parseCandleCsv. */
const CHUNK_BYTES = 1 << 20;

/**
 * The candles of a CSV file, or its issues; a missing file names `option`.
 * @example readCandleFile('bars.csv', '--data') // { ok: true, value: { length: 937500, ... } }
 */
export function readCandleFile(path: string, option: string): Result<CandleColumns, ParseIssue[]> {
  const plain = readNamed(path, option, () => readPlainFile(path, createPlainCandleReader));
  return plain === undefined ? parseCandleCsv(readText(path, option)) : ok(plain);
}

/**
 * The bar series of `--data` within --from/--to, aggregated to --interval, or the file's issues.
 * Without --interval a plain file goes straight into rupee columns (no paise columns in between).
 * @example barSeriesOfFile('bars.csv', { from: '2024-01-01' }) // { ok: true, value: { length: 375, ... } }
 */
export function barSeriesOfFile(path: string, values: Values): Result<BarSeries, ParseIssue[]> {
  if (values.interval === undefined) {
    const plain = readNamed(path, '--data', () => readPlainFile(path, createPlainRupeeCandleReader));
    if (plain !== undefined) {
      const { first, end } = dateRange(plain.time, values);
      const cut = (column: Float64Array): Float64Array => column.subarray(first, end);
      const { time, open, high, low, close, volume, oi } = plain;
      const sliced: RupeeCandleColumns = {
        length: end - first, time: cut(time), open: cut(open), high: cut(high), low: cut(low), close: cut(close), volume: cut(volume),
        ...(oi === undefined ? {} : { oi: cut(oi) }),
      };
      return ok(seriesOfRupees(sliced));
    }
  }
  const parsed = readCandleFile(path, '--data');
  return parsed.ok ? ok(seriesOf(selectCandles(parsed.value, values))) : parsed;
}

/** The file through a byte reader (two passes: count the lines, then read), or undefined when it is not plain. */
export function readPlainFile<Candles>(path: string, createReader: (lineCount: number) => PlainCandleReader<Candles>): Candles | undefined {
  const file = openSync(path, 'r');
  try {
    const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    const reader = createReader(linesOf(file, chunk));
    let kept = 0;
    let offset = 0;
    for (;;) {
      const size = readSync(file, chunk, kept, CHUNK_BYTES - kept, offset);
      offset += size;
      const end = kept + size;
      const used = reader.read(chunk, end, size === 0);
      if (used === NOT_PLAIN || (used === 0 && end === CHUNK_BYTES)) return undefined;
      if (size === 0) return reader.finish();
      chunk.copyWithin(0, used, end);
      kept = end - used;
    }
  } finally {
    closeSync(file);
  }
}

/** How many lines an open file has, a last line without LF included. */
function linesOf(file: number, chunk: Buffer): number {
  let lines = 0;
  let lastByte = LF;
  let offset = 0;
  for (let size = readSync(file, chunk, 0, CHUNK_BYTES, 0); size > 0; size = readSync(file, chunk, 0, CHUNK_BYTES, offset)) {
    offset += size;
    const view = chunk.subarray(0, size);
    for (let index = view.indexOf(LF); index !== -1; index = view.indexOf(LF, index + 1)) lines += 1;
    lastByte = view[size - 1] as number;
  }
  return lastByte === LF ? lines : lines + 1;
}
