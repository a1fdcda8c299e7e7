// The plan of `estimate_sweep` and `start_sweep`: the input read field by field, the backtest run
// it starts from (the user's own), its algorithm version (own or published), the effective
// parameter ranges and constraints, the combinations, the walk-forward windows, the credits.
// Every refusal is an IssuesFailure listing each bad field (`extensions.issues`: path, message),
// its path pointing into the input (`$.selectionSet.start_sweep.args.input.parameters[1].step`);
// grid and constraint errors keep the engine's line:column.
import {
  compileCombination, estimateCandles, formatAlgorithmError, gridSize, isSweepMetric, MAX_SWEEP_COMBINATIONS, SWEEP_METRICS, SweepError,
} from '@vyuha/engine';
import type { AlgorithmError, AlgorithmParameter, SweepMetric, WalkForwardSpec } from '@vyuha/engine';
import type pg from 'pg';
import { storedInstrumentOf, tradePlanOf } from '../../backtest/trade-plan';
import { readBacktestRunParams, BacktestParamsError } from '../../jobs/backtest-params';
import {
  calendarDays, chunkSizeFor, estimateWalkForward, SWEEP_REQUEST_FORMAT, sweepCombinations, sweepDocument,
} from '../../jobs/sweep-request';
import type { SweepJobRequest, SweepKind } from '../../jobs/sweep-request';
import { GraphqlFailure, IssuesFailure } from '../types';
import type { GraphqlSession } from '../types';
import { actorId, isUuid, minimumCandleDate } from './session-access';

export interface SweepIssue {
  /** The input field (`parameters[0].step`, `constraints[1]`, `walkForward.inSampleDays`). */
  readonly path: string;
  readonly message: string;
}

/** A sweep's resolved plan: the request stored with it and what the estimate reports. */
export interface SweepPlan {
  readonly userId: string;
  readonly runId: string;
  readonly request: SweepJobRequest;
  /** Combinations before constraints and sampling. */
  readonly gridCombinations: number;
  /** Walk-forward windows on the calendar; null for a sweep. */
  readonly windows: number | null;
  readonly chunks: number;
}

function inputPath(action: string, field: string): string {
  const base = `$.selectionSet.${action}.args.input`;
  return field === '' ? base : `${base}.${field}`;
}

function refuse(action: string, issues: readonly SweepIssue[], code = 'validation-failed'): never {
  throw new IssuesFailure(code, issues.map((issue) => ({ ...issue, message: issue.path === '' ? issue.message : `${issue.path}: ${issue.message}` })),
    inputPath(action, issues[0]?.path ?? ''));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

interface RangeInput {
  readonly name: string;
  readonly from: number;
  readonly to: number;
  readonly step: number;
}

interface SweepInput {
  readonly runId: string;
  readonly kind: SweepKind;
  readonly ranges: readonly RangeInput[] | undefined;
  readonly constraints: readonly string[] | undefined;
  readonly sample: { count: number; seed: number } | null;
  readonly metric: SweepMetric;
  readonly walkForward: WalkForwardSpec | null;
}

function wholeAtLeast(value: unknown, minimum: number): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= minimum;
}

function readWalkForward(value: unknown, issues: SweepIssue[]): WalkForwardSpec | null {
  if (!isRecord(value)) {
    issues.push({ path: 'walkForward', message: 'a walk-forward needs its windows: inSampleDays and outOfSampleDays (trading days)' });
    return null;
  }
  const spec: { inSampleDays: number; outOfSampleDays: number; stepDays?: number; anchored?: boolean } = {
    inSampleDays: value.inSampleDays as number, outOfSampleDays: value.outOfSampleDays as number,
  };
  for (const field of ['inSampleDays', 'outOfSampleDays'] as const) {
    if (!wholeAtLeast(value[field], 1)) issues.push({ path: `walkForward.${field}`, message: `must be a whole number of trading days >= 1, got ${String(value[field])}` });
  }
  if (value.stepDays !== null && value.stepDays !== undefined) {
    if (!wholeAtLeast(value.stepDays, 1)) issues.push({ path: 'walkForward.stepDays', message: `must be a whole number of trading days >= 1, got ${String(value.stepDays)}` });
    else if (wholeAtLeast(value.outOfSampleDays, 1) && value.stepDays < value.outOfSampleDays) {
      issues.push({ path: 'walkForward.stepDays', message: `must be at least outOfSampleDays (${value.outOfSampleDays}) so out-of-sample windows do not overlap, got ${value.stepDays}` });
    }
    spec.stepDays = value.stepDays as number;
  }
  if (value.anchored === true) spec.anchored = true;
  return spec;
}

