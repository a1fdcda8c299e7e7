import { addDays, dateFromParts, dateParts, daysInMonth, istDate, istEpochMs, lastWeekdayOfMonth, weekday } from '@vyuha/core';
import type { IsoDate } from '@vyuha/core';
import { isRegularTradingDay } from '../calendar/sessions';
import { HOME_MARKET } from '../constants';
import { derivativesExchangeOf, isOptionUnderlying } from '../index-configs';
import type { OptionUnderlying } from '../index-configs';
import { EXPIRY_CALENDAR_RANGE, EXPIRY_RULES, STOCK_MONTHLY_RULES } from './expiry-rules';
import type { ExpiryKind, ExpiryRule } from './expiry-rules';

/** One expiry day of an underlying's options; a monthly expiry is never also listed as weekly. */
export interface Expiry {
  readonly date: IsoDate;
  readonly kind: ExpiryKind;
}

/** How far a holiday can push an expiry back: it searches at most this many days past `to`. */
const SHIFT_MARGIN_DAYS = 10;

function requireInRange(date: IsoDate, field: string): void {
  if (date < EXPIRY_CALENDAR_RANGE.from || date > EXPIRY_CALENDAR_RANGE.to) {
    throw new RangeError(`${field} ${date} is outside the expiry calendar (${EXPIRY_CALENDAR_RANGE.from}..${EXPIRY_CALENDAR_RANGE.to})`);
  }
}

/** Monday of the week a date falls in: weeklies skip the week that has a monthly expiry. */
function weekOf(date: IsoDate): IsoDate {
  return addDays(date, -((weekday(date) + 6) % 7));
}

function monthStarts(from: IsoDate, to: IsoDate): IsoDate[] {
  const starts: IsoDate[] = [];
  let { year, month } = dateParts(from);
  for (let start = dateFromParts({ year, month, day: 1 }); start <= to; start = dateFromParts({ year, month, day: 1 })) {
    starts.push(start);
    [year, month] = month === 12 ? [year + 1, 1] : [year, month + 1];
  }
  return starts;
}

function rulesOf(symbol: OptionUnderlying, kind: ExpiryKind): readonly ExpiryRule[] {
  return EXPIRY_RULES.filter((rule) => rule.symbol === symbol && rule.kind === kind);
}

function nominalMonthlies(symbol: OptionUnderlying, from: IsoDate, to: IsoDate): IsoDate[] {
  return rulesOf(symbol, 'monthly').flatMap((rule) => monthStarts(from, to)
    .map((start) => lastWeekdayOfMonth(start, rule.weekday))
    .filter((date) => date >= rule.from && date <= rule.to && date >= from && date <= to));
}

function nominalWeeklies(symbol: OptionUnderlying, from: IsoDate, to: IsoDate): IsoDate[] {
  return rulesOf(symbol, 'weekly').flatMap((rule) => {
    const dates: IsoDate[] = [];
    const start = rule.from > from ? rule.from : from;
    const end = rule.to < to ? rule.to : to;
    for (let date = addDays(start, (rule.weekday - weekday(start) + 7) % 7); date <= end; date = addDays(date, 7)) dates.push(date);
    return dates;
  });
}

/** The expiry on the nominal day, or on the last regular trading day before it when that is a holiday. */
function shiftedForHolidays(symbol: OptionUnderlying | undefined, nominal: IsoDate): IsoDate {
  const exchange = symbol === undefined ? 'NFO' : derivativesExchangeOf(symbol);
  let date = nominal;
  while (!isRegularTradingDay(exchange, date)) date = addDays(date, -1);
  return date;
}

/**
 * Every expiry of an underlying's index options from `from` to `to` (inclusive), in date order.
 * @example expiriesBetween('NIFTY', isoDate('2024-04-08'), isoDate('2024-04-30'))
 * // [{ date: '2024-04-10', kind: 'weekly' }, { date: '2024-04-18', kind: 'weekly' }, { date: '2024-04-25', kind: 'monthly' }]
 */
