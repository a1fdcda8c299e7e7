// The backtest form of docs/PRODUCT.md section 3 (strategyType, algos, selectedInstrument, dateRanges,
// window 5, frequenciesAndInvestments, tradeInstrumentsConfig) as a validated request. Every
// problem is reported with its field path (`dateRanges[2].to: ...`), all of them at once.
import { err, isIsoDate, ok, rupeesToPaise } from '@vyuha/core';
import type { IsoDate, Paise, Result } from '@vyuha/core';
import { DEFAULT_INTERVAL_MINUTES, INTERVAL_MINUTES } from '@vyuha/market';
import type { IntervalMinutes } from '@vyuha/market';
import { canonicalJson, fingerprint } from './fingerprint';

export type StrategyType = 'intraday' | 'swing';
export const STRATEGY_TYPES: readonly StrategyType[] = ['intraday', 'swing'];

/** An algorithm by its stored id, or an unsaved document (hashed into `key`). */
export type AlgorithmReference =
  | { readonly kind: 'id'; readonly id: string; readonly key: string }
  | { readonly kind: 'document'; readonly document: unknown; readonly name: string | null; readonly key: string };

/** IST dates, both included. */
export interface DateRange {
  readonly from: IsoDate;
  readonly to: IsoDate;
}

/** A frequency (the interval the algorithm runs at) with the capital invested in that run. */
export interface FrequencyAndInvestment {
  readonly interval: IntervalMinutes;
  readonly investment: Paise;
}

export interface BacktestRequest {
  readonly strategyType: StrategyType;
  readonly algorithms: readonly AlgorithmReference[];
  readonly instrument: string;
  /** In the order given (ranges never overlap). */
  readonly dateRanges: readonly DateRange[];
  /** The chart/candle window in minutes (spec: default 5). */
  readonly window: IntervalMinutes;
  readonly frequenciesAndInvestments: readonly FrequencyAndInvestment[];
  /** Options legs, validated by the options-legs module; null when trading the instrument itself. */
  readonly tradeInstrumentsConfig: unknown;
}

/** One problem with a request: the field path and what is wrong. */
export interface RequestIssue {
  readonly path: string;
  readonly message: string;
}

/** Cells one request may expand to; more is refused before anything runs. */
export const MAX_RUNS_PER_REQUEST = 1_000;

