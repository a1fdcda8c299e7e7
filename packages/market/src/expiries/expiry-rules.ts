import { isoDate } from '@vyuha/core';
import type { IsoDate, Weekday } from '@vyuha/core';
import type { OptionUnderlying } from '../index-configs';

export type ExpiryKind = 'weekly' | 'monthly';

/**
 * One era of one product: from `from` to `to` (inclusive, compared with the NOMINAL expiry date,
 * before any holiday shift) the `kind` contracts of `symbol` expire on `weekday` — every such
 * weekday for weeklies, the last one of the month for monthlies. A product with no row for a
 * date did not exist then. Monthly eras start and end on month boundaries so that a month never
 * gets two monthlies when the weekday changes mid-month.
 */
export interface ExpiryRule {
  readonly symbol: OptionUnderlying;
  readonly kind: ExpiryKind;
  readonly weekday: Weekday;
  readonly from: IsoDate;
  readonly to: IsoDate;
}

/** The dates the expiry calendar answers for. */
export const EXPIRY_CALENDAR_RANGE = { from: isoDate('2020-01-01'), to: isoDate('2027-12-31') } as const;

const MON = 1;
const TUE = 2;
const WED = 3;
const THU = 4;
const FRI = 5;
const OPEN_END = '2099-12-31';

/** `era` is [weekday, first nominal date, last nominal date]. */
function rule(symbol: OptionUnderlying, kind: ExpiryKind, era: readonly [Weekday, string, string]): ExpiryRule {
  return { symbol, kind, weekday: era[0], from: isoDate(era[1]), to: isoDate(era[2]) };
}

// Sources: NSE/BSE circulars as reported by the exchanges' members and the press (see the
// report of the "Market model" issue): FINNIFTY Thu->Tue from 15-Oct-2021; MIDCPNIFTY launched
// 24-Jan-2022 on Tuesdays, Wednesdays after 25-Apr-2023 (first 3-May), Mondays from 17-Aug-2023; BANKNIFTY
// weeklies Wednesday from 4-Sep-2023, monthlies last Wednesday Mar-Dec 2024; SENSEX relaunched on
// Fridays from 15-May-2023; weeklies other than NIFTY and SENSEX ended 13/18/19-Nov-2024;
// NSE monthlies last Thursday from Jan-2025, SENSEX Tuesdays in 2025 until the Sep-2025 swap
// (NSE Tuesday, BSE Thursday).
export const EXPIRY_RULES: readonly ExpiryRule[] = [
  rule('NIFTY', 'weekly', [THU, '2020-01-01', '2025-08-31']),
  rule('NIFTY', 'monthly', [THU, '2020-01-01', '2025-08-31']),
  rule('NIFTY', 'weekly', [TUE, '2025-09-01', OPEN_END]),
  rule('NIFTY', 'monthly', [TUE, '2025-09-01', OPEN_END]),

  rule('BANKNIFTY', 'weekly', [THU, '2020-01-01', '2023-08-31']),
  rule('BANKNIFTY', 'weekly', [WED, '2023-09-01', '2024-11-13']),
  rule('BANKNIFTY', 'monthly', [THU, '2020-01-01', '2024-02-29']),
  rule('BANKNIFTY', 'monthly', [WED, '2024-03-01', '2024-12-31']),
  rule('BANKNIFTY', 'monthly', [THU, '2025-01-01', '2025-08-31']),
  rule('BANKNIFTY', 'monthly', [TUE, '2025-09-01', OPEN_END]),

  rule('FINNIFTY', 'weekly', [THU, '2021-01-11', '2021-10-14']),
  rule('FINNIFTY', 'monthly', [THU, '2021-01-01', '2021-09-30']),
  rule('FINNIFTY', 'weekly', [TUE, '2021-10-15', '2024-11-19']),
  rule('FINNIFTY', 'monthly', [TUE, '2021-10-01', '2024-12-31']),
  rule('FINNIFTY', 'monthly', [THU, '2025-01-01', '2025-08-31']),
  rule('FINNIFTY', 'monthly', [TUE, '2025-09-01', OPEN_END]),

  rule('MIDCPNIFTY', 'weekly', [TUE, '2022-01-24', '2023-04-25']),
  rule('MIDCPNIFTY', 'monthly', [TUE, '2022-01-24', '2023-04-30']),
  rule('MIDCPNIFTY', 'weekly', [WED, '2023-04-27', '2023-08-16']),
  rule('MIDCPNIFTY', 'monthly', [WED, '2023-05-01', '2023-07-31']),
  rule('MIDCPNIFTY', 'weekly', [MON, '2023-08-17', '2024-11-18']),
  rule('MIDCPNIFTY', 'monthly', [MON, '2023-08-01', '2024-12-31']),
  rule('MIDCPNIFTY', 'monthly', [THU, '2025-01-01', '2025-08-31']),
  rule('MIDCPNIFTY', 'monthly', [TUE, '2025-09-01', OPEN_END]),

  rule('SENSEX', 'weekly', [FRI, '2023-05-15', '2024-12-31']),
  rule('SENSEX', 'monthly', [FRI, '2023-05-01', '2024-12-31']),
  rule('SENSEX', 'weekly', [TUE, '2025-01-01', '2025-08-31']),
  rule('SENSEX', 'monthly', [TUE, '2025-01-01', '2025-08-31']),
  rule('SENSEX', 'weekly', [THU, '2025-09-01', OPEN_END]),
  rule('SENSEX', 'monthly', [THU, '2025-09-01', OPEN_END]),
];

/**
 * Stock (and other non-index) derivatives on NFO: monthly only, on the last Thursday, the last
 * Tuesday for contracts expiring from 1-Sep-2025. Same shape as EXPIRY_RULES, without a symbol.
 */
export const STOCK_MONTHLY_RULES: ReadonlyArray<Omit<ExpiryRule, 'symbol' | 'kind'>> = [
  { weekday: THU, from: isoDate('2000-01-01'), to: isoDate('2025-08-31') },
  { weekday: TUE, from: isoDate('2025-09-01'), to: isoDate(OPEN_END) },
];
