import type { Result } from '@vyuha/core';
import { err, ok } from '@vyuha/core';
import type { CheckedExpression, CheckedNode } from '../language/checked';
import type { BlockProgram, InstantiateOptions } from '../language/expression-plan';
import { ExpressionPlan } from '../language/expression-plan';
import type { Step } from '../language/steps';
import { logicalStep, notStep } from '../language/steps';
import type { BlockStep } from '../language/block-steps';
import { BLOCK_BARS, holdCandlesBlock, holdUntilBlock, logicalBlock, notBlock } from '../language/block-steps';
import type { AnalysedAlgorithm, AnalyseOptions } from './analyse';
import { algorithmAnalyser, analyseAlgorithm } from './analyse';
import type { AlgorithmDocument, AlgorithmError, AlgorithmNode, ExitRules } from './document';
import { holdCandlesStep, holdUntilStep } from './hold-steps';
import type { BarSeries, PositionContext, Signal, SignalProgram } from './program';
import { SIGNAL_BUY, SIGNAL_EXIT, SIGNAL_NONE, SIGNAL_SELL } from './program';
import type { ParameterBindings } from './parameters';

/** A checked algorithm, ready to run any number of times. */
export interface CompiledAlgorithm {
  readonly document: AlgorithmDocument;
  /** Bars needed before any action can fire (the largest warm-up of the conditions that reach an action). */
  readonly warmup: number;
  /** Stop-loss, target and trailing stop for the kernel, as the document gives them. */
  readonly exits: ExitRules;
  /** A fresh program (its own indicator state) over `series`. */
  createProgram(series: BarSeries, options?: InstantiateOptions): SignalProgram;
}

/**
 * Resolves the actions that fired on one bar into one signal.
 * - exit fired: EXIT when a position is open, otherwise NONE (an exit bar opens nothing);
 * - buy and sell both fired: the one that closes the open position (SELL when long, BUY when
 *   short); when flat, NONE (an ambiguous entry is no entry);
 * - otherwise the one that fired.
 */
export function resolveSignal(fired: { buy: boolean; sell: boolean; exit: boolean }, position: number): Signal {
  if (fired.exit) return position !== 0 ? SIGNAL_EXIT : SIGNAL_NONE;
  if (fired.buy && fired.sell) return position > 0 ? SIGNAL_SELL : position < 0 ? SIGNAL_BUY : SIGNAL_NONE;
  if (fired.buy) return SIGNAL_BUY;
  if (fired.sell) return SIGNAL_SELL;
  return SIGNAL_NONE;
}

/** Node ids an action depends on; nodes no action reads are not compiled at all. */
function reachableFromActions(analysed: AnalysedAlgorithm): Set<string> {
  const reached = new Set<string>();
  const visit = (id: string): void => {
    if (reached.has(id)) return;
    reached.add(id);
    for (const input of analysed.inputs.get(id) ?? []) visit(input);
  };
  for (const node of analysed.document.nodes) if (node.type === 'buy' || node.type === 'sell' || node.type === 'exit') visit(node.id);
  return reached;
}

interface GraphPlan {
  readonly plan: ExpressionPlan;
  readonly actions: { buy: number[]; sell: number[]; exit: number[] };
  readonly warmup: number;
}

function inputSlots(analysed: AnalysedAlgorithm, slotById: ReadonlyMap<string, number>, id: string): number[] {
  return (analysed.inputs.get(id) ?? []).map((input) => slotById.get(input) as number);
}

/** The checked expression the analysis stored for a node (present for every valid node). */
function checkedRoot(expressions: ReadonlyMap<string, CheckedExpression>, id: string): CheckedNode {
  const checked = expressions.get(id);
  if (checked === undefined) throw new Error(`internal: node '${id}' has no checked expression`);
  return checked.root;
}

