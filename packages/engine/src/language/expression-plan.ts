import { IST_OFFSET_MS } from '@vyuha/core';
import type { BarSeries } from '../algorithm/program';
import { createIndicator, indicatorWarmup } from '../indicators/factory';
import type { Indicator } from '../indicators/indicator';
import type { BarField, CheckedNode } from './checked';
import { nodeKey } from './checked';
import type { MutableBar, Step } from './steps';
import {
  arithmeticStep, columnLookbackStep, comparisonStep, crossStep, fieldStep, logicalStep, mathStep, negateStep,
  notStep, positionStep, ringLookbackStep, timeStep,
} from './steps';
import { barIndicatorStep, BlockPaise, columnIndicatorStep, extremeStep, seriesIndicatorStep } from './window-steps';
import type { PaiseBlocks } from './window-steps';
import {
  arithmeticBlock, BLOCK_BARS, columnLookbackBlock, comparisonBlock, copyBlock, crossBlock, extremeBlock, fieldBlock, fusedLogicalBlock, indicatorBlock,
  mathBlock, negateBlock, notBlock, ringLookbackBlock, timeBlock,
} from './block-steps';
import type { BlockStep, LogicalTerm } from './block-steps';
import type { IndicatorCache } from './indicator-cache';
import type { BlockColumns } from './block-columns';

const MS_PER_MINUTE = 60_000;

/** The block form of a step whose work another step does inline (a chain's comparison). */
const NO_BLOCK_WORK: BlockStep = () => undefined;

/** What a step factory gets when a program is created: fresh slots, the series, the shared bar. */
export interface Runtime {
  readonly slots: Float64Array;
  readonly series: BarSeries;
  readonly bar: MutableBar;
  /** IST offset plus the bar interval: `time()` adds it to a bar's open time. */
  readonly timeOffsetMs: number;
}

/** Builds one step of a fresh program (each program owns its own indicator state). */
export type StepFactory = (runtime: Runtime) => Step;

/** What a block step factory gets: one column of BLOCK_BARS values per slot, the series. */
export interface BlockRuntime {
  readonly columns: readonly Float64Array[];
  readonly series: BarSeries;
  readonly timeOffsetMs: number;
  readonly generateCode: boolean;
  /** One BlockPaise per bar column, made when a step first asks: the program's grid SMAs of a column share it. */
  readonly paiseOf: (column: BarField) => BlockPaise;
  /** Whole-series indicator outputs shared with other programs over this series (a sweep's), when the caller passed a cache that covers it. */
  readonly indicators: IndicatorCache | undefined;
}

/** Builds one block step of a fresh program; undefined for a step that reads the position (no block form). */
export type BlockStepFactory = (runtime: BlockRuntime) => BlockStep;

/** A program's slots as columns and its steps over blocks (`ExpressionPlan.instantiateBlocks`). */
export interface BlockProgram {
  readonly columns: readonly Float64Array[];
  readonly expressionSteps: BlockStep[];
  readonly graphSteps: BlockStep[];
}

/** Options of `ExpressionPlan.instantiate`. */
export interface InstantiateOptions {
  /** Bar length in minutes, for `time()` (the bar's close = open + interval). Inferred from the series when absent. */
  readonly intervalMinutes?: number;
  /**
   * Default true: a compiled algorithm's per-bar work is generated as one function (`new
   * Function`, numbers only in its source; see algorithm/compile.ts). False runs the same steps
   * in plain loops (what happens anyway where a Content-Security-Policy forbids code generation).
   */
  readonly generateCode?: boolean;
  /**
   * Default true: rules that read no position are evaluated over column blocks (block-steps.ts).
   * False evaluates them bar by bar with the steps of steps.ts (the same values; tests compare them).
   */
  readonly blocks?: boolean;
  /**
   * Indicators of a bar column or of the whole bar, over blocks, are read from (or computed once
   * into) this cache when it covers the series: what a sweep's runs over one series share.
   */
  readonly indicators?: IndicatorCache;
  /**
   * The block form's columns, reused from the last program made with them (block-columns.ts):
   * what a sweep's runs over one series pass, one program at a time. Default: new columns.
   */
  readonly columns?: BlockColumns;
}

interface IndicatorInstance {
  readonly indicator: string;
  readonly parameters: readonly number[];
  readonly outputs: Array<readonly [number, number]>;
}

