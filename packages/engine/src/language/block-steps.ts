import type { BarSeries } from '../algorithm/program';
import type { Indicator } from '../indicators/indicator';
import { SimpleMovingAverage } from '../indicators/moving-averages';
import type { ArithmeticOperator, ComparisonOperator } from './ast';
import type { BarField } from './checked';
import { GridSma, WindowExtreme, type PaiseBlocks } from './window-steps';
import type { MutableBar } from './steps';

/*
 * The evaluator's building blocks over column blocks: the same work as steps.ts, one block of bars
 * per call instead of one bar. A program whose rules read no position computes every slot as a
 * column of BLOCK_BARS values, one step after the other, so each step is one tight loop over
 * typed arrays (the JIT keeps the values in registers and calls nothing per bar).
 *
 * A block step `(start, end, base)` computes bars start .. end - 1 and writes bar i of its slot at
 * `columns[slot][i - base]`; its inputs are in the same block at the same offset. Stateful steps
 * (crosses, lookbacks, extremes, indicators, holds) keep their state between calls, so blocks must
 * come in bar order with no gap, as bars do. Every result is the same double the per-bar step
 * writes: the same operations on the same values in the same order.
 */

/** Bars per block: large enough that a call per block is nothing, small enough that a block's columns stay in cache. */
export const BLOCK_BARS = 2048;

/** One unit of block work: bars start .. end - 1, written at index `i - base` of the slot's column. */
export type BlockStep = (start: number, end: number, base: number) => void;

/** Where a block step reads and writes: one column per slot. */
export interface BlockTarget {
  readonly columns: readonly Float64Array[];
  readonly slot: number;
}

function column(target: BlockTarget, slot: number = target.slot): Float64Array {
  return target.columns[slot] as Float64Array;
}

/** A bar column read straight from the series. */
export function fieldBlock(target: BlockTarget, values: Float64Array): BlockStep {
  const out = column(target);
  return (start, end, base) => {
    for (let index = start; index < end; index += 1) out[index - base] = values[index] as number;
  };
}

/** `close[k]`: the column k bars back. */
export function columnLookbackBlock(target: BlockTarget, values: Float64Array, bars: number): BlockStep {
  const out = column(target);
  return (start, end, base) => {
    for (let index = start; index < end; index += 1) out[index - base] = index >= bars ? (values[index - bars] as number) : Number.NaN;
  };
}

/** `x[k]` for a computed x: a ring of the last k + 1 values, kept across blocks. */
export function ringLookbackBlock(target: BlockTarget, source: number, bars: number): BlockStep {
  const out = column(target);
  const input = column(target, source);
  const size = bars + 1;
  const ring = new Float64Array(size).fill(Number.NaN);
  let cursor = 0;
  return (start, end, base) => {
    for (let index = start; index < end; index += 1) {
      ring[cursor] = input[index - base] as number;
      cursor = cursor + 1 === size ? 0 : cursor + 1;
      out[index - base] = ring[cursor] as number;
    }
  };
}

const MS_PER_DAY = 86_400_000;

/** `time()`: IST minute of day of the bar's close. */
export function timeBlock(target: BlockTarget, times: Float64Array, offsetMs: number): BlockStep {
  const out = column(target);
  return (start, end, base) => {
    for (let index = start; index < end; index += 1) {
      const shifted = ((((times[index] as number) + offsetMs) % MS_PER_DAY) + MS_PER_DAY) % MS_PER_DAY;
      out[index - base] = Math.floor(shifted / 60_000);
    }
  };
}

export function negateBlock(target: BlockTarget, operand: number): BlockStep {
  const out = column(target);
  const input = column(target, operand);
  return (start, end, base) => {
    for (let k = start - base; k < end - base; k += 1) out[k] = -(input[k] as number);
  };
}

export function notBlock(target: BlockTarget, operand: number): BlockStep {
  const out = column(target);
  const input = column(target, operand);
  return (start, end, base) => {
    for (let k = start - base; k < end - base; k += 1) out[k] = +(input[k] === 0);
  };
}

