import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { formatIstDateTime, paiseToRupeesText } from '@vyuha/core';
import type { BacktestResult } from '@vyuha/engine';
import { createPlainCandleReader, parseCandleCsv } from '@vyuha/market';
import { seriesOf } from '../src/backtest/series';
import { selectCandles, tradesCsv, type Values } from '../src/commands/backtest-cli';
import { barSeriesOfFile, readCandleFile, readPlainFile } from '../src/commands/backtest-data';

// `vyuha backtest --data` reads a plain file from its bytes, a chunk at a time; every other file
// goes through parseCandleCsv on its text, as before. Either way the candles, or the issues with
// line:column, must be exactly what parseCandleCsv gives on the file's text.

const folder = mkdtempSync(join(tmpdir(), 'vyuha-candle-file-'));
afterAll(() => {
  rmSync(folder, { recursive: true, force: true });
});

function file(name: string, content: string | Uint8Array): string {
  const path = join(folder, name);
  writeFileSync(path, content);
  return path;
}

/** Whether two typed arrays hold the same bytes (NaN included), quicker than toEqual on 20k values. */
function sameBytes(mine: Float64Array | Int32Array, theirs: Float64Array | Int32Array): boolean {
  return mine.constructor === theirs.constructor && Buffer.from(mine.buffer, mine.byteOffset, mine.byteLength).equals(Buffer.from(theirs.buffer, theirs.byteOffset, theirs.byteLength));
}

/** What the command read before: parseCandleCsv on the file's UTF-8 text. */
function careful(path: string): ReturnType<typeof parseCandleCsv> {
  return parseCandleCsv(readFileSync(path, 'utf8'));
}

/** Minutes of a seeded random walk from 2024-01-01 09:15 IST, `sessions` days of 375 bars, LF or CRLF. */
function walk(sessions: number, newline: string): string {
  let state = 7;
  let price = 2_000_000;
  const lines = ['Date_Time,Open,High,Low,Close,Volume'];
  const two = (n: number): string => String(n).padStart(2, '0');
  for (let day = 0; day < sessions; day += 1) {
    for (let minute = 0; minute < 375; minute += 1) {
      state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
      const open = price;
      price = Math.max(100, price + (state % 1_001) - 500);
      const high = Math.max(open, price) + (state % 37);
      const low = Math.min(open, price) - (state % 41);
      const total = 9 * 60 + 15 + minute;
      const stamp = `${new Date(Date.UTC(2024, 0, 1 + day)).toISOString().slice(0, 10)} ${two(Math.floor(total / 60))}:${two(total % 60)}${minute % 2 === 0 ? '' : ':00'}`;
      lines.push(`${stamp},${paiseToRupeesText(open)},${paiseToRupeesText(high)},${paiseToRupeesText(low)},${paiseToRupeesText(price)},${state % 1000}`);
    }
  }
  return `${lines.join(newline)}${newline}`;
}

