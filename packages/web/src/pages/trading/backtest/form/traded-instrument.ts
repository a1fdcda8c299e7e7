// What "trade the instrument" means for the instrument the form picked, in the engine's words
// (tradedInstrumentOf, the decision the server makes too): an index with futures trades its
// near-month future (the lot in force for the contract of the form's last date), a stock its
// shares with equity charges; an index without futures, or a contract picked directly, is refused
// at the instrument field, and a range before an index's futures exist at that range.
import { isIsoDate } from '@vyuha/core';
import type { IsoDate } from '@vyuha/core';
import { futuresRangeIssue, marginRatesOn, tradedInstrumentOf } from '@vyuha/engine';
import type { RequestIssue, StrategyType } from '@vyuha/engine';
import { buildTradingSymbol, lotSize, nextExpiry } from '@vyuha/market';
import type { OptionUnderlying } from '@vyuha/market';
import type { DateRangeDraft, SelectedInstrument } from './form-state';

/** The trade mode's label and the sentence under it, or the refusal. */
export type TradedDescription =
  | { readonly ok: true; readonly label: string; readonly text: string }
  | { readonly ok: false; readonly label: string; readonly error: string };

/** The roll time: the strategy's square-off (the engine's default). */
const ROLL_TIME = '15:15';

/** The last valid `to` of the ranges, else `today`. */
function referenceDate(ranges: readonly DateRangeDraft[], today: IsoDate): IsoDate {
  const ends = ranges.map((range) => range.to).filter((to): to is IsoDate => isIsoDate(to)).sort();
  return ends.at(-1) ?? today;
}

function futuresText(underlying: OptionUnderlying, context: { strategyType: StrategyType; date: IsoDate }): string {
  const { strategyType, date } = context;
  let contract = '';
  try {
    const expiry = nextExpiry(underlying, date, 'monthly');
    if (expiry !== undefined) {
      const lot = lotSize({ symbol: underlying, tradeDate: date, expiry: expiry.date });
      contract = ` (${buildTradingSymbol({ kind: 'future', underlying, expiry: expiry.date })} on ${date}: lot ${lot})`;
    }
  } catch {
    // A date outside the calendars: say what is traded without naming the contract.
  }
  const roll = strategyType === 'swing'
    ? `, rolled to the next month at ${ROLL_TIME} on expiry day`
    : ', squared off each day (an intraday position never reaches the expiry)';
  const rate = Math.round(marginRatesOn(date).futuresRate * 100);
  return `Trades ${underlying}'s near-month future${contract}${roll}, in whole lots sized by the estimated margin (${rate}% of the contract's value), `
    + 'with futures charges. Prices come from imported futures candles where stored, else from a cost-of-carry model (shown as "Model prices" in the results).';
}

/**
 * What the form's instrument trades without option legs.
 * @example tradedDescription({ instrument: nifty, strategyType: 'swing', dateRanges, today }) // { ok: true, label: 'Near-month future', text: "Trades NIFTY's near-month future (NIFTY26NOVFUT ...: lot 65), rolled ..." }
 */
export function tradedDescription(request: {
  readonly instrument: SelectedInstrument | null;
  readonly strategyType: StrategyType;
  readonly dateRanges: readonly DateRangeDraft[];
  readonly today: IsoDate;
}): TradedDescription | undefined {
  const { instrument, strategyType } = request;
  if (instrument === null) return undefined;
  const traded = tradedInstrumentOf(instrument, strategyType);
  if (!traded.ok) return { ok: false, label: 'The instrument', error: traded.error };
  if (traded.value.kind === 'index-futures') {
    return { ok: true, label: 'Near-month future', text: futuresText(traded.value.underlying, { strategyType, date: referenceDate(request.dateRanges, request.today) }) };
  }
  const charges = strategyType === 'intraday' ? 'intraday (MIS) equity charges' : 'delivery (CNC) equity charges';
  return { ok: true, label: 'Shares', text: `Trades ${instrument.tradingSymbol} shares, all in, with NSE ${charges}.` };
}

/**
 * The form's issues of trading its instrument itself: the refusal at `instrument`, a range before
 * the index's futures at `dateRanges[i]`; none with option legs or without an instrument.
 */
export function tradedIssues(request: {
  readonly instrument: SelectedInstrument | null;
  readonly strategyType: StrategyType;
  readonly dateRanges: readonly DateRangeDraft[];
  readonly optionLegs: boolean;
}): RequestIssue[] {
  const { instrument } = request;
  if (instrument === null || request.optionLegs) return [];
  const traded = tradedInstrumentOf(instrument, request.strategyType);
  if (!traded.ok) return [{ path: 'instrument', message: traded.error }];
  if (traded.value.kind !== 'index-futures') return [];
  const { underlying } = traded.value;
  return request.dateRanges.flatMap((range, index) => {
    const issue = isIsoDate(range.from) ? futuresRangeIssue(underlying, range.from) : undefined;
    return issue === undefined ? [] : [{ path: `dateRanges[${index}]`, message: issue }];
  });
}