/** `+ - * / %`; a result that is not finite is NaN (as arithmeticStep). */
export function arithmeticBlock(target: BlockTarget, operator: ArithmeticOperator, operands: readonly [number, number]): BlockStep {
  const out = column(target);
  const left = column(target, operands[0]);
  const right = column(target, operands[1]);
  switch (operator) {
    case '+':
      return (start, end, base) => {
        for (let k = start - base; k < end - base; k += 1) {
          const result = (left[k] as number) + (right[k] as number);
          out[k] = result - result === 0 ? result : Number.NaN;
        }
      };
    case '-':
      return (start, end, base) => {
        for (let k = start - base; k < end - base; k += 1) {
          const result = (left[k] as number) - (right[k] as number);
          out[k] = result - result === 0 ? result : Number.NaN;
        }
      };
    case '*':
      return (start, end, base) => {
        for (let k = start - base; k < end - base; k += 1) {
          const result = (left[k] as number) * (right[k] as number);
          out[k] = result - result === 0 ? result : Number.NaN;
        }
      };
    case '/':
      return (start, end, base) => {
        for (let k = start - base; k < end - base; k += 1) {
          const result = (left[k] as number) / (right[k] as number);
          out[k] = result - result === 0 ? result : Number.NaN;
        }
      };
    case '%':
      return (start, end, base) => {
        for (let k = start - base; k < end - base; k += 1) {
          const result = (left[k] as number) % (right[k] as number);
          out[k] = result - result === 0 ? result : Number.NaN;
        }
      };
  }
}

/**
 * Comparisons as 1/0; anything compared with NaN is 0 (as comparisonStep). The 1/0 is the
 * boolean as a number (`+(a > b)`), not `? 1 : 0`: the JIT compiles that to a flag, not a branch,
 * and a branch on market data is mispredicted about as often as it is taken (same values).
 */
export function comparisonBlock(target: BlockTarget, operator: ComparisonOperator, operands: readonly [number, number]): BlockStep {
  const out = column(target);
  const left = column(target, operands[0]);
  const right = column(target, operands[1]);
  switch (operator) {
    case '>':
      return (start, end, base) => {
        for (let k = start - base; k < end - base; k += 1) out[k] = +((left[k] as number) > (right[k] as number));
      };
    case '>=':
      return (start, end, base) => {
        for (let k = start - base; k < end - base; k += 1) out[k] = +((left[k] as number) >= (right[k] as number));
      };
    case '<':
      return (start, end, base) => {
        for (let k = start - base; k < end - base; k += 1) out[k] = +((left[k] as number) < (right[k] as number));
      };
    case '<=':
      return (start, end, base) => {
        for (let k = start - base; k < end - base; k += 1) out[k] = +((left[k] as number) <= (right[k] as number));
      };
    case '==':
      return (start, end, base) => {
        for (let k = start - base; k < end - base; k += 1) out[k] = +(left[k] === right[k]);
      };
    case '!=':
      return (start, end, base) => {
        for (let k = start - base; k < end - base; k += 1) {
          const a = left[k] as number;
          const b = right[k] as number;
          out[k] = +(a === a) & +(b === b) & +(a !== b);
        }
      };
  }
}

/**
 * `and` / `or` over 1/0 columns, any number of inputs (as logicalStep): one pass over up to four
 * inputs, then one per three more (a chain `a and b and c ...` is one step, see ExpressionPlan).
 */
export function logicalBlock(target: BlockTarget, operator: 'and' | 'or', operands: readonly number[]): BlockStep {
  const out = column(target);
  const inputs = operands.map((operand) => column(target, operand));
  if (inputs.length === 2) {
    const first = inputs[0] as Float64Array;
    const second = inputs[1] as Float64Array;
    return operator === 'and'
      ? (start, end, base) => {
          for (let k = start - base; k < end - base; k += 1) out[k] = +(first[k] !== 0) & +(second[k] !== 0);
        }
      : (start, end, base) => {
          for (let k = start - base; k < end - base; k += 1) out[k] = +(first[k] !== 0) | +(second[k] !== 0);
        };
  }
  // Inputs padded to 4 + 3m with a column of the identity (1 for `and`, 0 for `or`).
  const identity = new Float64Array(out.length).fill(operator === 'and' ? 1 : 0);
  const padded = [...inputs];
  while (padded.length < 4 || (padded.length - 4) % 3 !== 0) padded.push(identity);
  const combine = operator === 'and' ? andColumns : orColumns;
  return (start, end, base) => {
    const range = { from: start - base, to: end - base };
    combine(out, [padded[0] as Float64Array, padded[1] as Float64Array, padded[2] as Float64Array, padded[3] as Float64Array], range);
    for (let next = 4; next < padded.length; next += 3) combine(out, [out, padded[next] as Float64Array, padded[next + 1] as Float64Array, padded[next + 2] as Float64Array], range);
  };
}

