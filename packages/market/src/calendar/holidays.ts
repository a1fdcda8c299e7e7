import { isoDate } from '@vyuha/core';
import type { IsoDate } from '@vyuha/core';
import type { ExchangeCode } from '../constants';
import { HOLIDAY_RECORDS } from '../data/holidays.generated';

/** A weekday on which an exchange does not trade (weekends are closed anyway and are not listed). */
export interface Holiday {
  readonly date: IsoDate;
  readonly exchange: ExchangeCode;
  readonly event: string;
}

/**
 * The years the holiday data covers (data/market/holidays.csv). Outside them only weekends are
 * known to be closed, so calendars there treat every weekday as a trading day.
 */
export const HOLIDAY_DATA_YEARS = { first: 2020, last: 2026 } as const;

// Validated once at load: a malformed generated date fails loudly here, not as a silent miss later.
const HOLIDAYS: readonly Holiday[] = HOLIDAY_RECORDS
  .map((record) => ({ date: isoDate(record.date), exchange: record.exchange, event: record.event }))
  .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));

const HOLIDAY_BY_EXCHANGE_AND_DATE: ReadonlyMap<string, Holiday> = new Map(
  HOLIDAYS.map((holiday) => [`${holiday.exchange}|${holiday.date}`, holiday]),
);

/** The holiday of an exchange on a date, if that date is one. @example holidayOn('NSE', isoDate('2024-04-11'))?.event // 'Id-Ul-Fitr (Ramzan Id)' */
export function holidayOn(exchange: ExchangeCode, date: IsoDate): Holiday | undefined {
  return HOLIDAY_BY_EXCHANGE_AND_DATE.get(`${exchange}|${date}`);
}

/** An exchange's weekday holidays in date order, optionally of one year only. */
export function holidaysOf(exchange: ExchangeCode, year?: number): readonly Holiday[] {
  const prefix = year === undefined ? '' : `${String(year).padStart(4, '0')}-`;
  return HOLIDAYS.filter((holiday) => holiday.exchange === exchange && holiday.date.startsWith(prefix));
}
