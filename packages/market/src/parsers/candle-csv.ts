// Candle CSV -> columnar candles (time as epoch ms, prices as integer paise). All or nothing:
// either every row parses and passes the checks, or the caller gets the first issues and no rows.

import { err, ok, type Result } from '@vyuha/core';
import { resolveCandleLayout, type CandleLayout } from './candle-header';
import { appendCandle, createFastRowContext, readFastRow, type CandleBuilder, type FastRowContext } from './candle-row-fast';
import { splitCsvLine, type CsvLineFields } from './csv-line';
import { MAX_PRICE_PAISE, parseCount, parseRupeesToPaise } from './decimal';
import { IssueCollector, type ParseIssue } from './parse-issue';
import { barSessionIssue, createBarSessionGuard, type SessionRules } from './session-check';
import { parseDateAndTime, parseTimestamp } from './timestamps';

/** Candles as parallel typed arrays: row i is (time[i], open[i], ...). Prices in paise. */
export interface CandleColumns {
  readonly length: number;
  /** Epoch milliseconds, strictly increasing. */
  readonly time: Float64Array;
  readonly open: Int32Array;
  readonly high: Int32Array;
  readonly low: Int32Array;
  readonly close: Int32Array;
  readonly volume: Float64Array;
  /** Open interest, present only when the file has an oi column. */
  readonly oi?: Float64Array;
}

export interface CandleCsvOptions {
  /** Refuse times that are not on a whole minute (the 1-minute base store needs them). */
  readonly requireWholeMinutes?: boolean;
  /**
   * Refuse bars that cannot be real: in the future, or not opening inside a session of the
   * exchange (session-check.ts). Without it any time is accepted (a backtest of a vendor file).
   */
  readonly sessions?: SessionRules;
}

type PriceField = 'open' | 'high' | 'low' | 'close';

/**
 * Parses a candle CSV (`datetime,open,high,low,close,volume[,oi]` and common variants).
 * @example parseCandleCsv('datetime,open,high,low,close,volume\n2024-01-05 09:15,100,101,99.5,100.5,10\n') // ok, 1 row, open[0] = 10000
 */
export function parseCandleCsv(text: string, options: CandleCsvOptions = {}): Result<CandleColumns, ParseIssue[]> {
  const state: ParseState = { text, options, issues: new IssueCollector(), layout: undefined, builder: undefined, fast: undefined };
  readLines(state);
  const { issues, layout, builder } = state;
  if (layout === undefined && issues.empty) issues.add(1, 1, 'the file is empty (no header)');
  if (!issues.empty || builder === undefined) return err(issues.issues);
  return ok(finish(builder));
}

interface ParseState {
  readonly text: string;
  readonly options: CandleCsvOptions;
  readonly issues: IssueCollector;
  layout: CandleLayout | undefined;
  builder: CandleBuilder | undefined;
  fast: FastRowContext | undefined;
}

/**
 * Every non-blank line (LF or CRLF, a leading BOM dropped), as `forEachLine` does, inlined so the
 * rows of a 100k-line file cost no callback, slice or split. A line goes to the fast path unless
 * it has a quote; the general path re-reads any line the fast path does not accept.
 */
function readLines(state: ParseState): void {
  const { text, issues } = state;
  let start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let lineNumber = 0;
  let nextQuote = text.indexOf('"');
  while (start <= text.length && !issues.full) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline;
    const stop = end > start && text.charCodeAt(end - 1) === 13 ? end - 1 : end;
    lineNumber += 1;
    if (stop > start) {
      if (nextQuote !== -1 && nextQuote < start) nextQuote = text.indexOf('"', start);
      const quoted = nextQuote !== -1 && nextQuote < stop;
      const { fast, builder } = state;
      if (fast !== undefined && builder !== undefined && !quoted && readFastRow(fast, start, stop)) builder.lastLine = lineNumber;
      else if (!readGeneralLine(state, lineNumber, text.slice(start, stop))) return;
    }
    if (newline === -1) return;
    start = newline + 1;
  }
}

