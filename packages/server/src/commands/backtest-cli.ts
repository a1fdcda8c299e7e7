// The `vyuha backtest` command's shared pieces, used by its CSV mode (backtest.ts), its
// stored-history mode (backtest-stored.ts) and by `vyuha paper` (paper.ts), which must read the
// same options and print the same output: the options, selecting a CSV's candles, reading options
// into the engine's config and an algorithm, and printing or writing what a run produced. CLI
// only: the backtest service below it (packages/server/src/backtest/) knows nothing of options or
// terminals.
import { readFileSync, writeFileSync } from 'node:fs';
import { formatIstDateTime, formatRupees, isIsoDate, IST_OFFSET_MS, istParts, paiseToRupees, paiseToRupeesText, parseRupees } from '@vyuha/core';
import { algorithmFromExpressions, compileAlgorithm, formatAlgorithmError, parseAlgorithmJson } from '@vyuha/engine';
import type { AlgorithmError, BacktestConfigError, BacktestConfigInput, BacktestResult, BarSeries, CompiledAlgorithm, PerformanceMetrics, Sizing } from '@vyuha/engine';
import type { CandleColumns } from '@vyuha/market';
import { CHARGES } from '../backtest/charges-presets';
import { metricsOf } from '../backtest/run-metrics';
import { aggregateCandles } from '../market-data/candle-aggregate';
import { numberOption, print, UsageError } from './command';

/** Parsed command-line values. */
export type Values = Record<string, string | boolean | undefined>;

/** Every option of `vyuha backtest` (`vyuha paper` takes them all, and --speed). */
export const BACKTEST_OPTIONS = {
  'data': { type: 'string' }, 'symbol': { type: 'string' }, 'options': { type: 'string' }, 'algo': { type: 'string' }, 'entry': { type: 'string' }, 'exit': { type: 'string' },
  'type': { type: 'string' }, 'interval': { type: 'string' }, 'capital': { type: 'string' }, 'sizing': { type: 'string' },
  'lot-size': { type: 'string' }, 'fill': { type: 'string' }, 'charges': { type: 'string' }, 'from': { type: 'string' },
  'to': { type: 'string' }, 'trades': { type: 'string' }, 'json': { type: 'boolean' },
} as const;


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
  const capitalPaise = parseRupees(capital, { allowNegative: true });
  if (!capitalPaise.ok || paiseToRupees(capitalPaise.value) !== capital) {
    throw new UsageError(`--capital must be rupees with at most 2 decimals, got "${String(values.capital)}"`);
  }
  return {
    capital: capitalPaise.value,
    direction: 'long-only',
    charges,
    sizing: sizingOption(values),
    ...(typeof values.type === 'string' ? { type: values.type as 'intraday' } : {}),
    ...(typeof values.fill === 'string' ? { fill: values.fill as 'close' } : {}),
  };
}

/** The rows [first, end) of candles at `time` within --from/--to (IST dates, both included). */
export function dateRange(time: Float64Array, values: Values): { first: number; end: number } {
  const from = dateOption(values, 'from');
  const to = dateOption(values, 'to');
  let first = 0;
  let end = time.length;
  const dayOf = (index: number): string => istParts(time[index] as number).date;
  if (from !== undefined) while (first < end && dayOf(first) < from) first += 1;
  if (to !== undefined) while (end > first && dayOf(end - 1) > to) end -= 1;
  return { first, end };
}

/** Candles within --from/--to (IST dates, both included), then aggregated to --interval. */
export function selectCandles(candles: CandleColumns, values: Values): CandleColumns {
  const { first, end } = dateRange(candles.time, values);
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

/** What `read` returns; a missing or unreadable file names the option it came from. */
export function readNamed<T>(path: string, option: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw new Error(`${option} ${path}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`);
  }
}

