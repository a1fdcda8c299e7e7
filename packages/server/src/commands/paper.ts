// `vyuha paper`: `vyuha backtest`'s inputs and options replayed through the paper trading runtime
// (replay feed, candle builder, stepped kernel, OMS, paper venue, PostgreSQL) instead of the
// backtest loop, printing and writing exactly what `vyuha backtest` prints and writes: the result
// is the stepped kernel's, whose every fill the paper run checked against the venue's.
//
// - --symbol: the stored history prepared as `vyuha backtest --symbol` prepares it
//   (backtest-stored.ts), replayed under a PAPER run of the CLI user on the configured database
//   (paper-store.ts); the rows stay there.
// - --data: the CSV selected and aggregated as `vyuha backtest --data` does it, stored as an
//   instrument of its own in a throwaway database (migrated, dropped afterwards) and replayed
//   from there, traded long-only with the command line's sizing, charges and fill. The runtime
//   rebuilds bars from ticks on the NSE session's grid, so the file's bars must open inside NSE
//   sessions on that grid; a file that does not is refused with the bar, not run differently.
// - --symbol with --options: option legs on the index, prepared as `vyuha backtest --options`
//   prepares them, replayed through the legs' paper run (runner/legs-replay.ts); swing legs and
//   the leg shapes paper cannot run yet are refused with the reason (legs-paper-levels.ts).
import { basename, extname } from 'node:path';
import { istDate, istEpochDay } from '@vyuha/core';
import type { IsoDate } from '@vyuha/core';
import { BacktestConfigError, DEFAULT_BACKTEST_CONFIG, isBarInterval, validateBacktestConfig } from '@vyuha/engine';
import type { BacktestConfigInput, CompiledAlgorithm } from '@vyuha/engine';
import { formatParseIssue, parseCandleCsv } from '@vyuha/market';
import type { CandleColumns } from '@vyuha/market';
import type pg from 'pg';
import { seriesOf } from '../backtest/series';
import { loadRunCandles } from '../backtest/stored-candles';
import { StoredRunError, tradedSummary } from '../backtest/stored-run';
import { writeCandles } from '../market-data/candle-store';
import { UnknownInstrumentError } from '../market-data/instrument-lookup';
import { REPLAY_SPEEDS } from '../trading/feeds/replay-request';
import type { ReplaySpeed } from '../trading/feeds/replay-request';
import { PaperRunFailure } from '../trading/runner/replay-run';
import { PaperDivergence } from '../trading/runner/paper-run';
import { algorithmOf, BACKTEST_OPTIONS, configIssues, configOf, fail, readText, report, selectCandles, tradesCsv, type Values } from './backtest-cli';
import { contractTradesCsv, intervalOf, prepareStoredCommand, storedCommandOf, withDatabase } from './backtest-stored';
import { parseOptions, requireOption, UsageError, type CliCommand } from './command';
import { runOnPaper, withThrowawayDatabase } from './paper-store';
import type { CliPaperOutcome, CliPaperRun } from './paper-store';

const USAGE = `Usage: vyuha paper [--speed 0|1|10|60|600] --data FILE.csv (--algo FILE.json | --entry EXPR [--exit EXPR]) [options]
       vyuha paper [--speed 0|1|10|60|600] --symbol NIFTY (--algo FILE.json | --entry EXPR [--exit EXPR])
                   --from YYYY-MM-DD --to YYYY-MM-DD [options]

Runs what \`vyuha backtest\` runs, with every one of its options (see \`vyuha backtest --help\`),
through the paper trading runtime instead of the backtest loop: the stored candles replayed as
ticks, bars rebuilt from them, the kernel stepped bar by bar, each order through the OMS to the
paper venue and written to PostgreSQL. It prints and writes (--trades, --json) exactly what
\`vyuha backtest\` does for the same options.

  --speed     0 (default: as fast as possible), or 1, 10, 60, 600 times market time

--symbol replays the stored history (DATABASE_URL, else the embedded database) under a PAPER run
of the user 'vyuha paper (CLI)'; its orders, fills and positions stay in that database.
--data stores the file's candles in a temporary database on the same PostgreSQL server (the
embedded one without DATABASE_URL), replays them there and drops it. The file's bars must open
inside NSE sessions, on the grid of the interval from 09:15. --options is refused: option legs
are not run on paper yet.
`;

