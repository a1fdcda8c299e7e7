// `vyuha backtest --symbol NIFTY --options LEGS.json ...`: an options-legs backtest on STORED
// history. The index's 1-minute candles and INDIA VIX come from the candle store; option legs are
// priced from imported option candles when the store has candles for the chosen contract, else
// from the synthetic chain on that VIX. The history is read exactly as a backtest job reads it
// (jobs/run-candles.ts), so the same run gives the same result from the CLI and from run_backtest.
//
// Which contracts a run trades is only known while it runs, and the engine asks for candles
// synchronously. So the run is repeated: each pass records the contracts that have stored candles
// but were not loaded yet, they are loaded, and the run starts again, until a pass asks for none
// (normally two passes; only the last is reported, and it saw every candle it asked for).
import { addDays, formatIstDateTime, istEpochMs, type IsoDate, type Paise } from '@vyuha/core';
import { BacktestConfigError, dailyLimitsOf, OptionsLegsConfigError, optionsLegsTraderFactory, parseAlgorithmJson, parseOptionsLegsConfig, runBacktest } from '@vyuha/engine';
import type { BacktestConfigInput, BacktestResult, BarSeries, CompiledAlgorithm, OptionsLegsConfig } from '@vyuha/engine';
import type pg from 'pg';
import { readConfig } from '../config';
import type { Database } from '../db/database';
import { loadRunCandles, StoredLegCandles, vixAtBars } from '../jobs/run-candles';
import { resolveInstrument, UnknownInstrumentError } from '../market-data/instrument-lookup';
import { requireOption, UsageError } from './command';
import {
  algorithmOf, configIssues, configOf, dateOption, fail, readText, report, rupeesText, seriesOf, type Values,
} from './backtest';

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

async function withDatabase<T>(work: (pool: pg.Pool) => Promise<T>): Promise<T> {
  const config = readConfig();
  const [{ default: pino }, { openDatabase }] = await Promise.all([import('pino'), import('../db/database')]);
  const logger = pino({ level: config.logLevel });
  const database: Database = await openDatabase({ config, log: (message) => logger.info(message), seed: false });
  try {
    return await work(database.pool);
  } finally {
    await database.close();
  }
}

interface OptionsRun {
  readonly legs: OptionsLegsConfig;
  readonly algorithm: CompiledAlgorithm;
  readonly config: BacktestConfigInput;
  readonly from: IsoDate;
  readonly to: IsoDate;
  readonly intervalMinutes: number;
}

/** Reads the stored history (as a backtest job does) and runs until every contract asked for had its candles loaded. */
async function runOnStore(pool: pg.Pool, run: OptionsRun): Promise<{ result: BacktestResult; series: BarSeries } | string> {
  const index = await resolveInstrument(pool, run.legs.underlying);
  const vixInstrument = await resolveInstrument(pool, 'INDIA VIX');
  const range = { dateRange: { from: run.from, to: run.to }, intervalMinutes: run.intervalMinutes };
  const series = seriesOf(await loadRunCandles({ pool, instrumentId: index.instrumentId, ...range }));
  if (series.length === 0) return `no stored candles for ${index.exchange}:${index.tradingSymbol} from ${run.from} to ${run.to}`;
  const vix = await loadRunCandles({ pool, instrumentId: vixInstrument.instrumentId, ...range });
  if (vix.length === 0) return `no stored INDIA VIX candles from ${run.from} to ${run.to} (the synthetic option chain needs them)`;
  const candles = await StoredLegCandles.find(pool, {
    underlyingId: index.instrumentId, from: istEpochMs(run.from, '00:00'), to: istEpochMs(addDays(run.to, 1), '00:00'),
  });
  const trader = optionsLegsTraderFactory({
    config: run.legs, vix: vixAtBars(series, vix), fill: run.config.fill ?? 'next-open', slippage: { kind: 'none' }, candles,
  });
  for (;;) {
    const result = runBacktest({ series, program: run.algorithm, config: run.config, trader });
    if (!(await candles.loadWanted(pool, range))) return { result, series };
  }
}

/** One row per fill, with the contract: time,instrument,side,quantity,price,charges,reason. */
export function optionTradesCsv(result: BacktestResult): string {
  const lines = ['time,instrument,side,quantity,price,charges,reason'];
  for (const fill of result.fills) {
    lines.push(`${formatIstDateTime(fill.time)},${fill.instrument},${fill.side === 'buy' ? 'BUY' : 'SELL'},${fill.quantity},${rupeesText(fill.price)},${rupeesText(fill.chargesTotal)},${fill.reason}`);
  }
  return `${lines.join('\n')}\n`;
}

function intervalOf(values: Values): number {
  if (values.interval === undefined) return 1;
  const interval = Number(values.interval);
  if (!Number.isInteger(interval) || interval < 1 || interval > 1440) throw new UsageError(`--interval must be whole minutes from 1 to 1440, got "${String(values.interval)}"`);
  return interval;
}

/** Runs `vyuha backtest --symbol S --options FILE.json ...`; resolves to the exit code. */
export async function runOptionsBacktest(values: Values): Promise<number> {
  const symbol = requireOption(values, 'symbol');
  const file = requireOption(values, 'options');
  for (const option of ['sizing', 'lot-size'] as const) {
    if (values[option] !== undefined) throw new UsageError(`--${option} does not apply to options: each leg's lots are in ${file}`);
  }
  const from = dateOption(values, 'from');
  const to = dateOption(values, 'to');
  if (from === undefined || to === undefined) throw new UsageError('an options backtest needs --from and --to (IST dates of the stored history)');
  if (from > to) throw new UsageError(`--from ${from} is after --to ${to}`);
  const intervalMinutes = intervalOf(values);
  const legs = legsConfigOf(file);
  if (legs.config === undefined) return fail(legs.errors);
  if (legs.config.underlying !== symbol.toUpperCase()) return fail([`--symbol ${symbol} is not the underlying of ${file} (${legs.config.underlying})`]);
  const { algorithm, errors } = algorithmOf(values);
  if (algorithm === undefined) return fail(errors);
  const { dailyMaxLoss, dailyMaxProfit } = dailyLimitsOf(legs.config);
  const config: BacktestConfigInput = {
    ...configOf({ charges: 'nse-options', ...values }),
    ...(dailyMaxLoss === undefined ? {} : { dailyMaxLoss: dailyMaxLoss as Paise }),
    ...(dailyMaxProfit === undefined ? {} : { dailyMaxProfit: dailyMaxProfit as Paise }),
  };
  let outcome: Awaited<ReturnType<typeof runOnStore>>;
  try {
    outcome = await withDatabase((pool) => runOnStore(pool, { legs: legs.config as OptionsLegsConfig, algorithm, config, from: from as IsoDate, to: to as IsoDate, intervalMinutes }));
  } catch (error) {
    if (error instanceof BacktestConfigError) return fail(configIssues(error));
    if (error instanceof UnknownInstrumentError || error instanceof OptionsLegsConfigError) return fail([error.message]);
    throw error;
  }
  if (typeof outcome === 'string') return fail([outcome]);
  return report({ result: outcome.result, series: outcome.series, values, tradesCsv: optionTradesCsv });
}
