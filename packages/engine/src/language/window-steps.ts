import type { Indicator } from '../indicators/indicator';
import type { MutableBar, Step, StepTarget } from './steps';

/**
 * highest(x, n) / lowest(x, n) in O(1) amortised per bar: a monotonic deque of the window's
 * candidates (each value enters and leaves it once). Lowest runs the same code on -x. The result
 * is NaN until n values have been seen and while any NaN is inside the window.
 */
export function extremeStep(target: StepTarget, options: { source: number; bars: number; direction: 1 | -1 }): Step {
  const { slots, slot } = target;
  const { source, bars, direction } = options;
  const window = new Float64Array(bars);
  const dequeValues = new Float64Array(bars);
  const dequeBars = new Float64Array(bars);
  let head = 0;
  let length = 0;
  let seen = 0;
  let nanInWindow = 0;
  return () => {
    const value = direction * (slots[source] as number);
    const ringIndex = seen % bars;
    if (seen >= bars && window[ringIndex] !== window[ringIndex]) nanInWindow -= 1;
    window[ringIndex] = value;
    // Evict first, so the deque never holds more than `bars` entries.
    while (length > 0 && (dequeBars[head] as number) <= seen - bars) {
      head = (head + 1) % bars;
      length -= 1;
    }
    if (value !== value) {
      nanInWindow += 1;
    } else {
      // Drop candidates that can never again be the extreme: older and not larger.
      while (length > 0 && (dequeValues[(head + length - 1) % bars] as number) <= value) length -= 1;
      const tail = (head + length) % bars;
      dequeValues[tail] = value;
      dequeBars[tail] = seen;
      length += 1;
    }
    seen += 1;
    slots[slot] = seen < bars || nanInWindow > 0 || length === 0 ? Number.NaN : direction * (dequeValues[head] as number);
  };
}

/** Writes each used output of one indicator after feeding it the bar. */
export interface IndicatorOutputs {
  /** [output index, slot] pairs: several functions (macd, macd_signal) share one indicator. */
  readonly outputs: ReadonlyArray<readonly [number, number]>;
}

/**
 * Feeds a series indicator its input: `values[source]` (a slot), or with `source` -1 the bar
 * field column `values[index]`. Outputs go to slots. A NaN input (the input still warming up, or
 * a division by zero) is not fed: the indicator keeps its state and its outputs are NaN that bar.
 */
export function seriesIndicatorStep(target: { values: Float64Array; source: number; slots?: Float64Array }, indicator: Indicator, plan: IndicatorOutputs): Step {
  const { values, source } = target;
  const slots = target.slots ?? values;
  const outputs = plan.outputs;
  const bar: MutableBar = { time: 0, open: 0, high: 0, low: 0, close: 0, volume: 0 };
  const fromColumn = source < 0;
  if (outputs.length === 1) {
    const [output, slot] = outputs[0] as readonly [number, number];
    return (index) => {
      const input = values[fromColumn ? index : source] as number;
      if (input !== input) {
        slots[slot] = Number.NaN;
        return;
      }
      indicator.update(input, bar);
      slots[slot] = indicator.output(output);
    };
  }
  return (index) => {
    const input = values[fromColumn ? index : source] as number;
    const fed = input === input;
    if (fed) indicator.update(input, bar);
    for (let k = 0; k < outputs.length; k += 1) {
      const [output, slot] = outputs[k] as readonly [number, number];
      slots[slot] = fed ? indicator.output(output) : Number.NaN;
    }
  };
}

/** Feeds a bar indicator (atr, supertrend, vwap, ...) the current bar. */
export function barIndicatorStep(target: { slots: Float64Array; bar: MutableBar }, indicator: Indicator, plan: IndicatorOutputs): Step {
  const { slots, bar } = target;
  const outputs = plan.outputs;
  return () => {
    indicator.update(Number.NaN, bar);
    for (let k = 0; k < outputs.length; k += 1) {
      const [output, slot] = outputs[k] as readonly [number, number];
      slots[slot] = indicator.output(output);
    }
  };
}
