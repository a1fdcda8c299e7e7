// The credits a backtest will use, before it runs (docs/PRODUCT.md section 3: strategy runs record `candles`,
// the credits utilised). The estimate is the server's own (run-backtest.ts): every cell of
// algorithms x date ranges x frequency pairs, each estimated by the engine's estimateCandles on
// the instrument's trading symbol with the market package's session calendar.
import { isIsoDate } from '@vyuha/core';
import type { IsoDate } from '@vyuha/core';
import { estimateRequestCandles } from '@vyuha/engine';
import { INTERVAL_MINUTES } from '@vyuha/market';
import type { BacktestFormState } from './form-state';

/**
 * Candles (credits) the form's runs will use; cells whose range or interval is not valid yet are
 * left out (the form shows their errors), and nothing is counted before an algorithm and an
 * instrument are chosen.
 * @example estimateFormCredits(form) // 2 algorithms x 1 range of 4 sessions x one 5-minute pair = 600
 */
export function estimateFormCredits(form: BacktestFormState): number {
  const instrument = form.selectedInstrument?.tradingSymbol;
  if (instrument === undefined) return 0;
  const ranges = form.dateRanges.filter((range): range is { from: IsoDate; to: IsoDate } => isIsoDate(range.from) && isIsoDate(range.to) && range.from <= range.to);
  const intervals = form.frequenciesAndInvestments.map((pair) => pair.interval).filter((interval) => (INTERVAL_MINUTES as readonly number[]).includes(interval));
  const cells = form.algos.flatMap(() => ranges.flatMap((range) => intervals.map((interval) => ({
    dateRange: range, interval, instrument,
  }))));
  return estimateRequestCandles(cells);
}

/** The BACKTEST credits left: granted and unexpired minus used (the server's `licences` view), never below 0. */
export function availableCredits(usage: { readonly granted: number; readonly used: number }): number {
  return Math.max(0, usage.granted - usage.used);
}

export interface CreditFit {
  readonly needed: number;
  readonly available: number;
  readonly fits: boolean;
}

/**
 * Whether a request fits the credits left (the server refuses `needed > available`).
 * @example creditFit({ needed: 1500, available: 1000 }) // { needed: 1500, available: 1000, fits: false }
 */
export function creditFit(request: { readonly needed: number; readonly available: number }): CreditFit {
  return { needed: request.needed, available: request.available, fits: request.needed <= request.available };
}

/** The line beside the submit button. @example creditsText(creditFit({ needed: 1500, available: 20000 })) // 'Uses 1,500 of 20,000 available credits' */
export function creditsText(fit: CreditFit): string {
  const line = `Uses ${fit.needed.toLocaleString('en-IN')} of ${fit.available.toLocaleString('en-IN')} available credits`;
  return fit.fits ? line : `${line}: not enough credits for this backtest; remove runs or shorten the ranges`;
}