function addNode(target: { analysed: AnalysedAlgorithm; plan: ExpressionPlan; slotById: Map<string, number> }, node: AlgorithmNode): number | undefined {
  const { analysed, plan, slotById } = target;
  const inputs = inputSlots(analysed, slotById, node.id);
  const warmup = Math.max(0, ...inputs.map((slot) => plan.warmupOf(slot)));
  switch (node.type) {
    case 'condition':
      return plan.add(checkedRoot(analysed.expressions, node.id));
    case 'and':
    case 'or':
      return plan.addGraphStep(
        warmup,
        (runtime, slot) => logicalStep({ slots: runtime.slots, slot }, node.type as 'and' | 'or', inputs),
        (runtime, slot) => logicalBlock({ columns: runtime.columns, slot }, node.type as 'and' | 'or', inputs),
      );
    case 'not':
      return plan.addGraphStep(
        warmup,
        (runtime, slot) => notStep({ slots: runtime.slots, slot }, inputs[0] as number),
        (runtime, slot) => notBlock({ columns: runtime.columns, slot }, inputs[0] as number),
      );
    case 'hold': {
      const source = inputs[0] as number;
      if ('candles' in node) {
        const candles = node.candles;
        return plan.addGraphStep(
          warmup,
          (runtime, slot) => holdCandlesStep({ slots: runtime.slots, slot }, { source, candles }),
          (runtime, slot) => holdCandlesBlock({ columns: runtime.columns, slot }, { source, candles }),
        );
      }
      const until = plan.add(checkedRoot(analysed.untils, node.id));
      const holdWarmup = Math.max(warmup, plan.warmupOf(until));
      return plan.addGraphStep(
        holdWarmup,
        (runtime, slot) => holdUntilStep({ slots: runtime.slots, slot }, { source, until }),
        (runtime, slot) => holdUntilBlock({ columns: runtime.columns, slot }, { source, until }),
      );
    }
    case 'buy':
    case 'sell':
    case 'exit':
      return undefined;
  }
}

function planGraph(analysed: AnalysedAlgorithm): GraphPlan {
  const plan = new ExpressionPlan();
  const slotById = new Map<string, number>();
  const reached = reachableFromActions(analysed);
  const nodes = new Map(analysed.document.nodes.map((node) => [node.id, node]));
  const actions = { buy: [] as number[], sell: [] as number[], exit: [] as number[] };
  let warmup = 0;
  for (const id of analysed.order) {
    const node = nodes.get(id);
    if (node === undefined || !reached.has(id)) continue;
    const slot = addNode({ analysed, plan, slotById }, node);
    if (slot !== undefined) {
      slotById.set(id, slot);
      continue;
    }
    const input = inputSlots(analysed, slotById, id)[0] as number;
    actions[node.type as 'buy' | 'sell' | 'exit'].push(input);
    warmup = Math.max(warmup, plan.warmupOf(input));
  }
  return { plan, actions, warmup };
}

// Which actions fired on a bar, as bits, so a precomputed bar is one byte.
const FIRED_BUY = 1;
const FIRED_SELL = 2;
const FIRED_EXIT = 4;
// Module-local copies of the signals, read on every bar: a transpiled import can be a getter call per read.
const BUY = SIGNAL_BUY;
const SELL = SIGNAL_SELL;
const EXIT = SIGNAL_EXIT;
const NONE = SIGNAL_NONE;

/** resolveSignal over the fired bits (same rules, no object). */
function resolveFired(fired: number, position: number): Signal {
  if ((fired & FIRED_EXIT) !== 0) return position !== 0 ? EXIT : NONE;
  const buy = (fired & FIRED_BUY) !== 0;
  const sell = (fired & FIRED_SELL) !== 0;
  if (buy && sell) return position > 0 ? SELL : position < 0 ? BUY : NONE;
  if (buy) return BUY;
  if (sell) return SELL;
  return NONE;
}

/** Evaluates the rule graph at bars `from` .. `to` - 1, writing each bar's fired bits into `fired[index - from]`. */
type RangeEvaluator = (fired: Uint8Array, range: { from: number; to: number }, position: PositionContext) => void;

/**
 * The program's per-bar work as one function. With code generation allowed it is generated by
 * `new Function`: the loop over bars, one call per step at its own call site (so the JIT inlines
 * the steps rather than making a megamorphic call per step per bar) and the fired bits as slot
 * tests. Only step parameter names (`s0`, `g1`), slot numbers and the warm-up index, all
 * numbers made here, reach the source; user text never does. Where code generation is refused
 * (a browser Content-Security-Policy without 'unsafe-eval') the same work runs as plain loops.
 */
function rangeEvaluator(graph: GraphPlan, series: BarSeries, options: InstantiateOptions): RangeEvaluator {
  const { slots, expressionSteps, graphSteps } = graph.plan.instantiate(series, options);
  const firstLiveIndex = Math.max(0, graph.warmup - 1);
  const generated = options.generateCode === false ? undefined : generatedRangeEvaluator({ slots, expressionSteps, graphSteps }, graph.actions, firstLiveIndex);
  if (generated !== undefined) return generated;
  const buy = Int32Array.from(graph.actions.buy);
  const sell = Int32Array.from(graph.actions.sell);
  const exit = Int32Array.from(graph.actions.exit);
  return (fired, range, position) => {
    const from = range.from;
    for (let index = from; index < range.to; index += 1) {
      runSteps(expressionSteps, index, position);
      // The rule graph starts once every condition an action reads is defined: before that all
      // its nodes are false and hold nodes keep no state, so warm-up NaNs can never fire or latch.
      if (index < firstLiveIndex) {
        fired[index - from] = 0;
        continue;
      }
      runSteps(graphSteps, index, position);
      fired[index - from] = (anyFired(slots, buy) ? FIRED_BUY : 0) | (anyFired(slots, sell) ? FIRED_SELL : 0) | (anyFired(slots, exit) ? FIRED_EXIT : 0);
    }
  };
}

