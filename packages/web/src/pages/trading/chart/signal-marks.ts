// An algorithm's signals over chart candles, the pure part the worker runs: compile the saved
// graph with the engine, run its program over every bar in order and keep the bars where the
// signal changes what is held. The position follows the signals alone (buy -> long, sell ->
// short, exit -> flat); stops, targets and the intraday square-off belong to a backtest, not to
// the chart's markers, so a buy while long is not marked twice.
import { compileAlgorithm, formatAlgorithmError, SIGNAL_BUY, SIGNAL_EXIT, SIGNAL_SELL, type PositionContext } from '@vyuha/engine';
import { barSeriesOf, type ChartCandles, type SignalMark } from './chart-candles';

export type SignalsResult = { readonly ok: true; readonly signals: SignalMark[] } | { readonly ok: false; readonly error: string };

/** The saved graph may arrive as JSON text (algorithm_versions.graph read as a string) or as the object. */
function documentOf(graph: unknown): unknown {
  if (typeof graph !== 'string') return graph;
  try {
    return JSON.parse(graph) as unknown;
  } catch (error) {
    return { invalidJson: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Marks of `graph` over the candles.
 * @example signalMarks(crossoverGraph, candles) // { ok: true, signals: [{ time: ..., kind: 'buy' }, { time: ..., kind: 'sell' }] }
 */
export function signalMarks(graph: unknown, candles: ChartCandles): SignalsResult {
  const compiled = compileAlgorithm(documentOf(graph));
  if (!compiled.ok) return { ok: false, error: compiled.error.map(formatAlgorithmError).join('\n') };
  const series = barSeriesOf(candles);
  const program = compiled.value.createProgram(series);
  const position: PositionContext = { position: 0, entryPrice: Number.NaN, barsSinceEntry: Number.NaN, dayPnl: 0 };
  const signals: SignalMark[] = [];
  for (let index = 0; index < series.length; index += 1) {
    const signal = program.onBar(index, position);
    const held = position.position;
    if (signal === SIGNAL_EXIT && held !== 0) {
      signals.push({ time: series.time[index] as number, kind: 'exit' });
      position.position = 0;
      position.entryPrice = Number.NaN;
      position.barsSinceEntry = Number.NaN;
    } else if ((signal === SIGNAL_BUY && held <= 0) || (signal === SIGNAL_SELL && held >= 0)) {
      signals.push({ time: series.time[index] as number, kind: signal === SIGNAL_BUY ? 'buy' : 'sell' });
      position.position = signal === SIGNAL_BUY ? 1 : -1;
      position.entryPrice = series.close[index] as number;
      position.barsSinceEntry = 0;
    } else if (held !== 0) {
      position.barsSinceEntry += 1;
    }
  }
  return { ok: true, signals };
}