/** out[k] = 1 when no input is 0 at k, else 0, for k in from .. to - 1 (module level: one optimised loop for every program). */
function andColumns(out: Float64Array, inputs: readonly [Float64Array, Float64Array, Float64Array, Float64Array], range: { readonly from: number; readonly to: number }): void {
  const [a, b, c, d] = inputs;
  for (let k = range.from; k < range.to; k += 1) out[k] = +(a[k] !== 0) & +(b[k] !== 0) & +(c[k] !== 0) & +(d[k] !== 0);
}

/** out[k] = 1 when some input is not 0 at k, else 0. */
function orColumns(out: Float64Array, inputs: readonly [Float64Array, Float64Array, Float64Array, Float64Array], range: { readonly from: number; readonly to: number }): void {
  const [a, b, c, d] = inputs;
  for (let k = range.from; k < range.to; k += 1) out[k] = +(a[k] !== 0) | +(b[k] !== 0) | +(c[k] !== 0) | +(d[k] !== 0);
}

/** A comparison an `and` / `or` chain computes inline: no column of its own in blocks. */
export interface ComparisonTerm {
  readonly operator: ComparisonOperator;
  readonly operands: readonly [number, number];
}

/** One operand of a fused chain: a slot read as true when not 0, or a comparison of two slots. */
export type LogicalTerm = number | ComparisonTerm;

/** Each comparison's source text over columns `l` and `r` at `k`: the same 1/0 as comparisonBlock. */
const COMPARISON_SOURCE: Readonly<Record<ComparisonOperator, (l: string, r: string) => string>> = {
  '>': (l, r) => `+(${l}[k] > ${r}[k])`,
  '>=': (l, r) => `+(${l}[k] >= ${r}[k])`,
  '<': (l, r) => `+(${l}[k] < ${r}[k])`,
  '<=': (l, r) => `+(${l}[k] <= ${r}[k])`,
  '==': (l, r) => `+(${l}[k] === ${r}[k])`,
  '!=': (l, r) => `(+(${l}[k] === ${l}[k]) & +(${r}[k] === ${r}[k]) & +(${l}[k] !== ${r}[k]))`,
};

type FusedBuilder = (columns: readonly Float64Array[]) => BlockStep;

/** Generated chain loops by shape (operator, term kinds), made once per process so programs share their optimised code. */
const fusedBuilders = new Map<string, FusedBuilder | null>();

function fusedBuilder(operator: 'and' | 'or', terms: readonly LogicalTerm[]): FusedBuilder | undefined {
  const shape = `${operator}|${terms.map((term) => (typeof term === 'number' ? 's' : term.operator)).join(',')}`;
  const known = fusedBuilders.get(shape);
  if (known !== undefined) return known ?? undefined;
  // Column 0 is the output; each term reads the next one or two columns, in order.
  let next = 1;
  const parts = terms.map((term) => {
    if (typeof term === 'number') {
      const name = `c${next}`;
      next += 1;
      return `+(${name}[k] !== 0)`;
    }
    const left = `c${next}`;
    const right = `c${next + 1}`;
    next += 2;
    return COMPARISON_SOURCE[term.operator](left, right);
  });
  const body = [
    '"use strict";',
    'const out = columns[0];',
    ...Array.from({ length: next - 1 }, (_unused, k) => `const c${k + 1} = columns[${k + 1}];`),
    'return function fusedChain(start, end, base) {',
    `  for (let k = start - base; k < end - base; k += 1) out[k] = ${parts.join(operator === 'and' ? ' & ' : ' | ')};`,
    '};',
  ].join('\n');
  let built: FusedBuilder | null = null;
  try {
    // Code generation from fixed text, operators of the closed ComparisonOperator set and small integers only (no user text).
    built = new Function('columns', body) as FusedBuilder;
  } catch {
    built = null;
  }
  fusedBuilders.set(shape, built);
  return built ?? undefined;
}

/**
 * An `and` / `or` chain whose comparisons are computed inline (ExpressionPlan gives such a
 * comparison a slot for the per-bar steps, but no block work): one pass over the block, the same
 * 1/0 as comparisonBlock then logicalBlock. Without code generation: one pass per term, each
 * comparison into a scratch column first.
 */
