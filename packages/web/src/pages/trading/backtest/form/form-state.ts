// The backtest form of docs/PRODUCT.md section 3 (strategyType, algos, selectedInstrument, dateRanges,
// window 5, frequenciesAndInvestments, tradeInstrumentsConfig) as the screen holds it, its
// mapping to the run_backtest input, and its validation: the engine's parseBacktestRequest (the
// very parser the server runs) plus the server's other checks that need no database (dates not
// in the future, the tier's earliest date per interval), each issue at its field path.
import { addDays, daysBetween, isIsoDate } from '@vyuha/core';
import type { IsoDate } from '@vyuha/core';
import { parseBacktestRequest } from '@vyuha/engine';
import type { RequestIssue, StrategyType } from '@vyuha/engine';
import { DEFAULT_INTERVAL_MINUTES } from '@vyuha/market';
import { defaultDateRange } from '../../../../format/date-ranges';
import { defaultTradeDraft, legsIssues, numberOrAbsent, tradeInstrumentsConfigOf } from './legs-draft';
import type { NumberDraft, TradeDraft } from './legs-draft';
import { tradedIssues } from './traded-instrument';

/** An instruments row the form picked (index or contract). */
export interface SelectedInstrument {
  readonly instrumentId: number;
  readonly exchange: string;
  readonly tradingSymbol: string;
  readonly name: string;
  readonly kind: string;
}

/** IST dates as `YYYY-MM-DD`; '' while a date input is empty. */
export interface DateRangeDraft {
  readonly from: string;
  readonly to: string;
}

/** A frequency (interval minutes) and the capital of that run in rupees. */
export interface FrequencyDraft {
  readonly interval: number;
  readonly investmentRupees: NumberDraft;
}

export interface BacktestFormState {
  /** Optional name of the backtest strategy; the server names it after the instrument and dates otherwise. */
  readonly name: string;
  readonly strategyType: StrategyType;
  /** Algorithm ids (own or published; the server runs each one's latest version). */
  readonly algos: readonly string[];
  readonly selectedInstrument: SelectedInstrument | null;
  readonly dateRanges: readonly DateRangeDraft[];
  readonly window: number;
  readonly frequenciesAndInvestments: readonly FrequencyDraft[];
  readonly tradeInstrumentsConfig: TradeDraft;
}

/** The capital a new frequency row starts with: Rs 1,00,000. */
export const DEFAULT_INVESTMENT_RUPEES = 100_000;

/**
 * A fresh form: intraday, one range of the default 90 days to yesterday (IST, docs/PRODUCT.md section 9),
 * window 5, one 5-minute run of Rs 1,00,000, trading the instrument (an index: its near-month future).
 */
export function defaultFormState(today: IsoDate): BacktestFormState {
  return {
    name: '', strategyType: 'intraday', algos: [], selectedInstrument: null, dateRanges: [defaultDateRange(today)],
    window: DEFAULT_INTERVAL_MINUTES,
    frequenciesAndInvestments: [{ interval: DEFAULT_INTERVAL_MINUTES, investmentRupees: DEFAULT_INVESTMENT_RUPEES }],
    tradeInstrumentsConfig: defaultTradeDraft(),
  };
}

/**
 * A new range that overlaps none: the period of the same length just before the earliest range
 * (ranges are usually added backwards, the first one ending yesterday); empty when there is none.
 */
export function rangeBefore(ranges: readonly DateRangeDraft[]): DateRangeDraft {
  const valid = ranges.filter((range) => isIsoDate(range.from) && isIsoDate(range.to) && range.from <= range.to);
  const first = valid.reduce<DateRangeDraft | undefined>((earliest, range) => (earliest === undefined || range.from < earliest.from ? range : earliest), undefined);
  if (first === undefined || !isIsoDate(first.from) || !isIsoDate(first.to)) return { from: '', to: '' };
  const days = daysBetween(first.from, first.to);
  const to = addDays(first.from, -1);
  return { from: addDays(to, -days), to };
}

/** The instrument as the server resolves it without ambiguity: `EXCHANGE:SYMBOL`. */
export function instrumentText(instrument: SelectedInstrument | null): string {
  return instrument === null ? '' : `${instrument.exchange}:${instrument.tradingSymbol}`;
}

/** The GraphQL `run_backtest_input` (investments in rupees; the server stores paise). */
export interface RunBacktestInput {
  readonly name?: string;
  readonly strategyType: StrategyType;
  readonly algorithms: readonly string[];
  readonly instrument: string;
  readonly dateRanges: ReadonlyArray<{ readonly from: string; readonly to: string }>;
  readonly window: number;
  readonly frequenciesAndInvestments: ReadonlyArray<{ readonly interval: number; readonly investment?: number | string }>;
  readonly tradeInstrumentsConfig: Record<string, unknown> | null;
}

