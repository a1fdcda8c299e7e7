// Splits one CSV line into fields, remembering where each field starts so that an error can
// point at `line:column`. Market data files almost never quote, so the unquoted path is a plain
// scan; a quoted field (RFC 4180, doubled quotes inside) is handled but may not span lines.

/** The fields of one line and the 1-based character column where each starts. */
export interface CsvLineFields {
  readonly values: string[];
  readonly columns: number[];
}

/** A line whose quoting is broken: the column of the offending character and why. */
export interface CsvLineError {
  readonly column: number;
  readonly reason: string;
}

/**
 * Splits a CSV line on commas, unquoting quoted fields.
 * @example splitCsvLine('a,"b,c",d') // { values: ['a', 'b,c', 'd'], columns: [1, 3, 9] }
 */
export function splitCsvLine(line: string): CsvLineFields | CsvLineError {
  if (line.indexOf('"') === -1) return splitPlain(line);
  return splitQuoted(line);
}

function splitPlain(line: string): CsvLineFields {
  const values: string[] = [];
  const columns: number[] = [];
  let start = 0;
  for (;;) {
    const comma = line.indexOf(',', start);
    columns.push(start + 1);
    if (comma === -1) {
      values.push(line.slice(start));
      return { values, columns };
    }
    values.push(line.slice(start, comma));
    start = comma + 1;
  }
}

function splitQuoted(line: string): CsvLineFields | CsvLineError {
  const values: string[] = [];
  const columns: number[] = [];
  let index = 0;
  for (;;) {
    columns.push(index + 1);
    if (line[index] === '"') {
      const field = readQuoted(line, index);
      if ('reason' in field) return field;
      values.push(field.value);
      index = field.next;
    } else {
      const comma = line.indexOf(',', index);
      const end = comma === -1 ? line.length : comma;
      const value = line.slice(index, end);
      const quote = value.indexOf('"');
      if (quote !== -1) return { column: index + quote + 1, reason: 'a quote may only open a field' };
      values.push(value);
      index = end;
    }
    if (index >= line.length) return { values, columns };
    // readQuoted and the plain branch both stop on a comma here.
    index += 1;
    if (index === line.length) {
      columns.push(index + 1);
      values.push('');
      return { values, columns };
    }
  }
}

function readQuoted(line: string, open: number): { value: string; next: number } | CsvLineError {
  let value = '';
  let index = open + 1;
  for (;;) {
    const quote = line.indexOf('"', index);
    if (quote === -1) return { column: open + 1, reason: 'a quoted field is never closed on its line' };
    value += line.slice(index, quote);
    if (line[quote + 1] === '"') {
      value += '"';
      index = quote + 2;
      continue;
    }
    const after = quote + 1;
    if (after < line.length && line[after] !== ',') return { column: after + 1, reason: 'only a comma may follow a closing quote' };
    return { value, next: after };
  }
}

/**
 * Calls `visit(lineNumber, text)` for every non-blank line (CRLF or LF; a leading BOM dropped).
 * Returns early when `visit` returns false.
 */
export function forEachLine(text: string, visit: (lineNumber: number, line: string) => boolean | void): void {
  let start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let lineNumber = 0;
  while (start <= text.length) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline;
    const stop = end > start && text.charCodeAt(end - 1) === 13 ? end - 1 : end;
    lineNumber += 1;
    if (stop > start && visit(lineNumber, text.slice(start, stop)) === false) return;
    if (newline === -1) return;
    start = newline + 1;
  }
}