/**
 * The block form of rangeEvaluator for rules that read no position: each step computes a block of
 * BLOCK_BARS bars as one loop over columns (language/block-steps.ts), then the fired bits of the
 * block are set from the action columns. Same bits as the per-bar evaluator: expression steps see
 * every bar, graph steps only bars from `firstLiveIndex` on, and bars before it fire nothing.
 */
function blockRangeEvaluator(program: BlockProgram, actions: GraphPlan['actions'], firstLiveIndex: number): RangeEvaluator {
  const { columns, expressionSteps, graphSteps } = program;
  const firing: Array<readonly [Float64Array, number]> = [
    ...actions.buy.map((slot) => [columns[slot] as Float64Array, FIRED_BUY] as const),
    ...actions.sell.map((slot) => [columns[slot] as Float64Array, FIRED_SELL] as const),
    ...actions.exit.map((slot) => [columns[slot] as Float64Array, FIRED_EXIT] as const),
  ];
  const block = { live: 0, end: 0, start: 0, firedFrom: 0 };
  // Two actions per pass over the block (a rule's entry and exit: one pass); an odd last one is paired with itself at bit 0.
  const pair: { values: Float64Array; bit: number; otherValues: Float64Array; otherBit: number; assign: boolean } = { values: new Float64Array(0), bit: 0, otherValues: new Float64Array(0), otherBit: 0, assign: true };
  return (fired, range) => {
    for (let start = range.from; start < range.to; start += BLOCK_BARS) {
      const end = Math.min(range.to, start + BLOCK_BARS);
      for (let k = 0; k < expressionSteps.length; k += 1) (expressionSteps[k] as BlockStep)(start, end, start);
      const live = Math.max(start, Math.min(end, firstLiveIndex));
      // Explicit loops: TypedArray fill over a range is a runtime call costing more than the loop.
      for (let index = start; index < live; index += 1) fired[index - range.from] = 0;
      if (live === end) continue;
      for (let k = 0; k < graphSteps.length; k += 1) (graphSteps[k] as BlockStep)(live, end, start);
      if (firing.length === 0) {
        for (let index = live; index < end; index += 1) fired[index - range.from] = 0;
        continue;
      }
      block.live = live;
      block.end = end;
      block.start = start;
      block.firedFrom = range.from;
      for (let action = 0; action < firing.length; action += 2) {
        const [values, bit] = firing[action] as readonly [Float64Array, number];
        const [otherValues, otherBit] = firing[action + 1] ?? [values, 0];
        pair.values = values;
        pair.bit = bit;
        pair.otherValues = otherValues;
        pair.otherBit = otherBit;
        pair.assign = action === 0;
        markFired(fired, pair, block);
      }
    }
  };
}

/**
 * Sets `bit` in `fired[i]` for the bars live .. end - 1 of a block whose action column is non-zero
 * (column index i - start), and `otherBit` where the other action's column is; `assign` (the
 * block's first pair) writes the bits, later pairs add theirs. Module level, not a closure, so its
 * loop stays optimised from one program to the next. No branch on the columns (a flag times the
 * bit): action columns of market data are unpredictable.
 */
function markFired(
  fired: Uint8Array,
  actions: { readonly values: Float64Array; readonly bit: number; readonly otherValues: Float64Array; readonly otherBit: number; readonly assign: boolean },
  block: { readonly live: number; readonly end: number; readonly start: number; readonly firedFrom: number },
): void {
  const { values, bit, otherValues, otherBit, assign } = actions;
  const { live, end, start, firedFrom } = block;
  const shift = start - firedFrom;
  if (assign) {
    for (let k = live - start; k < end - start; k += 1) fired[k + shift] = (+(values[k] !== 0) * bit) | (+(otherValues[k] !== 0) * otherBit);
    return;
  }
  for (let k = live - start; k < end - start; k += 1) fired[k + shift] = (fired[k + shift] as number) | (+(values[k] !== 0) * bit) | (+(otherValues[k] !== 0) * otherBit);
}

