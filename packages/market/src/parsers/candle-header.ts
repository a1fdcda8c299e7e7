// Which column of a candle CSV holds what. Vendors disagree on names, so the header is matched
// case-insensitively against a list of aliases; columns we do not know (symbol, ...) are ignored.

import type { ParseIssue } from './parse-issue';

/** A field a candle row is made of. */
export type CandleField = 'datetime' | 'date' | 'time' | 'open' | 'high' | 'low' | 'close' | 'volume' | 'oi';

const ALIASES: Readonly<Record<string, CandleField>> = {
  datetime: 'datetime', timestamp: 'datetime', date_time: 'datetime', ts: 'datetime',
  date: 'date', time: 'time',
  open: 'open', o: 'open', high: 'high', h: 'high', low: 'low', l: 'low', close: 'close', c: 'close',
  volume: 'volume', vol: 'volume', v: 'volume',
  oi: 'oi', open_interest: 'oi', openinterest: 'oi', 'open interest': 'oi',
};

/** Index (0-based) of each field's column; `time` is absent when one cell holds the whole timestamp. */
export interface CandleLayout {
  /** The timestamp cell, or the date cell when date and time are separate. */
  readonly stamp: number;
  readonly time: number | undefined;
  readonly open: number;
  readonly high: number;
  readonly low: number;
  readonly close: number;
  readonly volume: number | undefined;
  readonly oi: number | undefined;
  readonly width: number;
}

/**
 * Reads the header cells into a layout, or the issues that make it unusable (line 1).
 * @example resolveCandleLayout(['Date', 'Time', 'O', 'H', 'L', 'C'], [1, 6, 11, 13, 15, 17]) // stamp 0, time 1, open 2, ...
 */
export function resolveCandleLayout(names: readonly string[], columns: readonly number[]): CandleLayout | ParseIssue[] {
  const found = new Map<CandleField, number>();
  const issues: ParseIssue[] = [];
  names.forEach((raw, index) => {
    const field = ALIASES[raw.trim().toLowerCase()];
    if (field === undefined) return;
    if (found.has(field)) issues.push({ line: 1, column: columns[index] ?? 1, reason: `column "${raw}" repeats the ${field} column` });
    else found.set(field, index);
  });
  const datetime = found.get('datetime');
  const date = found.get('date');
  const time = found.get('time');
  // One cell with the full timestamp: a datetime column, or a lone date or time column.
  const stamp = datetime ?? (date !== undefined && time !== undefined ? date : date ?? time);
  const separateTime = datetime === undefined && date !== undefined && time !== undefined ? time : undefined;
  if (stamp === undefined) issues.push({ line: 1, column: 1, reason: 'the header has no datetime (or date and time) column' });
  const required = (['open', 'high', 'low', 'close'] as const).map((field) => {
    const index = found.get(field);
    if (index === undefined) issues.push({ line: 1, column: 1, reason: `the header has no ${field} column` });
    return index ?? -1;
  });
  if (issues.length > 0 || stamp === undefined) return issues;
  const [open, high, low, close] = required as [number, number, number, number];
  return { stamp, time: separateTime, open, high, low, close, volume: found.get('volume'), oi: found.get('oi'), width: names.length };
}
