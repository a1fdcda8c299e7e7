import { readFileSync, writeFileSync } from 'node:fs';
import { formatIstDateTime, isIsoDate, istParts } from '@vyuha/core';
import type { Paise } from '@vyuha/core';
import {
  algorithmFromExpressions, BacktestConfigError, compileAlgorithm, computeMetrics, formatAlgorithmError, parseAlgorithmJson,
  runBacktest,
} from '@vyuha/engine';
import type { AlgorithmError, BacktestConfigInput, BacktestResult, BarSeries, ChargesConfig, CompiledAlgorithm, PerformanceMetrics, Sizing } from '@vyuha/engine';
import { formatParseIssue, parseCandleCsv } from '@vyuha/market';
import type { CandleColumns } from '@vyuha/market';
import { aggregateCandles } from '../market-data/candle-aggregate';
import { numberOption, parseOptions, print, requireOption, UsageError, type CliCommand } from './command';

const USAGE = `Usage: vyuha backtest --data FILE.csv (--algo FILE.json | --entry EXPR [--exit EXPR])
                      [--type intraday|swing] [--interval MIN] [--capital RUPEES]
                      [--sizing all-in|qty:N|lots:N|pct:P] [--lot-size UNITS] [--fill next-open|close]
                      [--charges none|nse-options|nse-futures|nse-equity-intraday]
                      [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--trades OUT.csv] [--json]
       vyuha backtest --symbol NIFTY --options LEGS.json (--algo FILE.json | --entry EXPR [--exit EXPR])
                      --from YYYY-MM-DD --to YYYY-MM-DD [--interval MIN] [--type intraday|swing]
                      [--capital RUPEES] [--fill next-open|close] [--charges ...] [--trades OUT.csv] [--json]

Backtests one OHLCV series (datetime,open,high,low,close,volume[,oi]) long-only with the event
kernel: signals at each bar's close, market orders at the next bar's open (--fill close: at
that close), intraday entries until 15:00 and square-off at 15:15.

  --data      candle CSV; a bad row is reported as line:column and nothing runs
  --algo      algorithm JSON (the editor's format); or --entry/--exit expressions
  --type      intraday (default) or swing (positions carried overnight)
  --interval  aggregate the bars to this many minutes (1-1440), aligned to 09:15
  --capital   starting capital in rupees (default 100000)
  --sizing    all-in (default), qty:N units, lots:N lots of --lot-size, pct:P percent of capital
  --charges   none (default) or the dated NSE schedule for options, futures or intraday equity
  --from/--to IST dates, both included
  --trades    write one row per fill: time,side,quantity,price,charges,reason
  --json      print the result as JSON (paise as integers)

Options mode (--symbol, --options): the index's stored 1-minute candles (DATABASE_URL, else the
embedded database) between --from and --to, aggregated to --interval. Each entry signal opens the
legs of LEGS.json (the options-legs config: underlying, onBuy, onSell, ...), priced every bar
from imported option candles where the store has them, else from the synthetic chain on the
stored INDIA VIX. Charges default to nse-options; --trades adds the contract's symbol per fill.
`;

const OPTIONS = {
  'data': { type: 'string' }, 'symbol': { type: 'string' }, 'options': { type: 'string' }, 'algo': { type: 'string' }, 'entry': { type: 'string' }, 'exit': { type: 'string' },
  'type': { type: 'string' }, 'interval': { type: 'string' }, 'capital': { type: 'string' }, 'sizing': { type: 'string' },
  'lot-size': { type: 'string' }, 'fill': { type: 'string' }, 'charges': { type: 'string' }, 'from': { type: 'string' },
  'to': { type: 'string' }, 'trades': { type: 'string' }, 'json': { type: 'boolean' },
} as const;

/** Parsed command-line values. */
export type Values = Record<string, string | boolean | undefined>;

/** --charges names and the charge schedules they select. */
export const CHARGES: Readonly<Record<string, ChargesConfig>> = {
  'none': { kind: 'none' },
  'nse-options': { kind: 'schedule', exchange: 'NSE', instrument: 'option' },
  'nse-futures': { kind: 'schedule', exchange: 'NSE', instrument: 'future' },
  'nse-equity-intraday': { kind: 'schedule', exchange: 'NSE', instrument: 'equity-intraday' },
};

/** Which option a config field came from, so a refusal names what the user typed. */
const OPTION_OF_FIELD: Readonly<Record<string, string>> = {
  'capital': '--capital', 'type': '--type', 'fill': '--fill', 'charges': '--charges', 'sizing': '--sizing', 'sizing.lotSize': '--lot-size',
};

