// Candle import throughput: parse only, and parse + COPY into PostgreSQL, each against a
// hand-written reference loop that only splits lines and calls Number() on every field. Also
// measures the two read paths (COPY TO STDOUT vs a plain SELECT) and the two aggregation paths
// (TypeScript over typed arrays vs SQL date_bin) that candle-store.ts chose between.
//   cd packages/server && npm run bench import

import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseCandleCsv, type CandleColumns } from '@vyuha/market';
import pg from 'pg';
import { createDatabaseIfMissing } from '../src/db/database';
import { startEmbeddedPostgres } from '../src/db/embedded-postgres';
import { loadMigrations, migrate } from '../src/db/migrate';
import { aggregateCandles } from '../src/market-data/candle-aggregate';
import { readCandles, writeCandles } from '../src/market-data/candle-store';
import { migrationsDir } from '../src/paths';

const ROWS = 94_000;
const RUNS = 7;
const MINUTE = 60_000;

/** 94k one-minute NIFTY-like candles, weekdays 09:15-15:29 IST from 2023-01-02, seeded LCG. */
function generateCsv(): string {
  let seed = 20_240_105;
  const random = (): number => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  const lines = ['datetime,open,high,low,close,volume,oi'];
  let day = Date.UTC(2023, 0, 2);
  let price = 1_800_000;
  while (lines.length <= ROWS) {
    const weekday = new Date(day).getUTCDay();
    if (weekday !== 0 && weekday !== 6) {
      for (let minute = 0; minute < 375 && lines.length <= ROWS; minute += 1) {
        const open = price;
        const close = Math.max(100, open + Math.round((random() - 0.5) * 2_000));
        const high = Math.max(open, close) + Math.round(random() * 500);
        const low = Math.min(open, close) - Math.round(random() * 500);
        const local = new Date(day + (9 * 60 + 15 + minute) * MINUTE).toISOString();
        const rupees = (p: number) => (p / 100).toFixed(2);
        lines.push(`${local.slice(0, 10)} ${local.slice(11, 19)},${rupees(open)},${rupees(high)},${rupees(low)},${rupees(close)},${Math.round(random() * 10_000)},${100_000 + minute}`);
        price = close;
      }
    }
    day += 86_400_000;
  }
  return `${lines.join('\n')}\n`;
}

/** The reference: split lines and fields, Number() each field, keep a checksum so none is skipped. */
function referenceLoop(text: string): number {
  let checksum = 0;
  const lines = text.split('\n');
  for (let i = 1; i < lines.length; i += 1) {
    const fields = (lines[i] as string).split(',');
    for (const field of fields) {
      const value = Number(field);
      if (value === value) checksum += value;
    }
  }
  return checksum;
}

async function median(work: () => unknown): Promise<number> {
  const times: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    const start = performance.now();
    await work();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] as number;
}

function report(label: string, ms: number, reference?: number): void {
  const perSecond = Math.round(ROWS / (ms / 1000)).toLocaleString('en-IN');
  const ratio = reference === undefined ? '' : `   ${(ms / reference).toFixed(2)}x the reference time`;
  console.log(`${label.padEnd(44)} ${ms.toFixed(1).padStart(8)} ms   ${perSecond.padStart(12)} rows/s${ratio}`);
}

function parseOrThrow(text: string): CandleColumns {
  const result = parseCandleCsv(text, { requireWholeMinutes: true });
  if (!result.ok) throw new Error(`generated CSV did not parse: ${result.error[0]?.reason}`);
  return result.value;
}

async function withDatabase(work: (pool: pg.Pool) => Promise<void>): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'vyuha-bench-'));
  await chmod(dataDir, 0o755);
  const server = await startEmbeddedPostgres({ dataDir, port: 0, durability: 'fast' });
  try {
    await createDatabaseIfMissing(server.urlFor('postgres'), 'bench');
    const pool = new pg.Pool({ connectionString: server.urlFor('bench'), max: 2 });
    try {
      await migrate(pool, await loadMigrations(migrationsDir));
      await work(pool);
    } finally {
      await pool.end();
    }
  } finally {
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const text = generateCsv();
  console.log(`candle CSV: ${ROWS.toLocaleString('en-IN')} rows, ${(text.length / 1e6).toFixed(1)} MB; median of ${RUNS} runs`);
  const reference = await median(() => referenceLoop(text));
  report('reference (split + Number per field)', reference);
  const parse = await median(() => parseOrThrow(text));
  report('parseCandleCsv (checked, paise, IST)', parse, reference);

  await withDatabase(async (pool) => {
    let run = 0;
    const newInstrument = async (): Promise<number> => {
      run += 1;
      const { rows } = await pool.query<{ instrument_id: number }>(
        `INSERT INTO instruments (exchange, segment, kind, trading_symbol, name) VALUES ('NSE', 'INDICES', 'index', $1, $1) RETURNING instrument_id`, [`BENCH${run}`]);
      return rows[0]!.instrument_id;
    };
    const importOnce = async (): Promise<void> => {
      const candles = parseOrThrow(text);
      const written = await writeCandles(pool, { instrumentId: await newInstrument(), candles, source: 'import' });
      if (written.inserted !== ROWS) throw new Error(`inserted ${written.inserted}`);
    };
    await importOnce(); // warm-up: JIT, plan cache, table files
    const imported = await median(importOnce);
    report('parse + COPY + INSERT ON CONFLICT (new rows)', imported, reference);
    const instrumentId = 1;
    const range = { instrumentId, from: 0, to: Date.UTC(2030, 0, 1) };
    const { rows } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM candles WHERE instrument_id = $1', [instrumentId]);
    const copyRead = await median(() => readCandles(pool, range));
    report(`read ${rows[0]!.n} rows: COPY TO STDOUT -> typed arrays`, copyRead, reference);
    const selectRead = await median(() => pool.query({
      text: `SELECT (extract(epoch FROM ts) * 1000)::bigint, open_paise, high_paise, low_paise, close_paise, volume, oi
             FROM candles WHERE instrument_id = $1 ORDER BY ts`, values: [instrumentId], rowMode: 'array' }));
    report('read: plain SELECT, rows as arrays', selectRead, reference);
    const oneMinute = await readCandles(pool, range);
    const tsAggregate = await median(() => aggregateCandles(oneMinute, 5));
    report('aggregate to 5 min in TS (typed arrays)', tsAggregate, reference);
    const sqlAggregate = await median(() => pool.query({
      text: `SELECT date_bin('5 minutes', ts, timestamptz '2000-01-01 09:15+05:30') AS bar,
                    (array_agg(open_paise ORDER BY ts))[1], max(high_paise), min(low_paise),
                    (array_agg(close_paise ORDER BY ts DESC))[1], sum(volume)
             FROM candles WHERE instrument_id = $1 GROUP BY bar ORDER BY bar`, values: [instrumentId], rowMode: 'array' }));
    report('aggregate to 5 min in SQL (date_bin)', sqlAggregate, reference);
    report('read (COPY) + aggregate in TS', copyRead + tsAggregate, reference);
  });
}

await main();