/** Smallest positive gap between consecutive bar times, in whole minutes; undefined when unknown. */
export function inferIntervalMinutes(series: BarSeries): number | undefined {
  let smallest = Number.POSITIVE_INFINITY;
  for (let index = 1; index < series.length; index += 1) {
    const gap = (series.time[index] as number) - (series.time[index - 1] as number);
    if (gap > 0 && gap < smallest) smallest = gap;
  }
  if (!Number.isFinite(smallest)) return undefined;
  return Math.max(1, Math.round(smallest / MS_PER_MINUTE));
}

/**
 * The compiled form of one or more checked expressions (and, for algorithms, the graph's own
 * nodes): a numbered list of slots, each computed by one step, in dependency order. Equal
 * subexpressions (same key) get one slot, so `sma(close, 10)` used twice is computed once.
 */
export class ExpressionPlan {
  private readonly slotByKey = new Map<string, number>();
  private readonly factories: Array<{ readonly phase: 'expression' | 'graph'; readonly create: StepFactory; readonly block: BlockStepFactory | undefined }> = [];
  private readonly constants: Array<readonly [number, number]> = [];
  private readonly indicators = new Map<string, IndicatorInstance>();
  private readonly warmups: number[] = [];
  /** One cross step per pair of operands: `left` is the first operand of its `over` slot. */
  private readonly crossPairs = new Map<string, { readonly left: number; readonly over: number; readonly under: number }>();
  private usesBar = false;
  private usesTime = false;
  private usesPosition = false;

  /** True when a step reads position state (`position`, `entry_price`, `bars_since_entry`, `day_pnl`). */
  get readsPosition(): boolean {
    return this.usesPosition;
  }

  get slotCount(): number {
    return this.warmups.length;
  }

  /** Bars needed before the slot's value is defined (0 for constants and position state). */
  warmupOf(slot: number): number {
    return this.warmups[slot] ?? 0;
  }

  /** Adds a node and its subtree; returns the slot holding its value. */
  add(node: CheckedNode): number {
    const key = nodeKey(node);
    const existing = this.slotByKey.get(key);
    if (existing !== undefined) return existing;
    const slot = this.addNode(node);
    this.slotByKey.set(key, slot);
    return slot;
  }

  /** Adds a graph step (and/or/not/hold) run after warm-up only, and its block form; returns its slot. */
  addGraphStep(warmup: number, create: (runtime: Runtime, slot: number) => Step, block: (runtime: BlockRuntime, slot: number) => BlockStep): number {
    const slot = this.allocate(warmup);
    this.factories.push({ phase: 'graph', create: (runtime) => create(runtime, slot), block: (runtime) => block(runtime, slot) });
    return slot;
  }

  private allocate(warmup: number): number {
    this.warmups.push(warmup);
    return this.warmups.length - 1;
  }

  private addStep(warmup: number, create: (runtime: Runtime, slot: number) => Step, block?: (runtime: BlockRuntime, slot: number) => BlockStep): number {
    const slot = this.allocate(warmup);
    this.factories.push({ phase: 'expression', create: (runtime) => create(runtime, slot), block: block === undefined ? undefined : (runtime) => block(runtime, slot) });
    return slot;
  }

  private addNode(node: CheckedNode): number {
    switch (node.kind) {
      case 'constant': {
        const slot = this.allocate(0);
        this.constants.push([slot, node.value]);
        return slot;
      }
      case 'field':
        return this.addStep(
          1,
          (runtime, slot) => fieldStep({ slots: runtime.slots, slot }, runtime.series[node.field]),
          (runtime, slot) => fieldBlock({ columns: runtime.columns, slot }, runtime.series[node.field]),
        );
      case 'position':
        this.usesPosition = true;
        return this.addStep(0, (runtime, slot) => positionStep({ slots: runtime.slots, slot }, node.field));
      case 'time':
        this.usesTime = true;
        return this.addStep(
          1,
          (runtime, slot) => timeStep({ slots: runtime.slots, slot }, runtime.series.time, runtime.timeOffsetMs),
          (runtime, slot) => timeBlock({ columns: runtime.columns, slot }, runtime.series.time, runtime.timeOffsetMs),
        );
      case 'lookback':
        return this.addLookback(node.target, node.bars);
      case 'negate':
      case 'not': {
        const operand = this.add(node.operand);
        const make = node.kind === 'negate' ? negateStep : notStep;
        const makeBlock = node.kind === 'negate' ? negateBlock : notBlock;
        return this.addStep(
          this.warmupOf(operand),
          (runtime, slot) => make({ slots: runtime.slots, slot }, operand),
          (runtime, slot) => makeBlock({ columns: runtime.columns, slot }, operand),
        );
      }
      case 'arithmetic':
      case 'comparison':
      case 'logical':
        return this.addBinary(node);
      case 'indicator':
        return this.addIndicator(node);
      case 'cross':
        return this.addCross(node.direction === 'over' ? [node.left, node.right] : [node.right, node.left]);
      case 'math': {
        const operands = node.operands.map((operand) => this.add(operand));
        const warmup = Math.max(0, ...operands.map((operand) => this.warmupOf(operand)));
        return this.addStep(
          warmup,
          (runtime, slot) => mathStep({ slots: runtime.slots, slot }, node.name, operands),
          (runtime, slot) => mathBlock({ columns: runtime.columns, slot }, node.name, operands),
        );
      }
      case 'extreme': {
        const source = this.add(node.input);
        const warmup = Math.max(1, this.warmupOf(source)) - 1 + node.bars;
        const direction = node.name === 'highest' ? 1 : -1;
        return this.addStep(
          warmup,
          (runtime, slot) => extremeStep({ slots: runtime.slots, slot }, { source, bars: node.bars, direction }),
          (runtime, slot) => extremeBlock({ columns: runtime.columns, slot }, { source, bars: node.bars, direction }),
        );
      }
    }
  }

