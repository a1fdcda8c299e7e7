// Indicator groups (indicator_configs.indicators) and their values over chart candles.
//
// The saved shape, one entry per indicator (migration 0012 writes the built-in groups in it):
//   { "name": "ema", "parameters": [9], "pane": "price", "colors": ["#f59f00"], "outputs": [0] }
// - name: an indicator of the engine's factory (`indicatorNames()`: sma, ema, rsi, macd, bb, ...);
// - parameters: its numbers in the factory's order (ema: period; macd: fast, slow, signal);
// - pane: "price" draws over the candles, "own" gives the indicator a pane of its own below;
// - colors: CSS hex colours, one per drawn output (missing ones reuse the last);
// - outputs (optional): which outputs to draw, by index (macd: 0 line, 1 signal, 2 histogram;
//   supertrend: 0 line, 1 direction); all of them when left out.
// Series indicators read the close. Values are NaN while an indicator warms up.
import { createIndicator, INDICATOR_FUNCTIONS, indicatorNames, type IndicatorBar } from '@vyuha/engine';
import type { ChartCandles } from './chart-candles';

export type IndicatorPane = 'price' | 'own';

export interface IndicatorSpec {
  readonly name: string;
  readonly parameters: readonly number[];
  readonly pane: IndicatorPane;
  readonly colors: readonly string[];
  readonly outputs: readonly number[];
}

/** One drawn line: its values at every candle (NaN where not ready). */
export interface IndicatorLine {
  readonly label: string;
  readonly color: string;
  /** 0 for the price pane; indicators with their own pane get 1, 2, ... in group order. */
  readonly pane: number;
  readonly values: Float64Array;
}

const HEX_COLOUR = /^#[0-9a-fA-F]{6}$/;
const FALLBACK_COLOUR = '#228be6';

/** Output count and names of an indicator (stoch's hidden %K output is named after the indicator). */
function outputNames(name: string): string[] {
  const functions = INDICATOR_FUNCTIONS.filter((entry) => entry.indicator === name);
  const count = Math.max(1, ...functions.map((entry) => entry.output + 1));
  return Array.from({ length: count }, (_, output) => functions.find((entry) => entry.output === output)?.name ?? name);
}

function specError(index: number, message: string): string {
  return `indicators[${index}]: ${message}`;
}

function parseSpec(value: unknown, index: number): IndicatorSpec | string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return specError(index, 'expected an object');
  const entry = value as Record<string, unknown>;
  const { name, parameters, pane, colors, outputs } = entry;
  if (typeof name !== 'string' || !indicatorNames().includes(name)) return specError(index, `unknown indicator ${JSON.stringify(name)}; known: ${indicatorNames().join(', ')}`);
  if (!Array.isArray(parameters) || !parameters.every((parameter) => typeof parameter === 'number' && Number.isFinite(parameter))) {
    return specError(index, 'parameters must be a list of numbers');
  }
  try {
    createIndicator(name, parameters as number[]);
  } catch (error) {
    return specError(index, error instanceof Error ? error.message : String(error));
  }
  if (pane !== 'price' && pane !== 'own') return specError(index, 'pane must be "price" or "own"');
  const colours = colors === undefined ? [FALLBACK_COLOUR] : colors;
  if (!Array.isArray(colours) || colours.length === 0 || !colours.every((colour) => typeof colour === 'string' && HEX_COLOUR.test(colour))) {
    return specError(index, 'colors must be a non-empty list of #rrggbb colours');
  }
  const count = outputNames(name).length;
  const drawn = outputs === undefined ? Array.from({ length: count }, (_, output) => output) : outputs;
  if (!Array.isArray(drawn) || drawn.length === 0 || !drawn.every((output) => Number.isInteger(output) && (output as number) >= 0 && (output as number) < count)) {
    return specError(index, `outputs must be a non-empty list of output indexes below ${count}`);
  }
  return { name, parameters: parameters as number[], pane, colors: colours as string[], outputs: drawn as number[] };
}

/**
 * Reads a saved group's `indicators`: every entry valid, or every error.
 * @example parseIndicatorGroup([{ name: 'ema', parameters: [9], pane: 'price' }]) // { ok: true, indicators: [{ ..., colors: ['#228be6'], outputs: [0] }] }
 */
export function parseIndicatorGroup(indicators: unknown): { ok: true; indicators: IndicatorSpec[] } | { ok: false; errors: string[] } {
  if (!Array.isArray(indicators)) return { ok: false, errors: ['indicators must be a list'] };
  const parsed = indicators.map(parseSpec);
  const errors = parsed.filter((entry): entry is string => typeof entry === 'string');
  return errors.length > 0 ? { ok: false, errors } : { ok: true, indicators: parsed as IndicatorSpec[] };
}

/** The label of one output line. @example lineLabel(macdSpec, 1) // 'macd_signal(12, 26, 9)' */
export function lineLabel(spec: IndicatorSpec, output: number): string {
  const names = outputNames(spec.name);
  return `${names[output] ?? spec.name}(${spec.parameters.join(', ')})`;
}

/** How many panes a group needs besides the price pane. */
export function ownPaneCount(specs: readonly IndicatorSpec[]): number {
  return specs.filter((spec) => spec.pane === 'own').length;
}

/** Every drawn line of the group over the candles: one streaming pass per indicator. */
export function indicatorLines(specs: readonly IndicatorSpec[], candles: ChartCandles): IndicatorLine[] {
  const length = candles.time.length;
  const lines: IndicatorLine[] = [];
  let ownPane = 0;
  for (const spec of specs) {
    const pane = spec.pane === 'own' ? (ownPane += 1) : 0;
    const indicator = createIndicator(spec.name, spec.parameters);
    const columns = spec.outputs.map(() => new Float64Array(length));
    const bar: { time: number; open: number; high: number; low: number; close: number; volume: number } = { time: 0, open: 0, high: 0, low: 0, close: 0, volume: 0 };
    for (let i = 0; i < length; i += 1) {
      bar.time = candles.time[i] as number;
      bar.open = candles.open[i] as number;
      bar.high = candles.high[i] as number;
      bar.low = candles.low[i] as number;
      bar.close = candles.close[i] as number;
      bar.volume = candles.volume === undefined ? 0 : (candles.volume[i] as number);
      indicator.update(bar.close, bar as IndicatorBar);
      for (let k = 0; k < columns.length; k += 1) (columns[k] as Float64Array)[i] = indicator.output(spec.outputs[k] as number);
    }
    spec.outputs.forEach((output, k) => {
      lines.push({ label: lineLabel(spec, output), color: spec.colors[Math.min(k, spec.colors.length - 1)] as string, pane, values: columns[k] as Float64Array });
    });
  }
  return lines;
}