export function fusedLogicalBlock(target: BlockTarget, options: { readonly operator: 'and' | 'or'; readonly terms: readonly LogicalTerm[]; readonly generateCode: boolean }): BlockStep {
  const out = column(target);
  const { operator, terms } = options;
  const termColumns = terms.flatMap((term) => (typeof term === 'number' ? [column(target, term)] : term.operands.map((operand) => column(target, operand))));
  const builder = options.generateCode ? fusedBuilder(operator, terms) : undefined;
  if (builder !== undefined) return builder([out, ...termColumns]);
  const scratch = new Float64Array(out.length);
  const parts = terms.map((term) => {
    if (typeof term === 'number') return { values: column(target, term), compare: undefined };
    const columns = [scratch, column(target, term.operands[0]), column(target, term.operands[1])];
    return { values: scratch, compare: comparisonBlock({ columns, slot: 0 }, term.operator, [1, 2]) };
  });
  const identity = operator === 'and' ? 1 : 0;
  return (start, end, base) => {
    for (let k = start - base; k < end - base; k += 1) out[k] = identity;
    for (const part of parts) {
      part.compare?.(start, end, base);
      const values = part.values;
      if (operator === 'and') for (let k = start - base; k < end - base; k += 1) out[k] = +(out[k] !== 0) & +(values[k] !== 0);
      else for (let k = start - base; k < end - base; k += 1) out[k] = +(out[k] !== 0) | +(values[k] !== 0);
    }
  };
}

/** crossover into `slot`, crossunder into `underSlot`, one memory of the last non-zero difference (as crossStep). */
export function crossBlock(target: BlockTarget, options: { operands: readonly [number, number]; underSlot: number }): BlockStep {
  const over = column(target);
  const under = column(target, options.underSlot);
  const left = column(target, options.operands[0]);
  const right = column(target, options.operands[1]);
  let lastSign = 0;
  return (start, end, base) => {
    let sign = lastSign;
    // No branch on a crossing (a coin toss for the predictor): above and below are 0 or 1, never
    // both. A difference of 0 or NaN keeps the last sign; that choice is rare, so predicted, and
    // the next sign does not wait on the last (a multiply-add chain through every bar was 12%
    // slower on a block of SMAs).
    for (let k = start - base; k < end - base; k += 1) {
      const difference = (left[k] as number) - (right[k] as number);
      const above = +(difference > 0);
      const below = +(difference < 0);
      over[k] = above & +(sign < 0);
      under[k] = below & +(sign > 0);
      sign = (above | below) !== 0 ? above - below : sign;
    }
    lastSign = sign;
  };
}

/** abs, min, max (NaN in, NaN out; as mathStep). */
export function mathBlock(target: BlockTarget, name: 'abs' | 'min' | 'max', operands: readonly number[]): BlockStep {
  const out = column(target);
  const inputs = operands.map((operand) => column(target, operand));
  const first = inputs[0] as Float64Array;
  if (name === 'abs') {
    return (start, end, base) => {
      for (let k = start - base; k < end - base; k += 1) out[k] = Math.abs(first[k] as number);
    };
  }
  const pick = name === 'min' ? Math.min : Math.max;
  return (start, end, base) => {
    for (let k = start - base; k < end - base; k += 1) {
      let result = first[k] as number;
      for (let input = 1; input < inputs.length; input += 1) result = pick(result, (inputs[input] as Float64Array)[k] as number);
      out[k] = result;
    }
  };
}

/** highest / lowest over a window (WindowExtreme, kept across blocks). */
export function extremeBlock(target: BlockTarget, options: { source: number; bars: number; direction: 1 | -1 }): BlockStep {
  const out = column(target);
  const input = column(target, options.source);
  const extreme = new WindowExtreme(options.bars, options.direction);
  const range = { from: 0, to: 0 };
  return (start, end, base) => {
    range.from = start - base;
    range.to = end - base;
    extreme.pushBlock(input, range, out);
  };
}

/** Graph hold for N candles (as holdCandlesStep). */
export function holdCandlesBlock(target: BlockTarget, options: { source: number; candles: number }): BlockStep {
  const out = column(target);
  const input = column(target, options.source);
  const candles = options.candles;
  let barsSinceInput = Number.POSITIVE_INFINITY;
  return (start, end, base) => {
    for (let k = start - base; k < end - base; k += 1) {
      barsSinceInput = input[k] !== 0 ? 0 : barsSinceInput + 1;
      out[k] = barsSinceInput <= candles ? 1 : 0;
    }
  };
}