  private addBinary(node: Extract<CheckedNode, { kind: 'arithmetic' | 'comparison' | 'logical' }>): number {
    if (node.kind === 'logical') return this.addLogical(node);
    const operands = [this.add(node.left), this.add(node.right)] as const;
    const warmup = Math.max(this.warmupOf(operands[0]), this.warmupOf(operands[1]));
    return this.addStep(
      warmup,
      (runtime, slot) => {
        const target = { slots: runtime.slots, slot };
        if (node.kind === 'arithmetic') return arithmeticStep(target, node.operator, operands);
        return comparisonStep(target, node.operator, operands);
      },
      (runtime, slot) => {
        const target = { columns: runtime.columns, slot };
        if (node.kind === 'arithmetic') return arithmeticBlock(target, node.operator, operands);
        return comparisonBlock(target, node.operator, operands);
      },
    );
  }

  /**
   * A chain of one logical operator (`a and b and c`, however nested) as one step over its
   * operands: the same 1/0 as the nested steps (`and` is 1 when no operand is 0, `or` when one is
   * not), one column per chain rather than one per operator.
   */
  private addLogical(node: Extract<CheckedNode, { kind: 'logical' }>): number {
    const leaves: CheckedNode[] = [];
    const collect = (part: CheckedNode): void => {
      if (part.kind === 'logical' && part.operator === node.operator) {
        collect(part.left);
        collect(part.right);
      } else {
        leaves.push(part);
      }
    };
    collect(node);
    const terms: LogicalTerm[] = [];
    const operands = leaves.map((leaf) => {
      if (leaf.kind !== 'comparison') {
        const slot = this.add(leaf);
        terms.push(slot);
        return slot;
      }
      // A comparison of this chain: a slot and step of its own for the per-bar steps (not shared
      // by key, so no other step reads it), no block work (the chain's block compares inline).
      const pair = [this.add(leaf.left), this.add(leaf.right)] as const;
      terms.push({ operator: leaf.operator, operands: pair });
      return this.addStep(
        Math.max(this.warmupOf(pair[0]), this.warmupOf(pair[1])),
        (runtime, slot) => comparisonStep({ slots: runtime.slots, slot }, leaf.operator, pair),
        () => NO_BLOCK_WORK,
      );
    });
    const warmup = Math.max(...operands.map((operand) => this.warmupOf(operand)));
    return this.addStep(
      warmup,
      (runtime, slot) => logicalStep({ slots: runtime.slots, slot }, node.operator, operands),
      (runtime, slot) => fusedLogicalBlock({ columns: runtime.columns, slot }, { operator: node.operator, terms, generateCode: runtime.generateCode }),
    );
  }

  /**
   * crossover(a, b) and crossover(b, a) (= crossunder(a, b)) read the same difference, so one
   * step keeps the memory for both and fills both slots.
   */
  private addCross(nodes: readonly [CheckedNode, CheckedNode]): number {
    const operands = [this.add(nodes[0]), this.add(nodes[1])] as const;
    const pairKey = `${Math.min(...operands)},${Math.max(...operands)}`;
    const existing = this.crossPairs.get(pairKey);
    if (existing === undefined) {
      const warmup = Math.max(1, this.warmupOf(operands[0]), this.warmupOf(operands[1])) + 1;
      const over = this.allocate(warmup);
      const under = this.allocate(warmup);
      const create: StepFactory = (runtime) => crossStep({ slots: runtime.slots, slot: over }, { operands, underSlot: under });
      const block: BlockStepFactory = (runtime) => crossBlock({ columns: runtime.columns, slot: over }, { operands, underSlot: under });
      this.factories.push({ phase: 'expression', create, block });
      this.crossPairs.set(pairKey, { left: operands[0], over, under });
      return over;
    }
    return existing.left === operands[0] ? existing.over : existing.under;
  }

