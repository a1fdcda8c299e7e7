import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCandleCsv, type CandleColumns, type CandleCsvOptions } from './candle-csv';
import { createPlainCandleReader, createPlainRupeeCandleReader, NOT_PLAIN, readPlainCandleBytes } from './candle-csv-bytes';
import type { SessionRules } from './session-check';

// The byte reader must either give up (undefined: the caller runs parseCandleCsv on the text) or
// give exactly parseCandleCsv's candles for the UTF-8 text of the same bytes, whole or in chunks.

/** UTF-8 bytes of a text (code points up to U+FFFF are enough here). */
function utf8(text: string): Uint8Array {
  const bytes: number[] = [];
  for (const character of text) {
    const code = character.codePointAt(0) as number;
    if (code < 0x80) bytes.push(code);
    else if (code < 0x800) bytes.push(0xc0 | (code >> 6), 0x80 | (code & 0x3f));
    else bytes.push(0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f));
  }
  return Uint8Array.from(bytes);
}

/** Lines of a file, a last line without LF included. */
function linesOf(bytes: Uint8Array): number {
  let lines = bytes.length === 0 || bytes[bytes.length - 1] === 10 ? 0 : 1;
  for (const byte of bytes) if (byte === 10) lines += 1;
  return lines;
}

/** The file fed to a reader `chunkSize` bytes at a time, the unfinished line carried over, as the CLI reads a file. */
function readInChunks(bytes: Uint8Array, chunkSize: number, options: CandleCsvOptions = {}): CandleColumns | undefined {
  const reader = createPlainCandleReader(linesOf(bytes), options);
  const chunk = new Uint8Array(chunkSize);
  let kept = 0;
  let offset = 0;
  for (;;) {
    const size = Math.min(chunkSize - kept, bytes.length - offset);
    chunk.set(bytes.subarray(offset, offset + size), kept);
    offset += size;
    const end = kept + size;
    const used = reader.read(chunk, end, size === 0);
    if (used === NOT_PLAIN || (used === 0 && end === chunkSize)) return undefined;
    if (size === 0) return reader.finish();
    chunk.copyWithin(0, used, end);
    kept = end - used;
  }
}

/** The byte reader's answer, whole and in chunks, checked against parseCandleCsv; true when it read the file. */
function agrees(text: string, options: CandleCsvOptions = {}, bytes: Uint8Array = utf8(text)): boolean {
  const careful = parseCandleCsv(text, options);
  const whole = readPlainCandleBytes(bytes, options);
  const chunked = [7, 64, 1000].map((size) => readInChunks(bytes, size, options));
  // A chunk shorter than a line gives up on the file; 1000 bytes hold every line here.
  expect(chunked[2] === undefined).toBe(whole === undefined);
  for (const answer of [whole, ...chunked]) if (answer !== undefined) expect(careful).toEqual({ ok: true, value: answer });
  // The rupee reader reads the same files, its prices paise / 100 (what seriesOf makes of them).
  const rupeeReader = createPlainRupeeCandleReader(linesOf(bytes), options);
  const rupees = rupeeReader.read(bytes, bytes.length, true) === NOT_PLAIN ? undefined : rupeeReader.finish();
  expect(rupees === undefined).toBe(whole === undefined);
  if (rupees !== undefined && whole !== undefined) {
    const inRupees = (column: Int32Array): Float64Array => Float64Array.from(column, (paise) => paise / 100);
    expect(rupees).toEqual({ ...whole, open: inRupees(whole.open), high: inRupees(whole.high), low: inRupees(whole.low), close: inRupees(whole.close) });
  }
  return whole !== undefined;
}

const HEADER = 'datetime,open,high,low,close,volume';