/**
 * The run_backtest input of a form; an empty investment is left out so validation names it.
 * @example toRunBacktestInput(form).frequenciesAndInvestments // [{ interval: 5, investment: 100000 }]
 */
export function toRunBacktestInput(form: BacktestFormState): RunBacktestInput {
  const name = form.name.trim();
  return {
    ...(name === '' ? {} : { name }),
    strategyType: form.strategyType,
    algorithms: [...form.algos],
    instrument: instrumentText(form.selectedInstrument),
    dateRanges: form.dateRanges.map((range) => ({ from: range.from, to: range.to })),
    window: form.window,
    frequenciesAndInvestments: form.frequenciesAndInvestments.map((pair) => {
      const investment = numberOrAbsent(pair.investmentRupees);
      return investment === undefined ? { interval: pair.interval } : { interval: pair.interval, investment };
    }),
    tradeInstrumentsConfig: tradeInstrumentsConfigOf(form.tradeInstrumentsConfig, form.selectedInstrument?.tradingSymbol ?? ''),
  };
}

/** What validation needs from outside the form: today (IST) and the tier's earliest date per interval (x-hasura-w<n>m). */
export interface ValidationContext {
  readonly today: IsoDate;
  readonly windowStarts: Readonly<Record<number, string>>;
}

/**
 * The earliest date the tier may backtest every interval of the form at, and the interval that
 * sets it (the latest of the minimums); undefined when the claims set no limit.
 * @example earliestDate([{ interval: 1, ... }, { interval: 5, ... }], { 1: '2021-01-01', 5: '2020-01-01' }) // { date: '2021-01-01', interval: 1 }
 */
export function earliestDate(pairs: readonly FrequencyDraft[], windowStarts: Readonly<Record<number, string>>): { date: IsoDate; interval: number } | undefined {
  let latest: { date: IsoDate; interval: number } | undefined;
  for (const interval of new Set(pairs.map((pair) => pair.interval))) {
    const minimum = windowStarts[interval];
    if (minimum !== undefined && isIsoDate(minimum) && (latest === undefined || minimum > latest.date)) latest = { date: minimum, interval };
  }
  return latest;
}

/** The server's checkNotFuture and checkTierDates, on the ranges that are dates. */
function dateIssues(form: BacktestFormState, context: ValidationContext): RequestIssue[] {
  const earliest = earliestDate(form.frequenciesAndInvestments, context.windowStarts);
  return form.dateRanges.flatMap((range, index) => {
    const issues: RequestIssue[] = [];
    if (isIsoDate(range.to) && range.to > context.today) {
      issues.push({ path: `dateRanges[${index}].to`, message: `${range.to} is after today (${context.today}): there are no candles for it yet` });
    }
    if (earliest !== undefined && isIsoDate(range.from) && range.from < earliest.date) {
      issues.push({
        path: `dateRanges[${index}]`,
        message: `${range.from} to ${range.to} starts before ${earliest.date}, the earliest date your tier may backtest at ${earliest.interval}-minute candles`,
      });
    }
    return issues;
  });
}

/** Clearer words for the two pickers left empty than the parser's "must not be empty". */
function pickerIssues(form: BacktestFormState): RequestIssue[] {
  return [
    ...(form.algos.length === 0 ? [{ path: 'algorithms', message: 'choose at least one algorithm' }] : []),
    ...(form.selectedInstrument === null ? [{ path: 'instrument', message: 'choose an instrument' }] : []),
  ];
}

/**
 * Every problem of the form, each with its field path (`dateRanges[1]`, `frequenciesAndInvestments[0].investment`,
 * `tradeInstrumentsConfig.onBuy[0].lots`); empty when the server's input checks would pass.
 */
export function validateForm(form: BacktestFormState, context: ValidationContext): RequestIssue[] {
  const parsed = parseBacktestRequest(toRunBacktestInput(form));
  const picked = pickerIssues(form);
  const pickedPaths = new Set(picked.map((issue) => issue.path));
  const parserIssues = parsed.ok ? [] : parsed.error.filter((issue) => !pickedPaths.has(issue.path));
  const traded = tradedIssues({
    instrument: form.selectedInstrument, strategyType: form.strategyType, dateRanges: form.dateRanges, optionLegs: form.tradeInstrumentsConfig.mode === 'options',
  });
  return [...picked, ...parserIssues, ...dateIssues(form, context), ...traded, ...legsIssues(form.tradeInstrumentsConfig, form.selectedInstrument?.tradingSymbol)];
}
