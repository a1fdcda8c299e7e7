import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { importCandlesCommand } from '../src/commands/import';
import { ImportError, ImportRefusedError } from '../src/market-data/import-errors';
import { importCandles } from '../src/market-data/import-candles';
import { UnknownInstrumentError } from '../src/market-data/instrument-lookup';
import { freshDatabase, useCommandDatabase, type TestDatabase } from './helpers/db';

const fixtures = join(import.meta.dirname, 'fixtures');
const good = join(fixtures, 'candles-nifty.csv');
const bad = join(fixtures, 'candles-bad.csv');
/** The wall clock the imports see: 2025-01-15 11:30 IST. */
const NOW = Date.UTC(2025, 0, 15, 6, 0);
const HEADER = 'datetime,open,high,low,close,volume';

/** Writes candle rows (one bar each, `YYYY-MM-DD HH:mm` IST) to a scratch file. */
async function candleFile(folder: string, name: string, stamps: readonly string[]): Promise<string> {
  const path = join(folder, name);
  await writeFile(path, [HEADER, ...stamps.map((stamp) => `${stamp},21705.10,21720.00,21700.00,21712.35,0`)].join('\n'));
  return path;
}

describe('importCandles', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await freshDatabase({ seeded: true });
  });
  afterAll(() => db.close());

  const countFor = async (symbol: string): Promise<number> => {
    const { rows } = await db.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM candles JOIN instruments USING (instrument_id) WHERE trading_symbol = $1`, [symbol]);
    return rows[0]!.n;
  };

  it('resolves an index by its name, stores the rows as source import, and is idempotent', async () => {
    const first = await importCandles({ pool: db.pool, now: NOW, file: good, symbol: 'nifty 50' });
    expect(first).toMatchObject({ rows: 6, inserted: 6, duplicates: 0, instrument: { exchange: 'NSE', tradingSymbol: 'NIFTY' } });
    // 2024-01-05 09:15 IST = 03:45 UTC.
    expect(first.from).toBe(Date.UTC(2024, 0, 5, 3, 45));
    const second = await importCandles({ pool: db.pool, now: NOW, file: good, symbol: 'NIFTY' });
    expect(second).toMatchObject({ rows: 6, inserted: 0, duplicates: 6 });
    expect(await countFor('NIFTY')).toBe(6);
    const { rows } = await db.pool.query(
      `SELECT open_paise, high_paise, low_paise, close_paise, source::text FROM candles c JOIN instruments i USING (instrument_id)
       WHERE i.trading_symbol = 'NIFTY' ORDER BY ts LIMIT 1`);
    expect(rows[0]).toEqual({ open_paise: 2_170_510, high_paise: 2_172_000, low_paise: 2_170_000, close_paise: 2_171_235, source: 'import' });
  });

  it('refuses a bad file with FILE:line:column issues and writes nothing', async () => {
    const error = await importCandles({ pool: db.pool, now: NOW, file: bad, symbol: 'BANKNIFTY' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportError);
    expect((error as ImportError).message.split('\n')).toEqual([
      `${bad}:3:30: high 21705.50 is below open 21712.35`,
      `${bad}:4:1: time 2024-01-05 09:16:00 repeats line 3`,
    ]);
    expect(await countFor('BANKNIFTY')).toBe(0);
  });

  it('refuses bars at 03:00, on a Sunday, on a holiday and in 2031, each as FILE:line:column: rule, and writes nothing', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'vyuha-candles-'));
    try {
      const impossible = await candleFile(folder, 'impossible.csv', [
        '2024-01-05 09:15', '2024-01-06 03:00', '2024-01-07 10:00', '2024-01-26 10:00', '2024-01-29 15:30', '2031-01-06 09:15',
      ]);
      const error = await importCandles({ pool: db.pool, now: NOW, file: impossible, symbol: 'FINNIFTY' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ImportError);
      expect((error as ImportError).message.split('\n')).toEqual([
        `${impossible}:3:1: 2024-01-06 is a Saturday, when NSE has no session`,
        `${impossible}:4:1: 2024-01-07 is a Sunday, when NSE has no session`,
        `${impossible}:5:1: 2024-01-26 is a holiday on NSE (Republic Day)`,
        `${impossible}:6:1: 2024-01-29 15:30 is outside the NSE session 09:15-15:30 (a bar is stamped with its opening minute: the last one opens at 15:29)`,
        `${impossible}:7:1: 2031-01-06 09:15 is in the future (now: 2025-01-15 11:30 IST)`,
      ]);
      const night = await candleFile(folder, 'night.csv', ['2024-01-05 03:00']);
      const hours = await importCandles({ pool: db.pool, now: NOW, file: night, symbol: 'FINNIFTY' }).catch((e: unknown) => e);
      expect((hours as Error).message).toBe(`${night}:2:1: 2024-01-05 03:00 is outside the NSE session 09:15-15:30`);
      expect(await countFor('FINNIFTY')).toBe(0);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('accepts a muhurat session only when special sessions are allowed, and then only within its hours', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'vyuha-candles-'));
    try {
      const muhurat = await candleFile(folder, 'muhurat.csv', ['2024-11-01 18:00', '2024-11-01 18:59']);
      const refused = await importCandles({ pool: db.pool, now: NOW, file: muhurat, symbol: 'MIDCPNIFTY' }).catch((e: unknown) => e);
      expect((refused as Error).message.split('\n')[0]).toBe(`${muhurat}:2:1: 2024-11-01 is a holiday on NSE (Diwali Laxmi Pujan (Muhurat trading session held)): ` +
        'its only session is the NSE muhurat session 18:00-19:00; special sessions are refused unless allowed');
      const late = await candleFile(folder, 'late.csv', ['2024-11-01 18:59', '2024-11-01 19:00']);
      const outside = await importCandles({ pool: db.pool, now: NOW, file: late, symbol: 'MIDCPNIFTY', specialSessions: true }).catch((e: unknown) => e);
      expect((outside as Error).message).toBe(`${late}:3:1: 2024-11-01 19:00 is outside the NSE muhurat session 18:00-19:00 ` +
        '(a bar is stamped with its opening minute: the last one opens at 18:59)');
      expect(await countFor('MIDCPNIFTY')).toBe(0);
      const imported = await importCandles({ pool: db.pool, now: NOW, file: muhurat, symbol: 'MIDCPNIFTY', specialSessions: true });
      expect(imported).toMatchObject({ rows: 2, inserted: 2 });
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('refuses an instrument whose exchange has no session calendar, before reading the file', async () => {
    await db.pool.query(`INSERT INTO instruments (exchange, segment, kind, trading_symbol, name, lot_size, tick_size_paise)
      VALUES ('XCBO', 'INDICES', 'index', 'SPX', 'S&P 500', 1, 5) ON CONFLICT DO NOTHING`);
    const error = await importCandles({ pool: db.pool, now: NOW, file: good, symbol: 'XCBO:SPX' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportRefusedError);
    expect((error as Error).message).toBe('XCBO:SPX: XCBO has no session calendar here (calendars: NSE, NFO, BSE, BFO, CDS, BCD), so its bars cannot be checked');
  });

  it('lists close matches for an unknown symbol', async () => {
    const error = await importCandles({ pool: db.pool, now: NOW, file: good, symbol: 'BANKNIFT' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnknownInstrumentError);
    expect((error as Error).message).toMatch(/^unknown instrument "BANKNIFT"; did you mean NSE:BANKNIFTY \(NIFTY BANK\)/);
  });
});

describe('vyuha import candles', () => {
  useCommandDatabase({ seeded: true });
  afterEach(() => vi.restoreAllMocks());

  function capture(): { out: () => string; err: () => string } {
    const stdout = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    return { out: () => stdout.mock.calls.map((c) => String(c[0])).join(''), err: () => stderr.mock.calls.map((c) => String(c[0])).join('') };
  }

  it('prints what it imported, then reports duplicates on a repeat', async () => {
    let output = capture();
    expect(await importCandlesCommand.run([good, '--symbol', 'NIFTY BANK'])).toBe(0);
    expect(output.out()).toBe(`${good}: 6 candles for NSE:BANKNIFTY from 2024-01-05 09:15:00 to 2024-01-05 09:20:00 IST; 6 imported, 0 skipped as duplicates.\n`);
    vi.restoreAllMocks();
    output = capture();
    expect(await importCandlesCommand.run([good, '--symbol', 'BANKNIFTY'])).toBe(0);
    expect(output.out()).toContain('0 imported, 6 skipped as duplicates.');
  });

  it('prints FILE:line:column errors and exits 1', async () => {
    const output = capture();
    expect(await importCandlesCommand.run([bad, '--symbol', 'FINNIFTY'])).toBe(1);
    expect(output.err()).toContain(`${bad}:3:30: high 21705.50 is below open 21712.35\n`);
    expect(output.err()).toContain('Nothing was imported.');
  });

  it('refuses a muhurat file with a hint naming --special-sessions, then imports it with the flag', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'vyuha-candles-cli-'));
    try {
      const muhurat = await candleFile(folder, 'muhurat.csv', ['2024-11-01 18:00', '2024-11-01 18:01']);
      let output = capture();
      expect(await importCandlesCommand.run([muhurat, '--symbol', 'NIFTY'])).toBe(1);
      expect(output.err()).toContain('are imported with --special-sessions.\nNothing was imported.\n');
      vi.restoreAllMocks();
      output = capture();
      expect(await importCandlesCommand.run([muhurat, '--symbol', 'NIFTY', '--special-sessions'])).toBe(0);
      expect(output.out()).toContain('2 imported, 0 skipped as duplicates.');
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('needs --symbol and exactly one file', async () => {
    await expect(importCandlesCommand.run([good])).rejects.toThrow('--symbol is required');
    await expect(importCandlesCommand.run(['--symbol', 'NIFTY'])).rejects.toThrow('expected one FILE, got 0');
  });
});