/** A file's text; a missing file names the option it came from. */
export function readText(path: string, option: string): string {
  return readNamed(path, option, () => readFileSync(path, 'utf8'));
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

/** One row per fill: time,side,quantity,price,charges,reason. */
export function tradesCsv(result: BacktestResult): string {
  const lines = ['time,side,quantity,price,charges,reason'];
  const timeText = istDateTimeWriter();
  for (const fill of result.fills) {
    lines.push(`${timeText(fill.time)},${fill.side === 'buy' ? 'BUY' : 'SELL'},${fill.quantity},${paiseToRupeesText(fill.price)},${paiseToRupeesText(fill.chargesTotal)},${fill.reason}`);
  }
  return `${lines.join('\n')}\n`;
}

const MS_PER_DAY = 86_400_000;
const TWO_DIGITS = Array.from({ length: 60 }, (_, value) => String(value).padStart(2, '0'));

/**
 * formatIstDateTime for many times in order: the date text is made once per IST day, the time of
 * day from a table (the same text: milliseconds dropped; anything but whole ms goes to formatIstDateTime).
 * @example istDateTimeWriter()(1704080700000) // '2024-01-01 09:15:00'
 */
function istDateTimeWriter(): (epochMs: number) => string {
  let day = Number.NaN;
  let date = '';
  return (epochMs) => {
    if (!Number.isSafeInteger(epochMs)) return formatIstDateTime(epochMs);
    const local = epochMs + IST_OFFSET_MS;
    const epochDay = Math.floor(local / MS_PER_DAY);
    if (epochDay !== day) {
      day = epochDay;
      date = formatIstDateTime(epochMs).slice(0, -9);
    }
    const msOfDay = local - epochDay * MS_PER_DAY;
    const minute = Math.floor(msOfDay / 60_000);
    const second = Math.floor((msOfDay % 60_000) / 1000);
    return `${date} ${TWO_DIGITS[Math.floor(minute / 60)] as string}:${TWO_DIGITS[minute % 60] as string}:${TWO_DIGITS[second] as string}`;
  };
}

const number = (value: number | 'infinite' | null, digits = 2): string => {
  if (value === 'infinite') return 'infinite';
  return value === null || !Number.isFinite(value) ? '-' : value.toFixed(digits);
};
const money = (value: number | null): string => (value === null ? '-' : formatRupees(value));

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

/** Prints refusals prefixed with the command (`vyuha backtest`, or `vyuha paper`) and returns exit code 1. */
export function fail(lines: readonly string[], command: 'backtest' | 'paper' = 'backtest'): number {
  process.stderr.write(`${lines.map((line) => `vyuha ${command}: ${line}`).join('\n')}\n`);
  return 1;
}

/**
 * One line saying what a stored run traded (the service's tradedSummary), for the table output.
 * @example tradedLine({ kind: 'index-futures', underlying: 'NIFTY', contracts: [{ tradingSymbol: 'NIFTY24DECFUT', prices: 'model' }], modelPrices: true, ... })
 * // 'Traded: NIFTY24DECFUT (NIFTY's near-month future, rolled on expiry day at 15:15; model prices: cost of carry at 6.5% a year)'
 */
export function tradedLine(traded: Record<string, unknown>): string {
  const charges = traded.charges as { exchange: string; instrument: string } | null;
  const chargesText = charges === null ? 'no charges' : `${charges.exchange} ${charges.instrument} charges`;
  if (traded.kind !== 'index-futures') return `Traded: ${traded.kind === 'equity' ? 'the shares' : 'option legs'} (${chargesText})`;
  const contracts = (traded.contracts as ReadonlyArray<{ tradingSymbol: string }>).map((contract) => contract.tradingSymbol);
  const prices = traded.modelPrices === true ? `model prices: cost of carry at ${Number(traded.modelRate) * 100}% a year` : 'prices from stored futures candles';
  const what = `${String(traded.underlying)}'s near-month future, rolled on expiry day at ${String(traded.rollTime)}; ${chargesText}; ${prices}`;
  return `Traded: ${contracts.length === 0 ? 'no contract (no trade)' : contracts.join(', ')} (${what})`;
}

/** Writes `--trades`, then prints the metrics table (or the whole result as JSON with `--json`); exit code 0. */
export function report(run: {
  result: BacktestResult; series: BarSeries; values: Values; tradesCsv: (result: BacktestResult) => string; traded?: Record<string, unknown>;
}): number {
  const { result, series, values, traded } = run;
  if (typeof values.trades === 'string') writeFileSync(values.trades, run.tradesCsv(result));
  const metrics = metricsOf(result, series);
  if (values.json === true) {
    const { equity: _equity, drawdown: _drawdown, ...rest } = result;
    print(JSON.stringify({ ...rest, metrics: metrics ?? null, ...(traded === undefined ? {} : { traded }) }, null, 2));
  } else {
    print(traded === undefined ? metricsTable(result, metrics) : `${tradedLine(traded)}\n${metricsTable(result, metrics)}`);
  }
  return 0;
}