function readRanges(value: unknown, issues: SweepIssue[]): RangeInput[] | undefined {
  if (value === null || value === undefined) return undefined;
  if (!Array.isArray(value)) {
    issues.push({ path: 'parameters', message: 'must be a list of { name, from, to, step }' });
    return undefined;
  }
  return value.map((item: unknown, index) => {
    const record = isRecord(item) ? item : {};
    const name = typeof record.name === 'string' ? record.name.replace(/^\$/, '') : '';
    if (name === '') issues.push({ path: `parameters[${index}].name`, message: 'must name a declared parameter' });
    for (const field of ['from', 'to', 'step'] as const) {
      if (typeof record[field] !== 'number' || !Number.isFinite(record[field])) issues.push({ path: `parameters[${index}].${field}`, message: `must be a finite number, got ${String(record[field])}` });
    }
    return { name, from: record.from as number, to: record.to as number, step: record.step as number };
  });
}

function readSample(value: unknown, issues: SweepIssue[]): { count: number; seed: number } | null {
  if (value === null || value === undefined) return null;
  const record = isRecord(value) ? value : {};
  if (!wholeAtLeast(record.count, 1) || (record.count as number) > MAX_SWEEP_COMBINATIONS) {
    issues.push({ path: 'sample.count', message: `must be a whole number from 1 to ${MAX_SWEEP_COMBINATIONS}, got ${String(record.count)}` });
  }
  if (typeof record.seed !== 'number' || !Number.isSafeInteger(record.seed)) issues.push({ path: 'sample.seed', message: `must be a whole number, got ${String(record.seed)}` });
  return { count: record.count as number, seed: record.seed as number };
}

/** The input of estimate_sweep / start_sweep, read field by field; refused with every bad field. */
export function parseSweepInput(action: string, input: unknown): SweepInput {
  if (!isRecord(input)) refuse(action, [{ path: '', message: 'input must be an object: { run_id, kind, parameters, constraints, sample, metric, walkForward }' }]);
  const issues: SweepIssue[] = [];
  const runId = input.run_id;
  if (!isUuid(runId)) issues.push({ path: 'run_id', message: `must be the id (uuid) of one of your backtest runs, got ${JSON.stringify(runId)}` });
  const kind = input.kind ?? 'sweep';
  if (kind !== 'sweep' && kind !== 'walkforward') issues.push({ path: 'kind', message: `must be sweep or walkforward, got ${JSON.stringify(kind)}` });
  const metric = input.metric ?? 'sharpe';
  if (typeof metric !== 'string' || !isSweepMetric(metric)) {
    issues.push({ path: 'metric', message: `must be one of ${Object.keys(SWEEP_METRICS).join(', ')}; got ${JSON.stringify(metric)}` });
  }
  const constraints = input.constraints;
  if (constraints !== null && constraints !== undefined && (!Array.isArray(constraints) || !constraints.every((item) => typeof item === 'string'))) {
    issues.push({ path: 'constraints', message: 'must be a list of conditions over $parameters, e.g. "$fast < $slow"' });
  }
  const ranges = readRanges(input.parameters, issues);
  const sample = readSample(input.sample, issues);
  const walkForward = kind === 'walkforward' ? readWalkForward(input.walkForward, issues) : null;
  if (kind === 'sweep' && input.walkForward !== null && input.walkForward !== undefined) {
    issues.push({ path: 'walkForward', message: 'windows are for kind walkforward; leave them out of a sweep' });
  }
  if (issues.length > 0) refuse(action, issues);
  return {
    runId: runId as string, kind: kind as SweepKind, ranges, constraints: (constraints ?? undefined) as string[] | undefined,
    sample, metric: metric as SweepMetric, walkForward,
  };
}