/** Graph hold until a condition (as holdUntilStep). */
export function holdUntilBlock(target: BlockTarget, options: { source: number; until: number }): BlockStep {
  const out = column(target);
  const input = column(target, options.source);
  const until = column(target, options.until);
  let held = false;
  return (start, end, base) => {
    for (let k = start - base; k < end - base; k += 1) {
      held = input[k] !== 0 || (held && until[k] === 0);
      out[k] = held ? 1 : 0;
    }
  };
}

/** Where an indicator's input comes from: a bar column of the series, another slot, or the whole bar. */
export type IndicatorSource =
  | { readonly kind: 'column'; readonly values: Float64Array }
  | { readonly kind: 'slot'; readonly slot: number }
  | { readonly kind: 'bar' };

/** What an indicator block step is built from. */
export interface IndicatorBlockOptions {
  readonly source: IndicatorSource;
  /** [output index, slot] pairs: several functions (macd, macd_signal) share one indicator. */
  readonly outputs: ReadonlyArray<readonly [number, number]>;
  readonly series: BarSeries;
  /** False where code generation is refused: the same loop as a plain closure. */
  readonly generateCode: boolean;
  /** A column's paise per block, shared by the program's grid SMAs of that column (an `sma` of a column uses it). */
  readonly sharedPaise?: PaiseBlocks | undefined;
}

type IndicatorLoop = (start: number, end: number, base: number) => void;

/** A generated feeding loop: the indicator, its input column, the bar columns and the output columns as arguments. */
type GeneratedFeed = (
  indicator: Indicator,
  io: { readonly values: Float64Array; readonly series: BarSeries; readonly outs: readonly Float64Array[] },
  range: { start: number; end: number; base: number },
) => void;

/**
 * Generated loops by indicator class and shape (input kind, output indices), made once per
 * process: a program is often run once over a long series, and a loop generated for it alone
 * would spend its whole run warming up in the JIT. Keyed by the class, so each loop's calls to
 * `update` and `output` see one class and are inlined.
 */
const generatedFeeds = new WeakMap<object, Map<string, GeneratedFeed | null>>();

function generatedFeed(indicator: Indicator, shape: { readonly source: IndicatorSource['kind']; readonly outputIndex: readonly number[] }): GeneratedFeed | undefined {
  const byShape = generatedFeeds.get(indicator.constructor) ?? new Map<string, GeneratedFeed | null>();
  generatedFeeds.set(indicator.constructor, byShape);
  const key = `${shape.source}|${shape.outputIndex.join(',')}`;
  const known = byShape.get(key);
  if (known !== undefined) return known ?? undefined;
  const { source, outputIndex } = shape;
  const isBar = source === 'bar';
  const read = source === 'column' ? 'values[index]' : source === 'slot' ? 'values[index - base]' : 'NaN';
  const outs = outputIndex.map((_output, k) => `out${k}`);
  const body = [
    '"use strict";',
    'const start = range.start, end = range.end, base = range.base;',
    'const values = io.values, series = io.series, outs = io.outs;',
    'const time = series.time, open = series.open, high = series.high, low = series.low, close = series.close, volume = series.volume;',
    ...outs.map((name, k) => `const ${name} = outs[${k}];`),
    'const bar = { time: 0, open: 0, high: 0, low: 0, close: 0, volume: 0 };',
    'for (let index = start; index < end; index += 1) {',
    ...(isBar
      ? ['  bar.time = time[index]; bar.open = open[index]; bar.high = high[index]; bar.low = low[index]; bar.close = close[index]; bar.volume = volume[index];']
      : [`  const input = ${read};`, `  if (input !== input) { ${outs.map((name) => `${name}[index - base] = NaN;`).join(' ')} continue; }`]),
    `  indicator.update(${isBar ? 'NaN' : 'input'}, bar);`,
    ...outs.map((name, k) => `  ${name}[index - base] = indicator.output(${Math.trunc(outputIndex[k] as number)});`),
    '}',
  ].join('\n');
  let built: GeneratedFeed | null = null;
  try {
    // Code generation from fixed text and small integers only (no user text).
    built = new Function('indicator', 'io', 'range', body) as GeneratedFeed;
  } catch {
    built = null;
  }
  byShape.set(key, built);
  return built ?? undefined;
}

/**
 * The loop that feeds one indicator a block. A series indicator skips a NaN input (its outputs are
 * NaN that bar, its state unchanged); a bar indicator is fed every bar (a fresh bar object per
 * block, filled from the series). The indicator's own loop when it has one (Indicator.updateBlock)
 * and one output is read; otherwise a generated loop per class (generatedFeed) where code
 * generation is allowed, the same loop as a plain closure where it is not.
 */
