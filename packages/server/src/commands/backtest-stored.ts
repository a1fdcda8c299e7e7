// `vyuha backtest --symbol S ...`: a backtest on STORED history through the backtest service
// (backtest/stored-run.ts), the path a run_backtest job takes, so the same request gives the same
// result from the CLI and from the web app:
// - with --options LEGS.json: option legs on the index, priced from imported option candles where
//   the store has them, else from the synthetic chain on the stored INDIA VIX; options charges of
//   the index's exchange unless --charges names others;
// - without: the instrument itself, as the service trades it: an index as its near-month future
//   (whole lots by the margin estimate, --sizing pct:P of the capital or lots:N; rolled at expiry;
//   futures charges; stored futures candles, else the cost-of-carry model), a stock as shares
//   (equity charges), anything else refused with the reason.
// Option legs ask for option candles as they run, so that run repeats until it asked for nothing
// new (normally two passes; only the last is reported).
import { formatIstDateTime, paiseToRupeesText } from '@vyuha/core';
import type { IsoDate, Paise } from '@vyuha/core';
import { BacktestConfigError, OptionsLegsConfigError, parseAlgorithmJson, parseOptionsLegsConfig } from '@vyuha/engine';
import type { BacktestResult, ChargesConfig, CompiledAlgorithm, FuturesSizing, OptionsLegsConfig, Sizing } from '@vyuha/engine';
import type pg from 'pg';
import { CHARGES } from '../backtest/charges-presets';
import { EngineRunError, prepareStoredRun, runPrepared, StoredRunError, tradedSummary } from '../backtest/stored-run';
import type { PreparedRun } from '../backtest/stored-run';
import { storedInstrumentOf } from '../backtest/trade-plan';
import type { StoredInstrument } from '../backtest/trade-plan';
import { readConfig } from '../config';
import type { Database } from '../db/database';
import { resolveInstrument, UnknownInstrumentError } from '../market-data/instrument-lookup';
import { algorithmOf, configIssues, configOf, dateOption, fail, readText, report, type Values } from './backtest-cli';
import { requireOption, UsageError } from './command';

/**
 * `line:column: problem` of a JSON syntax error, or undefined for valid JSON. The engine's JSON
 * reader (which gives positions; V8's JSON.parse often does not) is public only through
 * parseAlgorithmJson, whose first stage it is: an issue with no path and a line is a syntax error.
 */
function jsonSyntaxIssue(text: string): string | undefined {
  const parsed = parseAlgorithmJson(text);
  if (parsed.ok) return undefined;
  const syntax = parsed.error.find((issue) => issue.path === '' && issue.line !== undefined);
  return syntax === undefined ? undefined : `${syntax.line}:${syntax.column ?? 1}: ${syntax.message}`;
}

/** The legs config from its file, or the lines that explain why it cannot run. */
function legsConfigOf(file: string): { config?: OptionsLegsConfig; errors: string[] } {
  const text = readText(file, '--options');
  const syntax = jsonSyntaxIssue(text);
  if (syntax !== undefined) return { errors: [`${file}: ${syntax}`] };
  try {
    return { config: parseOptionsLegsConfig(JSON.parse(text)), errors: [] };
  } catch (error) {
    if (error instanceof OptionsLegsConfigError) return { errors: [`${file}: ${error.message}`] };
    throw error;
  }
}

/** Runs `work` on the configured database (DATABASE_URL, else the embedded one), closed afterwards. */
export async function withDatabase<T>(work: (pool: pg.Pool) => Promise<T>): Promise<T> {
  const config = readConfig();
  const [{ default: pino }, { openDatabase }] = await Promise.all([import('pino'), import('../db/database')]);
  // The database's own messages (the embedded server starting, migrations) go to stderr: stdout
  // is the command's result (--json, the table), which a script reads.
  const logger = pino({ level: config.logLevel }, pino.destination(2));
  const database: Database = await openDatabase({ config, log: (message) => logger.info(message), seed: false });
  try {
    return await work(database.pool);
  } finally {
    await database.close();
  }
}