/** `path: message` lines, one per issue. */
export function formatRequestIssues(issues: readonly RequestIssue[]): string {
  return issues.map((issue) => `${issue.path}: ${issue.message}`).join('\n');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

type Issues = RequestIssue[];

function listOf(value: unknown, path: string, issues: Issues): readonly unknown[] {
  if (Array.isArray(value) && value.length > 0) return value;
  issues.push({ path, message: Array.isArray(value) ? 'must not be empty' : `must be a list, got ${JSON.stringify(value) ?? 'nothing'}` });
  return [];
}

function parseStrategyType(value: unknown, issues: Issues): StrategyType {
  if (value === undefined) return 'intraday';
  if (STRATEGY_TYPES.includes(value as StrategyType)) return value as StrategyType;
  issues.push({ path: 'strategyType', message: `must be intraday or swing, got ${JSON.stringify(value)}` });
  return 'intraday';
}

function parseInterval(value: unknown, path: string, issues: Issues): IntervalMinutes | undefined {
  if (INTERVAL_MINUTES.includes(value as IntervalMinutes)) return value as IntervalMinutes;
  issues.push({ path, message: `must be one of ${INTERVAL_MINUTES.join(', ')} minutes, got ${JSON.stringify(value)}` });
  return undefined;
}

function parseAlgorithm(value: unknown, path: string, issues: Issues): AlgorithmReference | undefined {
  const id = typeof value === 'string' ? value : isRecord(value) && 'id' in value ? value.id : undefined;
  if (typeof id === 'string' && id.trim() !== '') return { kind: 'id', id: id.trim(), key: `id:${id.trim()}` };
  if (isRecord(value) && isRecord(value.document)) {
    const name = typeof value.name === 'string' && value.name.trim() !== '' ? value.name.trim() : null;
    return { kind: 'document', document: value.document, name, key: `doc:${fingerprint(canonicalJson(value.document))}` };
  }
  issues.push({ path, message: 'must be an algorithm id (a non-empty string or { id }) or { document: {...} }' });
  return undefined;
}

function parseAlgorithms(value: unknown, issues: Issues): AlgorithmReference[] {
  const algorithms: AlgorithmReference[] = [];
  const firstIndexOfKey = new Map<string, number>();
  listOf(value, 'algorithms', issues).forEach((entry, index) => {
    const algorithm = parseAlgorithm(entry, `algorithms[${index}]`, issues);
    if (algorithm === undefined) return;
    const earlier = firstIndexOfKey.get(algorithm.key);
    if (earlier !== undefined) issues.push({ path: `algorithms[${index}]`, message: `repeats algorithms[${earlier}]` });
    else firstIndexOfKey.set(algorithm.key, index);
    algorithms.push(algorithm);
  });
  return algorithms;
}

function parseDate(value: unknown, path: string, issues: Issues): IsoDate | undefined {
  if (typeof value === 'string' && isIsoDate(value)) return value;
  issues.push({ path, message: `must be a date as YYYY-MM-DD, got ${JSON.stringify(value) ?? 'nothing'}` });
  return undefined;
}

function parseDateRange(value: unknown, path: string, issues: Issues): DateRange | undefined {
  if (!isRecord(value)) {
    issues.push({ path, message: 'must be { from, to } with dates as YYYY-MM-DD' });
    return undefined;
  }
  const from = parseDate(value.from, `${path}.from`, issues);
  const to = parseDate(value.to, `${path}.to`, issues);
  if (from === undefined || to === undefined) return undefined;
  if (to < from) {
    issues.push({ path: `${path}.to`, message: `must not be before from (${from}), got ${to}` });
    return undefined;
  }
  return { from, to };
}

/**
 * docs/PRODUCT.md section 5: overlapping ranges are "detected when a range starts before the previous
 * ends". Ranges are sorted by start; with inclusive dates a range that starts on or before the
 * furthest end so far shares a day with an earlier range.
 */
export function overlappingRanges(ranges: readonly DateRange[]): RequestIssue[] {
  const order = ranges.map((range, index) => ({ range, index })).sort((a, b) => (a.range.from < b.range.from ? -1 : a.range.from > b.range.from ? 1 : a.index - b.index));
  const issues: RequestIssue[] = [];
  let reach: { readonly range: DateRange; readonly index: number } | undefined;
  for (const current of order) {
    if (reach !== undefined && current.range.from <= reach.range.to) {
      const { from, to } = reach.range;
      issues.push({ path: `dateRanges[${current.index}]`, message: `overlaps dateRanges[${reach.index}] (${from} to ${to}): a date range must start after the previous one ends` });
    }
    if (reach === undefined || current.range.to > reach.range.to) reach = current;
  }
  return issues;
}

function parseDateRanges(value: unknown, issues: Issues): DateRange[] {
  const parsed = listOf(value, 'dateRanges', issues).map((entry, index) => parseDateRange(entry, `dateRanges[${index}]`, issues));
  if (parsed.some((range) => range === undefined)) return [];
  const ranges = parsed as DateRange[];
  issues.push(...overlappingRanges(ranges));
  return ranges;
}

function parseFrequency(value: unknown, context: { readonly path: string; readonly window: IntervalMinutes }, issues: Issues): FrequencyAndInvestment | undefined {
  const { path } = context;
  if (!isRecord(value)) {
    issues.push({ path, message: 'must be { interval, investment } (investment in rupees)' });
    return undefined;
  }
  const interval = value.interval === undefined ? context.window : parseInterval(value.interval, `${path}.interval`, issues);
  const rupees = value.investment;
  if (typeof rupees !== 'number' || !Number.isFinite(rupees) || rupees <= 0 || rupees > 1e13) {
    issues.push({ path: `${path}.investment`, message: `must be rupees above 0 (at most 1e13), got ${JSON.stringify(rupees) ?? 'nothing'}` });
    return undefined;
  }
  const investment = rupeesToPaise(rupees);
  if (investment <= 0) {
    issues.push({ path: `${path}.investment`, message: `must be at least 0.01 rupees, got ${rupees}` });
    return undefined;
  }
  return interval === undefined ? undefined : { interval, investment };
}

function parseFrequencies(value: unknown, window: IntervalMinutes, issues: Issues): FrequencyAndInvestment[] {
  const pairs: FrequencyAndInvestment[] = [];
  const seen = new Map<string, number>();
  listOf(value, 'frequenciesAndInvestments', issues).forEach((entry, index) => {
    const path = `frequenciesAndInvestments[${index}]`;
    const pair = parseFrequency(entry, { path, window }, issues);
    if (pair === undefined) return;
    const key = `${pair.interval}|${pair.investment}`;
    const earlier = seen.get(key);
    if (earlier !== undefined) issues.push({ path, message: `repeats frequenciesAndInvestments[${earlier}]` });
    else seen.set(key, index);
    pairs.push(pair);
  });
  return pairs;
}

function parseInstrument(value: unknown, issues: Issues): string {
  if (typeof value === 'string' && value.trim() !== '') return value.trim();
  issues.push({ path: 'instrument', message: `must be a non-empty instrument name, got ${JSON.stringify(value) ?? 'nothing'}` });
  return '';
}

/**
 * Validates a backtest form submission; every problem comes back with its path.
 * @example parseBacktestRequest({ algorithms: ['a1'], instrument: 'NIFTY 50', dateRanges: [{ from: '2024-01-01', to: '2024-03-31' }], frequenciesAndInvestments: [{ investment: 100000 }] }) // ok: window 5, interval 5, investment 10000000 paise
 */
export function parseBacktestRequest(input: unknown): Result<BacktestRequest, RequestIssue[]> {
  if (!isRecord(input)) return err([{ path: '', message: 'must be an object with the backtest form fields' }]);
  const issues: Issues = [];
  const strategyType = parseStrategyType(input.strategyType, issues);
  const algorithms = parseAlgorithms(input.algorithms, issues);
  const instrument = parseInstrument(input.instrument, issues);
  const dateRanges = parseDateRanges(input.dateRanges, issues);
  const window = input.window === undefined ? DEFAULT_INTERVAL_MINUTES : parseInterval(input.window, 'window', issues) ?? DEFAULT_INTERVAL_MINUTES;
  const frequenciesAndInvestments = parseFrequencies(input.frequenciesAndInvestments, window, issues);
  const tradeInstrumentsConfig = input.tradeInstrumentsConfig ?? null;
  if (!isRecord(tradeInstrumentsConfig) && !Array.isArray(tradeInstrumentsConfig) && tradeInstrumentsConfig !== null) {
    issues.push({ path: 'tradeInstrumentsConfig', message: 'must be an object, a list or null' });
  }
  const runs = algorithms.length * dateRanges.length * frequenciesAndInvestments.length;
  if (runs > MAX_RUNS_PER_REQUEST) {
    issues.push({ path: '', message: `expands to ${runs} runs (algorithms x dateRanges x frequenciesAndInvestments); at most ${MAX_RUNS_PER_REQUEST}` });
  }
  if (issues.length > 0) return err(issues);
  return ok({ strategyType, algorithms, instrument, dateRanges, window, frequenciesAndInvestments, tradeInstrumentsConfig });
}