interface StoredVersion {
  readonly graph: unknown;
  readonly name: string;
  readonly owner: string;
  readonly published: boolean;
}

async function versionOf(pool: pg.Pool, algorithmId: string, version: number): Promise<StoredVersion | undefined> {
  const { rows } = await pool.query<StoredVersion>(
    `SELECT v.graph, a.name, a.user_id AS owner, a.published FROM algorithm_versions v JOIN algorithms a ON a.algorithm_id = v.algorithm_id
     WHERE v.algorithm_id = $1 AND v.version = $2`, [algorithmId, version]);
  return rows[0];
}

/** The effective ranges: the document's parameters, each given one replaced by the input's range. */
function effectiveParameters(action: string, declared: readonly AlgorithmParameter[], ranges: readonly RangeInput[] | undefined): { parameters: AlgorithmParameter[]; inputIndex: Map<number, number> } {
  const inputIndex = new Map<number, number>();
  if (ranges === undefined) return { parameters: [...declared], inputIndex };
  const names = declared.map((parameter) => parameter.name);
  const issues: SweepIssue[] = [];
  ranges.forEach((range, index) => {
    if (!names.includes(range.name)) issues.push({ path: `parameters[${index}].name`, message: `the algorithm declares no parameter $${range.name} (declared: ${names.map((name) => `$${name}`).join(', ')})` });
    else if (ranges.findIndex((other) => other.name === range.name) !== index) issues.push({ path: `parameters[${index}].name`, message: `$${range.name} is given twice` });
  });
  if (issues.length > 0) refuse(action, issues);
  const parameters = declared.map((parameter, position) => {
    const index = ranges.findIndex((range) => range.name === parameter.name);
    if (index < 0) return parameter;
    inputIndex.set(position, index);
    const range = ranges[index] as RangeInput;
    const keepsDefault = parameter.default >= range.from && parameter.default <= range.to;
    return { name: parameter.name, default: keepsDefault ? parameter.default : range.from, from: range.from, to: range.to, step: range.step };
  });
  return { parameters, inputIndex };
}

/** Engine errors (`parameters[i].step`, `constraints[j]` with line:column) at the input's fields. */
function gridIssues(errors: readonly AlgorithmError[], inputIndex: ReadonlyMap<number, number>): SweepIssue[] {
  return errors.map((error) => {
    const match = /^parameters\[(\d+)\](.*)$/.exec(error.path);
    const message = formatAlgorithmError({ ...error, path: '' });
    if (match === null) return { path: error.path, message };
    const given = inputIndex.get(Number(match[1]));
    return given === undefined
      ? { path: 'parameters', message: `the algorithm's ${error.path}: ${message}` }
      : { path: `parameters[${given}]${match[2] ?? ''}`, message };
  });
}

async function loadRun(pool: pg.Pool, request: { action: string; runId: string; userId: string }): Promise<ReturnType<typeof readBacktestRunParams>> {
  const { rows } = await pool.query<{ params: unknown }>(`SELECT params FROM strategy_runs WHERE run_id = $1 AND user_id = $2 AND kind = 'BACKTEST'`, [request.runId, request.userId]);
  if (rows[0] === undefined) throw new GraphqlFailure('not-found', `run_id: no backtest run ${request.runId} of yours`, inputPath(request.action, 'run_id'));
  try {
    return readBacktestRunParams(rows[0].params);
  } catch (error) {
    if (error instanceof BacktestParamsError) refuse(request.action, [{ path: 'run_id', message: `this run cannot be swept: ${error.message}` }]);
    throw error;
  }
}

/**
 * Resolves an estimate_sweep / start_sweep input for the session's user: refuses with every bad
 * field, or returns the plan (request, combinations, windows, chunks, credits).
 */