/** One row per fill, with the contract: time,instrument,side,quantity,price,charges,reason. */
export function contractTradesCsv(result: BacktestResult): string {
  const lines = ['time,instrument,side,quantity,price,charges,reason'];
  for (const fill of result.fills) {
    lines.push(`${formatIstDateTime(fill.time)},${fill.instrument},${fill.side === 'buy' ? 'BUY' : 'SELL'},${fill.quantity},${paiseToRupeesText(fill.price)},${paiseToRupeesText(fill.chargesTotal)},${fill.reason}`);
  }
  return `${lines.join('\n')}\n`;
}

/** --interval of a stored run (default 1 minute). */
export function intervalOf(values: Values): number {
  if (values.interval === undefined) return 1;
  const interval = Number(values.interval);
  if (!Number.isInteger(interval) || interval < 1 || interval > 1440) throw new UsageError(`--interval must be whole minutes from 1 to 1440, got "${String(values.interval)}"`);
  return interval;
}

/** --sizing of a stored run: a future's (all-in and pct:P by margin, lots:N) and a stock's (all-in, qty:N, pct:P) in one. */
function storedSizing(values: Values): { futures?: FuturesSizing; equity?: Sizing } {
  if (values['lot-size'] !== undefined) throw new UsageError('--lot-size does not apply to --symbol: a future trades the lot in force for its contract, a stock trades shares');
  const text = typeof values.sizing === 'string' ? values.sizing : 'all-in';
  if (text === 'all-in') return {};
  const match = /^(qty|lots|pct):(\d+(?:\.\d+)?)$/.exec(text);
  if (!match) throw new UsageError(`--sizing must be all-in, qty:N, lots:N or pct:P, got "${text}"`);
  const amount = Number(match[2]);
  if (match[1] === 'lots') return { futures: { kind: 'lots', lots: amount } };
  if (match[1] === 'pct') return { futures: { kind: 'margin', percent: amount }, equity: { kind: 'percent', percent: amount } };
  return { equity: { kind: 'quantity', quantity: amount } };
}

/** The stored history a command line asked for (--symbol, --options, --from, --to and the run's options), checked. */
export interface StoredHistory {
  readonly symbol: string;
  readonly legs: OptionsLegsConfig | undefined;
  readonly values: Values;
  readonly dateRange: { readonly from: IsoDate; readonly to: IsoDate };
}

/** A stored-history backtest the command line asked for, its options checked. */
export interface StoredCommand extends StoredHistory {
  readonly algorithm: CompiledAlgorithm;
}

/** Options of a legs run, or of an instrument run, that do not apply to it. */
function refuseForeignOptions(values: Values, legsFile: string | undefined): void {
  if (legsFile !== undefined) {
    for (const option of ['sizing', 'lot-size'] as const) {
      if (values[option] !== undefined) throw new UsageError(`--${option} does not apply to options: each leg's lots are in ${legsFile}`);
    }
  } else if (values.charges !== undefined) {
    throw new UsageError('--charges does not apply to --symbol without --options: the charges are those of what is traded (futures for an index, equity for a stock)');
  }
}

/** The stored history of a run prepared as a run_backtest job prepares it, and the instrument it names. */
export async function prepareStoredCommand(pool: pg.Pool, command: StoredHistory): Promise<{ prepared: PreparedRun; instrument: StoredInstrument }> {
  const { values, legs } = command;
  const config = configOf({ ...values, sizing: undefined, charges: undefined });
  const sizing = legs === undefined ? storedSizing(values) : {};
  const instrument = await storedInstrumentOf(pool, await resolveInstrument(pool, command.symbol));
  const optionsCharges: ChargesConfig | undefined = typeof values.charges === 'string' ? CHARGES[values.charges] : undefined;
  if (typeof values.charges === 'string' && optionsCharges === undefined) throw new UsageError(`--charges must be one of ${Object.keys(CHARGES).join(', ')}, got "${values.charges}"`);
  const prepared = await prepareStoredRun({
    pool, instrument, strategyType: config.type ?? 'intraday', dateRange: command.dateRange, intervalMinutes: intervalOf(values), capital: config.capital as Paise,
    legs, fill: config.fill, futuresSizing: sizing.futures, equitySizing: sizing.equity, optionsCharges,
  });
  return { prepared, instrument };
}

