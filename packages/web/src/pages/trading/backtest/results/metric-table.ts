// The metric table of the performance panel (docs/PRODUCT.md section 3's metricTable): the engine's
// PerformanceMetrics of each selected run as one column, the rows in reading order. With
// compute-investment on, the rows measured against the run's investment (return, CAGR, drawdown
// %, Calmar, Sharpe and Sortino, which use daily returns on the investment) are shown; off, the
// table keeps to raw P&L in rupees and counts.
import { formatRupees, MISSING_VALUE, percent } from '../../../../format/format';
import { numberField, ratioText, stringField } from '../../research/display';

export type MetricKind = 'money' | 'percent' | 'ratio' | 'count' | 'fraction' | 'date';

export interface MetricDefinition {
  readonly key: string;
  readonly label: string;
  readonly kind: MetricKind;
  /** Computed against the investment (capital): shown only with compute-investment on. */
  readonly onInvestment?: boolean;
}

/** The metrics measured against the investment. */
const ON_INVESTMENT = new Set(['returnPercent', 'cagrPercent', 'maxDrawdownPercent', 'sharpe', 'sortino', 'calmar']);
const row = (key: string, label: string, kind: MetricKind): MetricDefinition => ({ key, label, kind, onInvestment: ON_INVESTMENT.has(key) });

/** Every PerformanceMetrics field shown, in reading order. */
export const METRICS: readonly MetricDefinition[] = [
  row('capital', 'Investment', 'money'), row('endingEquity', 'Ending equity', 'money'), row('netPnl', 'Net P&L', 'money'),
  row('grossPnl', 'Gross P&L', 'money'), row('chargesPaid', 'Charges', 'money'), row('returnPercent', 'Return', 'percent'),
  row('cagrPercent', 'CAGR', 'percent'), row('maxDrawdown', 'Max drawdown', 'money'), row('maxDrawdownPercent', 'Max drawdown %', 'percent'),
  row('maxDrawdownDurationDays', 'Drawdown length (days)', 'count'), row('maxDrawdownPeakDate', 'Drawdown peak', 'date'),
  row('maxDrawdownTroughDate', 'Drawdown trough', 'date'), row('sharpe', 'Sharpe', 'ratio'), row('sortino', 'Sortino', 'ratio'),
  row('calmar', 'Calmar', 'ratio'), row('trades', 'Trades', 'count'), row('orders', 'Orders', 'count'), row('winRate', 'Win rate', 'fraction'),
  row('profitFactor', 'Profit factor', 'ratio'), row('expectancy', 'Expectancy per trade', 'money'), row('averageWin', 'Average win', 'money'),
  row('averageLoss', 'Average loss', 'money'), row('largestWin', 'Largest win', 'money'), row('largestLoss', 'Largest loss', 'money'),
  row('longestWinStreak', 'Longest win streak', 'count'), row('longestLossStreak', 'Longest loss streak', 'count'),
  row('tradingDays', 'Trading days', 'count'), row('winningDays', 'Winning days', 'count'), row('losingDays', 'Losing days', 'count'),
  row('exposurePercent', 'Exposure', 'percent'), row('candlesProcessed', 'Candles processed', 'count'),
];

/** One metric of a run's `metrics` JSON as display text. @example metricText({ netPnl: 12345 }, METRICS[2]) // '₹123.45' */
export function metricText(metrics: unknown, definition: MetricDefinition): string {
  const { key, kind } = definition;
  if (kind === 'ratio') return ratioText(metrics !== null && typeof metrics === 'object' ? (metrics as Record<string, unknown>)[key] : undefined);
  if (kind === 'date') return stringField(metrics, key) ?? MISSING_VALUE;
  const value = numberField(metrics, key);
  if (value === undefined) return MISSING_VALUE;
  switch (kind) {
    case 'money': return formatRupees(value);
    case 'percent': return percent(value);
    case 'fraction': return percent(value * 100);
    default: return value.toLocaleString('en-IN');
  }
}

export interface ComparedRun {
  readonly runId: string;
  readonly title: string;
  /** The run's PerformanceMetrics JSON, or null (no trading day, or not finished). */
  readonly metrics: unknown;
}

export interface MetricRow {
  readonly key: string;
  readonly label: string;
  /** One text per run, in the order of the runs. */
  readonly values: readonly string[];
}

/**
 * The metric table: one row per metric, one value per run (side by side).
 * @example comparisonRows([a, b], { computeInvestment: false })[2] // { key: 'netPnl', label: 'Net P&L', values: ['₹1,200.00', '-₹300.00'] }
 */
export function comparisonRows(runs: readonly ComparedRun[], options: { readonly computeInvestment: boolean }): MetricRow[] {
  return METRICS.filter((definition) => options.computeInvestment || definition.onInvestment !== true).map((definition) => ({
    key: definition.key, label: definition.label, values: runs.map((run) => metricText(run.metrics, definition)),
  }));
}
