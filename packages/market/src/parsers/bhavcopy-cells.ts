// Cell readers shared by the two NSE F&O bhavcopy formats. Each reports a `line:column` issue
// and returns a placeholder, so one pass finds every bad cell of a row.

import { isIsoDate, paise, type IsoDate, type Paise } from '@vyuha/core';
import type { TableRow } from './bhavcopy-table';
import { MAX_PRICE_PAISE, parseCount, parseRupeesToPaise } from './decimal';
import type { IssueCollector } from './parse-issue';

/** Reads typed cells of one row, collecting issues. */
export interface CellReader {
  /** A price; empty or 0 means "did not trade" and gives null. */
  price(name: string): Paise | null;
  /** A whole non-negative count; empty counts as 0 only when `emptyIsZero`. */
  count(name: string, emptyIsZero?: boolean): number;
  /** A date in the legacy `28-MAR-2024` form. */
  legacyDate(name: string): IsoDate;
  /** A date in ISO `2024-03-28` form. */
  isoDate(name: string): IsoDate;
  /** Non-empty text. */
  required(name: string): string;
  /** The trimmed text of a cell, unchecked. */
  text(name: string): string;
  /** Reports an issue at a named cell. */
  fail(name: string, reason: string): void;
}

const MONTHS: Readonly<Record<string, string>> = {
  JAN: '01', FEB: '02', MAR: '03', APR: '04', MAY: '05', JUN: '06', JUL: '07', AUG: '08', SEP: '09', OCT: '10', NOV: '11', DEC: '12',
};
const LEGACY_DATE = /^(\d{1,2})-([A-Za-z]{3})-(\d{4})$/;
const PLACEHOLDER_DATE = '1970-01-01' as IsoDate;

/** Cell readers for one row. */
export function cellReader(row: TableRow, issues: IssueCollector): CellReader {
  const fail = (name: string, reason: string): void => issues.add(row.line, row.column(name), `${name} ${reason}`);
  const date = (name: string, text: string, iso: string | undefined): IsoDate => {
    if (iso !== undefined && isIsoDate(iso)) return iso;
    fail(name, text === '' ? 'is empty' : `"${text}" is not a date`);
    return PLACEHOLDER_DATE;
  };
  return {
    fail,
    text: (name) => row.text(name),
    required(name) {
      const text = row.text(name);
      if (text === '') fail(name, 'is empty');
      return text;
    },
    price(name) {
      const text = row.text(name);
      if (text === '') return null;
      const parsed = parseRupeesToPaise(text);
      if (!parsed.ok) fail(name, parsed.reason);
      else if (parsed.paise < 0) fail(name, `${text} is negative`);
      else if (parsed.paise > MAX_PRICE_PAISE) fail(name, `${text} is above the largest storable price`);
      else return parsed.paise === 0 ? null : paise(parsed.paise);
      return null;
    },
    count(name, emptyIsZero = false) {
      const text = row.text(name);
      if (text === '' && emptyIsZero) return 0;
      const value = parseCount(text);
      if (Number.isNaN(value)) fail(name, text === '' ? 'is empty' : `"${text}" is not a whole non-negative number`);
      return value;
    },
    legacyDate(name) {
      const text = row.text(name);
      const match = LEGACY_DATE.exec(text);
      const month = match ? MONTHS[(match[2] ?? '').toUpperCase()] : undefined;
      const iso = match && month ? `${match[3]}-${month}-${(match[1] ?? '').padStart(2, '0')}` : undefined;
      return date(name, text, iso);
    },
    isoDate(name) {
      const text = row.text(name);
      return date(name, text, text);
    },
  };
}