async function runOnStore(pool: pg.Pool, command: StoredCommand): Promise<number> {
  const { values } = command;
  const { prepared } = await prepareStoredCommand(pool, command);
  const result = await runPrepared(pool, { prepared, program: command.algorithm, dateRange: command.dateRange, intervalMinutes: intervalOf(values) });
  return report({ result, series: prepared.series, values, tradesCsv: contractTradesCsv, traded: tradedSummary(prepared, result) });
}

/**
 * Checks the options that name a run's stored history (--symbol, --options, --from, --to, --type,
 * --interval and the options that do not apply): the history, or the lines that say why it cannot
 * run (a bad legs file). A wrong command line is a UsageError. `vyuha sweep --symbol` reads them too.
 */
export function storedHistoryOf(values: Values): { history?: StoredHistory; errors: string[] } {
  const symbol = requireOption(values, 'symbol');
  const file = typeof values.options === 'string' ? values.options : undefined;
  if (values.options !== undefined && file === undefined) throw new UsageError('--options needs a file');
  refuseForeignOptions(values, file);
  const from = dateOption(values, 'from');
  const to = dateOption(values, 'to');
  if (from === undefined || to === undefined) throw new UsageError('a run on stored history needs --from and --to (IST dates)');
  if (from > to) throw new UsageError(`--from ${from} is after --to ${to}`);
  if (values.type !== undefined && values.type !== 'intraday' && values.type !== 'swing') throw new UsageError(`--type must be intraday or swing, got "${String(values.type)}"`);
  intervalOf(values);
  let legs: OptionsLegsConfig | undefined;
  if (file !== undefined) {
    const parsed = legsConfigOf(file);
    if (parsed.config === undefined) return { errors: parsed.errors };
    if (parsed.config.underlying !== symbol.toUpperCase()) return { errors: [`--symbol ${symbol} is not the underlying of ${file} (${parsed.config.underlying})`] };
    legs = parsed.config;
  }
  return { history: { symbol, legs, values, dateRange: { from: from as IsoDate, to: to as IsoDate } }, errors: [] };
}

/**
 * Checks the options of a stored-history backtest: the run, or the lines that say why its inputs
 * cannot run (a bad legs file, an algorithm that does not compile). A wrong command line is a UsageError.
 */
export function storedCommandOf(values: Values): { command?: StoredCommand; errors: string[] } {
  const { history, errors: historyErrors } = storedHistoryOf(values);
  if (history === undefined) return { errors: historyErrors };
  const { algorithm, errors } = algorithmOf(values);
  if (algorithm === undefined) return { errors };
  return { command: { ...history, algorithm }, errors: [] };
}

/** Runs `vyuha backtest --symbol S [--options FILE.json] ...`; resolves to the exit code. */
export async function runStoredBacktest(values: Values): Promise<number> {
  const { command, errors } = storedCommandOf(values);
  if (command === undefined) return fail(errors);
  try {
    return await withDatabase((pool) => runOnStore(pool, command));
  } catch (error) {
    if (error instanceof EngineRunError && error.cause instanceof BacktestConfigError) return fail(configIssues(error.cause));
    if (error instanceof EngineRunError) throw error.cause;
    if (error instanceof StoredRunError || error instanceof UnknownInstrumentError) return fail([error.message]);
    throw error;
  }
}