export function expiriesBetween(symbol: OptionUnderlying, from: IsoDate, to: IsoDate): Expiry[] {
  requireInRange(from, 'from');
  requireInRange(to, 'to');
  // Look a little past both ends: a holiday shift moves an expiry earlier, possibly into the range.
  const searchTo = addDays(to, SHIFT_MARGIN_DAYS);
  const searchFrom = addDays(from, -31);
  const monthlies = nominalMonthlies(symbol, searchFrom, searchTo);
  const monthlyWeeks = new Set(monthlies.map(weekOf));
  const weeklies = nominalWeeklies(symbol, searchFrom, searchTo).filter((date) => !monthlyWeeks.has(weekOf(date)));
  const expiries: Expiry[] = [
    ...monthlies.map((date): Expiry => ({ date: shiftedForHolidays(symbol, date), kind: 'monthly' })),
    ...weeklies.map((date): Expiry => ({ date: shiftedForHolidays(symbol, date), kind: 'weekly' })),
  ];
  return expiries
    .filter((expiry) => expiry.date >= from && expiry.date <= to)
    .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}

/**
 * The first expiry on or after `date` (the contract expiring today is still today's contract),
 * optionally of one kind; undefined when none falls inside the expiry calendar.
 * @example nextExpiry('BANKNIFTY', isoDate('2024-11-14'))?.date // '2024-11-27' (weeklies ended 13-Nov)
 */
export function nextExpiry(symbol: OptionUnderlying, date: IsoDate, kind?: ExpiryKind): Expiry | undefined {
  requireInRange(date, 'date');
  // Scan forward in two-month windows to the end of the calendar: a product may launch later.
  for (let from = date; from <= EXPIRY_CALENDAR_RANGE.to; from = addDays(from, 61)) {
    const windowEnd = addDays(from, 60) < EXPIRY_CALENDAR_RANGE.to ? addDays(from, 60) : EXPIRY_CALENDAR_RANGE.to;
    const found = expiriesBetween(symbol, from, windowEnd).find((expiry) => kind === undefined || expiry.kind === kind);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * The next expiry of `symbol` (of `kind`, when given) still open at `atMs`: on an expiry day, that
 * day's until its 15:30 IST close, then the next one. Undefined outside the expiry calendar.
 * @example nextOpenExpiry('NIFTY', istEpochMs(isoDate('2026-12-29'), '16:00'), 'monthly')?.date // '2027-01-26'
 */
export function nextOpenExpiry(symbol: OptionUnderlying, atMs: number, kind?: ExpiryKind): Expiry | undefined {
  const today = istDate(atMs);
  if (today < EXPIRY_CALENDAR_RANGE.from || today > EXPIRY_CALENDAR_RANGE.to) return undefined;
  const first = nextExpiry(symbol, today, kind);
  if (first === undefined || first.date !== today || atMs < istEpochMs(today, HOME_MARKET.marketClose)) return first;
  const after = addDays(today, 1);
  return after > EXPIRY_CALENDAR_RANGE.to ? undefined : nextExpiry(symbol, after, kind);
}

/** The kind of expiry an underlying has on a date, or undefined when nothing expires that day. */
export function expiryKindOn(symbol: OptionUnderlying, date: IsoDate): ExpiryKind | undefined {
  return expiriesBetween(symbol, date, date)[0]?.kind;
}

/**
 * The monthly expiry of any NFO/BFO underlying in a month: an index's from its calendar, any
 * other (a stock) by the stock rule; undefined when the index had no monthly contract then.
 * @example monthlyExpiryIn('NIFTY', { year: 2024, month: 12 }) // '2024-12-26'
 */
export function monthlyExpiryIn(underlying: string, month: { readonly year: number; readonly month: number }): IsoDate | undefined {
  const start = dateFromParts({ year: month.year, month: month.month, day: 1 });
  if (isOptionUnderlying(underlying)) {
    return expiriesBetween(underlying, start, monthEnd(start)).find((expiry) => expiry.kind === 'monthly')?.date;
  }
  requireInRange(start, 'month');
  const rule = STOCK_MONTHLY_RULES.find((row) => row.from <= start && start <= row.to);
  return rule === undefined ? undefined : shiftedForHolidays(undefined, lastWeekdayOfMonth(start, rule.weekday));
}

function monthEnd(start: IsoDate): IsoDate {
  const { year, month } = dateParts(start);
  return dateFromParts({ year, month, day: daysInMonth(year, month) });
}
