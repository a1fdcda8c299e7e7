// The paper runtime's throughput (issue 16's benchmark), in two parts, on a fresh migrated and
// seeded database (an embedded PostgreSQL, or a new database on DATABASE_URL's server):
// 1. One strategy replayed through the whole runtime at speed 0 (replay feed -> candle builder ->
//    stepped kernel -> OMS -> paper venue -> database) over stored synthetic 1-minute NIFTY 50:
//    market minutes per second of wall time, against the engine's runBacktest over the same
//    prepared range measured in the same run (the reference), and the ratio. A month first; the
//    year only when the month projects it under BENCH_YEAR_LIMIT_S (default 900 s), else the
//    projection is printed instead. BENCH_YEAR=0 skips the year, BENCH_YEAR=1 forces it.
// 2. 100 paper strategies at once on the simulated market, live-paced (paper-runtime-support.ts):
//    tick-to-order latency (p50/p95/p99/max), CPU, event-loop delay.
// BENCH_PART=1 or 2 runs one part; BENCH_STRATEGIES, BENCH_LIVE_MINUTES, BENCH_BURST size part 2;
// BENCH_POOL_MAX, BENCH_POOL_MIN, BENCH_POOL_IDLE_MS and BENCH_POOL_WARM set the pool (below; by
// default the server's own pool: src/db/database.ts SERVER_POOL, 20 connections opened and kept).
// BENCH_QUERIES=1 prints the top statements, BENCH_PROFILE=FILE a CPU profile of part 2's window,
// BENCH_TRACE=1 each order's steps from its tick (the slowest and the last two) and the timeline
// of every run around the slowest, BENCH_PGSS=1 the server's time by statement (needs a server
// with pg_stat_statements preloaded, on DATABASE_URL).
//   cd packages/server && npm run bench paper-runtime
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isoDate } from '@vyuha/core';
import type { IsoDate } from '@vyuha/core';
import { compileAlgorithm, runBacktest } from '@vyuha/engine';
import type { DeployableConfig } from '@vyuha/engine';
import { nextTradingDay } from '@vyuha/market';
import pg from 'pg';
import { createDatabaseIfMissing, openPoolConnections, SERVER_POOL } from '../src/db/database';
import { startEmbeddedPostgres } from '../src/db/embedded-postgres';
import { loadMigrations, migrate } from '../src/db/migrate';
import { seedDemoWorld } from '../src/db/seed';
import { marketDataDir, migrationsDir } from '../src/paths';
import { KillSwitchWatch } from '../src/trading/kill-switch-watch';
import { paperConfigOf, preparePaperReplay, readPaperRunParams, replayPaperRun } from '../src/trading/runner/replay-run';
import { indexId, storeSyntheticHistory } from '../test/trading-feeds/feed-test-support';
import { algorithm, createTrader, deployable, paperRunRow } from '../test/trading-runner/runner-test-support';
import { line, withNote, loadAverage, machineCpu, postgresCpuReader, QueryCounter, runLiveBench } from './paper-runtime-support';

const YEAR_FROM = isoDate('2024-01-01');
const YEAR_TO = isoDate('2024-12-31');
const MONTH_TO = isoDate('2024-01-31');
const SEED = 'paper-runtime-bench';
const ENTRY = 'crossover(ema(close, 9), ema(close, 21))';
const EXIT = 'crossunder(ema(close, 9), ema(close, 21))';

