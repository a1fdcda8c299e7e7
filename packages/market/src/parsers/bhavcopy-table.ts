// A header-keyed reader for bhavcopy rows: columns are found by name (case-insensitive), so a
// reordered or extended file still reads, and every cell knows its 1-based column for errors.

import { forEachLine, splitCsvLine } from './csv-line';
import type { IssueCollector } from './parse-issue';

/** One data row: cells by header name, with the line and columns to point errors at. */
export interface TableRow {
  readonly line: number;
  /** Trimmed text of a column ('' when the row is short or the cell empty). */
  text(name: string): string;
  /** 1-based character column where a named cell starts. */
  column(name: string): number;
}

/** Lowercased header names -> index; empty trailing header cells (a trailing comma) are dropped. */
export function headerIndex(names: readonly string[]): Map<string, number> {
  const index = new Map<string, number>();
  names.forEach((name, position) => {
    const key = name.trim().toLowerCase();
    if (key !== '' && !index.has(key)) index.set(key, position);
  });
  return index;
}

interface TableInput {
  readonly text: string;
  readonly required: readonly string[];
  readonly issues: IssueCollector;
  readonly visit: (row: TableRow) => void;
}

/** Reads every data row after a header that must hold all `required` columns. */
export function readTable(input: TableInput): void {
  const { issues, required, visit } = input;
  let header: Map<string, number> | undefined;
  forEachLine(input.text, (line, content) => {
    const fields = splitCsvLine(content);
    if (!('values' in fields)) {
      issues.add(line, fields.column, fields.reason);
      return !issues.full;
    }
    if (header === undefined) {
      header = headerIndex(fields.values);
      const missing = required.filter((name) => !header?.has(name.toLowerCase()));
      if (missing.length > 0) {
        issues.add(line, 1, `the header lacks ${missing.join(', ')}`);
        return false;
      }
      return true;
    }
    const known = header;
    const position = (name: string): number => known.get(name.toLowerCase()) ?? -1;
    visit({
      line,
      text: (name) => (fields.values[position(name)] ?? '').trim(),
      column: (name) => fields.columns[position(name)] ?? (content.length + 1),
    });
    return !issues.full;
  });
  if (header === undefined && issues.empty) issues.add(1, 1, 'the file is empty (no header)');
}
