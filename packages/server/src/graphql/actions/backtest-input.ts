// The checks of `run_backtest` that need no database: the form (engine's parseBacktestRequest),
// stored algorithms only, dates not in the future, the tier's minimum dates, and that each stored
// algorithm version compiles (given its graph). Each refusal is a GraphqlFailure whose path
// points into the input (`$.selectionSet.run_backtest.args.input.dateRanges[1]`).
import { istParts } from '@vyuha/core';
import type { IsoDate } from '@vyuha/core';
import { compileAlgorithm, formatAlgorithmError, formatRequestIssues, parseBacktestRequest } from '@vyuha/engine';
import type { BacktestRequest, RequestIssue } from '@vyuha/engine';
import { GraphqlFailure } from '../types';
import type { GraphqlSession } from '../types';
import { isUuid, minimumCandleDate } from './session-access';

const INPUT_PATH = '$.selectionSet.run_backtest.args.input';

/** The GraphQL path of an issue's field path. @example inputPath('dateRanges[1].to') // '$.selectionSet.run_backtest.args.input.dateRanges[1].to' */
export function inputPath(field: string): string {
  return field === '' ? INPUT_PATH : `${INPUT_PATH}.${field}`;
}

function refuse(issues: readonly RequestIssue[], code = 'validation-failed'): never {
  const first = issues[0];
  throw new GraphqlFailure(code, formatRequestIssues(issues).replaceAll('\n', '; '), inputPath(first?.path ?? ''));
}

/** GraphQL gives null for an omitted optional field; the engine's parser wants it absent. */
function withoutNulls(input: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    if (value === null || value === undefined) continue;
    out[key] = Array.isArray(value) ? value.map((item) => (typeof item === 'object' && item !== null && !Array.isArray(item) ? withoutNulls(item as Record<string, unknown>) : item)) : value;
  }
  return out;
}

/**
 * The validated request of a `run_backtest` input, or a `validation-failed` naming every bad field.
 * `tradeInstrumentsConfig` (jsonb) is kept as given.
 */
export function parseRunBacktestInput(input: unknown): BacktestRequest & { readonly name: string | null } {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) refuse([{ path: '', message: 'must be an object with the backtest form fields' }]);
  const record = input as Record<string, unknown>;
  const { tradeInstrumentsConfig, name, ...rest } = record;
  const parsed = parseBacktestRequest({ ...withoutNulls(rest), ...(tradeInstrumentsConfig === undefined ? {} : { tradeInstrumentsConfig }) });
  if (!parsed.ok) refuse(parsed.error);
  const issues: RequestIssue[] = [];
  parsed.value.algorithms.forEach((algorithm, index) => {
    if (algorithm.kind !== 'id') issues.push({ path: `algorithms[${index}]`, message: 'save the algorithm first: run_backtest takes stored algorithm ids' });
    else if (!isUuid(algorithm.id)) issues.push({ path: `algorithms[${index}]`, message: `must be an algorithm id (uuid), got ${JSON.stringify(algorithm.id)}` });
  });
  if (name !== undefined && name !== null && (typeof name !== 'string' || name.trim() === '' || name.length > 200)) {
    issues.push({ path: 'name', message: 'must be a non-empty name of at most 200 characters' });
  }
  if (issues.length > 0) refuse(issues);
  return { ...parsed.value, name: typeof name === 'string' ? name.trim() : null };
}

/** Refuses date ranges that end after today (IST): there are no candles for them yet. */
export function checkNotFuture(request: BacktestRequest, nowMs: number): void {
  const today = istParts(nowMs).date;
  const issues = request.dateRanges.flatMap((range, index) => (range.to > today
    ? [{ path: `dateRanges[${index}].to`, message: `${range.to} is after today (${today}): there are no candles for it yet` }]
    : []));
  if (issues.length > 0) refuse(issues);
}

/**
 * Spec: the tier decides how far back a user may load candles (`x-hasura-w<n>m`). A range that
 * starts before the minimum date of any interval the request runs at is refused (permission-error),
 * naming the range and the earliest date allowed.
 */
export function checkTierDates(request: BacktestRequest, session: GraphqlSession): void {
  const intervals = [...new Set(request.frequenciesAndInvestments.map((pair) => pair.interval))];
  const issues: RequestIssue[] = [];
  request.dateRanges.forEach((range, index) => {
    let latest: { date: IsoDate; interval: number } | undefined;
    for (const interval of intervals) {
      const minimum = minimumCandleDate(session, interval);
      if (minimum !== undefined && range.from < minimum && (latest === undefined || minimum > latest.date)) latest = { date: minimum, interval };
    }
    if (latest !== undefined) {
      issues.push({
        path: `dateRanges[${index}]`,
        message: `${range.from} to ${range.to} starts before ${latest.date}, the earliest date your tier may backtest at ${latest.interval}-minute candles`,
      });
    }
  });
  if (issues.length > 0) refuse(issues, 'permission-error');
}

/** At most this many compile errors are quoted in a refusal (the editor shows them all). */
const QUOTED_COMPILE_ERRORS = 5;

/**
 * Refuses an algorithm version whose graph does not compile with the engine's compileAlgorithm:
 * accepted, it would only fail later in the worker, after credits were reserved.
 * @example checkAlgorithmCompiles(0, { name: 'x', version: 2, graph }) // throws validation-failed at algorithms[0]: 'algorithm x version 2 does not compile: nodes[0].expression: 1:9: ...'
 */
export function checkAlgorithmCompiles(index: number, algorithm: { readonly name: string; readonly version: number; readonly graph: unknown }): void {
  const compiled = compileAlgorithm(algorithm.graph);
  if (compiled.ok) return;
  const quoted = compiled.error.slice(0, QUOTED_COMPILE_ERRORS).map(formatAlgorithmError);
  const more = compiled.error.length > QUOTED_COMPILE_ERRORS ? `; and ${compiled.error.length - QUOTED_COMPILE_ERRORS} more` : '';
  refuse([{
    path: `algorithms[${index}]`,
    message: `algorithm ${algorithm.name} version ${algorithm.version} does not compile: ${quoted.join('; ')}${more}`,
  }]);
}