function runSteps(steps: readonly Step[], index: number, position: PositionContext): void {
  for (let k = 0; k < steps.length; k += 1) (steps[k] as Step)(index, position);
}

function anyFired(slots: Float64Array, inputs: Int32Array): boolean {
  for (let k = 0; k < inputs.length; k += 1) if (slots[inputs[k] as number] !== 0) return true;
  return false;
}

function slotTest(inputs: readonly number[]): string {
  return inputs.length === 0 ? 'false' : inputs.map((input) => `slots[${Math.trunc(input)}] !== 0`).join(' || ');
}

function generatedRangeEvaluator(
  parts: { slots: Float64Array; expressionSteps: readonly Step[]; graphSteps: readonly Step[] },
  actions: GraphPlan['actions'],
  firstLiveIndex: number,
): RangeEvaluator | undefined {
  const expressionNames = parts.expressionSteps.map((_step, k) => `s${k}`);
  const graphNames = parts.graphSteps.map((_step, k) => `g${k}`);
  const body = [
    'return function evaluateRange(fired, range, position) {',
    '  const from = range.from;',
    '  for (let index = from; index < range.to; index += 1) {',
    ...expressionNames.map((name) => `    ${name}(index, position);`),
    `    if (index < ${Math.trunc(firstLiveIndex)}) { fired[index - from] = 0; continue; }`,
    ...graphNames.map((name) => `    ${name}(index, position);`),
    `    fired[index - from] = ((${slotTest(actions.buy)}) ? ${FIRED_BUY} : 0) | ((${slotTest(actions.sell)}) ? ${FIRED_SELL} : 0) | ((${slotTest(actions.exit)}) ? ${FIRED_EXIT} : 0);`,
    '  }',
    '};',
  ].join('\n');
  try {
    // Code generation from numbers and fixed names only (see rangeEvaluator).
    const build = new Function('slots', ...expressionNames, ...graphNames, body) as (...parts: unknown[]) => RangeEvaluator;
    return build(parts.slots, ...parts.expressionSteps, ...parts.graphSteps);
  } catch {
    return undefined;
  }
}

/** Never read: a program that reads no position state is evaluated without one. */
const NO_POSITION: PositionContext = { position: 0, entryPrice: Number.NaN, barsSinceEntry: Number.NaN, dayPnl: 0 };

/**
 * A program whose rules read no position state: which actions fire on a bar depends on the bars
 * alone, so it is computed ahead, a block of BLOCK_BARS bars at a time, as the kernel advances
 * (the bars a backtest's series holds; bar by bar live as the series grows), and `onBar` only
 * resolves the fired bits against the position. Only the latest block's bits are kept: bars are
 * read in order (SignalProgram's contract), so memory stays one block whatever the series' length.
 * Signals are identical to evaluating at each close. `fired`: BLOCK_BARS bytes for those bits (a
 * sweep's BlockColumns hands the same bytes to each run's program).
 */
function precomputedProgram(evaluate: RangeEvaluator, series: BarSeries, program: { readonly warmup: number; readonly fired: Uint8Array }): SignalProgram {
  const { warmup, fired } = program;
  // The same bytes four at a time (BLOCK_BARS is a multiple of 4): nextSignalBar skips a word whole when none of its bytes can act.
  const words = new Uint32Array(fired.buffer);
  // The computed window: bits of bars from .. to - 1 are in fired[0 ..].
  const range = { from: 0, to: 0 };
  // The next window after `range.to`: at most BLOCK_BARS bars, those the series holds now (at least up to `atLeast`).
  const advance = (atLeast: number): void => {
    range.from = range.to;
    range.to = Math.min(range.from + BLOCK_BARS, Math.max(series.length, atLeast));
    evaluate(fired, range, NO_POSITION);
  };
  const inOrder = (index: number): void => {
    if (index < range.from) throw new RangeError(`bar ${index}: a program reads its bars in order, and bar ${range.from} was read already`);
  };
  return {
    warmup,
    onBar(index: number, position: PositionContext): Signal {
      inOrder(index);
      while (index >= range.to) advance(index + 1);
      const bits = fired[index - range.from] as number;
      return bits === 0 ? NONE : resolveFired(bits, position.position);
    },
    nextSignalBar(from: number, position: number, before = Number.POSITIVE_INFINITY): number {
      if (from >= before) return before;
      inOrder(from);
      while (from >= range.to) advance(from + 1);
      // An entry in the direction held does nothing (Trader.onSignal): the skip goes past it. The
      // bits that can act: long, a sell or an exit; short, a buy or an exit; flat, a buy or a sell
      // (an exit closes nothing, and both at once resolve to NONE). A byte without them resolves
      // to NONE or to the entry held; one with them, by resolveFired's rules, to NONE or a signal
      // that acts.
      const acting = position > 0 ? FIRED_SELL | FIRED_EXIT : position < 0 ? FIRED_BUY | FIRED_EXIT : FIRED_BUY | FIRED_SELL;
      const actingWord = acting * 0x01_01_01_01;
      let index = from;
      for (;;) {
        const end: number = range.to < before ? range.to : before;
        const base = range.from;
        // Most bars fire nothing that acts: four of them at a time while their bytes have none of those bits.
        let offset = index - base;
        const stop = end - base;
        while (offset < stop) {
          if ((offset & 3) === 0) {
            while (offset + 4 <= stop && ((words[offset >> 2] as number) & actingWord) === 0) offset += 4;
            if (offset === stop) break;
          }
          const bits = fired[offset] as number;
          if ((bits & acting) !== 0 && resolveFired(bits, position) !== NONE) return offset + base;
          offset += 1;
        }
        index = end;
        // The caller's bound: no block past it is computed, so onBar can still read any bar from it on.
        if (end === before) return before;
        // Bars not in the series yet (live: not closed yet) are never skipped.
        if (end >= series.length) return end;
        advance(end + 1);
      }
    },
  };
}

