import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';

/** A CSV file that does not have the expected shape; the message names the file and line. */
export class CsvError extends Error {
  override readonly name = 'CsvError';
}

/** One data row keyed by header name; an empty cell is `null`. */
export type CsvRecord = Readonly<Record<string, string | null>>;

/**
 * Splits RFC 4180 CSV text into rows of raw cells. Quoted cells may hold commas, doubled quotes
 * and line breaks; CRLF and LF both end a row; a final line break does not add an empty row.
 *
 * @example parseCsv('a,"b,""c"""\n1,2\n') // [['a', 'b,"c"'], ['1', '2']]
 */
export function parseCsv(text: string, fileName = 'csv'): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  let line = 1;
  let index = 0;
  const endRow = (): void => {
    row.push(cell);
    rows.push(row);
    row = [];
    cell = '';
  };
  while (index < text.length) {
    const char = text[index] as string;
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        cell += '"';
        index += 2;
        continue;
      }
      if (char === '"') {
        quoted = false;
        const next = text[index + 1];
        // After a closing quote only a separator or the end of the row may follow.
        if (next !== undefined && next !== ',' && next !== '\n' && next !== '\r') {
          throw new CsvError(`${fileName}:${line}: unexpected character after a closing quote`);
        }
      } else {
        if (char === '\n') line += 1;
        cell += char;
      }
      index += 1;
      continue;
    }
    if (char === '"') {
      if (cell !== '') throw new CsvError(`${fileName}:${line}: a quote may only open a cell`);
      quoted = true;
    } else if (char === ',') {
      row.push(cell);
      cell = '';
    } else if (char === '\r' && text[index + 1] === '\n') {
      endRow();
      line += 1;
      index += 1;
    } else if (char === '\n') {
      endRow();
      line += 1;
    } else {
      cell += char;
    }
    index += 1;
  }
  if (quoted) throw new CsvError(`${fileName}:${line}: a quoted cell is never closed`);
  if (cell !== '' || row.length > 0) endRow();
  return rows;
}

/**
 * Reads a CSV file whose header must be exactly `columns` (in that order) and returns its rows
 * as records. Every row must have as many cells as the header.
 */
export async function readCsvRecords(path: string, columns: readonly string[]): Promise<CsvRecord[]> {
  const fileName = basename(path);
  const [header, ...rows] = parseCsv(await readFile(path, 'utf8'), fileName);
  if (!header || header.join(',') !== columns.join(',')) {
    throw new CsvError(`${fileName}:1: expected the header ${columns.join(',')}, found ${header?.join(',') ?? 'nothing'}`);
  }
  return rows.map((cells, rowIndex) => {
    if (cells.length !== columns.length) {
      throw new CsvError(`${fileName}: row ${rowIndex + 2} has ${cells.length} cells, expected ${columns.length}`);
    }
    return Object.fromEntries(columns.map((column, i) => [column, emptyToNull(cells[i])]));
  });
}

function emptyToNull(cell: string | undefined): string | null {
  return cell === undefined || cell === '' ? null : cell;
}

/** Typed access to one record's cells; every error names the file, row and column. */
export interface CellReader {
  /** Where the record came from, e.g. `holidays.csv row 7`. */
  readonly where: string;
  /** The cell's text; an empty cell is an error. */
  required(column: string): string;
  /** The cell's text, or null when empty. */
  optional(column: string): string | null;
  /** A required cell that must match `pattern`. */
  matching(column: string, pattern: RegExp): string;
  /** An optional cell that, when present, must match `pattern`. */
  optionalMatching(column: string, pattern: RegExp): string | null;
}

export function cellsOf(record: CsvRecord, where: string): CellReader {
  const optional = (column: string): string | null => record[column] ?? null;
  const checked = (column: string, value: string, pattern: RegExp): string => {
    if (!pattern.test(value)) throw new CsvError(`${where}: ${column} "${value}" is not in the expected format`);
    return value;
  };
  const required = (column: string): string => {
    const value = optional(column);
    if (value === null) throw new CsvError(`${where}: ${column} is empty`);
    return value;
  };
  return {
    where,
    required,
    optional,
    matching: (column, pattern) => checked(column, required(column), pattern),
    optionalMatching: (column, pattern) => {
      const value = optional(column);
      return value === null ? null : checked(column, value, pattern);
    },
  };
}