  private addLookback(targetNode: CheckedNode, bars: number): number {
    if (targetNode.kind === 'field') {
      // A bar field's history is the series itself: read the column k bars back.
      const column = targetNode.field;
      return this.addStep(
        1 + bars,
        (runtime, slot) => columnLookbackStep({ slots: runtime.slots, slot }, runtime.series[column], bars),
        (runtime, slot) => columnLookbackBlock({ columns: runtime.columns, slot }, runtime.series[column], bars),
      );
    }
    const source = this.add(targetNode);
    const warmup = Math.max(1, this.warmupOf(source)) + bars;
    return this.addStep(
      warmup,
      (runtime, slot) => ringLookbackStep({ slots: runtime.slots, slot }, source, bars),
      (runtime, slot) => ringLookbackBlock({ columns: runtime.columns, slot }, source, bars),
    );
  }

  private addIndicator(node: Extract<CheckedNode, { kind: 'indicator' }>): number {
    // A bar field input is read straight from its column: no slot, no extra step.
    const column = node.input?.kind === 'field' ? node.input.field : undefined;
    const input = node.input === undefined || column !== undefined ? undefined : this.add(node.input);
    const fn = node.function;
    const instanceKey = `${fn.indicator}|${column ?? input ?? ''}|${node.parameters.join(',')}`;
    const ownWarmup = indicatorWarmup(fn.indicator, node.parameters);
    const warmup = input === undefined ? ownWarmup : Math.max(1, this.warmupOf(input)) - 1 + ownWarmup;
    const existing = this.indicators.get(instanceKey);
    if (existing !== undefined) {
      // Another output of an indicator already computed (macd_signal after macd): its step fills this slot too.
      const slot = this.allocate(warmup);
      existing.outputs.push([fn.output, slot]);
      return slot;
    }
    const instance: IndicatorInstance = { indicator: fn.indicator, parameters: node.parameters, outputs: [] };
    this.indicators.set(instanceKey, instance);
    if (node.input === undefined) this.usesBar = true;
    return this.addStep(
      warmup,
      (runtime, slot) => {
        const indicator: Indicator = createIndicator(instance.indicator, instance.parameters);
        const plan = { outputs: [[fn.output, slot] as const, ...instance.outputs] };
        if (column !== undefined) return columnIndicatorStep({ series: runtime.series, column, slots: runtime.slots }, indicator, plan);
        if (input === undefined) return barIndicatorStep({ slots: runtime.slots, bar: runtime.bar }, indicator, plan);
        return seriesIndicatorStep({ values: runtime.slots, source: input }, indicator, plan);
      },
      (runtime, slot) => {
        const outputs = [[fn.output, slot] as const, ...instance.outputs];
        const source = column !== undefined ? { kind: 'column' as const, values: runtime.series[column] } : input === undefined ? { kind: 'bar' as const } : { kind: 'slot' as const, slot: input };
        const options = { source, outputs, series: runtime.series, generateCode: runtime.generateCode };
        const make = (target: { readonly columns: readonly Float64Array[] }, sharedPaise: PaiseBlocks | undefined): BlockStep =>
          indicatorBlock(target, createIndicator(instance.indicator, instance.parameters), { ...options, sharedPaise });
        const indicators = runtime.indicators;
        if (indicators !== undefined && source.kind !== 'slot') {
          // Read from the series alone: computed once over the whole series for every program sharing the cache,
          // a column's SMAs from its paise, converted once for all of them (IndicatorCache.paiseOf).
          const keys = outputs.map(([output]) => `${instanceKey}|${output}`);
          const paise = column === undefined ? new BlockPaise() : indicators.paiseOf(runtime.series[column]);
          const length = runtime.series.length;
          const wholeSeries = indicators.outputs(keys, () => wholeSeriesOutputs(() => indicators.column(length), outputs, (target) => make(target, paise)));
          return copyBlock({ columns: runtime.columns }, outputs.map(([, outSlot], k) => [wholeSeries[k] as Float64Array, outSlot] as const));
        }
        return make({ columns: runtime.columns }, column !== undefined ? runtime.paiseOf(column) : undefined);
      },
    );
  }