describe('reading a --data file', () => {
  it('gives parseCandleCsv\'s candles for a plain file of several chunks, LF or CRLF', () => {
    for (const newline of ['\n', '\r\n']) {
      const text = walk(60, newline);
      expect(text.length).toBeGreaterThan(2 ** 20);
      const path = file(`walk-${newline.length}.csv`, text);
      const read = readCandleFile(path, '--data');
      const expected = careful(path);
      if (!read.ok || !expected.ok) throw new Error('both should read the file');
      expect(read.value.length).toBe(22_500);
      expect(readPlainFile(path, createPlainCandleReader)?.length, 'read by the byte reader').toBe(22_500);
      expect(Object.keys(read.value).sort()).toEqual(Object.keys(expected.value).sort());
      for (const column of ['time', 'open', 'high', 'low', 'close', 'volume'] as const) expect(sameBytes(read.value[column], expected.value[column]), column).toBe(true);
    }
  });

  it('gives the same candles for odd but valid files the byte reader leaves to parseCandleCsv', () => {
    const odd = [
      'datetime,open,high,low,close\n"2024-01-05 09:15",100,101,99,100\n2024-01-05 09:16, 100 ,101,99,100\n',
      `symbol,datetime,open,high,low,close,volume\nx,2024-01-05 09:15,100,101,99,100,1\n${'y'.repeat(1_100_000)},2024-01-05 09:16,100,101,99,100,2\n`,
      'dátum,datetime,open,high,low,close\né,2024-01-05 09:15,100,101,99,100\n',
    ];
    odd.forEach((text, index) => {
      const path = file(`odd-${index}.csv`, text);
      const read = readCandleFile(path, '--data');
      expect(read.ok, text.slice(0, 60)).toBe(true);
      expect(readPlainFile(path, createPlainCandleReader), 'left to parseCandleCsv').toBeUndefined();
      expect(read).toEqual(careful(path));
    });
  });

  it('reports a bad file with the same issues at the same line:column, also with malformed UTF-8', () => {
    const bad: Array<string | Uint8Array> = [
      'datetime,open,high,low,close,volume\n2024-01-05 09:15,100,101,99,100,1\n2024-01-05 09:15,100,99,99,100,1\n2024-01-05 09:14,1x,1,1,1,1\n',
      'datetime,open,high,low,close,volume\r\n2024-01-05 09:15,100,101,99,100\r\n',
      'date,price\n2024-01-05,100\n',
      '',
      Uint8Array.from([...Buffer.from('datetime,open,high,low,close\n2024-01-05 09:15,'), 0xc3, 0x28, 0xe2, 0x82, ...Buffer.from(',101,99,100\n')]),
    ];
    bad.forEach((content, index) => {
      const path = file(`bad-${index}.csv`, content);
      const read = readCandleFile(path, '--data');
      expect(read.ok).toBe(false);
      expect(read).toEqual(careful(path));
    });
  });

  it('gives the bar series the command ran before (seriesOf the selected candles), with --from/--to and --interval', () => {
    const plain = file('walk-series.csv', walk(30, '\n'));
    const odd = file('odd-series.csv', `${walk(3, '\n').replace('\n2024-01-02 09:15,', '\n2024-01-02 09:15 ,')}`);
    const choices: Values[] = [{}, { from: '2024-01-10', to: '2024-02-03' }, { to: '2024-01-01' }, { from: '2024-03-01' }, { interval: '5', from: '2024-01-02' }, { interval: '1' }];
    for (const path of [plain, odd]) {
      const expected = careful(path);
      if (!expected.ok) throw new Error('the file should parse');
      for (const values of choices) {
        const before = seriesOf(selectCandles(expected.value, values));
        const now = barSeriesOfFile(path, values);
        if (!now.ok) throw new Error('the file should read');
        expect(now.value.length, JSON.stringify(values)).toBe(before.length);
        for (const column of ['time', 'open', 'high', 'low', 'close', 'volume', 'oi'] as const) {
          expect(sameBytes(now.value[column], before[column]), `${column} ${JSON.stringify(values)}`).toBe(true);
        }
      }
    }
    expect(barSeriesOfFile(file('bad-series.csv', 'datetime,open,high,low,close\n2024-01-05 09:15,1,0.5,1,1\n'), {})).toEqual(parseCandleCsv('datetime,open,high,low,close\n2024-01-05 09:15,1,0.5,1,1\n'));
  });

  it('names the option when the file is missing', () => {
    expect(() => readCandleFile(join(folder, 'absent.csv'), '--data')).toThrow(`--data ${join(folder, 'absent.csv')}: no such file`);
  });
});

describe('the trades CSV', () => {
  it('writes each fill time as formatIstDateTime does, across days, seconds and milliseconds', () => {
    const times = [Date.UTC(2024, 0, 5, 3, 45), Date.UTC(2024, 0, 5, 3, 45, 59, 999), Date.UTC(2024, 0, 5, 18, 29, 30), Date.UTC(2024, 0, 5, 18, 30), Date.UTC(1999, 11, 31, 18, 29, 59, 1)];
    const fills = times.map((time, index) => ({ time, side: index % 2 === 0 ? 'buy' : 'sell', quantity: 3, price: 10_005 + index, chargesTotal: index, reason: 'signal' }));
    const lines = tradesCsv({ fills } as unknown as BacktestResult).trimEnd().split('\n');
    expect(lines.slice(1).map((line) => line.split(',')[0])).toEqual(times.map((time) => formatIstDateTime(time)));
    expect(lines[2]).toBe(`${formatIstDateTime(times[1] as number)},SELL,3,100.06,0.01,signal`);
  });
});
