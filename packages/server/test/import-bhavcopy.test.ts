import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { importBhavcopyCommand } from '../src/commands/import';
import { contractSymbol } from '../src/market-data/bhavcopy-rows';
import { importBhavcopy } from '../src/market-data/import-bhavcopy';
import { ImportError } from '../src/market-data/import-errors';
import { freshDatabase, useCommandDatabase, type TestDatabase } from './helpers/db';

const fixtures = join(import.meta.dirname, 'fixtures');
const legacy = join(fixtures, 'bhavcopy-legacy.csv');
const udiff = join(fixtures, 'bhavcopy-udiff.csv');
/** The wall clock the imports see: 2025-01-15 11:30 IST. */
const NOW = Date.UTC(2025, 0, 15, 6, 0);

describe('importBhavcopy', () => {
  let db: TestDatabase;
  let scratch: string;
  beforeAll(async () => {
    db = await freshDatabase({ seeded: true });
    scratch = await mkdtemp(join(tmpdir(), 'vyuha-bhavcopy-'));
  });
  afterAll(async () => {
    await db.close();
    await rm(scratch, { recursive: true, force: true });
  });

  const count = async (sql: string): Promise<number> => (await db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`)).rows[0]!.n;

  it('imports a legacy file: contracts under the seeded NIFTY, a new RELIANCE equity, expiries, prices', async () => {
    const before = await count('instruments');
    const result = await importBhavcopy({ pool: db.pool, now: NOW, files: [legacy], lotSizeFor: (symbol) => (symbol === 'NIFTY' ? 50 : undefined) });
    // 8 contract rows: RELIANCE (equity) + 8 contracts are new; NIFTY is the seeded index.
    expect(result).toMatchObject({ files: 1, contracts: 8, instrumentsCreated: 9, eodInserted: 8, duplicates: 0 });
    expect(await count('instruments') - before).toBe(9);
    const { rows: nifty } = await db.pool.query(
      `SELECT c.trading_symbol, c.exchange, c.segment, c.lot_size, c.tick_size_paise, c.strike_paise::int AS strike
       FROM instruments c JOIN instruments u ON u.instrument_id = c.underlying_instrument_id
       WHERE u.trading_symbol = 'NIFTY' AND u.kind = 'index' ORDER BY c.trading_symbol`);
    expect(nifty).toEqual([
      { trading_symbol: 'NIFTY2432122000CE', exchange: 'NFO', segment: 'OPT', lot_size: 50, tick_size_paise: 5, strike: 2_200_000 },
      { trading_symbol: 'NIFTY2432122000PE', exchange: 'NFO', segment: 'OPT', lot_size: 50, tick_size_paise: 5, strike: 2_200_000 },
      { trading_symbol: 'NIFTY2440422000CE', exchange: 'NFO', segment: 'OPT', lot_size: 50, tick_size_paise: 5, strike: 2_200_000 },
      { trading_symbol: 'NIFTY24MAR22000CE', exchange: 'NFO', segment: 'OPT', lot_size: 50, tick_size_paise: 5, strike: 2_200_000 },
      { trading_symbol: 'NIFTY24MAR25000PE', exchange: 'NFO', segment: 'OPT', lot_size: 50, tick_size_paise: 5, strike: 2_500_000 },
      { trading_symbol: 'NIFTY24MARFUT', exchange: 'NFO', segment: 'FUT', lot_size: 50, tick_size_paise: 5, strike: null },
    ]);
    // No schedule for RELIANCE: lot size left at 1.
    const reliance = await db.pool.query(`SELECT kind, lot_size FROM instruments WHERE trading_symbol IN ('RELIANCE', 'RELIANCE24MAR2912.5PE') ORDER BY kind`);
    expect(reliance.rows).toEqual([{ kind: 'equity', lot_size: 1 }, { kind: 'option', lot_size: 1 }]);
    // 21-Mar is weekly, 28-Mar the last NIFTY expiry of March, 04-Apr the only (so last) April one in the file.
    const expiries = await db.pool.query(
      `SELECT e.segment, e.expiry::text, e.mode FROM fno_expiries e JOIN instruments u USING (instrument_id)
       WHERE u.trading_symbol = 'NIFTY' ORDER BY e.segment, e.expiry`);
    expect(expiries.rows).toEqual([
      { segment: 'FUT', expiry: '2024-03-28', mode: 'monthly' },
      { segment: 'OPT', expiry: '2024-03-21', mode: 'weekly' },
      { segment: 'OPT', expiry: '2024-03-28', mode: 'monthly' },
      { segment: 'OPT', expiry: '2024-04-04', mode: 'monthly' },
    ]);
    const untraded = await db.pool.query(
      `SELECT p.open_paise, p.close_paise, p.settle_paise, p.contracts::int, p.volume, p.source::text FROM eod_prices p
       JOIN instruments i USING (instrument_id) WHERE i.trading_symbol = 'NIFTY24MAR25000PE'`);
    expect(untraded.rows).toEqual([{ open_paise: null, close_paise: null, settle_paise: 275_040, contracts: 0, volume: null, source: 'import' }]);
    const ltp = await db.pool.query(
      `SELECT l.price_paise::int AS price, l.updated_at = '2024-03-14 15:30+05:30'::timestamptz AS stamped
       FROM ltps l JOIN instruments i USING (instrument_id) WHERE i.trading_symbol IN ('NIFTY24MARFUT', 'NIFTY24MAR25000PE') ORDER BY 1`);
    expect(ltp.rows).toEqual([{ price: 275_040, stamped: true }, { price: 2_220_035, stamped: true }]);
  });

  it('changes nothing when the same file is imported again', async () => {
    const snapshot = async () => Promise.all(['instruments', 'eod_prices', 'fno_expiries', 'ltps'].map(count));
    const before = await snapshot();
    const again = await importBhavcopy({ pool: db.pool, now: NOW, files: [legacy] });
    expect(again).toMatchObject({ contracts: 8, instrumentsCreated: 0, eodInserted: 0, duplicates: 8, expiriesAdded: 0, lotSizesUpdated: 0, ltpsUpdated: 0 });
    expect(await snapshot()).toEqual(before);
  });

  it('imports a zipped UDiFF file with lot sizes, a new index underlying and a stock future', async () => {
    const zip = join(scratch, 'BhavCopy_NSE_FO_0_0_0_20240710_F_0000.csv.zip');
    await writeFile(zip, zipSync({ 'BhavCopy_NSE_FO_0_0_0_20240710_F_0000.csv': await readFile(udiff) }));
    const result = await importBhavcopy({ pool: db.pool, now: NOW, files: [zip] });
    // NIFTYNXT50 (index) and TCS (equity) underlyings + 5 contracts.
    expect(result).toMatchObject({ files: 1, contracts: 5, instrumentsCreated: 7, eodInserted: 5, duplicates: 0 });
    const { rows } = await db.pool.query(
      `SELECT i.trading_symbol, i.lot_size, u.kind AS underlying_kind FROM instruments i JOIN instruments u ON u.instrument_id = i.underlying_instrument_id
       WHERE i.trading_symbol IN ('NIFTY2471124300CE', 'NIFTYNXT5024JUL2670000CE', 'TCS24JULFUT') ORDER BY 1`);
    expect(rows).toEqual([
      { trading_symbol: 'NIFTY2471124300CE', lot_size: 25, underlying_kind: 'index' },
      { trading_symbol: 'NIFTYNXT5024JUL2670000CE', lot_size: 10, underlying_kind: 'index' },
      { trading_symbol: 'TCS24JULFUT', lot_size: 175, underlying_kind: 'equity' },
    ]);
    const modes = await db.pool.query(
      `SELECT e.expiry::text, e.mode FROM fno_expiries e JOIN instruments u USING (instrument_id)
       WHERE u.trading_symbol = 'NIFTY' AND e.segment = 'OPT' AND e.expiry >= '2024-07-01' ORDER BY e.expiry`);
    expect(modes.rows).toEqual([{ expiry: '2024-07-11', mode: 'weekly' }, { expiry: '2024-07-25', mode: 'monthly' }]);
  });

  it('does not let an older file overwrite a newer last price', async () => {
    const future = `SELECT l.price_paise::int AS price FROM ltps l JOIN instruments i USING (instrument_id) WHERE i.trading_symbol = 'NIFTY24MARFUT'`;
    const older = join(scratch, 'older.csv');
    const text = (await readFile(legacy, 'utf8')).split('\n').slice(0, 2).join('\n').replace(/14-MAR-2024/g, '13-MAR-2024').replace('22200.35', '22100');
    await writeFile(older, text);
    const result = await importBhavcopy({ pool: db.pool, now: NOW, files: [older] });
    expect(result).toMatchObject({ eodInserted: 1, ltpsUpdated: 0 });
    expect((await db.pool.query(future)).rows).toEqual([{ price: 2_220_035 }]);
  });

  it('refuses the whole file set when one file is bad, naming FILE:line:column, and writes nothing', async () => {
    const broken = join(scratch, 'broken.csv');
    const lines = (await readFile(udiff, 'utf8')).replace(/2024-07-10/g, '2024-07-11').split('\n');
    lines[2] = (lines[2] ?? '').replace(',IDO,', ',XYZ,');
    await writeFile(broken, lines.join('\n'));
    const before = await count('eod_prices');
    const error = await importBhavcopy({ pool: db.pool, now: NOW, files: [udiff, broken] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportError);
    expect((error as Error).message).toBe(`${broken}:3:30: FinInstrmTp "XYZ" is not IDF, STF, IDO or STO`);
    expect(await count('eod_prices')).toBe(before);
  });

  it('refuses files dated on a holiday, a weekend or after today, and a special session unless allowed, writing nothing', async () => {
    const dated = async (name: string, date: string): Promise<string> => {
      const path = join(scratch, name);
      await writeFile(path, (await readFile(udiff, 'utf8')).replace(/2024-07-10/g, date));
      return path;
    };
    const holiday = await dated('holiday.csv', '2024-01-26');
    const sunday = await dated('sunday.csv', '2024-07-14');
    const later = await dated('later.csv', '2025-01-16');
    const budget = await dated('budget-saturday.csv', '2024-01-20');
    const before = await Promise.all(['instruments', 'eod_prices', 'ltps'].map(count));
    const error = await importBhavcopy({ pool: db.pool, now: NOW, files: [holiday, sunday, later, budget] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportError);
    expect((error as Error).message.split('\n')).toEqual([
      `${holiday}:2:1: TradDt 2024-01-26 is a holiday on NFO (Republic Day)`,
      `${sunday}:2:1: TradDt 2024-07-14 is a Sunday, when NFO has no session`,
      `${later}:2:1: TradDt 2025-01-16 is in the future (today is 2025-01-15 IST)`,
      `${budget}:2:1: TradDt 2024-01-20 is a Saturday: its only session is the NFO special session 09:15-15:30; special sessions are refused unless allowed`,
    ]);
    expect(await Promise.all(['instruments', 'eod_prices', 'ltps'].map(count))).toEqual(before);
    const allowed = await importBhavcopy({ pool: db.pool, now: NOW, files: [budget], specialSessions: true });
    expect(allowed).toMatchObject({ contracts: 5, eodInserted: 5 });
  });

  it('names contracts the Kite way: weekly and monthly index contracts, stock contracts, and unknown indices dated', () => {
    const name = (symbol: string, expiry: string, [strike, optionType]: [number | null, 'CE' | 'PE' | null]) => {
      const onIndex = symbol !== 'RELIANCE';
      const instrumentType = strike === null ? (onIndex ? 'index_future' : 'stock_future') : onIndex ? 'index_option' : 'stock_option';
      return contractSymbol({ symbol, instrumentType, expiry: expiry as never, strike: strike as never, optionType });
    };
    // 13-Nov-2024 was BANKNIFTY's last weekly expiry; 28-Nov-2024 its monthly.
    expect(name('BANKNIFTY', '2024-11-13', [5_150_000, 'PE'])).toBe('BANKNIFTY24N1351500PE');
    expect(name('BANKNIFTY', '2024-11-27', [5_150_000, 'PE'])).toBe('BANKNIFTY24NOV51500PE');
    expect(name('NIFTY', '2024-03-28', [null, null])).toBe('NIFTY24MARFUT');
    expect(name('RELIANCE', '2024-03-28', [291_250, 'PE'])).toBe('RELIANCE24MAR2912.5PE');
    expect(name('NIFTYNXT50', '2024-07-26', [7_000_000, 'CE'])).toBe('NIFTYNXT5024JUL2670000CE');
  });
});

describe('vyuha import bhavcopy', () => {
  useCommandDatabase({ seeded: true });
  afterEach(() => vi.restoreAllMocks());

  it('imports both formats in one run and prints the counts', async () => {
    const stdout = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    expect(await importBhavcopyCommand.run([legacy, udiff])).toBe(0);
    expect(stdout.mock.calls.map((c) => String(c[0])).join('')).toBe(
      '2 bhavcopy file(s), 13 contract rows: 13 end-of-day prices imported, 0 skipped as duplicates; 16 instruments created, ' +
      '11 expiries added, 0 lot sizes updated, 13 last prices updated.\n');
  });

  it('refuses a special session with a hint, and imports it with --special-sessions', async () => {
    const scratch = await mkdtemp(join(tmpdir(), 'vyuha-bhavcopy-cli-'));
    try {
      const muhurat = join(scratch, 'muhurat.csv');
      await writeFile(muhurat, (await readFile(udiff, 'utf8')).replace(/2024-07-10/g, '2024-11-01'));
      const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
      vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
      expect(await importBhavcopyCommand.run([muhurat])).toBe(1);
      expect(stderr.mock.calls.map((c) => String(c[0])).join('')).toBe(
        `${muhurat}:2:1: TradDt 2024-11-01 is a holiday on NFO (Diwali Laxmi Pujan (Muhurat trading session held)): its only session is the NFO muhurat session 18:00-19:00; special sessions are refused unless allowed\n` +
        'Special sessions listed in the market calendar (muhurat, weekend budget days, DR drills) are imported with --special-sessions.\n' +
        'Nothing was imported.\n');
      expect(await importBhavcopyCommand.run([muhurat, '--special-sessions'])).toBe(0);
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  });

  it('prints errors as FILE:line:column and exits 1', async () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const candles = join(fixtures, 'candles-nifty.csv');
    expect(await importBhavcopyCommand.run([candles])).toBe(1);
    expect(stderr.mock.calls.map((c) => String(c[0])).join('')).toMatch(new RegExp(`^${candles.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:1:1: not an NSE F&O bhavcopy`));
  });
});