/** The header or a row through the general path; false when the header is unusable (stop). */
function readGeneralLine(state: ParseState, lineNumber: number, line: string): boolean {
  const { issues, layout, builder } = state;
  const fields = splitCsvLine(line);
  if (!('values' in fields)) {
    issues.add(lineNumber, fields.column, fields.reason);
    return true;
  }
  if (layout === undefined) {
    const resolved = resolveCandleLayout(fields.values, fields.columns);
    if (Array.isArray(resolved)) {
      for (const issue of resolved) issues.add(issue.line, issue.column, issue.reason);
      return false;
    }
    const created = createBuilder(countLines(state.text), resolved.oi !== undefined);
    state.layout = resolved;
    state.builder = created;
    const sessions = state.options.sessions === undefined ? undefined : createBarSessionGuard(state.options.sessions);
    state.fast = createFastRowContext({ text: state.text, layout: resolved, builder: created, requireWholeMinutes: state.options.requireWholeMinutes === true, sessions });
    return true;
  }
  if (builder !== undefined) readRow({ layout, builder, issues, options: state.options, lineNumber, fields });
  return true;
}

function countLines(text: string): number {
  let count = 1;
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) count += 1;
  return count;
}

function createBuilder(capacity: number, withOi: boolean): CandleBuilder {
  return {
    columns: {
      time: new Float64Array(capacity), open: new Int32Array(capacity), high: new Int32Array(capacity),
      low: new Int32Array(capacity), close: new Int32Array(capacity), volume: new Float64Array(capacity),
      oi: withOi ? new Float64Array(capacity) : undefined,
    },
    length: 0,
    lastTime: Number.NaN,
    lastLine: 0,
  };
}

function finish(builder: CandleBuilder): CandleColumns {
  const { columns, length } = builder;
  const candles = {
    length,
    time: columns.time.slice(0, length), open: columns.open.slice(0, length), high: columns.high.slice(0, length),
    low: columns.low.slice(0, length), close: columns.close.slice(0, length), volume: columns.volume.slice(0, length),
  };
  return columns.oi === undefined ? candles : { ...candles, oi: columns.oi.slice(0, length) };
}

interface RowContext {
  readonly layout: CandleLayout;
  readonly builder: CandleBuilder;
  readonly issues: IssueCollector;
  readonly options: CandleCsvOptions;
}

/** A cell's text, trimmed. */
function cellText(fields: CsvLineFields, index: number): string {
  return (fields.values[index] ?? '').trim();
}

/** The 1-based column where a cell starts. */
function cellColumn(fields: CsvLineFields, index: number): number {
  return fields.columns[index] ?? 1;
}

/** One row on the general path: where it is and its split fields. */
interface GeneralRow extends RowContext {
  readonly lineNumber: number;
  readonly fields: CsvLineFields;
}

function readRowPrice(row: GeneralRow, field: PriceField): number {
  const index = row.layout[field];
  return readPrice({ issues: row.issues, lineNumber: row.lineNumber, field, text: cellText(row.fields, index), column: cellColumn(row.fields, index) });
}

function readRowCount(row: GeneralRow, field: 'volume' | 'oi'): number {
  const index = row.layout[field];
  if (index === undefined) return 0;
  return readCount({ issues: row.issues, lineNumber: row.lineNumber, field, text: cellText(row.fields, index), column: cellColumn(row.fields, index) });
}

/** The general path: reads one row and reports every bad cell of it (the fast path's fallback). */
function readRow(row: GeneralRow): void {
  const { layout, builder, issues, lineNumber, fields } = row;
  const { values, columns } = fields;
  if (values.length !== layout.width) {
    const column = values.length > layout.width ? columns[layout.width] ?? 1 : 1;
    issues.add(lineNumber, column, `the row has ${values.length} fields, the header has ${layout.width}`);
    return;
  }
  const before = issues.issues.length;
  const time = readTime(row);
  const open = readRowPrice(row, 'open');
  const high = readRowPrice(row, 'high');
  const low = readRowPrice(row, 'low');
  const close = readRowPrice(row, 'close');
  const volume = readRowCount(row, 'volume');
  const oi = readRowCount(row, 'oi');
  if (issues.issues.length !== before) return;
  const problem = priceOrderProblem(row, { open, high, low, close });
  if (problem !== undefined) return issues.add(lineNumber, problem.column, problem.reason);
  // Good rows are stored even after an issue on another row; the caller gets none of them then.
  appendCandle(builder, { time, open, high, low, close, volume, oi });
}

