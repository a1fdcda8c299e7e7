// What a finished backtest run reports, read from its JSON columns: `metrics` (the engine's
// PerformanceMetrics, written by the worker's metricsOf; null when the run had no trading day)
// and `result` (format vyuha.backtest-result: summary, daily curves, trades), and its `params`.
import { numberField, objectField, stringField } from './display';

export interface RunSummary {
  readonly netPnlPaise: number | undefined;
  readonly returnPercent: number | undefined;
  /** Depth of the deepest drawdown, paise (>= 0). */
  readonly maxDrawdownPaise: number | undefined;
  readonly maxDrawdownPercent: number | undefined;
  readonly sharpe: unknown;
  readonly trades: number | undefined;
  /** Winning trades over all trades, 0..1. */
  readonly winRate: number | undefined;
  readonly chargesPaise: number | undefined;
}

/** The headline numbers, from `metrics` and, where it is null, from `result.summary`. */
export function runSummary(metrics: unknown, result: unknown): RunSummary {
  const summary = objectField(result, 'summary');
  const summaryDrawdown = numberField(summary, 'maxDrawdown');
  return {
    netPnlPaise: numberField(metrics, 'netPnl') ?? numberField(summary, 'netPnl'),
    returnPercent: numberField(metrics, 'returnPercent'),
    maxDrawdownPaise: numberField(metrics, 'maxDrawdown') ?? (summaryDrawdown === undefined ? undefined : Math.abs(summaryDrawdown)),
    maxDrawdownPercent: numberField(metrics, 'maxDrawdownPercent'),
    sharpe: metrics !== null && typeof metrics === 'object' ? (metrics as Record<string, unknown>).sharpe : undefined,
    trades: numberField(metrics, 'trades') ?? numberField(summary, 'trades'),
    winRate: numberField(metrics, 'winRate'),
    chargesPaise: numberField(metrics, 'chargesPaid') ?? numberField(summary, 'charges'),
  };
}

export interface DailyCurve {
  /** Epoch ms of each IST trading date (UTC midnight of the date). */
  readonly times: number[];
  readonly equityPaise: number[];
  readonly drawdownPaise: number[];
}

/** The daily equity and drawdown curves of `result.curves`, or undefined when absent or malformed. */
export function dailyCurve(result: unknown): DailyCurve | undefined {
  const curves = objectField(result, 'curves');
  const dates = curves?.dates;
  const equity = curves?.equityPaise;
  const drawdown = curves?.drawdownPaise;
  if (!Array.isArray(dates) || !Array.isArray(equity) || dates.length !== equity.length || dates.length === 0) return undefined;
  const times = dates.map((date) => (typeof date === 'string' ? Date.parse(`${date}T00:00:00Z`) : Number.NaN));
  if (times.some((time) => Number.isNaN(time)) || equity.some((value) => typeof value !== 'number')) return undefined;
  return {
    times,
    equityPaise: equity as number[],
    drawdownPaise: Array.isArray(drawdown) && drawdown.length === dates.length ? drawdown as number[] : [],
  };
}

/** Trade counts by exit reason (`result.trades.byExitReason`). */
export function exitReasons(result: unknown): Array<[string, number]> {
  const byReason = objectField(objectField(result, 'trades'), 'byExitReason');
  return Object.entries(byReason ?? {}).filter((entry): entry is [string, number] => typeof entry[1] === 'number');
}

export interface RunCell {
  readonly algorithm: string | undefined;
  readonly from: string | undefined;
  readonly to: string | undefined;
  readonly interval: number | undefined;
  readonly investmentPaise: number | undefined;
}

/** The cell of the backtest form a run stands for (`params`, format vyuha.backtest-run). */
export function runCell(params: unknown): RunCell {
  const algorithm = objectField(params, 'algorithm');
  const name = stringField(algorithm, 'name');
  const version = numberField(algorithm, 'version');
  const range = objectField(params, 'dateRange');
  return {
    algorithm: name === undefined ? undefined : version === undefined ? name : `${name} v${version}`,
    from: stringField(range, 'from'),
    to: stringField(range, 'to'),
    interval: numberField(params, 'interval'),
    investmentPaise: numberField(params, 'investmentPaise'),
  };
}
