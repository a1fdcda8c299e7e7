import type { AlgorithmParameter } from '../algorithm/document';
import { GRID_TOLERANCE } from '../algorithm/parameter-grid-values';
import type { ParameterBindings } from '../algorithm/parameters';
import type { Ratio } from '../metrics/risk-ratios';
import type { MetricDirection, SweepMetric, SweepMetrics } from './sweep-metrics';
import { rankValue, SWEEP_METRICS } from './sweep-metrics';

/*
 * Reading a sweep's rows: a heatmap over two parameters, the best cell, and how stable the
 * metric is around it (definitions in README.md, "Heatmap and stability"). Works on any rows with
 * bindings and metrics (a full grid, a sample, or merged chunks).
 */

/** What the reading functions need of a row. */
export interface MeasuredRow {
  readonly bindings: ParameterBindings;
  readonly metrics: SweepMetrics;
}

export interface HeatmapRequest {
  /** The parameter along the columns. */
  readonly x: string;
  /** The parameter along the rows. */
  readonly y: string;
  readonly metric: SweepMetric;
  /** A value for every other parameter of the rows. */
  readonly fixed?: ParameterBindings;
}

export interface SweepHeatmap {
  readonly x: string;
  readonly y: string;
  readonly metric: SweepMetric;
  /** Every value of x among the rows, ascending. */
  readonly xValues: readonly number[];
  readonly yValues: readonly number[];
  /** cells[j][i]: the metric at y = yValues[j], x = xValues[i]; null where no row has those values (constrained out, not sampled) or the metric is null. */
  readonly cells: readonly (readonly Ratio[])[];
}

function distinctSorted(values: Iterable<number>): number[] {
  return [...new Set(values)].sort((a, b) => a - b);
}

/**
 * The metric over x and y with the other parameters at `fixed`. Throws RangeError when x = y or a
 * parameter of the rows has no fixed value.
 * @example sweepHeatmap(rows, { x: 'fast', y: 'slow', metric: 'sharpe' }).cells[0][0] // sharpe at the lowest fast and slow
 */
export function sweepHeatmap(rows: readonly MeasuredRow[], request: HeatmapRequest): SweepHeatmap {
  const { x, y, metric } = request;
  const fixed = request.fixed ?? {};
  if (x === y) throw new RangeError(`x and y must be two different parameters, got '${x}' twice`);
  const names = new Set(rows.flatMap((row) => Object.keys(row.bindings)));
  for (const axis of [x, y]) if (rows.length > 0 && !names.has(axis)) throw new RangeError(`no row has a parameter '${axis}'`);
  const others = [...names].filter((name) => name !== x && name !== y);
  const unfixed = others.filter((name) => !Object.hasOwn(fixed, name));
  if (unfixed.length > 0) throw new RangeError(`fixed: give a value for ${unfixed.map((name) => `$${name}`).join(', ')}`);
  const xValues = distinctSorted(rows.map((row) => row.bindings[x] as number));
  const yValues = distinctSorted(rows.map((row) => row.bindings[y] as number));
  const cells: Ratio[][] = yValues.map(() => xValues.map(() => null));
  const filled = new Set<string>();
  for (const row of rows) {
    if (!others.every((name) => row.bindings[name] === fixed[name])) continue;
    const i = xValues.indexOf(row.bindings[x] as number);
    const j = yValues.indexOf(row.bindings[y] as number);
    const key = `${i},${j}`;
    if (filled.has(key)) continue;
    filled.add(key);
    (cells[j] as Ratio[])[i] = row.metrics[metric];
  }
  return { x, y, metric, xValues, yValues, cells };
}

/**
 * The best row by `metric` (`direction` defaults to the metric's own: SWEEP_METRICS); ties go to
 * the first row, rows whose metric is null never win; undefined when none has a value. An
 * 'infinite' profit factor ranks above every number.
 * @example bestCell(rows, 'sharpe', 'max')?.bindings // { fast: 10, slow: 30 }
 */
export function bestCell<Row extends MeasuredRow>(rows: readonly Row[], metric: SweepMetric, direction: MetricDirection = SWEEP_METRICS[metric]): Row | undefined {
  const sign = direction === 'max' ? 1 : -1;
  let best: Row | undefined;
  let bestValue = 0;
  for (const row of rows) {
    const value = rankValue(row.metrics, metric);
    if (value === null || Number.isNaN(value)) continue;
    if (best === undefined || sign * value > bestValue) {
      best = row;
      bestValue = sign * value;
    }
  }
  return best;
}

export interface Stability {
  /** Rows within one step of the best in every parameter, the best included. */
  readonly neighbours: number;
  /** Of those, the ones whose metric is a finite number (the statistics below are over these). */
  readonly count: number;
  readonly mean: number | null;
  readonly min: number | null;
  readonly max: number | null;
  /** mean / the best's value; null when the best's value is 0 or not finite. */
  readonly meanOverBest: number | null;
}

/** True when every declared parameter of `row` is within one step of `best`'s value. */
function isNeighbour(row: MeasuredRow, best: MeasuredRow, parameters: readonly AlgorithmParameter[]): boolean {
  return parameters.every((parameter) => {
    const distance = Math.abs((row.bindings[parameter.name] as number) - (best.bindings[parameter.name] as number));
    return distance <= parameter.step * (1 + GRID_TOLERANCE);
  });
}

/**
 * The metric around the best cell: every row within one step of it in each parameter (up to 3^n
 * rows on a full grid, fewer at the grid's edges or where constraints cut), with count, mean, min,
 * max and mean / best. A ratio near 1 is a plateau; far below 1, a lone peak.
 * @example stability(rows, { best, metric: 'sharpe', parameters }).meanOverBest // 0.86
 */
export function stability(
  rows: readonly MeasuredRow[],
  around: { readonly best: MeasuredRow; readonly metric: SweepMetric; readonly parameters: readonly AlgorithmParameter[] },
): Stability {
  const { best, metric, parameters } = around;
  const neighbours = rows.filter((row) => isNeighbour(row, best, parameters));
  const values = neighbours.map((row) => rankValue(row.metrics, metric)).filter((value): value is number => value !== null && Number.isFinite(value));
  const bestValue = rankValue(best.metrics, metric);
  if (values.length === 0) return { neighbours: neighbours.length, count: 0, mean: null, min: null, max: null, meanOverBest: null };
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
  const usable = bestValue !== null && Number.isFinite(bestValue) && bestValue !== 0;
  return {
    neighbours: neighbours.length,
    count: values.length,
    mean,
    min: Math.min(...values),
    max: Math.max(...values),
    meanOverBest: usable ? mean / bestValue : null,
  };
}
