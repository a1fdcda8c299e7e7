// Candle CSV -> columnar candles (time as epoch ms, prices as integer paise). All or nothing:
// either every row parses and passes the checks, or the caller gets the first issues and no rows.

import { err, ok, type Result } from '@vyuha/core';
import { resolveCandleLayout, type CandleLayout } from './candle-header';
import { forEachLine, splitCsvLine, type CsvLineFields } from './csv-line';
import { MAX_PRICE_PAISE, parseCount, parseRupeesToPaise } from './decimal';
import { IssueCollector, type ParseIssue } from './parse-issue';
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
}

type PriceField = 'open' | 'high' | 'low' | 'close';

interface Builder {
  readonly columns: { time: Float64Array; open: Int32Array; high: Int32Array; low: Int32Array; close: Int32Array; volume: Float64Array; oi: Float64Array | undefined };
  length: number;
  /** Time and line of the last row whose time parsed (even if another cell of it was bad). */
  lastTime: number;
  lastLine: number;
}

/**
 * Parses a candle CSV (`datetime,open,high,low,close,volume[,oi]` and common variants).
 * @example parseCandleCsv('datetime,open,high,low,close,volume\n2024-01-05 09:15,100,101,99.5,100.5,10\n') // ok, 1 row, open[0] = 10000
 */
export function parseCandleCsv(text: string, options: CandleCsvOptions = {}): Result<CandleColumns, ParseIssue[]> {
  const issues = new IssueCollector();
  let layout: CandleLayout | undefined;
  let builder: Builder | undefined;
  forEachLine(text, (lineNumber, line) => {
    const fields = splitCsvLine(line);
    if (!('values' in fields)) {
      issues.add(lineNumber, fields.column, fields.reason);
    } else if (layout === undefined) {
      const resolved = resolveCandleLayout(fields.values, fields.columns);
      if (Array.isArray(resolved)) {
        for (const issue of resolved) issues.add(issue.line, issue.column, issue.reason);
        return false;
      }
      layout = resolved;
      builder = createBuilder(countLines(text), resolved.oi !== undefined);
    } else if (builder !== undefined) {
      readRow({ layout, builder, issues, options }, lineNumber, fields);
    }
    return !issues.full;
  });
  if (layout === undefined && issues.empty) issues.add(1, 1, 'the file is empty (no header)');
  if (!issues.empty || builder === undefined) return err(issues.issues);
  return ok(finish(builder));
}

function countLines(text: string): number {
  let count = 1;
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) count += 1;
  return count;
}

function createBuilder(capacity: number, withOi: boolean): Builder {
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

function finish(builder: Builder): CandleColumns {
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
  readonly builder: Builder;
  readonly issues: IssueCollector;
  readonly options: CandleCsvOptions;
}

function readRow(context: RowContext, lineNumber: number, fields: CsvLineFields): void {
  const { layout, builder, issues } = context;
  const { values, columns } = fields;
  if (values.length !== layout.width) {
    const column = values.length > layout.width ? columns[layout.width] ?? 1 : 1;
    issues.add(lineNumber, column, `the row has ${values.length} fields, the header has ${layout.width}`);
    return;
  }
  const before = issues.issues.length;
  const cell = (index: number): { text: string; column: number } => ({ text: (values[index] ?? '').trim(), column: columns[index] ?? 1 });
  const time = readTime(context, lineNumber, fields);
  const price = (field: PriceField): number => readPrice({ issues, lineNumber, field, ...cell(layout[field]) });
  const open = price('open');
  const high = price('high');
  const low = price('low');
  const close = price('close');
  const volume = layout.volume === undefined ? 0 : readCount({ issues, lineNumber, field: 'volume', ...cell(layout.volume) });
  const oi = layout.oi === undefined ? 0 : readCount({ issues, lineNumber, field: 'oi', ...cell(layout.oi) });
  if (issues.issues.length !== before) return;
  const cellText = (field: PriceField): string => cell(layout[field]).text;
  const highColumn = cell(layout.high).column;
  const lowColumn = cell(layout.low).column;
  if (high < open) return issues.add(lineNumber, highColumn, `high ${cellText('high')} is below open ${cellText('open')}`);
  if (high < close) return issues.add(lineNumber, highColumn, `high ${cellText('high')} is below close ${cellText('close')}`);
  if (low > high) return issues.add(lineNumber, lowColumn, `low ${cellText('low')} is above high ${cellText('high')}`);
  if (low > open) return issues.add(lineNumber, lowColumn, `low ${cellText('low')} is above open ${cellText('open')}`);
  if (low > close) return issues.add(lineNumber, lowColumn, `low ${cellText('low')} is above close ${cellText('close')}`);
  // Good rows are stored even after an issue on another row; the caller gets none of them then.
  const { columns: out } = builder;
  const row = builder.length;
  out.time[row] = time;
  out.open[row] = open;
  out.high[row] = high;
  out.low[row] = low;
  out.close[row] = close;
  out.volume[row] = volume;
  if (out.oi !== undefined) out.oi[row] = oi;
  builder.length = row + 1;
}

/** The row's time in epoch ms, checked against the previous row; NaN after reporting an issue. */
function readTime(context: RowContext, lineNumber: number, fields: CsvLineFields): number {
  const { layout, builder, issues, options } = context;
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
