import { isIsoDate } from '@vyuha/core';
import type { IsoDate } from '@vyuha/core';
import {
  EXCHANGE_CODES, EXPIRY_CALENDAR_RANGE, HOLIDAY_DATA_YEARS, OPTION_UNDERLYINGS, expiriesBetween, holidaysOf, isOptionUnderlying,
} from '@vyuha/market';
import type { ExchangeCode } from '@vyuha/market';
import { parseOptions, print, requireOption, UsageError, type CliCommand } from './command';

function dateOption(values: Record<string, unknown>, name: string): IsoDate {
  const text = requireOption(values, name);
  if (!isIsoDate(text)) throw new UsageError(`--${name} must be a date as YYYY-MM-DD, got "${text}"`);
  if (text < EXPIRY_CALENDAR_RANGE.from || text > EXPIRY_CALENDAR_RANGE.to) {
    throw new UsageError(`--${name} must be within ${EXPIRY_CALENDAR_RANGE.from}..${EXPIRY_CALENDAR_RANGE.to}, got ${text}`);
  }
  return text;
}

async function runExpiries(args: readonly string[]): Promise<number> {
  const { values } = parseOptions(args, { symbol: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' } });
  const symbol = requireOption(values, 'symbol');
  if (!isOptionUnderlying(symbol)) throw new UsageError(`--symbol must be one of ${OPTION_UNDERLYINGS.join(', ')}, got "${symbol}"`);
  const from = dateOption(values, 'from');
  const to = dateOption(values, 'to');
  if (to < from) throw new UsageError(`--to (${to}) is before --from (${from})`);
  const lines = expiriesBetween(symbol, from, to).map((expiry) => `${expiry.date} ${expiry.kind}`);
  if (lines.length > 0) print(lines.join('\n'));
  return 0;
}

async function runHolidays(args: readonly string[]): Promise<number> {
  const { values } = parseOptions(args, { exchange: { type: 'string' }, year: { type: 'string' } });
  const exchange = requireOption(values, 'exchange');
  if (!(EXCHANGE_CODES as readonly string[]).includes(exchange)) {
    throw new UsageError(`--exchange must be one of ${EXCHANGE_CODES.join(', ')}, got "${exchange}"`);
  }
  const yearText = requireOption(values, 'year');
  const year = Number(yearText);
  if (!/^\d{4}$/.test(yearText) || year < HOLIDAY_DATA_YEARS.first || year > HOLIDAY_DATA_YEARS.last) {
    throw new UsageError(`--year must be a year from ${HOLIDAY_DATA_YEARS.first} to ${HOLIDAY_DATA_YEARS.last} (the holiday data), got "${yearText}"`);
  }
  const lines = holidaysOf(exchange as ExchangeCode, year).map((holiday) => `${holiday.date} ${holiday.event}`);
  if (lines.length > 0) print(lines.join('\n'));
  return 0;
}

export const marketExpiriesCommand: CliCommand = {
  name: 'market expiries',
  usage: `Usage: vyuha market expiries --symbol <${OPTION_UNDERLYINGS.join('|')}> --from YYYY-MM-DD --to YYYY-MM-DD

Prints each index-option expiry in the range, one per line: "<date> weekly|monthly".
Dates follow the expiry rules of their era and move to the previous trading day over holidays.
`,
  run: runExpiries,
};

export const marketHolidaysCommand: CliCommand = {
  name: 'market holidays',
  usage: `Usage: vyuha market holidays --exchange <${EXCHANGE_CODES.join('|')}> --year YYYY

Prints the exchange's weekday trading holidays of the year, one per line: "<date> <event>".
`,
  run: runHolidays,
};