function sizingOption(values: Values): Sizing {
  const text = typeof values.sizing === 'string' ? values.sizing : 'all-in';
  if (text === 'all-in') return { kind: 'all-in' };
  const match = /^(qty|lots|pct):(\d+(?:\.\d+)?)$/.exec(text);
  if (!match) throw new UsageError(`--sizing must be all-in, qty:N, lots:N or pct:P, got "${text}"`);
  const amount = Number(match[2]);
  if (match[1] === 'qty') return { kind: 'quantity', quantity: amount };
  if (match[1] === 'pct') return { kind: 'percent', percent: amount };
  const lotSize = values['lot-size'] === undefined ? undefined : numberOption(values, 'lot-size');
  return { kind: 'lots', lots: amount, ...(lotSize === undefined ? {} : { lotSize }) } as Sizing;
}

/** The run's config from --capital, --charges, --sizing, --lot-size, --type and --fill. */
export function configOf(values: Values): BacktestConfigInput {
  const charges = typeof values.charges === 'string' ? CHARGES[values.charges] : CHARGES.none;
  if (charges === undefined) throw new UsageError(`--charges must be one of ${Object.keys(CHARGES).join(', ')}, got "${String(values.charges)}"`);
  const capital = values.capital === undefined ? 100_000 : numberOption(values, 'capital');
  if (!Number.isFinite(capital) || Math.round(capital * 100) !== Number((capital * 100).toPrecision(15))) {
    throw new UsageError(`--capital must be rupees with at most 2 decimals, got "${String(values.capital)}"`);
  }
  return {
    capital: Math.round(capital * 100) as Paise,
    direction: 'long-only',
    charges,
    sizing: sizingOption(values),
    ...(typeof values.type === 'string' ? { type: values.type as 'intraday' } : {}),
    ...(typeof values.fill === 'string' ? { fill: values.fill as 'close' } : {}),
  };
}

/** A file's text; a missing file names the option it came from. */
export function readText(path: string, option: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(`${option} ${path}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`);
  }
}

/** The algorithm from --algo or --entry/--exit, or every error with line:column. */
export function algorithmOf(values: Values): { algorithm?: CompiledAlgorithm; errors: string[] } {
  const hasAlgo = typeof values.algo === 'string';
  if (hasAlgo === (typeof values.entry === 'string')) throw new UsageError('give either --algo FILE.json or --entry EXPR (with --exit EXPR), not both or neither');
  if (!hasAlgo && values.exit !== undefined && typeof values.exit !== 'string') throw new UsageError('--exit needs an expression');
  let document: unknown;
  let label: (error: AlgorithmError) => string;
  if (hasAlgo) {
    const file = values.algo as string;
    const parsed = parseAlgorithmJson(readText(file, '--algo'));
    if (!parsed.ok) return { errors: parsed.error.map((error) => `${file}: ${formatAlgorithmError(error)}`) };
    document = parsed.value;
    label = (error) => `${file}: ${formatAlgorithmError(error)}`;
  } else {
    document = algorithmFromExpressions({ entry: values.entry as string, ...(typeof values.exit === 'string' ? { exit: values.exit } : {}) });
    const optionOf = (error: AlgorithmError): string => (error.nodeId === 'entry' ? '--entry' : error.nodeId === 'exit-condition' ? '--exit' : error.path);
    label = (error) => `${optionOf(error)}: ${error.line === undefined ? '' : `${error.line}:${error.column ?? 1}: `}${error.message}`;
  }
  const compiled = compileAlgorithm(document);
  return compiled.ok ? { algorithm: compiled.value, errors: [] } : { errors: compiled.error.map(label) };
}

/** An IST date option, checked. */
export function dateOption(values: Values, name: string): string | undefined {
  const text = values[name];
  if (text === undefined) return undefined;
  if (typeof text !== 'string' || !isIsoDate(text)) throw new UsageError(`--${name} must be a date as YYYY-MM-DD, got "${String(text)}"`);
  return text;
}

