// The metrics of a finished run (the engine's computeMetrics over the run's days, trades and
// per-bar equity): what the worker stores in strategy_runs.metrics and the CLI prints.
import { computeMetrics } from '@vyuha/engine';
import type { BacktestResult, BarSeries, PerformanceMetrics } from '@vyuha/engine';

/**
 * The metrics of a run over `series`; undefined when no day was traded.
 * @example metricsOf(result, series)?.netPnl // the run's net P&L, paise
 */
export function metricsOf(result: BacktestResult, series: BarSeries): PerformanceMetrics | undefined {
  const first = result.days[0];
  const last = result.days[result.days.length - 1];
  if (first === undefined || last === undefined) return undefined;
  return computeMetrics({
    capital: result.config.capital,
    period: { from: first.date, to: last.date, tradingDays: result.days.map((day) => day.date) },
    days: result.days.map((day) => ({ date: day.date, netPnl: day.net, grossPnl: day.gross, charges: day.charges, orders: day.orders })),
    trades: result.trades.map((trade) => ({ entryTime: trade.entryTime, exitTime: trade.exitTime, netPnl: trade.net, charges: trade.charges })),
    equity: { times: series.time, equity: result.equity },
    barsInMarket: result.barsInMarket,
    totalBars: series.length,
    candlesProcessed: result.candlesProcessed,
  });
}