describe('the byte reader', () => {
  it('reads a plain file as parseCandleCsv does, with LF or CRLF, a BOM, blank lines and no last newline', () => {
    const rows = ['2024-01-05 09:15,100,101,99,100.5,10', '2024-01-05 09:16:00,100.5,102.25,100,101.10,0', '2024-01-05T09:17,101,101,101,101,3.0'];
    expect(agrees(`${HEADER}\n${rows.join('\n')}\n`)).toBe(true);
    expect(agrees(`${HEADER}\r\n${rows.join('\r\n')}\r\n`)).toBe(true);
    expect(agrees(`\uFEFF${HEADER}\n${rows.join('\n')}`)).toBe(true);
    expect(agrees(`\n\r\n${HEADER}\n\n${rows[0]}\n\r\n${rows[1]}\n\n\n${rows[2]}\n\n`)).toBe(true);
    expect(agrees(`${HEADER}\n`)).toBe(true);
    expect(readPlainCandleBytes(utf8(`${HEADER}\r\n${rows.join('\r\n')}`))?.close[1]).toBe(10_110);
  });

  it('reads other headers the careful parser accepts: case, column order, aliases, no volume, oi, date and time apart', () => {
    expect(agrees('DateTime,Close,Open,Low,High\n2024-01-05 09:15,100.5,100,99,101\n2024-01-05 09:16,100,100.5,99.5,101\n')).toBe(true);
    expect(agrees('symbol,ts,o,h,l,c,v,oi\nNIFTY é,1704426300000,100,101,99,100,5,1200\nx,1704426360,100,101,99,100,6,1300\n')).toBe(true);
    expect(agrees('Date,Time,Open,High,Low,Close,Volume\n2024-01-05,09:15,100,101,99,100,1\n2024-01-05,09:16:30,100,101,99,100,1\n')).toBe(true);
    const withOi = readPlainCandleBytes(utf8('datetime,open,high,low,close,open interest\n2024-01-05 09:15,1,1,1,1,42\n'));
    expect(withOi?.oi?.[0]).toBe(42);
    expect([...(withOi?.volume ?? [])]).toEqual([0]);
  });

  it('reads timestamps in forms it does not do by hand through the careful readers (zones, fractions)', () => {
    expect(agrees(`${HEADER}\n2024-01-05T09:15:00+05:30,1,1,1,1,0\n2024-01-05T03:46:00Z,1,1,1,1,0\n2024-01-05 09:17:00.500,1,1,1,1,0\n`)).toBe(true);
  });

  it('gives up on anything the careful parser reads otherwise or refuses, so its issues (line:column) come from there', () => {
    const giveUp = [
      `${HEADER}\n"2024-01-05 09:15",1,1,1,1,0\n`, `${HEADER}\n2024-01-05 09:15, 1,1,1,1,0\n`, `${HEADER}\n2024-01-05 09:15,1,1,1,1\n`,
      `${HEADER}\n2024-01-05 09:15,1,2,1,1,0\n2024-01-05 09:15,1,1,1,1,0\n`, `${HEADER}\n2024-01-05 09:15,1,0.5,1,1,0\n`,
      `${HEADER}\n2024-01-05 09:15,1.005,2,1,1,0\n`, `${HEADER}\n2024-02-30 09:15,1,1,1,1,0\n`, `${HEADER}\n2024-01-05 09:15,1,1,1,1,-2\n`,
      'time,price\n09:15,1\n', '', '\n\n', `datetime,open,high,low,close,clôse\n2024-01-05 09:15,1,1,1,1,0\n`, `${HEADER}\n2024-01-05 09:15,١,1,1,1,0\n`,
    ];
    for (const text of giveUp) expect(agrees(text), text).toBe(false);
  });

  it('never disagrees with parseCandleCsv on generated rows, with or without whole-minute checks', () => {
    const two = (n: number): string => String(n).padStart(2, '0');
    const stamp = fc.oneof(
      fc.tuple(fc.integer({ min: 1, max: 31 }), fc.integer({ min: 0, max: 24 }), fc.integer({ min: 0, max: 60 }), fc.constantFrom('', ':00', ':30', ':60'), fc.constantFrom(' ', 'T', '  '))
        .map(([day, hour, minute, seconds, separator]) => `2024-01-${two(day)}${separator}${two(hour)}:${two(minute)}${seconds}`),
      fc.integer({ min: 1_704_000_000, max: 1_707_000_000 }).map((seconds) => String(seconds)),
    );
    const price = fc.oneof(
      fc.integer({ min: 1, max: 500_000 }).map((paise) => `${Math.floor(paise / 100)}.${two(paise % 100)}`),
      fc.constantFrom('100', '100.5', '100.500', '100.005', '.5', '5.', '0', '', 'x', '99999999999'),
    );
    const row = fc.tuple(stamp, price, price, price, price, fc.constantFrom('0', '12', '12.0', '', '1e3'), fc.constantFrom('x', 'é', ''));
    const ending = fc.constantFrom('\n', '\r\n');
    fc.assert(fc.property(fc.array(row, { maxLength: 25 }), ending, fc.boolean(), (rows, newline, requireWholeMinutes) => {
      const lines = [`${HEADER},symbol`, ...rows.map((cells) => cells.join(','))];
      agrees(lines.join(newline) + newline, { requireWholeMinutes });
    }), { numRuns: 300 });
  });

  it('reads generated plain files of rising minutes, in any chunk size that holds a line', () => {
    const minutes = fc.array(fc.tuple(fc.integer({ min: 1, max: 400 }), fc.integer({ min: 100, max: 5_000_000 }), fc.nat({ max: 900 })), { minLength: 1, maxLength: 60 });
    // Session rules refuse some of these bars (nights, a weekend, the future): then the reader gives up.
    const sessions = fc.option(fc.record({ exchange: fc.constantFrom<SessionRules['exchange']>('NSE', 'CDS'), now: fc.constant(Date.UTC(2024, 0, 15)), specialSessions: fc.boolean() }), { nil: undefined });
    fc.assert(fc.property(minutes, sessions, (steps, rules) => {
      let minute = 0;
      const two = (n: number): string => String(n).padStart(2, '0');
      const rupees = (paise: number): string => `${Math.floor(paise / 100)}.${two(paise % 100)}`;
      const lines = steps.map(([step, paise, spread]) => {
        minute += step;
        const day = 5 + Math.floor(minute / 1440);
        const stamp = `2024-01-${two(day)} ${two(Math.floor((minute % 1440) / 60))}:${two(minute % 60)}`;
        return `${stamp},${rupees(paise)},${rupees(paise + spread)},${rupees(Math.max(1, paise - spread))},${rupees(paise)},${spread}`;
      });
      const read = agrees([HEADER, ...lines].join('\n'), rules === undefined ? {} : { sessions: rules });
      if (rules === undefined) expect(read).toBe(true);
    }), { numRuns: 100 });
  });

  it('gives up when the file has more rows than the lines it was told of (a file that grew while read)', () => {
    const bytes = utf8(`${HEADER}\n2024-01-05 09:15,1,1,1,1,0\n2024-01-05 09:16,1,1,1,1,0\n`);
    expect(createPlainCandleReader(2).read(bytes, bytes.length, true)).toBe(NOT_PLAIN);
    const reader = createPlainCandleReader(3);
    expect(reader.read(bytes, bytes.length, true)).toBe(bytes.length);
    expect(reader.finish().length).toBe(2);
  });
});
