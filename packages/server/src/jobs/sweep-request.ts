// The contract between `start_sweep` (which writes it into sweeps.request) and the sweep workers
// (which read it back): everything a sweep or walk-forward runs, resolved when it was started
// (instrument id, algorithm version, the effective parameter ranges), plus the pure helpers both
// sides share: the document with the sweep's ranges, the combinations, the chunk plan and the
// credit estimate.
//
// Invariants:
// - The combinations are a function of (parameters, constraints, sample) only (the engine's
//   parameterGrid), so every chunk job recomputes the same list and row i is combination i.
// - The chunk plan is stored with the request (`chunkSize`): chunk c covers combinations
//   c x chunkSize .. min((c + 1) x chunkSize, combinations) - 1, whoever runs it.
// - The estimate never reads the database: candles come from the session calendar, as a
//   backtest's do (estimateCandles); walk-forward windows are counted on the calendar's trading days.
import { addDays } from '@vyuha/core';
import type { IsoDate } from '@vyuha/core';
import { estimateCandles, isSweepMetric, parameterGrid } from '@vyuha/engine';
import type { AlgorithmError, AlgorithmParameter, ParameterBindings, SweepMetric, WalkForwardSpec } from '@vyuha/engine';
import { checkStoredRunFields, fieldCheck, isRecord } from './stored-run-fields';
import type { StoredRunFields } from './stored-run-fields';

export const SWEEP_REQUEST_FORMAT = 'vyuha.sweep';

export type SweepKind = 'sweep' | 'walkforward';

export interface SweepJobRequest extends StoredRunFields {
  readonly format: typeof SWEEP_REQUEST_FORMAT;
  readonly kind: SweepKind;
  /** The run's option legs (its tradeInstrumentsConfig, as stored); absent or null: the instrument (or an index's futures) is traded. */
  readonly tradeInstrumentsConfig?: unknown;
  /** Every declared parameter with the range the sweep walks (declaration order). */
  readonly parameters: readonly AlgorithmParameter[];
  readonly constraints: readonly string[];
  readonly sample: { readonly count: number; readonly seed: number } | null;
  readonly metric: SweepMetric;
  readonly walkForward: WalkForwardSpec | null;
  /** Combinations of the grid (after constraints and sampling). */
  readonly combinations: number;
  /** Combinations per chunk job (walk-forward: one job). */
  readonly chunkSize: number;
  /** Candles one run over the whole range reads (calendar estimate). */
  readonly candlesPerRun: number;
}

/** A sweep whose request cannot be read: the worker ends it in ERROR with this message. */
export class SweepRequestError extends Error {
  override readonly name = 'SweepRequestError';
}

/** Aim of one chunk: about this many candles of runs (a few seconds of engine time). */
export const TARGET_CHUNK_CANDLES = 20_000_000;
/** At most this many chunk jobs per sweep. */
export const MAX_CHUNKS = 200;
/** Rows are written (and cancellation checked) after about this many candles of runs. */
export const SLICE_CANDLES = 2_000_000;

const need = fieldCheck('sweeps.request', (message) => new SweepRequestError(message));

/**
 * Reads a sweep's request back, checking each field the worker relies on.
 * @example readSweepRequest(row.request).metric // 'sharpe'
 */
export function readSweepRequest(value: unknown): SweepJobRequest {
  need(isRecord(value) && value.format === SWEEP_REQUEST_FORMAT, 'format');
  const request = value as Record<string, unknown>;
  need(request.kind === 'sweep' || request.kind === 'walkforward', 'kind');
  checkStoredRunFields(request, need);
  need(Array.isArray(request.parameters) && Array.isArray(request.constraints), 'parameters');
  need(typeof request.metric === 'string' && isSweepMetric(request.metric), 'metric');
  need(request.kind === 'sweep' || isRecord(request.walkForward), 'walkForward');
  need(Number.isSafeInteger(request.combinations) && Number.isSafeInteger(request.chunkSize) && (request.chunkSize as number) >= 1, 'chunkSize');
  need(Number.isSafeInteger(request.estimatedCandles), 'estimatedCandles');
  return request as unknown as SweepJobRequest;
}

/** The stored algorithm document with the sweep's parameter ranges and constraints in place of its own. */
export function sweepDocument(graph: unknown, request: Pick<SweepJobRequest, 'parameters' | 'constraints'>): Record<string, unknown> {
  return { ...(isRecord(graph) ? graph : {}), parameters: request.parameters, constraints: request.constraints };
}

/** The sweep's combinations in grid order (sampled when the request says so), or the grid's errors. */
export function sweepCombinations(request: Pick<SweepJobRequest, 'parameters' | 'constraints' | 'sample'>): { ok: true; value: ParameterBindings[] } | { ok: false; error: AlgorithmError[] } {
  return parameterGrid(request.parameters, request.constraints, request.sample === null ? {} : { sample: request.sample });
}

/** Combinations per chunk: about TARGET_CHUNK_CANDLES each, at most MAX_CHUNKS chunks. */
export function chunkSizeFor(combinations: number, candlesPerRun: number): number {
  const byCandles = Math.ceil(TARGET_CHUNK_CANDLES / Math.max(1, candlesPerRun));
  return Math.max(1, byCandles, Math.ceil(combinations / MAX_CHUNKS));
}

/** The chunks of a sweep: [from, to) ranges of combination indices. */
export function chunkRanges(combinations: number, chunkSize: number): Array<{ from: number; to: number }> {
  const ranges: Array<{ from: number; to: number }> = [];
  for (let from = 0; from < combinations; from += chunkSize) ranges.push({ from, to: Math.min(combinations, from + chunkSize) });
  return ranges;
}

/** Trading days of the range on the session calendar, each with its candles at `interval`. */
export function calendarDays(request: { dateRange: { from: IsoDate; to: IsoDate }; interval: number; instrument: string }): Array<{ date: IsoDate; candles: number }> {
  const days: Array<{ date: IsoDate; candles: number }> = [];
  for (let date = request.dateRange.from; date <= request.dateRange.to; date = addDays(date, 1)) {
    const candles = estimateCandles({ dateRange: { from: date, to: date }, interval: request.interval, instrument: request.instrument });
    if (candles > 0) days.push({ date, candles });
  }
  return days;
}

export interface WalkForwardEstimate {
  /** Windows on the calendar (the stored candles decide the final count). */
  readonly windows: number;
  readonly tradingDays: number;
  /** Each window's in-sample sweep (combinations runs) plus its out-of-sample run. */
  readonly candles: number;
}

/**
 * Windows and candles of a walk-forward over the calendar's trading days, as the engine's
 * walkForwardWindows lays them out (rolling or anchored, every stepDays).
 */
export function estimateWalkForward(days: readonly { candles: number }[], spec: WalkForwardSpec, combinations: number): WalkForwardEstimate {
  const step = spec.stepDays ?? spec.outOfSampleDays;
  const prefix = [0];
  for (const day of days) prefix.push((prefix[prefix.length - 1] as number) + day.candles);
  const sum = (from: number, to: number): number => (prefix[to] as number) - (prefix[from] as number);
  let windows = 0;
  let candles = 0;
  for (let start = 0; start + spec.inSampleDays + spec.outOfSampleDays <= days.length; start += step) {
    const inSampleEnd = start + spec.inSampleDays;
    candles += combinations * sum(spec.anchored === true ? 0 : start, inSampleEnd) + sum(inSampleEnd, inSampleEnd + spec.outOfSampleDays);
    windows += 1;
  }
  return { windows, tradingDays: days.length, candles };
}