async function withDatabase(work: (pool: pg.Pool, queries: QueryCounter) => Promise<void>): Promise<void> {
  const name = `vyuha_bench_paper_${randomBytes(4).toString('hex')}`;
  const external = process.env.DATABASE_URL;
  let stopServer: () => Promise<void> = async () => undefined;
  let adminUrl: string;
  if (external !== undefined && external !== '') {
    const url = new URL(external);
    url.pathname = '/postgres';
    adminUrl = url.toString();
  } else {
    const dataDir = await mkdtemp(join(tmpdir(), 'vyuha-bench-'));
    await chmod(dataDir, 0o755);
    const server = await startEmbeddedPostgres({ dataDir, port: 0, durability: 'fast' });
    adminUrl = server.urlFor('postgres');
    stopServer = async () => {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    };
  }
  try {
    await createDatabaseIfMissing(adminUrl, name);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const pool = new pg.Pool({ connectionString: url.toString(), max: Number(process.env.BENCH_POOL_MAX ?? SERVER_POOL.max), min: Number(process.env.BENCH_POOL_MIN ?? SERVER_POOL.min), ...poolIdleOption() });
    const queries = new QueryCounter(pool);
    pool.on('error', (error) => console.log(`  pool: an idle connection failed: ${error.message}`));
    try {
      await openPoolConnections(pool, Number(process.env.BENCH_POOL_WARM ?? SERVER_POOL.min));
      const started = performance.now();
      await migrate(pool, await loadMigrations(migrationsDir));
      await seedDemoWorld(pool, { dataDir: marketDataDir });
      line('database: migrated and seeded in', (performance.now() - started) / 1000, withNote('s', external ? '(new database on DATABASE_URL\'s server)' : '(embedded PostgreSQL, durability fast)'));
      await work(pool, queries);
    } finally {
      await pool.end();
      if (external !== undefined && external !== '') {
        const admin = new pg.Client({ connectionString: adminUrl });
        await admin.connect();
        await admin.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`).finally(() => admin.end());
      }
    }
  } finally {
    await stopServer();
  }
}

/**
 * BENCH_POOL_IDLE_MS: how long an idle connection stays open; by default the server's 2 minutes
 * (pg's own 10 s closes them between part 2's once-a-minute bursts, which then wait for new
 * connections; 0 keeps them).
 */
function poolIdleOption(): { idleTimeoutMillis: number } {
  const idle = process.env.BENCH_POOL_IDLE_MS;
  return { idleTimeoutMillis: idle === undefined || idle === '' ? 120_000 : Number(idle) };
}


interface ReplayFigures {
  readonly seconds: number;
  readonly minutesPerSecond: number;
}

/** Part 1 over one range: the runtime replay, then the backtest over the same prepared range. */
async function replayBench(pool: pg.Pool, request: { queries: QueryCounter; label: string; userId: string; nifty: number; config: DeployableConfig; range: { from: IsoDate; to: IsoDate } }): Promise<ReplayFigures> {
  const { label, userId, nifty, config, range } = request;
  const runId = await paperRunRow(pool, { userId, instrumentId: nifty, config, range, speed: 0 });
  const killSwitches = await KillSwitchWatch.open({ pool });
  const postgresCpu = await postgresCpuReader(pool);
  console.log(`${label}: before: ${loadAverage()}`);
  const postgres0 = postgresCpu();
  const queries0 = request.queries.snapshot();
  request.queries.reset();
  const cpu0 = process.cpuUsage();
  const machine0 = machineCpu();
  const started = performance.now();
  let summary;
  try {
    summary = await replayPaperRun({ pool, runId, killSwitches });
  } finally {
    await killSwitches.close();
  }
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const machine = machineCpu().since(machine0);
  const postgres1 = postgresCpu();
  const queries1 = request.queries.snapshot();
  console.log(`${label}: after: ${loadAverage()}`);
  const { rows } = await pool.query<{ orders: number; fills: number; modifies: number; cancelled: number }>(
    `SELECT count(*)::int AS orders, count(*) FILTER (WHERE status = 'FILLED')::int AS fills, coalesce(sum(modify_count), 0)::int AS modifies,
            count(*) FILTER (WHERE status = 'CANCELLED')::int AS cancelled FROM orders WHERE run_id = $1`, [runId]);
  const counts = rows[0]!;
  const minutes = summary.bars * config.interval;
  const ticks = summary.bars * 4;
  console.log(`${label}: range ${range.from}..${range.to} ` + `(${summary.bars} bars of ${config.interval} min)`);
  line(`${label}: runtime replay wall time`, seconds, 's');
  line(`${label}: runtime replay`, minutes / seconds, 'market minutes/s');
  line(`${label}: runtime replay`, ticks / seconds, withNote('ticks/s', '(4 ticks per stored bar)'));
  line(`${label}: orders placed`, counts.orders, withNote('orders', `(filled ${counts.fills}, cancelled ${counts.cancelled}, modified ${counts.modifies} times; venue fills ${summary.fills})`));
  line(`${label}: orders per market day`, counts.orders / Math.max(1, minutes / 375), 'orders');
  const queryCount = queries1.count - queries0.count;
  line(`${label}: database queries`, queryCount, withNote('queries', `(${(queryCount / Math.max(1, minutes)).toFixed(2)} per market minute; ${((queries1.ms - queries0.ms) / 1000).toFixed(1)} s of the ${seconds.toFixed(1)} s waiting on them)`));
  if (process.env.BENCH_QUERIES === '1') request.queries.printTop(`${label}: top statements by summed time`, 12);
  line(`${label}: node process CPU`, ((cpu.user + cpu.system) / 1e6 / seconds) * 100, '% of one core');
  if (postgres0 !== undefined && postgres1 !== undefined) line(`${label}: PostgreSQL server CPU`, ((postgres1 - postgres0) / seconds) * 100, '% of one core');
  line(`${label}: whole machine CPU (every process on it)`, machine.busyPercent, withNote('% of one core', `(of ${machine.cores * 100} %)`));

  // The reference: the same preparation and the engine's runBacktest over it.
  const { rows: paramRows } = await pool.query<{ params: unknown }>('SELECT params FROM strategy_runs WHERE run_id = $1', [runId]);
  const params = readPaperRunParams(paramRows[0]!.params);
  if (!params.ok) throw new Error(params.error);
  const prepareStart = performance.now();
  const prepared = await preparePaperReplay(pool, params.value);
  const prepareSeconds = (performance.now() - prepareStart) / 1000;
  const version = await pool.query<{ graph: unknown }>('SELECT graph FROM algorithm_versions WHERE algorithm_id = $1', [config.algorithm.id]);
  const compiled = compileAlgorithm(version.rows[0]!.graph);
  if (!compiled.ok) throw new Error('the bench algorithm does not compile');
  const runs: number[] = [];
  let fills = 0;
  for (let run = 0; run < 3; run += 1) {
    const start = performance.now();
    const result = runBacktest({
      series: prepared.series, program: compiled.value, config: paperConfigOf(prepared, config),
      ...(prepared.contracts === undefined ? {} : { contracts: prepared.contracts }),
    });
    runs.push((performance.now() - start) / 1000);
    fills = result.fills.length;
  }
  runs.sort((a, b) => a - b);
  const backtest = runs[1] as number;
  const backtestMinutes = prepared.series.length * config.interval;
  line(`${label}: reference: preparation (candles, futures chain, charges) once`, prepareSeconds, 's');
  line(`${label}: reference: runBacktest (median of 3)`, backtest, withNote('s', `(${fills} fills; paper run ${summary.fills})`));
  line(`${label}: reference: runBacktest`, backtestMinutes / backtest, 'market minutes/s');
  line(`${label}: reference: preparation + runBacktest`, backtestMinutes / (backtest + prepareSeconds), 'market minutes/s');
  line(`${label}: ratio runtime replay / runBacktest (wall time)`, seconds / backtest, 'x');
  line(`${label}: ratio runtime replay / (preparation + runBacktest)`, seconds / (backtest + prepareSeconds), 'x');
  return { seconds, minutesPerSecond: minutes / seconds };
}

/** Part 1: a month, then the year when the month projects it short enough. */
async function replayPart(pool: pg.Pool, request: { queries: QueryCounter; userId: string; nifty: number; config: DeployableConfig }): Promise<void> {
  console.log('-- part 1: one strategy replayed at speed 0 through the whole runtime');
  const month = await replayBench(pool, { label: 'month', ...request, range: { from: YEAR_FROM, to: MONTH_TO } });
  const projectedYear = month.seconds * 12;
  line('month: projected year (x12)', projectedYear, 's');
  const limit = Number(process.env.BENCH_YEAR_LIMIT_S ?? 900);
  const wantYear = process.env.BENCH_YEAR === '1' || (process.env.BENCH_YEAR !== '0' && projectedYear <= limit);
  if (wantYear) await replayBench(pool, { label: 'year', ...request, range: { from: YEAR_FROM, to: YEAR_TO } });
  else line('year: not run (projected over BENCH_YEAR_LIMIT_S or BENCH_YEAR=0); projected', month.minutesPerSecond, withNote('market minutes/s', `(${projectedYear.toFixed(0)} s for the year)`));
}

async function main(): Promise<void> {
  console.log(`machine: ${loadAverage()} before the bench`);
  await withDatabase(async (pool, queries) => {
    const storeStart = performance.now();
    const stored = await storeSyntheticHistory(pool, { from: YEAR_FROM, to: YEAR_TO, instruments: ['NIFTY 50'], seed: SEED });
    line('history: stored synthetic 1-minute NIFTY 50 candles', stored.get('NIFTY 50') ?? 0, withNote('candles', `(${YEAR_FROM}..${YEAR_TO}, ${((performance.now() - storeStart) / 1000).toFixed(1)} s)`));
    const nifty = await indexId(pool, 'NIFTY 50');
    const userId = await createTrader(pool);
    const ref = await algorithm(pool, userId, { buy: ENTRY, sell: EXIT });
    const config = deployable(ref, { interval: 1, stopLoss: { kind: 'percent', percent: 0.3 }, target: { kind: 'percent', percent: 0.6 } });
    line('part 1 strategy:', undefined, withNote('', `EMA 9/21 crossover on 1-minute bars, intraday, all-in Rs 10 lakh (NIFTY near-month futures), stop 0.3%, target 0.6%`));

    const part = process.env.BENCH_PART ?? 'all';
    if (part !== '2') await replayPart(pool, { queries, userId, nifty, config });
    if (part === '1') return;

    // Part 2: the session after the stored year, continued live by the simulated market.
    const liveDate = nextTradingDay('NSE', YEAR_TO);
    await runLiveBench({
      pool, queries, nifty, seed: SEED, date: liveDate,
      strategies: Number(process.env.BENCH_STRATEGIES ?? 100), minutes: Number(process.env.BENCH_LIVE_MINUTES ?? 5),
    });
  });
}

await main();
