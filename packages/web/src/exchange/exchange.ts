// The exchange setting (docs/PRODUCT.md sections 2, 3, 7, 9): the rows of the exchanges query, the row the
// user's time-zone object (exchange, tz) selects, the choices the preferences offer, the market-hours
// and currency text screens show (the cross-tab copy of the time-zone object: time-zone-share.ts).
// Invariants: with no row loaded or no setting, the selected row is the home market's NSE (IST,
// INR, 09:15-15:30); time-zone choices are exactly the tz values of the loaded rows; picking an
// exchange always carries its own tz. Pure functions.
import { HOME_MARKET } from '@vyuha/market';
import type { TimeZoneSetting } from '../stores/app-store';

export interface ExchangeRow {
  readonly exchange: string;
  readonly tz: string;
  readonly market_open: string;
  readonly market_close: string;
  readonly currency: string;
  readonly locale: string;
  readonly symbol: string;
  /** Present in the preferences' list of every exchange; the session's query is already per zone. */
  readonly zone?: string;
}

/** docs/PRODUCT.md section 7's exchanges query, every zone (the preferences offer every exchange). */
export const ALL_EXCHANGES = `query AllExchanges {
  exchanges(order_by: [{ zone: asc }, { exchange: asc }]) {
    currency locale market_close market_open symbol tz exchange zone
  }
}`;

/** The home market's default exchange (docs/PRODUCT.md section 9), used until the query answers. */
export const DEFAULT_EXCHANGE_ROW: ExchangeRow = {
  exchange: HOME_MARKET.defaultExchange,
  tz: HOME_MARKET.timeZone,
  market_open: HOME_MARKET.marketOpen,
  market_close: HOME_MARKET.marketClose,
  currency: HOME_MARKET.currency,
  locale: HOME_MARKET.locale,
  symbol: HOME_MARKET.currencySymbol,
  zone: 'IN',
};

/** Zones of the time zones before the exchanges are loaded (the setting's tz names a zone's exchanges). */
const ZONE_OF_TZ: Readonly<Record<string, string>> = { 'Asia/Kolkata': 'IN', 'Asia/Calcutta': 'IN', 'America/Chicago': 'US' };

/**
 * The zone whose exchanges the session loads, from the setting's tz; unknown time zones load the home market's.
 * @example zoneOfTz('America/Chicago') // 'US'
 */
export function zoneOfTz(tz: string | undefined): string {
  return (tz === undefined ? undefined : ZONE_OF_TZ[tz]) ?? 'IN';
}

/**
 * The row the setting selects among the loaded rows: the setting's exchange, else the zone's first
 * row, else the home market's.
 * @example selectedExchange([bse, nse], { exchange: 'BSE', tz: 'Asia/Kolkata' }).exchange // 'BSE'
 */
export function selectedExchange(rows: readonly ExchangeRow[], setting: TimeZoneSetting | undefined): ExchangeRow {
  const named = setting === undefined ? undefined : rows.find((row) => row.exchange === setting.exchange);
  if (named) return named;
  if (setting?.exchange === DEFAULT_EXCHANGE_ROW.exchange || rows.length === 0) return DEFAULT_EXCHANGE_ROW;
  return rows.find((row) => row.exchange === DEFAULT_EXCHANGE_ROW.exchange) ?? rows[0] ?? DEFAULT_EXCHANGE_ROW;
}

/** `HH:mm` of a `HH:mm:ss` column. @example hhmm('09:15:00') // '09:15' */
export function hhmm(time: string): string {
  return /^\d{2}:\d{2}/.test(time) ? time.slice(0, 5) : time;
}

/**
 * The market hours as shown: exchange, session and time zone.
 * @example marketHoursText(DEFAULT_EXCHANGE_ROW) // 'NSE 09:15–15:30 Asia/Kolkata'
 */
export function marketHoursText(row: ExchangeRow): string {
  return `${row.exchange} ${hhmm(row.market_open)}–${hhmm(row.market_close)} ${row.tz}`;
}

/** The currency as shown. @example currencyText(DEFAULT_EXCHANGE_ROW) // '₹ INR' */
export function currencyText(row: ExchangeRow): string {
  return `${row.symbol} ${row.currency}`;
}

/**
 * The time-zone choices: each distinct tz of the rows, in the rows' order.
 * @example tzChoices([nse, bse, xcbo]) // ['Asia/Kolkata', 'America/Chicago']
 */
export function tzChoices(rows: readonly ExchangeRow[]): string[] {
  return [...new Set(rows.map((row) => row.tz))];
}

/** The exchanges a time zone offers (the rows with that tz). */
export function exchangesOfTz(rows: readonly ExchangeRow[], tz: string): ExchangeRow[] {
  return rows.filter((row) => row.tz === tz);
}

/**
 * The setting after picking an exchange: the exchange with its own tz; undefined for an exchange
 * not among the rows.
 * @example settingForExchange([xcbo], 'XCBO') // { exchange: 'XCBO', tz: 'America/Chicago' }
 */
export function settingForExchange(rows: readonly ExchangeRow[], exchange: string): TimeZoneSetting | undefined {
  const row = rows.find((item) => item.exchange === exchange);
  return row === undefined ? undefined : { exchange: row.exchange, tz: row.tz };
}

/**
 * The setting after picking a time zone: the current exchange when it is in that zone, else the
 * zone's default or first exchange; undefined for a tz no row has.
 */
export function settingForTz(rows: readonly ExchangeRow[], tz: string, current: TimeZoneSetting | undefined): TimeZoneSetting | undefined {
  const offered = exchangesOfTz(rows, tz);
  const keep = offered.find((row) => row.exchange === current?.exchange);
  const pick = keep ?? offered.find((row) => row.exchange === DEFAULT_EXCHANGE_ROW.exchange) ?? offered[0];
  return pick === undefined ? undefined : { exchange: pick.exchange, tz: pick.tz };
}