export async function planSweep(pool: pg.Pool, context: { action: string; session: GraphqlSession; userId: string; input: unknown }): Promise<SweepPlan> {
  const { action, session, userId } = context;
  const input = parseSweepInput(action, context.input);
  const params = await loadRun(pool, { action, runId: input.runId, userId });
  const legs = params.tradeInstrumentsConfig ?? null;
  const minimum = minimumCandleDate(session, params.interval);
  if (minimum !== undefined && params.dateRange.from < minimum) {
    refuse(action, [{ path: 'run_id', message: `${params.dateRange.from} to ${params.dateRange.to} starts before ${minimum}, the earliest date your tier may backtest at ${params.interval}-minute candles` }], 'permission-error');
  }
  const plan = tradePlanOf(await storedInstrumentOf(pool, params.instrument), { strategyType: params.strategyType });
  if (!plan.ok) refuse(action, [{ path: 'run_id', message: plan.error }]);
  const { algorithmId, version } = params.algorithm;
  const stored = await versionOf(pool, algorithmId, version);
  if (stored === undefined || (stored.owner !== userId && !stored.published)) {
    refuse(action, [{ path: 'run_id', message: `the run's algorithm ${params.algorithm.name} version ${version} is no longer yours or published` }]);
  }
  // The version compiled when its backtest was queued, so its parameters and constraints are well formed.
  const graph = isRecord(stored.graph) ? stored.graph : {};
  const declared = Array.isArray(graph.parameters) ? graph.parameters as AlgorithmParameter[] : [];
  if (declared.length === 0) {
    refuse(action, [{ path: 'parameters', message: `algorithm ${stored.name} version ${version} declares no $parameters: name some in the editor (e.g. sma(close, $fast) with a range) and run its backtest again` }]);
  }
  const { parameters, inputIndex } = effectiveParameters(action, declared, input.ranges);
  const constraints = input.constraints ?? (Array.isArray(graph.constraints) ? graph.constraints as string[] : []);
  const grid = gridSize(parameters, constraints);
  if (!grid.ok) refuse(action, gridIssues(grid.error, inputIndex));
  const combinations = sweepCombinations({ parameters, constraints, sample: input.sample });
  if (!combinations.ok) refuse(action, gridIssues(combinations.error, inputIndex));
  if (combinations.value.length === 0) refuse(action, [{ path: 'constraints', message: 'no combination of the ranges satisfies every constraint' }]);
  const document = sweepDocument(stored.graph, { parameters, constraints });
  try {
    compileCombination(document, combinations.value[0] as Record<string, number>, 0);
  } catch (error) {
    if (error instanceof SweepError) refuse(action, [{ path: 'parameters', message: error.message }]);
    throw error;
  }
  const instrument = params.instrument.tradingSymbol;
  const candlesPerRun = estimateCandles({ dateRange: params.dateRange, interval: params.interval, instrument });
  let estimatedCandles = combinations.value.length * candlesPerRun;
  let windows: number | null = null;
  if (input.kind === 'walkforward') {
    const spec = input.walkForward as WalkForwardSpec;
    const estimate = estimateWalkForward(calendarDays({ dateRange: params.dateRange, interval: params.interval, instrument }), spec, combinations.value.length);
    if (estimate.windows === 0) {
      refuse(action, [{ path: 'walkForward.inSampleDays', message: `the run's range has ${estimate.tradingDays} trading days; one window needs ${spec.inSampleDays + spec.outOfSampleDays} (in-sample + out-of-sample)` }]);
    }
    windows = estimate.windows;
    estimatedCandles = estimate.candles;
  }
  const chunkSize = input.kind === 'walkforward' ? combinations.value.length : chunkSizeFor(combinations.value.length, candlesPerRun);
  const request: SweepJobRequest = {
    format: SWEEP_REQUEST_FORMAT, kind: input.kind,
    algorithm: { algorithmId, version, name: stored.name }, instrument: params.instrument,
    strategyType: params.strategyType, dateRange: params.dateRange, interval: params.interval, investmentPaise: params.investmentPaise,
    ...(legs === null ? {} : { tradeInstrumentsConfig: legs }),
    parameters, constraints, sample: input.sample, metric: input.metric, walkForward: input.walkForward,
    combinations: combinations.value.length, chunkSize, candlesPerRun, estimatedCandles, actorId: actorId(session),
  };
  return {
    userId, runId: input.runId, request, gridCombinations: grid.value.combinations, windows,
    chunks: input.kind === 'walkforward' ? 1 : Math.ceil(combinations.value.length / chunkSize),
  };
}