function indicatorLoop(indicator: Indicator, options: IndicatorBlockOptions, columns: readonly Float64Array[]): IndicatorLoop {
  const { source, outputs, series } = options;
  const outs = outputs.map(([, slot]) => columns[slot] as Float64Array);
  const outputIndex = outputs.map(([output]) => Math.trunc(output));
  const values = source.kind === 'column' ? source.values : source.kind === 'slot' ? (columns[source.slot] as Float64Array) : new Float64Array(0);
  const isBar = source.kind === 'bar';
  if (outs.length === 1 && indicator.updateBlock !== undefined) {
    const block = { bars: series, values, valuesOffset: 0, out: outs[0] as Float64Array, outOffset: 0, output: outputIndex[0] as number };
    const fromSlot = source.kind === 'slot';
    return (start, end, base) => {
      block.valuesOffset = fromSlot ? base : 0;
      block.outOffset = base;
      indicator.updateBlock?.(block, start, end);
    };
  }
  const generated = options.generateCode ? generatedFeed(indicator, { source: source.kind, outputIndex }) : undefined;
  if (generated !== undefined) {
    const range = { start: 0, end: 0, base: 0 };
    const io = { values, series, outs };
    return (start, end, base) => {
      range.start = start;
      range.end = end;
      range.base = base;
      generated(indicator, io, range);
    };
  }
  const bar: MutableBar = { time: 0, open: 0, high: 0, low: 0, close: 0, volume: 0 };
  return (start, end, base) => {
    for (let index = start; index < end; index += 1) {
      if (isBar) {
        bar.time = series.time[index] as number;
        bar.open = series.open[index] as number;
        bar.high = series.high[index] as number;
        bar.low = series.low[index] as number;
        bar.close = series.close[index] as number;
        bar.volume = series.volume[index] as number;
        indicator.update(Number.NaN, bar);
      } else {
        const input = (source.kind === 'column' ? values[index] : values[index - base]) as number;
        if (input !== input) {
          for (const out of outs) out[index - base] = Number.NaN;
          continue;
        }
        indicator.update(input, bar);
      }
      for (let k = 0; k < outs.length; k += 1) (outs[k] as Float64Array)[index - base] = indicator.output(outputIndex[k] as number);
    }
  };
}

/**
 * One indicator over a block. `sma` of a bar column with one output first runs the exact integer
 * grid sum (GridSma, as columnIndicatorStep does); at the first value off the grid the indicator
 * takes over in the state a bar-by-bar run would have left it in.
 */
export function indicatorBlock(target: { readonly columns: readonly Float64Array[] }, indicator: Indicator, options: IndicatorBlockOptions): BlockStep {
  const feed = indicatorLoop(indicator, options, target.columns);
  const { source, outputs } = options;
  let gridSma = source.kind === 'column' && outputs.length === 1 && indicator instanceof SimpleMovingAverage ? new GridSma(indicator.period) : undefined;
  if (gridSma === undefined || source.kind !== 'column') return feed;
  const values = source.values;
  const out = target.columns[(outputs[0] as readonly [number, number])[1]] as Float64Array;
  const bar: MutableBar = { time: 0, open: 0, high: 0, low: 0, close: 0, volume: 0 };
  return (start, end, base) => {
    let from = start;
    if (gridSma !== undefined) {
      from = gridSma.run(values, { out, blockStart: start, end, outOffset: start - base, shared: options.sharedPaise });
      if (from < end) {
        const tail = Math.min(from, gridSma.period + (from % gridSma.period));
        for (let index = from - tail; index < from; index += 1) indicator.update(values[index] as number, bar);
        gridSma = undefined;
      }
    }
    if (from < end) feed(from, end, base);
  };
}

/** Copies each [whole-series column, slot] pair's bars into the slot's block (an indicator computed once, IndicatorCache). */
export function copyBlock(target: { readonly columns: readonly Float64Array[] }, sources: ReadonlyArray<readonly [Float64Array, number]>): BlockStep {
  const pairs = sources.map(([values, slot]) => [values, target.columns[slot] as Float64Array] as const);
  return (start, end, base) => {
    for (const [values, out] of pairs) out.set(values.subarray(start, end), start - base);
  };
}

/** Which bar column a field reads. */
export function seriesColumn(series: BarSeries, field: BarField): Float64Array {
  return series[field];
}