/** Candles within --from/--to (IST dates, both included), then aggregated to --interval. */
function selectCandles(candles: CandleColumns, values: Values): CandleColumns {
  const from = dateOption(values, 'from');
  const to = dateOption(values, 'to');
  let first = 0;
  let end = candles.length;
  const dayOf = (index: number): string => istParts(candles.time[index] as number).date;
  if (from !== undefined) while (first < end && dayOf(first) < from) first += 1;
  if (to !== undefined) while (end > first && dayOf(end - 1) > to) end -= 1;
  const sliced: CandleColumns = {
    length: end - first, time: candles.time.subarray(first, end), open: candles.open.subarray(first, end), high: candles.high.subarray(first, end),
    low: candles.low.subarray(first, end), close: candles.close.subarray(first, end), volume: candles.volume.subarray(first, end),
    ...(candles.oi === undefined ? {} : { oi: candles.oi.subarray(first, end) }),
  };
  if (values.interval === undefined) return sliced;
  const interval = numberOption(values, 'interval');
  if (!Number.isInteger(interval) || interval < 1 || interval > 1440) throw new UsageError(`--interval must be whole minutes from 1 to 1440, got "${String(values.interval)}"`);
  return interval === 1 ? sliced : aggregateCandles(sliced, interval);
}

/** Paise columns -> the kernel's rupee columns (exact: paise / 100 round-trips through Math.round(x * 100)). */
export function seriesOf(candles: CandleColumns): BarSeries {
  const rupees = (column: Int32Array): Float64Array => {
    const out = new Float64Array(column.length);
    for (let index = 0; index < column.length; index += 1) out[index] = (column[index] as number) / 100;
    return out;
  };
  return {
    length: candles.length, time: candles.time, open: rupees(candles.open), high: rupees(candles.high), low: rupees(candles.low),
    close: rupees(candles.close), volume: candles.volume, oi: candles.oi ?? new Float64Array(candles.length).fill(Number.NaN),
  };
}

/** Paise as rupees with 2 decimals, no grouping (for CSV). @example rupeesText(-12_345) // '-123.45' */
export function rupeesText(amount: number): string {
  const sign = amount < 0 ? '-' : '';
  const absolute = Math.abs(amount);
  return `${sign}${Math.floor(absolute / 100)}.${String(absolute % 100).padStart(2, '0')}`;
}

/** One row per fill: time,side,quantity,price,charges,reason. */
export function tradesCsv(result: BacktestResult): string {
  const lines = ['time,side,quantity,price,charges,reason'];
  for (const fill of result.fills) {
    lines.push(`${formatIstDateTime(fill.time)},${fill.side === 'buy' ? 'BUY' : 'SELL'},${fill.quantity},${rupeesText(fill.price)},${rupeesText(fill.chargesTotal)},${fill.reason}`);
  }
  return `${lines.join('\n')}\n`;
}

/** The metrics of a run over `series`; undefined when no day was traded. */
export function metricsOf(result: BacktestResult, series: BarSeries): PerformanceMetrics | undefined {
  const first = result.days[0];
  const last = result.days[result.days.length - 1];
  if (first === undefined || last === undefined) return undefined;
  return computeMetrics({
    capital: result.config.capital,
    period: { from: first.date, to: last.date, tradingDays: result.days.map((day) => day.date) },
    days: result.days.map((day) => ({ date: day.date, netPnl: day.net, grossPnl: day.gross, charges: day.charges, orders: day.orders })),
    trades: result.trades.map((trade) => ({ entryTime: trade.entryTime, exitTime: trade.exitTime, netPnl: trade.net, charges: trade.charges })),
    equity: { times: series.time, equity: result.equity },
    barsInMarket: result.barsInMarket,
    totalBars: series.length,
    candlesProcessed: result.candlesProcessed,
  });
}

const number = (value: number | 'infinite' | null, digits = 2): string => {
  if (value === 'infinite') return 'infinite';
  return value === null || !Number.isFinite(value) ? '-' : value.toFixed(digits);
};
const money = (value: number | null): string => (value === null ? '-' : rupeesDisplay(value));

/**
 * Paise for people: the rupee sign, en-IN grouping (lakh and crore), 2 decimals, from integers.
 * @example rupeesDisplay(-1_234_567_890) // '-₹1,23,45,678.90'
 */
export function rupeesDisplay(amount: number): string {
  const [whole, fraction] = rupeesText(Math.abs(amount)).split('.') as [string, string];
  const lastThree = whole.slice(-3);
  const rest = whole.slice(0, -3).replace(/\B(?=(\d{2})+$)/g, ',');
  return `${amount < 0 ? '-' : ''}₹${rest === '' ? lastThree : `${rest},${lastThree}`}.${fraction}`;
}

