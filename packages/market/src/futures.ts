// Index futures: which indices list them and from when our schedules can name their contracts.
// Every index with listed options also lists monthly futures that expire on its monthly option
// expiry (expiries/expiry-calendar.ts, kind 'monthly'), are named `NIFTY24DECFUT`
// (symbology.ts) and share the options' lot and freeze schedules (lots.ts: NSE's freeze
// quantities apply to an index's futures and options alike). INDIA VIX has no contract in our
// data (no lots, no expiry calendar), so it has no futures here.
import { isoDate } from '@vyuha/core';
import type { IsoDate } from '@vyuha/core';
import { EXPIRY_CALENDAR_RANGE } from './expiries/expiry-rules';
import { isOptionUnderlying } from './index-configs';
import type { OptionUnderlying } from './index-configs';
import { LOT_REVISIONS } from './lots';

/** True for an index whose futures our schedules know. @example hasIndexFutures('INDIA VIX') // false */
export function hasIndexFutures(symbol: string): symbol is OptionUnderlying {
  return isOptionUnderlying(symbol);
}

/**
 * The first trade date a futures contract of `symbol` can be named: the later of its first lot row
 * (the product's launch, or our data's start) and the expiry calendar's first day.
 * @example derivativesKnownFrom('FINNIFTY') // '2021-01-11'
 */
export function derivativesKnownFrom(symbol: OptionUnderlying): IsoDate {
  const first = LOT_REVISIONS.find((row) => row.symbol === symbol);
  // Every option underlying has lot rows; the lots test proves it.
  const launched = first === undefined ? isoDate('9999-12-31') : first.effectiveFrom;
  return launched > EXPIRY_CALENDAR_RANGE.from ? launched : EXPIRY_CALENDAR_RANGE.from;
}