function createProgram(graph: GraphPlan, series: BarSeries, options: InstantiateOptions): SignalProgram {
  if (!graph.plan.readsPosition) {
    const blocks = options.blocks === false ? undefined : graph.plan.instantiateBlocks(series, options);
    const evaluate = blocks === undefined ? rangeEvaluator(graph, series, options) : blockRangeEvaluator(blocks, graph.actions, Math.max(0, graph.warmup - 1));
    return precomputedProgram(evaluate, series, { warmup: graph.warmup, fired: options.columns?.fired() ?? new Uint8Array(BLOCK_BARS) });
  }
  const evaluate = rangeEvaluator(graph, series, options);
  // Rules that read the position are evaluated at each close, with the kernel's position.
  const fired = new Uint8Array(1);
  const range = { from: 0, to: 0 };
  return {
    warmup: graph.warmup,
    onBar(index: number, position: PositionContext): Signal {
      range.from = index;
      range.to = index + 1;
      evaluate(fired, range, position);
      return resolveFired(fired[0] as number, position.position);
    },
  };
}

/** The exit rules of a document without any: one object, so that the algorithms compiled from one document share their `exits` (a sweep checks its runs' config once for them). */
const NO_EXITS: ExitRules = Object.freeze({});

/** Compiles a finished analysis. */
function compileAnalysed(analysed: AnalysedAlgorithm): CompiledAlgorithm {
  const graph = planGraph(analysed);
  return {
    document: analysed.document,
    warmup: graph.warmup,
    exits: analysed.document.exits ?? NO_EXITS,
    createProgram: (series, options = {}) => createProgram(graph, series, options),
  };
}

/**
 * Validates a document (shape, parameters, graph, expressions) and compiles it, each `$name` bound
 * to `options.parameters[name]` or its default; on failure, every error with its path, node id and,
 * inside expressions, line and column.
 * @example compileAlgorithm(algorithmFromExpressions({ entry: 'close > open' })).ok // true
 */
export function compileAlgorithm(document: unknown, options: AnalyseOptions = {}): Result<CompiledAlgorithm, AlgorithmError[]> {
  const analysed = analyseAlgorithm(document, options);
  return analysed.ok ? ok(compileAnalysed(analysed.value)) : err(analysed.error);
}

/**
 * `compileAlgorithm` of one document for many bindings (a sweep's combinations): the document is
 * read, its graph checked and its expressions parsed once (algorithmAnalyser); each call binds the
 * values, checks and compiles. Each call returns what `compileAlgorithm(document, { parameters: bindings })` returns.
 * @example const compile = algorithmCompiler(document); compile({ fast: 10 }).ok // true
 */
export function algorithmCompiler(document: unknown): (bindings?: ParameterBindings) => Result<CompiledAlgorithm, AlgorithmError[]> {
  const analyse = algorithmAnalyser(document);
  return (bindings) => {
    const analysed = analyse(bindings);
    return analysed.ok ? ok(compileAnalysed(analysed.value)) : err(analysed.error);
  };
}

/** Validates a document without compiling (parameters bound as in compileAlgorithm); the typed document or every error. */
export function validateAlgorithm(document: unknown, options: AnalyseOptions = {}): Result<AlgorithmDocument, AlgorithmError[]> {
  const analysed = analyseAlgorithm(document, options);
  return analysed.ok ? ok(analysed.value.document) : err(analysed.error);
}