/** The metrics as an aligned two-column table. */
export function metricsTable(result: BacktestResult, metrics: PerformanceMetrics | undefined): string {
  const s = result.summary;
  const rows: Array<[string, string]> = [
    ['Candles processed', String(result.candlesProcessed)], ['Capital', money(s.startingCapital)], ['Ending equity', money(s.endingEquity)],
    ['Net P&L', money(s.netPnl)], ['Gross P&L', money(s.grossPnl)], ['Charges paid', money(s.charges)],
    ['Trades', String(s.trades)], ['Orders', String(result.fills.length)],
  ];
  if (metrics !== undefined) {
    rows.push(
      ['Return %', number(metrics.returnPercent)], ['CAGR %', number(metrics.cagrPercent)],
      ['Max drawdown', `${money(metrics.maxDrawdown)} (${number(metrics.maxDrawdownPercent)}%, ${metrics.maxDrawdownDurationDays} days)`],
      ['Sharpe', number(metrics.sharpe)], ['Sortino', number(metrics.sortino)], ['Calmar', number(metrics.calmar)],
      ['Win rate %', number(metrics.winRate === null ? null : metrics.winRate * 100)], ['Profit factor', number(metrics.profitFactor)],
      ['Expectancy', money(metrics.expectancy)], ['Average win', money(metrics.averageWin)], ['Average loss', money(metrics.averageLoss)],
      ['Longest win streak', String(metrics.longestWinStreak)], ['Longest loss streak', String(metrics.longestLossStreak)],
      ['Exposure %', number(metrics.exposurePercent)],
    );
  } else {
    rows.push(['Max drawdown', money(s.maxDrawdown)]);
  }
  const width = Math.max(...rows.map(([label]) => label.length)) + 2;
  return rows.map(([label, value]) => `${label.padEnd(width)}${value}`).join('\n');
}

/** A refused config, one line per field, naming the option it came from. */
export function configIssues(error: BacktestConfigError): string[] {
  return error.issues.map((issue) => {
    const option = OPTION_OF_FIELD[issue.field] ?? OPTION_OF_FIELD[issue.field.split('.')[0] ?? ''];
    return `impossible config: ${issue.field}${option === undefined ? '' : ` (${option})`}: ${issue.message}`;
  });
}

/** Prints refusals prefixed with the command and returns exit code 1. */
export function fail(lines: readonly string[]): number {
  process.stderr.write(`${lines.map((line) => `vyuha backtest: ${line}`).join('\n')}\n`);
  return 1;
}

async function run(args: readonly string[]): Promise<number> {
  const { values } = parseOptions(args, OPTIONS);
  if (values.options !== undefined || values.symbol !== undefined) {
    if (values.data !== undefined) throw new UsageError('give either --data FILE.csv or --symbol S --options FILE.json, not both');
    // Loaded only for options runs: they open the database (pg), a plain CSV run never does.
    return (await import('./backtest-options')).runOptionsBacktest(values);
  }
  const dataFile = requireOption(values, 'data');
  const config = configOf(values);
  const { algorithm, errors } = algorithmOf(values);
  if (algorithm === undefined) return fail(errors);
  const parsed = parseCandleCsv(readText(dataFile, '--data'));
  if (!parsed.ok) return fail(parsed.error.map((issue) => `${dataFile}:${formatParseIssue(issue)}`));
  const series = seriesOf(selectCandles(parsed.value, values));
  if (series.length === 0) return fail([`${dataFile}: no candles between --from and --to`]);
  let result: BacktestResult;
  try {
    result = runBacktest({ series, program: algorithm, config });
  } catch (error) {
    if (error instanceof BacktestConfigError) return fail(configIssues(error));
    throw error;
  }
  return report({ result, series, values, tradesCsv });
}

/** Writes `--trades`, then prints the metrics table (or the whole result as JSON with `--json`); exit code 0. */
export function report(run: { result: BacktestResult; series: BarSeries; values: Values; tradesCsv: (result: BacktestResult) => string }): number {
  const { result, series, values } = run;
  if (typeof values.trades === 'string') writeFileSync(values.trades, run.tradesCsv(result));
  const metrics = metricsOf(result, series);
  if (values.json === true) {
    const { equity: _equity, drawdown: _drawdown, ...rest } = result;
    print(JSON.stringify({ ...rest, metrics: metrics ?? null }, null, 2));
  } else {
    print(metricsTable(result, metrics));
  }
  return 0;
}

export const backtestCommand: CliCommand = { name: 'backtest', usage: USAGE, run };
