import type { PositionContext } from '../algorithm/program';
import type { ArithmeticOperator, ComparisonOperator } from './ast';
import type { BarField, PositionField } from './checked';

/*
 * The evaluator's building blocks. A compiled program is a Float64Array of slots and a list of
 * steps run in order at every bar; each step reads earlier slots and writes its own. Steps are
 * closures specialised per operator (no switch, no Map, no allocation per bar), and every step
 * runs on every bar, so stateful ones (indicators, crosses, lookbacks) never miss a bar.
 */

/** One unit of per-bar work. */
export type Step = (index: number, position: PositionContext) => void;

/** Mutable bar handed to bar indicators: one object per program, refreshed each bar. */
export interface MutableBar {
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

/** Where a step reads and writes. */
export interface StepTarget {
  readonly slots: Float64Array;
  readonly slot: number;
}

/** A bar column read straight from the series. */
export function fieldStep(target: StepTarget, column: Float64Array): Step {
  const { slots, slot } = target;
  return (index) => {
    slots[slot] = column[index] as number;
  };
}

/** The column of a bar field. */
export function columnOf(series: Record<BarField, Float64Array>, field: BarField): Float64Array {
  return series[field];
}

/** `close[k]` with a column: no buffer needed, the series holds the history. */
export function columnLookbackStep(target: StepTarget, column: Float64Array, bars: number): Step {
  const { slots, slot } = target;
  return (index) => {
    slots[slot] = index >= bars ? (column[index - bars] as number) : Number.NaN;
  };
}

/** `x[k]` for a computed x: a ring of the last k + 1 values. */
export function ringLookbackStep(target: StepTarget, source: number, bars: number): Step {
  const { slots, slot } = target;
  const size = bars + 1;
  const ring = new Float64Array(size).fill(Number.NaN);
  let cursor = 0;
  return () => {
    ring[cursor] = slots[source] as number;
    cursor = cursor + 1 === size ? 0 : cursor + 1;
    // After the write and the advance, `cursor` holds the value written `bars` bars ago.
    slots[slot] = ring[cursor] as number;
  };
}

/** A position variable from the kernel's context. */
export function positionStep(target: StepTarget, field: PositionField): Step {
  const { slots, slot } = target;
  switch (field) {
    case 'position':
      return (_index, position) => {
        slots[slot] = position.position;
      };
    case 'entry_price':
      return (_index, position) => {
        slots[slot] = position.entryPrice;
      };
    case 'bars_since_entry':
      return (_index, position) => {
        slots[slot] = position.barsSinceEntry;
      };
    case 'day_pnl':
      return (_index, position) => {
        slots[slot] = position.dayPnl;
      };
  }
}

const MS_PER_DAY = 86_400_000;

/** `time()`: IST minute of day of the bar's close = open time + offset (IST offset + interval). */
export function timeStep(target: StepTarget, times: Float64Array, offsetMs: number): Step {
  const { slots, slot } = target;
  return (index) => {
    const shifted = ((((times[index] as number) + offsetMs) % MS_PER_DAY) + MS_PER_DAY) % MS_PER_DAY;
    slots[slot] = Math.floor(shifted / 60_000);
  };
}

/** Unary minus. */
export function negateStep(target: StepTarget, operand: number): Step {
  const { slots, slot } = target;
  return () => {
    slots[slot] = -(slots[operand] as number);
  };
}

/** Logical not of a 1/0 slot. */
export function notStep(target: StepTarget, operand: number): Step {
  const { slots, slot } = target;
  return () => {
    slots[slot] = slots[operand] === 0 ? 1 : 0;
  };
}

/**
 * `+ - * / %`; a result that is not finite is NaN, so division or remainder by zero gives NaN,
 * never Infinity (see operations.ts: `r - r === 0` holds exactly for finite r).
 */
export function arithmeticStep(target: StepTarget, operator: ArithmeticOperator, operands: readonly [number, number]): Step {
  const { slots, slot } = target;
  const [left, right] = operands;
  switch (operator) {
    case '+':
      return () => {
        const result = (slots[left] as number) + (slots[right] as number);
        slots[slot] = result - result === 0 ? result : Number.NaN;
      };
    case '-':
      return () => {
        const result = (slots[left] as number) - (slots[right] as number);
        slots[slot] = result - result === 0 ? result : Number.NaN;
      };
    case '*':
      return () => {
        const result = (slots[left] as number) * (slots[right] as number);
        slots[slot] = result - result === 0 ? result : Number.NaN;
      };
    case '/':
      return () => {
        const result = (slots[left] as number) / (slots[right] as number);
        slots[slot] = result - result === 0 ? result : Number.NaN;
      };
    case '%':
      return () => {
        const result = (slots[left] as number) % (slots[right] as number);
        slots[slot] = result - result === 0 ? result : Number.NaN;
      };
  }
}

/** Comparisons as 1/0; anything compared with NaN is 0 (`!=` included). */
export function comparisonStep(target: StepTarget, operator: ComparisonOperator, operands: readonly [number, number]): Step {
  const { slots, slot } = target;
  const [left, right] = operands;
  switch (operator) {
    case '>':
      return () => {
        slots[slot] = (slots[left] as number) > (slots[right] as number) ? 1 : 0;
      };
    case '>=':
      return () => {
        slots[slot] = (slots[left] as number) >= (slots[right] as number) ? 1 : 0;
      };
    case '<':
      return () => {
        slots[slot] = (slots[left] as number) < (slots[right] as number) ? 1 : 0;
      };
    case '<=':
      return () => {
        slots[slot] = (slots[left] as number) <= (slots[right] as number) ? 1 : 0;
      };
    case '==':
      return () => {
        slots[slot] = slots[left] === slots[right] ? 1 : 0;
      };
    case '!=':
      return () => {
        const a = slots[left] as number;
        const b = slots[right] as number;
        slots[slot] = a === a && b === b && a !== b ? 1 : 0;
      };
  }
}

/** `and` / `or` over 1/0 slots (also the graph's and/or nodes, with any number of inputs). */
export function logicalStep(target: StepTarget, operator: 'and' | 'or', operands: readonly number[]): Step {
  const { slots, slot } = target;
  const [first, second] = operands;
  if (operands.length === 2 && first !== undefined && second !== undefined) {
    return operator === 'and'
      ? () => {
          slots[slot] = slots[first] !== 0 && slots[second] !== 0 ? 1 : 0;
        }
      : () => {
          slots[slot] = slots[first] !== 0 || slots[second] !== 0 ? 1 : 0;
        };
  }
  const inputs = Int32Array.from(operands);
  const wanted = operator === 'and' ? 0 : 1;
  return () => {
    // `and` is false as soon as one input is 0; `or` is true as soon as one is not 0.
    let result = 1 - wanted;
    for (let k = 0; k < inputs.length; k += 1) {
      if ((slots[inputs[k] as number] !== 0 ? 1 : 0) === wanted) {
        result = wanted;
        break;
      }
    }
    slots[slot] = result;
  };
}

/**
 * crossover(a, b) into `slot` and crossover(b, a) (= crossunder(a, b)) into `underSlot`.
 * crossover(a, b) is 1 on a bar where a - b > 0 and the last non-zero a - b before it was < 0.
 * A zero difference (a touch) and a NaN difference (warm-up) leave the memory unchanged, so
 * touch-then-cross is a cross and touch-then-retreat is not.
 */
export function crossStep(target: StepTarget, options: { operands: readonly [number, number]; underSlot: number }): Step {
  const { slots, slot } = target;
  const { underSlot } = options;
  const [left, right] = options.operands;
  let lastSign = 0;
  return () => {
    const difference = (slots[left] as number) - (slots[right] as number);
    if (difference > 0) {
      slots[slot] = lastSign < 0 ? 1 : 0;
      slots[underSlot] = 0;
      lastSign = 1;
    } else if (difference < 0) {
      slots[slot] = 0;
      slots[underSlot] = lastSign > 0 ? 1 : 0;
      lastSign = -1;
    } else {
      slots[slot] = 0;
      slots[underSlot] = 0;
    }
  };
}

/** abs, min, max (NaN in, NaN out). */
export function mathStep(target: StepTarget, name: 'abs' | 'min' | 'max', operands: readonly number[]): Step {
  const { slots, slot } = target;
  const [first, second] = operands as [number, number];
  if (name === 'abs') {
    return () => {
      slots[slot] = Math.abs(slots[first] as number);
    };
  }
  const pick = name === 'min' ? Math.min : Math.max;
  if (operands.length === 2) {
    return () => {
      slots[slot] = pick(slots[first] as number, slots[second] as number);
    };
  }
  const inputs = Int32Array.from(operands);
  return () => {
    let result = slots[first] as number;
    for (let k = 1; k < inputs.length; k += 1) result = pick(result, slots[inputs[k] as number] as number);
    slots[slot] = result;
  };
}