/** Why the four prices cannot be one candle (high below open or close, low above the others), at which cell. */
function priceOrderProblem(row: GeneralRow, prices: Readonly<Record<PriceField, number>>): { column: number; reason: string } | undefined {
  const { layout, fields } = row;
  const text = (field: PriceField): string => cellText(fields, layout[field]);
  const { open, high, low, close } = prices;
  const atHigh = (reason: string): { column: number; reason: string } => ({ column: cellColumn(fields, layout.high), reason });
  const atLow = (reason: string): { column: number; reason: string } => ({ column: cellColumn(fields, layout.low), reason });
  if (high < open) return atHigh(`high ${text('high')} is below open ${text('open')}`);
  if (high < close) return atHigh(`high ${text('high')} is below close ${text('close')}`);
  if (low > high) return atLow(`low ${text('low')} is above high ${text('high')}`);
  if (low > open) return atLow(`low ${text('low')} is above open ${text('open')}`);
  if (low > close) return atLow(`low ${text('low')} is above close ${text('close')}`);
  return undefined;
}

/** The row's time in epoch ms, checked against the previous row; NaN after reporting an issue. */
function readTime(row: GeneralRow): number {
  const { layout, builder, issues, options, lineNumber, fields } = row;
  const stampText = (fields.values[layout.stamp] ?? '').trim();
  const stampColumn = fields.columns[layout.stamp] ?? 1;
  let parsed;
  let column = stampColumn;
  if (layout.time === undefined) {
    parsed = parseTimestamp(stampText);
  } else {
    parsed = parseDateAndTime(stampText, (fields.values[layout.time] ?? '').trim());
    if (!parsed.ok && parsed.field === 'time') column = fields.columns[layout.time] ?? 1;
  }
  if (!parsed.ok) {
    issues.add(lineNumber, column, parsed.reason);
    return Number.NaN;
  }
  const time = parsed.epochMs;
  if (options.requireWholeMinutes === true && time % 60_000 !== 0) {
    issues.add(lineNumber, column, `time ${stampText} is not on a whole minute (1-minute candles start at :00 seconds)`);
    return Number.NaN;
  }
  // Order is checked against the previous row whose time was readable, so a duplicate is named
  // even when the row it repeats had a bad price.
  const previous = builder.lastTime;
  const previousLine = builder.lastLine;
  builder.lastTime = time;
  builder.lastLine = lineNumber;
  if (time === previous) issues.add(lineNumber, column, `time ${stampText} repeats line ${previousLine}`);
  else if (time < previous) issues.add(lineNumber, column, `time ${stampText} is before line ${previousLine} (times must increase)`);
  else if (options.sessions !== undefined) {
    const problem = barSessionIssue(options.sessions, time);
    // With separate date and time cells, an hour outside the session points at the time cell.
    const at = problem?.about === 'time' && layout.time !== undefined ? fields.columns[layout.time] ?? column : column;
    if (problem !== undefined) issues.add(lineNumber, at, problem.reason);
  }
  return time;
}

interface CellInput {
  readonly issues: IssueCollector;
  readonly lineNumber: number;
  readonly field: string;
  readonly text: string;
  readonly column: number;
}

function readPrice(input: CellInput): number {
  const { issues, lineNumber, field, text, column } = input;
  const parsed = parseRupeesToPaise(text);
  if (!parsed.ok) {
    issues.add(lineNumber, column, `${field} ${parsed.reason}`);
    return Number.NaN;
  }
  if (parsed.paise <= 0) issues.add(lineNumber, column, `${field} ${text} is not a positive price`);
  else if (parsed.paise > MAX_PRICE_PAISE) issues.add(lineNumber, column, `${field} ${text} is above the largest storable price`);
  return parsed.paise;
}

function readCount(input: CellInput): number {
  const { issues, lineNumber, field, text, column } = input;
  const value = parseCount(text);
  if (Number.isNaN(value)) {
    const reason = text === '' ? 'is empty' : /^-/.test(text) ? `${text} is negative` : `"${text}" is not a whole non-negative number`;
    issues.add(lineNumber, column, `${field} ${reason}`);
  }
  return value;
}
