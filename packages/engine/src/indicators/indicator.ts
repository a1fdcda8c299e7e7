/**
 * The contract every streaming indicator keeps. An indicator is fed one bar at a time, in time
 * order, and does O(1) work per bar; it owns its warm-up: `ready` stays false (and every output
 * is NaN) until it has seen enough bars for the textbook definition to hold.
 */

/** The bar an indicator sees. Prices in rupees (index points), time in epoch milliseconds. */
export interface IndicatorBar {
  readonly time: number;
  readonly open: number;
  readonly high: number;
  readonly low: number;
  readonly close: number;
  readonly volume: number;
}

/** The bar columns a block of bars is read from (a BarSeries has them), indexed by bar. */
export interface IndicatorColumns {
  readonly time: Float64Array;
  readonly open: Float64Array;
  readonly high: Float64Array;
  readonly low: Float64Array;
  readonly close: Float64Array;
  readonly volume: Float64Array;
}

/** Where `Indicator.updateBlock` reads its bars and writes one output. */
export interface IndicatorBlock {
  readonly bars: IndicatorColumns;
  /** A series indicator's input: bar i's is `values[i - valuesOffset]` (bar indicators read `bars`). */
  readonly values: Float64Array;
  readonly valuesOffset: number;
  /** `output(output)` after bar i is written at `out[i - outOffset]`. */
  readonly out: Float64Array;
  readonly outOffset: number;
  readonly output: number;
}

export interface Indicator {
  /**
   * Feeds the next bar. `input` is the value of the series argument for series indicators
   * (`sma(close - open, 10)` passes close - open); bar indicators ignore it and read `bar`.
   */
  update(input: number, bar: IndicatorBar): void;
  /**
   * Optional: `update` then `output(block.output)` for bars start .. end - 1 in one loop, the same
   * operations in the same order (same outputs, same state after), without a bar object or a
   * call per bar. A series indicator skips a NaN input (its output NaN, its state unchanged), as
   * the per-bar feed does.
   */
  updateBlock?(block: IndicatorBlock, start: number, end: number): void;
  /** True once every output is defined. */
  readonly ready: boolean;
  /** Output `index` (0 is the main one) after the last update; NaN while warming up. */
  output(index: number): number;
}

/** `series`: the first argument is a numeric series (`sma(close, 10)`); `bar`: reads the bar (`atr(14)`). */
export type IndicatorInput = 'series' | 'bar';

export interface IndicatorParameter {
  readonly name: string;
  /** `integer` parameters must be whole numbers (periods, minutes). */
  readonly kind: 'integer' | 'number';
  readonly minimum: number;
  readonly maximum: number;
  /** When present the argument may be left out of a call. */
  readonly default?: number;
}

/** One function of the expression language that reads one output of one indicator. */
export interface IndicatorFunction {
  /** The name a trader writes: `sma`, `macd_signal`, `bb_upper`, ... */
  readonly name: string;
  /** The indicator computed (several functions share one: macd, macd_signal, macd_hist). */
  readonly indicator: string;
  readonly output: number;
  readonly input: IndicatorInput;
  /** Parameters after the series argument (for `series` indicators) or all of them (for `bar`). */
  readonly parameters: readonly IndicatorParameter[];
  /** One line for the editor's help. */
  readonly summary: string;
}
