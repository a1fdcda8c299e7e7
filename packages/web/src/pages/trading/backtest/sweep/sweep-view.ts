// Reading a finished sweep in the browser: its rows (sweep_results: bindings and the engine's
// sweep metrics, money in paise: packages/engine/src/sweep/sweep-metrics.ts), the metrics as text
// in rupees and percent as the rest of the results screen writes them, the table's sort (the
// metric's better direction first, ties in grid order, no value last: the engine's bestCell
// order, so the top row is the best cell), the heatmap's colours, and the summary's best cell and
// stability (packages/server/src/jobs/sweep-run.ts) in words.
import type { Stability, SweepMetric, SweepMetrics } from '@vyuha/engine';
import { rankValue, SWEEP_METRICS } from '@vyuha/engine';
import { formatRupees, MISSING_VALUE, percent } from '../../../../format/format';
import { ratioText } from '../../research/display';

/** One stored row: its position in grid order, the parameter values and the metrics. */
export interface SweepRowRecord {
  readonly position: number;
  readonly bindings: Readonly<Record<string, number>>;
  readonly metrics: SweepMetrics;
}

export const METRIC_LABELS: Readonly<Record<SweepMetric, string>> = {
  netPnl: 'Net P&L',
  returnPercent: 'Return',
  maxDrawdown: 'Max drawdown',
  maxDrawdownPercent: 'Max drawdown %',
  sharpe: 'Sharpe',
  winRate: 'Win rate',
  trades: 'Trades',
  profitFactor: 'Profit factor',
};

/** The metrics in the order the table and the select list them. */
export const METRIC_ORDER: readonly SweepMetric[] = ['netPnl', 'returnPercent', 'maxDrawdown', 'maxDrawdownPercent', 'sharpe', 'winRate', 'trades', 'profitFactor'];

/**
 * A metric's value as the results screen writes it: paise as rupees, percent, a ratio ('∞' for an
 * infinite profit factor), a count; '—' when there is none.
 * @example metricText('netPnl', 1234550) // '₹12,345.50'
 * @example metricText('winRate', 0.5) // '50.00%'
 */
export function metricText(metric: SweepMetric, value: unknown): string {
  if (metric === 'profitFactor' || metric === 'sharpe') return ratioText(value);
  if (typeof value !== 'number' || !Number.isFinite(value)) return MISSING_VALUE;
  switch (metric) {
    case 'netPnl':
    case 'maxDrawdown':
      return formatRupees(value);
    case 'returnPercent':
    case 'maxDrawdownPercent':
      return percent(value);
    case 'winRate':
      return percent(value * 100);
    case 'trades':
      return value.toLocaleString('en-IN');
  }
}

/** What "better" means for a metric, in words. @example betterText('maxDrawdown') // 'lower is better' */
export function betterText(metric: SweepMetric): string {
  return SWEEP_METRICS[metric] === 'max' ? 'higher is better' : 'lower is better';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Rows as sweep_results returns them (bindings and metrics are jsonb); malformed rows are left out. */
export function sweepRows(rows: readonly unknown[]): SweepRowRecord[] {
  return rows.flatMap((row) => {
    if (!isRecord(row) || typeof row.position !== 'number' || !isRecord(row.bindings) || !isRecord(row.metrics)) return [];
    return [{ position: row.position, bindings: row.bindings as Record<string, number>, metrics: row.metrics as unknown as SweepMetrics }];
  });
}

/** A table column: a metric, a parameter (`$name`), or the grid position. */
export type SortColumn = { readonly kind: 'metric'; readonly metric: SweepMetric } | { readonly kind: 'parameter'; readonly name: string } | { readonly kind: 'position' };

export interface SortOrder {
  readonly column: SortColumn;
  readonly direction: 'asc' | 'desc';
}

/** The table's first order: the metric, best first. */
export function bestFirst(metric: SweepMetric): SortOrder {
  return { column: { kind: 'metric', metric }, direction: SWEEP_METRICS[metric] === 'max' ? 'desc' : 'asc' };
}

function sortValue(row: SweepRowRecord, column: SortColumn): number | null {
  if (column.kind === 'position') return row.position;
  if (column.kind === 'parameter') return row.bindings[column.name] ?? null;
  const value = rankValue(row.metrics, column.metric);
  return value === null || Number.isNaN(value) ? null : value;
}

/**
 * The rows in `order`: rows without a value last whichever the direction, ties in grid order.
 * @example sortRows(rows, bestFirst('sharpe'))[0] // the row bestCell(rows, 'sharpe') picks
 */
export function sortRows(rows: readonly SweepRowRecord[], order: SortOrder): SweepRowRecord[] {
  const sign = order.direction === 'asc' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const left = sortValue(a, order.column);
    const right = sortValue(b, order.column);
    if (left === null || right === null) return left === right ? a.position - b.position : left === null ? 1 : -1;
    if (left !== right) return sign * (left < right ? -1 : 1);
    return a.position - b.position;
  });
}

/** The next order when a column header is clicked: the same column flips, another starts best (metrics) or ascending. */
export function nextOrder(current: SortOrder, column: SortColumn): SortOrder {
  const same = JSON.stringify(current.column) === JSON.stringify(column);
  if (same) return { column, direction: current.direction === 'asc' ? 'desc' : 'asc' };
  return column.kind === 'metric' ? bestFirst(column.metric) : { column, direction: 'asc' };
}

