// Reading a finished walk-forward (packages/engine/src/sweep/README.md, "Walk-forward"): its
// rows, one per window (sweep_results: the chosen bindings, the in-sample and out-of-sample days
// and metrics, as packages/server/src/jobs/sweep-run.ts walkForwardRecords stores them), the
// summary (stitched out-of-sample metrics, the overfitting gap, the daily stitched equity in
// paise), the mean in-sample metrics beside the out-of-sample ones, and the gap in words.
import type { SweepMetric, SweepMetrics } from '@vyuha/engine';
import { rankValue } from '@vyuha/engine';
import { percent } from '../../../../format/format';
import { METRIC_LABELS, metricText } from './sweep-view';

export interface WindowDays {
  readonly fromDate: string;
  readonly toDate: string;
  readonly days: number;
}

export interface WalkForwardWindowRow {
  readonly position: number;
  readonly chosen: Readonly<Record<string, number>>;
  readonly inSample: WindowDays;
  readonly outOfSample: WindowDays;
  readonly inSampleMetrics: SweepMetrics;
  readonly outOfSampleMetrics: SweepMetrics;
}

export interface OverfittingFigures {
  readonly inSampleAnnualReturnPercent: number;
  readonly outOfSampleAnnualReturnPercent: number;
  readonly gapPercent: number;
  readonly efficiency: number | null;
  readonly metricGap: number | null;
}

export interface WalkForwardSummary {
  readonly metric: SweepMetric;
  readonly windows: number;
  readonly outOfSampleMetrics: SweepMetrics;
  readonly meanInSampleMetric: number | null;
  readonly overfitting: OverfittingFigures;
  /** The stitched out-of-sample equity, one point per IST day (its last bar), paise. */
  readonly equity: { readonly dates: readonly string[]; readonly equity: readonly number[] };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function daysOf(value: unknown): WindowDays | undefined {
  if (!isRecord(value) || typeof value.fromDate !== 'string' || typeof value.toDate !== 'string' || typeof value.days !== 'number') return undefined;
  return { fromDate: value.fromDate, toDate: value.toDate, days: value.days };
}

/** The window rows of a walk-forward's sweep_results, by position; malformed rows are left out. */
export function walkForwardRows(rows: readonly unknown[]): WalkForwardWindowRow[] {
  return rows.flatMap((row) => {
    if (!isRecord(row) || typeof row.position !== 'number' || !isRecord(row.bindings) || !isRecord(row.metrics)) return [];
    const { metrics } = row;
    const inSample = daysOf(metrics.inSample);
    const outOfSample = daysOf(metrics.outOfSample);
    if (inSample === undefined || outOfSample === undefined || !isRecord(metrics.inSampleMetrics) || !isRecord(metrics.outOfSampleMetrics)) return [];
    return [{
      position: row.position, chosen: row.bindings as Record<string, number>, inSample, outOfSample,
      inSampleMetrics: metrics.inSampleMetrics as unknown as SweepMetrics, outOfSampleMetrics: metrics.outOfSampleMetrics as unknown as SweepMetrics,
    }];
  }).sort((a, b) => a.position - b.position);
}

/** A complete walk-forward's summary, or undefined when `summary` is not one. */
export function walkForwardSummary(summary: unknown): WalkForwardSummary | undefined {
  if (!isRecord(summary) || !isRecord(summary.overfitting) || !isRecord(summary.outOfSampleMetrics) || !isRecord(summary.equity)) return undefined;
  const { dates, equity } = summary.equity;
  if (!Array.isArray(dates) || !Array.isArray(equity) || dates.length !== equity.length) return undefined;
  return {
    metric: summary.metric as SweepMetric,
    windows: typeof summary.windows === 'number' ? summary.windows : 0,
    outOfSampleMetrics: summary.outOfSampleMetrics as unknown as SweepMetrics,
    meanInSampleMetric: typeof summary.meanInSampleMetric === 'number' ? summary.meanInSampleMetric : null,
    overfitting: summary.overfitting as unknown as OverfittingFigures,
    equity: { dates: dates as string[], equity: equity as number[] },
  };
}

/**
 * The mean over windows of an in-sample metric (finite values only; an infinite profit factor is
 * left out); null when no window has one.
 * @example meanInSample(rows, 'trades') // 12.5
 */
export function meanInSample(rows: readonly WalkForwardWindowRow[], metric: SweepMetric): number | null {
  const values = rows.map((row) => rankValue(row.inSampleMetrics, metric)).filter((value): value is number => value !== null && Number.isFinite(value));
  return values.length === 0 ? null : values.reduce((sum, value) => sum + value, 0) / values.length;
}

/** A metric's mean over windows as text: trades to one decimal, the rest as metricText writes them. */
export function meanText(metric: SweepMetric, value: number | null): string {
  return metric === 'trades' && value !== null ? value.toLocaleString('en-IN', { maximumFractionDigits: 1 }) : metricText(metric, value);
}

/** The stitched equity as chart points in rupees. */
export function equityPoints(summary: WalkForwardSummary): Array<{ time: string; value: number }> {
  return summary.equity.dates.map((date, index) => ({ time: date, value: (summary.equity.equity[index] ?? 0) / 100 }));
}

/** Signed percentage points. @example points(-3.456) // '-3.46 points' */
function points(value: number): string {
  return `${percent(value).replace('%', '')} points`;
}

/**
 * The overfitting gap in a trader's words: the in-sample choices' annualised return against what
 * the same choices made on the days after, and what the walk-forward efficiency says.
 * @example overfittingText({ inSampleAnnualReturnPercent: 40, outOfSampleAnnualReturnPercent: 10, gapPercent: 30, efficiency: 0.25, metricGap: 1 }).length > 0 // true
 */
export function overfittingText(gap: OverfittingFigures): string[] {
  const inSample = percent(gap.inSampleAnnualReturnPercent);
  const outOfSample = percent(gap.outOfSampleAnnualReturnPercent);
  const lines = [`On the days it was chosen on, each window's best combination returned ${inSample} a year on average (in sample).`
    + ` On the days after, never seen when choosing, the same choices returned ${outOfSample} a year (out of sample).`];
  if (gap.gapPercent > 0) lines.push(`The gap: ${points(gap.gapPercent)} a year lost once the parameters meet new data.`);
  else lines.push(`No gap: out of sample did as well or better, by ${points(-gap.gapPercent)} a year.`);
  if (gap.efficiency === null) {
    lines.push('The in-sample choices did not make money, so there is no edge to carry forward: do not trade these parameters on this evidence.');
  } else if (gap.efficiency >= 0.5) {
    lines.push(`Out of sample kept ${percent(gap.efficiency * 100, 0)} of the in-sample return (walk-forward efficiency ${gap.efficiency.toFixed(2)}):`
      + ' about half or more is usually read as robust, the choice did not just fit noise.');
  } else {
    lines.push(`Out of sample kept only ${percent(gap.efficiency * 100, 0)} of the in-sample return (walk-forward efficiency ${gap.efficiency.toFixed(2)}):`
      + ' well under half, the in-sample best fitted noise more than a lasting edge.');
  }
  return lines;
}

/** The chosen metric's mean in sample against out of sample, in words. */
export function metricGapText(summary: WalkForwardSummary): string {
  const metric = summary.metric;
  const label = METRIC_LABELS[metric] ?? metric;
  const outOfSample = summary.outOfSampleMetrics[metric];
  return `${label} (the metric the windows chose by): ${metricText(metric, summary.meanInSampleMetric)} in sample on average, ${metricText(metric, outOfSample)} out of sample, stitched.`;
}