  /** IST offset plus the bar interval, for `time()`. Throws when `time()` is used and the interval is unknown. */
  private timeOffsetMs(series: BarSeries, options: InstantiateOptions): number {
    if (!this.usesTime) return IST_OFFSET_MS;
    const interval = options.intervalMinutes ?? inferIntervalMinutes(series);
    if (interval === undefined || !(interval > 0)) {
      throw new Error('time() needs the bar interval: pass intervalMinutes, or a series of at least two bars');
    }
    return IST_OFFSET_MS + interval * MS_PER_MINUTE;
  }

  /**
   * The block form of a fresh program over `series` (one column of BLOCK_BARS values per slot);
   * undefined when a step reads the position (only per-bar steps can). Same values as `instantiate`.
   */
  instantiateBlocks(series: BarSeries, options: InstantiateOptions = {}): BlockProgram | undefined {
    if (this.factories.some((factory) => factory.block === undefined)) return undefined;
    const columns = options.columns?.take(this.slotCount) ?? Array.from({ length: this.slotCount }, () => new Float64Array(BLOCK_BARS));
    for (const [slot, value] of this.constants) (columns[slot] as Float64Array).fill(value);
    const paise = new Map<BarField, BlockPaise>();
    const paiseOf = (column: BarField): BlockPaise => paise.get(column) ?? (paise.set(column, new BlockPaise()).get(column) as BlockPaise);
    const indicators = options.indicators?.covers(series) === true ? options.indicators : undefined;
    const runtime: BlockRuntime = { columns, series, timeOffsetMs: this.timeOffsetMs(series, options), generateCode: options.generateCode !== false, paiseOf, indicators };
    const expressionSteps: BlockStep[] = [];
    const graphSteps: BlockStep[] = [];
    for (const factory of this.factories) (factory.phase === 'expression' ? expressionSteps : graphSteps).push((factory.block as BlockStepFactory)(runtime));
    return { columns, expressionSteps, graphSteps };
  }

  /** Fresh slots and steps for one run over `series`. Throws when `time()` is used and the interval is unknown. */
  instantiate(series: BarSeries, options: InstantiateOptions = {}): { slots: Float64Array; expressionSteps: Step[]; graphSteps: Step[] } {
    const slots = new Float64Array(this.slotCount);
    for (const [slot, value] of this.constants) slots[slot] = value;
    const bar: MutableBar = { time: 0, open: 0, high: 0, low: 0, close: 0, volume: 0 };
    const runtime: Runtime = { slots, series, bar, timeOffsetMs: this.timeOffsetMs(series, options) };
    const expressionSteps: Step[] = this.usesBar ? [barRefreshStep(bar, series)] : [];
    const graphSteps: Step[] = [];
    for (const factory of this.factories) (factory.phase === 'expression' ? expressionSteps : graphSteps).push(factory.create(runtime));
    return { slots, expressionSteps, graphSteps };
  }
}

/**
 * An indicator's outputs over the whole series (one column each, from `newColumn`: zeros, the
 * series' length): its block step (`make`) run over blocks of BLOCK_BARS from bar 0, writing at
 * each bar's own index.
 */
function wholeSeriesOutputs(
  newColumn: () => Float64Array,
  outputs: ReadonlyArray<readonly [number, number]>,
  make: (target: { readonly columns: readonly Float64Array[] }) => BlockStep,
): Float64Array[] {
  const wholeSeries = outputs.map(() => newColumn());
  const length = (wholeSeries[0] as Float64Array).length;
  const bySlot = new Map(outputs.map(([, slot], k) => [slot, wholeSeries[k] as Float64Array]));
  const unused = new Float64Array(0);
  const columns = Array.from({ length: Math.max(...outputs.map(([, slot]) => slot)) + 1 }, (_, slot) => bySlot.get(slot) ?? unused);
  const step = make({ columns });
  for (let start = 0; start < length; start += BLOCK_BARS) step(start, Math.min(length, start + BLOCK_BARS), 0);
  return wholeSeries;
}

function barRefreshStep(bar: MutableBar, series: BarSeries): Step {
  const { time, open, high, low, close, volume } = series;
  return (index) => {
    bar.time = time[index] as number;
    bar.open = open[index] as number;
    bar.high = high[index] as number;
    bar.low = low[index] as number;
    bar.close = close[index] as number;
    bar.volume = volume[index] as number;
  };
}