/** The parameter names of the rows, in the order the first row lists them (the declaration order). */
export function parameterNames(rows: readonly SweepRowRecord[], declared: readonly string[]): string[] {
  const seen = new Set(rows.flatMap((row) => Object.keys(row.bindings)));
  const ordered = declared.filter((name) => seen.has(name));
  return [...ordered, ...[...seen].filter((name) => !ordered.includes(name))];
}

/** Every value a parameter takes among the rows, ascending. */
export function valuesOf(rows: readonly SweepRowRecord[], name: string): number[] {
  return [...new Set(rows.map((row) => row.bindings[name]).filter((value): value is number => typeof value === 'number'))].sort((a, b) => a - b);
}

/**
 * A heatmap cell's colour: red (worst) through amber to green (best) by where the value sits
 * between the shown cells' lowest and highest, flipped for metrics where lower is better; grey
 * without a value; infinite values count as the best.
 * @example cellColor(10, { min: 0, max: 10, metric: 'sharpe' }) // 'hsl(130, 55%, 42%)'
 */
export function cellColor(value: number | 'infinite' | null, scale: { readonly min: number; readonly max: number; readonly metric: SweepMetric }): string {
  if (value === null || (typeof value === 'number' && Number.isNaN(value))) return 'var(--mantine-color-default-border)';
  const number = value === 'infinite' ? Number.POSITIVE_INFINITY : value;
  let share = scale.max > scale.min ? (Math.min(Math.max(number, scale.min), scale.max) - scale.min) / (scale.max - scale.min) : 0.5;
  if (number === Number.POSITIVE_INFINITY) share = 1;
  if (SWEEP_METRICS[scale.metric] === 'min') share = 1 - share;
  return `hsl(${Math.round(share * 130)}, 55%, 42%)`;
}

/** The lowest and highest finite values among heatmap cells. */
export function cellRange(cells: ReadonlyArray<ReadonlyArray<number | 'infinite' | null>>): { min: number; max: number } | undefined {
  const values = cells.flat().filter((value): value is number => typeof value === 'number' && Number.isFinite(value));
  if (values.length === 0) return undefined;
  return { min: Math.min(...values), max: Math.max(...values) };
}

/** The stability around the best cell as a sweep's summary stores it (the engine's own figures). */
export type StabilityFigures = Stability;

export interface SweepSummary {
  readonly metric: SweepMetric;
  readonly best: SweepRowRecord | null;
  readonly stability: StabilityFigures | null;
}

/** A complete sweep's `summary` (best row and stability), or undefined when it is not one. */
export function sweepSummary(summary: unknown, metric: SweepMetric): SweepSummary | undefined {
  if (!isRecord(summary)) return undefined;
  const best = isRecord(summary.best) ? sweepRows([summary.best])[0] ?? null : null;
  const figures = summary.stability;
  const stability = isRecord(figures) && typeof figures.neighbours === 'number' && typeof figures.count === 'number' ? figures as unknown as StabilityFigures : null;
  return { metric, best, stability };
}

/** How far the neighbours' mean may fall short of the best, as a share of the best's size, and still be a plateau. */
const PLATEAU_SHORTFALL = 0.2;

/**
 * The stability around the best cell in a trader's words: how the metric holds one step away in
 * every parameter. The verdict reads how far the neighbours' mean falls short of the best (in
 * the metric's better direction) against the best's size, so it also holds for negative values.
 * @example stabilityText({ neighbours: 9, count: 9, mean: 0.9, min: 0.5, max: 1, meanOverBest: 0.9 }, 'sharpe', 1) // '... 0.10 short of the best on average (10%): a plateau ...'
 */
export function stabilityText(stability: StabilityFigures, metric: SweepMetric, best: number | null): string {
  const label = METRIC_LABELS[metric];
  if (stability.count === 0 || stability.mean === null) return `No combination near the best one has a ${label.toLowerCase()}: stability cannot be judged.`;
  const around = `Within one step of every parameter (${stability.neighbours} combinations, the best included), ${label} averages ${metricText(metric, stability.mean)}`
    + ` (from ${metricText(metric, stability.min)} to ${metricText(metric, stability.max)})`;
  if (best === null || !Number.isFinite(best)) return `${around}.`;
  const shortfall = Math.max(0, SWEEP_METRICS[metric] === 'max' ? best - stability.mean : stability.mean - best);
  const relative = best === 0 ? (shortfall === 0 ? 0 : Number.POSITIVE_INFINITY) : shortfall / Math.abs(best);
  const share = Number.isFinite(relative) ? ` (${percent(relative * 100, 0)})` : '';
  const verdict = relative <= PLATEAU_SHORTFALL
    ? 'a plateau: nearby parameters do about as well, so the choice is not a fluke'
    : `a lone ${SWEEP_METRICS[metric] === 'max' ? 'peak' : 'dip'}: one step away is clearly worse, so the best may be luck`;
  return `${around}, ${metricText(metric, shortfall)} short of the best on average${share}: ${verdict}.`;
}

/** Bindings as `$fast = 10, $slow = 30`. */
export function bindingsText(bindings: Readonly<Record<string, number>>, names?: readonly string[]): string {
  return (names ?? Object.keys(bindings)).filter((name) => bindings[name] !== undefined).map((name) => `$${name} = ${bindings[name]}`).join(', ');
}
