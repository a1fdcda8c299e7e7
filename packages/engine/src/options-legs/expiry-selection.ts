// Which expiry a leg trades, from the expiry calendar on the entry date. The calendar already
// moves an expiry that falls on a holiday to the trading day before (2024-04-11 -> 2024-04-10).
// - current-weekly: the nearest expiry on or after the entry date, weekly or monthly (in the week
//   of a monthly expiry the monthly contract is the week's contract); on an expiry day it is the
//   contract expiring that day.
// - next-weekly: the expiry after that one.
// - monthly: the nearest monthly expiry on or after the entry date.
// A weekly choice on a date when the underlying lists no weeklies is an error unless the config's
// weeklyFallback is 'monthly'.
import { addDays } from '@vyuha/core';
import type { IsoDate } from '@vyuha/core';
import { EXPIRY_CALENDAR_RANGE, EXPIRY_RULES, expiriesBetween } from '@vyuha/market';
import type { Expiry, OptionUnderlying } from '@vyuha/market';
import type { ExpiryChoice } from './config';
import { OptionsLegsConfigError } from './config';

/** The request: the leg's choice, the entry date, and what to do without weeklies. */
export interface ExpiryRequest {
  readonly underlying: OptionUnderlying;
  readonly tradeDate: IsoDate;
  readonly choice: ExpiryChoice;
  readonly weeklyFallback?: 'none' | 'monthly';
  /** Names the leg in an error, e.g. `onBuy[0].expiry`. */
  readonly field?: string;
  /** A calendar window kept between calls (a backtest asks once per entry, day after day). */
  readonly lookup?: ExpiryLookup;
}

/** How far ahead an answer may need the calendar: the next monthly is at most ~5 weeks away. */
const LOOK_AHEAD_DAYS = 45;
/** Each refill reads this many days of the calendar at once. */
const WINDOW_DAYS = 400;

/**
 * A window of one underlying's expiry calendar, refilled when a date runs past it: computing the
 * calendar is far slower than reading a list, and entries come day after day.
 */
export class ExpiryLookup {
  private underlying: OptionUnderlying | undefined;
  private from = '' as IsoDate;
  private to = '' as IsoDate;
  private expiries: readonly Expiry[] = [];

  /** Expiries from `date` to `date` + 45 days, in date order. */
  upcoming(underlying: OptionUnderlying, date: IsoDate): readonly Expiry[] {
    const end = addDays(date, LOOK_AHEAD_DAYS);
    if (underlying !== this.underlying || date < this.from || end > this.to) {
      const windowEnd = addDays(date, WINDOW_DAYS);
      this.underlying = underlying;
      this.from = date;
      this.to = windowEnd < EXPIRY_CALENDAR_RANGE.to ? windowEnd : EXPIRY_CALENDAR_RANGE.to;
      this.expiries = expiriesBetween(underlying, date, this.to);
    }
    return this.expiries.filter((expiry) => expiry.date >= date && expiry.date <= end);
  }
}

/** Weekly contracts are listed on `date` when a weekly era covers some day of the week starting then. */
export function listsWeekliesOn(underlying: OptionUnderlying, date: IsoDate): boolean {
  const weekEnd = addDays(date, 6);
  return EXPIRY_RULES.some((rule) => rule.symbol === underlying && rule.kind === 'weekly' && rule.from <= weekEnd && rule.to >= date);
}

/**
 * The expiry date a leg trades when it enters on `tradeDate`.
 * @example legExpiry({ underlying: 'NIFTY', tradeDate: isoDate('2024-04-08'), choice: 'current-weekly' }) // '2024-04-10' (11-Apr was a holiday)
 */
export function legExpiry(request: ExpiryRequest): IsoDate {
  const field = request.field ?? 'expiry';
  const { underlying, tradeDate } = request;
  const upcoming = (request.lookup ?? new ExpiryLookup()).upcoming(underlying, tradeDate);
  const monthly = (): IsoDate | undefined => upcoming.find((expiry) => expiry.kind === 'monthly')?.date;
  if (request.choice === 'monthly') return requireFound(monthly(), { field, request });
  if (!listsWeekliesOn(underlying, tradeDate)) {
    if (request.weeklyFallback === 'monthly') return requireFound(monthly(), { field, request });
    throw new OptionsLegsConfigError(field, `${underlying} lists no weekly options on ${tradeDate}; choose 'monthly' or set weeklyFallback: 'monthly'`);
  }
  const index = request.choice === 'current-weekly' ? 0 : 1;
  return requireFound(upcoming[index]?.date, { field, request });
}

function requireFound(date: IsoDate | undefined, context: { field: string; request: ExpiryRequest }): IsoDate {
  if (date === undefined) {
    const { underlying, tradeDate, choice } = context.request;
    throw new OptionsLegsConfigError(context.field, `no ${choice} expiry of ${underlying} is known on or after ${tradeDate}`);
  }
  return date;
}