const OPTIONS = { ...BACKTEST_OPTIONS, speed: { type: 'string' } } as const;

function speedOf(values: Values): ReplaySpeed {
  if (values.speed === undefined) return 0;
  const text = String(values.speed);
  const speed = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!(REPLAY_SPEEDS as readonly number[]).includes(speed)) {
    throw new UsageError(`--speed must be one of ${REPLAY_SPEEDS.join(', ')} (0 = as fast as possible), got "${String(values.speed)}"`);
  }
  return speed as ReplaySpeed;
}

/**
 * Stops the replay when the user interrupts the CLI (what is open is squared off at the last
 * price, as a stop with square-off does), so the run row is ended and a throwaway database dropped.
 */
async function interruptible<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const abort = new AbortController();
  const stop = (): void => abort.abort({ squareOff: true });
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    return await work(abort.signal);
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}

/** The exit code of a replay that was interrupted, after saying so. */
function interrupted(outcome: CliPaperOutcome): number {
  process.stderr.write(`vyuha paper: interrupted after ${outcome.result.candlesProcessed} bars; nothing printed (run ${outcome.runId})\n`);
  return 130;
}

async function runStored(values: Values, speed: ReplaySpeed): Promise<number> {
  const { command, errors } = storedCommandOf(values);
  if (command === undefined) return fail(errors, 'paper');
  return withDatabase((pool) => interruptible(async (signal) => {
    const { prepared, instrument } = await prepareStoredCommand(pool, command);
    const outcome = await runOnPaper(pool, {
      instrumentId: instrument.instrumentId, prepared, program: command.algorithm, intervalMinutes: intervalOf(values),
      replay: { ...command.dateRange, speed }, asked: askedOf(values), signal,
    });
    if (outcome.stopped) return interrupted(outcome);
    const { result } = outcome;
    return report({ result, series: prepared.series, values, tradesCsv: contractTradesCsv, traded: tradedSummary(prepared, result) });
  }));
}

/** The options as given, for the run's params. */
function askedOf(values: Values): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined));
}

/**
 * The bar interval of a CSV run without --interval, as the backtest infers it: the smallest gap
 * between two bars of one IST day (none: one bar a day, 1440).
 */
function inferredInterval(candles: CandleColumns, file: string): number {
  let smallest = Number.POSITIVE_INFINITY;
  for (let index = 1; index < candles.length; index += 1) {
    const previous = candles.time[index - 1] as number;
    const current = candles.time[index] as number;
    if (istEpochDay(previous) === istEpochDay(current)) smallest = Math.min(smallest, current - previous);
  }
  if (smallest === Number.POSITIVE_INFINITY) return 1440;
  const minutes = smallest / 60_000;
  if (!isBarInterval(minutes)) {
    throw new UsageError(`${file}: its bars are ${minutes} minutes apart, which is not a bar interval the runtime builds; give --interval`);
  }
  return minutes;
}

/** The first bar where the stored candles read back at the interval are not the file's, or undefined. */
function firstDifference(expected: CandleColumns, actual: CandleColumns): number | undefined {
  const columns = ['time', 'open', 'high', 'low', 'close', 'volume'] as const;
  for (let index = 0; index < Math.max(expected.length, actual.length); index += 1) {
    if (index >= expected.length || index >= actual.length) return index;
    if (columns.some((column) => expected[column][index] !== actual[column][index])) return index;
    if ((expected.oi?.[index] ?? Number.NaN).toString() !== (actual.oi?.[index] ?? Number.NaN).toString()) return index;
  }
  return undefined;
}

