import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { importCandlesCommand } from '../src/commands/import';
import { ImportError } from '../src/market-data/import-errors';
import { importCandles } from '../src/market-data/import-candles';
import { UnknownInstrumentError } from '../src/market-data/instrument-lookup';
import { freshDatabase, useCommandDatabase, type TestDatabase } from './helpers/db';

const fixtures = join(import.meta.dirname, 'fixtures');
const good = join(fixtures, 'candles-nifty.csv');
const bad = join(fixtures, 'candles-bad.csv');

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
    const first = await importCandles({ pool: db.pool, file: good, symbol: 'nifty 50' });
    expect(first).toMatchObject({ rows: 6, inserted: 6, duplicates: 0, instrument: { exchange: 'NSE', tradingSymbol: 'NIFTY' } });
    // 2024-01-05 09:15 IST = 03:45 UTC.
    expect(first.from).toBe(Date.UTC(2024, 0, 5, 3, 45));
    const second = await importCandles({ pool: db.pool, file: good, symbol: 'NIFTY' });
    expect(second).toMatchObject({ rows: 6, inserted: 0, duplicates: 6 });
    expect(await countFor('NIFTY')).toBe(6);
    const { rows } = await db.pool.query(
      `SELECT open_paise, high_paise, low_paise, close_paise, source::text FROM candles c JOIN instruments i USING (instrument_id)
       WHERE i.trading_symbol = 'NIFTY' ORDER BY ts LIMIT 1`);
    expect(rows[0]).toEqual({ open_paise: 2_170_510, high_paise: 2_172_000, low_paise: 2_170_000, close_paise: 2_171_235, source: 'import' });
  });

  it('refuses a bad file with FILE:line:column issues and writes nothing', async () => {
    const error = await importCandles({ pool: db.pool, file: bad, symbol: 'BANKNIFTY' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportError);
    expect((error as ImportError).message.split('\n')).toEqual([
      `${bad}:3:30: high 21705.50 is below open 21712.35`,
      `${bad}:4:1: time 2024-01-05 09:16:00 repeats line 3`,
    ]);
    expect(await countFor('BANKNIFTY')).toBe(0);
  });

  it('lists close matches for an unknown symbol', async () => {
    const error = await importCandles({ pool: db.pool, file: good, symbol: 'BANKNIFT' }).catch((e: unknown) => e);
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

  it('needs --symbol and exactly one file', async () => {
    await expect(importCandlesCommand.run([good])).rejects.toThrow('--symbol is required');
    await expect(importCandlesCommand.run(['--symbol', 'NIFTY'])).rejects.toThrow('expected one FILE, got 0');
  });
});