/** Registers the file's series as an NSE stock-like instrument, stores its bars and checks the runtime's interval reads them back unchanged. */
async function storeSeries(
  pool: pg.Pool, request: { file: string; candles: CandleColumns; config: BacktestConfigInput; intervalMinutes: number },
): Promise<number> {
  const { file, candles, config } = request;
  const symbol = basename(file, extname(file)).toUpperCase().replace(/[^A-Z0-9&_-]+/g, '-').replace(/^-+|-+$/g, '') || 'CSV';
  const lotSize = config.sizing?.kind === 'lots' ? config.sizing.lotSize ?? 1 : 1;
  const { rows } = await pool.query<{ instrument_id: number }>(
    `INSERT INTO instruments (exchange, segment, kind, trading_symbol, name, lot_size, tick_size_paise)
     VALUES ('NSE', 'EQ', 'equity', $1, $2, $3, $4) RETURNING instrument_id`,
    [symbol, basename(file), lotSize, config.tickSize ?? DEFAULT_BACKTEST_CONFIG.tickSize]);
  const instrumentId = rows[0]!.instrument_id;
  await writeCandles(pool, { instrumentId, candles, source: 'import' });
  const dateRange = { from: istDate(candles.time[0] as number), to: istDate(candles.time[candles.length - 1] as number) };
  const stored = await loadRunCandles({ pool, instrumentId, dateRange, intervalMinutes: request.intervalMinutes });
  const differs = firstDifference(candles, stored);
  if (differs !== undefined) {
    const at = candles.time[Math.min(differs, candles.length - 1)] as number;
    throw new StoredRunError(`${file}: the bar of ${istDate(at)} at index ${differs} does not fit ${request.intervalMinutes}-minute bars `
      + 'of the NSE session (each bar opening 09:15 plus a whole number of intervals); the runtime rebuilds bars on that grid, '
      + 'so the replay would not be this backtest');
  }
  return instrumentId;
}

async function runCsv(values: Values, speed: ReplaySpeed): Promise<number> {
  const file = requireOption(values, 'data');
  const config = configOf(values);
  const { algorithm, errors } = algorithmOf(values);
  if (algorithm === undefined) return fail(errors, 'paper');
  // Stricter than the backtest's reading: the runtime replays NSE sessions, so every bar must open inside one.
  const sessions = { exchange: 'NSE', now: Date.now(), specialSessions: true } as const;
  const parsed = parseCandleCsv(readText(file, '--data'), { requireWholeMinutes: true, sessions });
  if (!parsed.ok) return fail(parsed.error.map((issue) => `${file}:${formatParseIssue(issue)}`), 'paper');
  const candles = selectCandles(parsed.value, values);
  if (candles.length === 0) return fail([`${file}: no candles between --from and --to`], 'paper');
  if (candles.volume.some((volume) => !Number.isSafeInteger(volume))) {
    return fail([`${file}: volumes must be whole numbers to be stored for the replay`], 'paper');
  }
  try {
    validateBacktestConfig(config);
  } catch (error) {
    if (error instanceof BacktestConfigError) return fail(configIssues(error), 'paper');
    throw error;
  }
  const intervalMinutes = values.interval === undefined ? inferredInterval(candles, file) : intervalOf(values);
  const series = seriesOf(candles);
  return withThrowawayDatabase((pool) => interruptible(async (signal) => {
    const instrumentId = await storeSeries(pool, { file, candles, config, intervalMinutes });
    const run: CliPaperRun = {
      instrumentId, program: algorithm as CompiledAlgorithm, intervalMinutes, asked: askedOf(values), signal,
      prepared: { plan: { kind: 'equity', charges: config.charges ?? DEFAULT_BACKTEST_CONFIG.charges }, series, config },
      replay: { from: istDate(candles.time[0] as number) as IsoDate, to: istDate(candles.time[candles.length - 1] as number) as IsoDate, speed },
    };
    const outcome = await runOnPaper(pool, run);
    if (outcome.stopped) return interrupted(outcome);
    return report({ result: outcome.result, series, values, tradesCsv });
  }));
}

async function run(args: readonly string[]): Promise<number> {
  const { values } = parseOptions(args, OPTIONS);
  const speed = speedOf(values);
  if (values.options !== undefined && values.symbol === undefined) throw new UsageError('--options needs --symbol: option legs replay the stored history of their index');
  if (values.symbol !== undefined && values.data !== undefined) {
    throw new UsageError('give either --data FILE.csv or --symbol S (stored history), not both');
  }
  try {
    return values.symbol !== undefined ? await runStored(values, speed) : await runCsv(values, speed);
  } catch (error) {
    if (error instanceof BacktestConfigError) return fail(configIssues(error), 'paper');
    const ownInputs = error instanceof StoredRunError || error instanceof UnknownInstrumentError || error instanceof PaperRunFailure;
    if (ownInputs) return fail([error.message], 'paper');
    if (error instanceof PaperDivergence) return fail([`the paper run diverged from the kernel (a bug): ${error.message}`], 'paper');
    throw error;
  }
}

export const paperCommand: CliCommand = { name: 'paper', usage: USAGE, run };
