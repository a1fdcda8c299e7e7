import type { Result } from '@vyuha/core';
import { err, ok } from '@vyuha/core';
import type { CheckedExpression, CheckedNode } from '../language/checked';
import type { InstantiateOptions } from '../language/expression-plan';
import { ExpressionPlan } from '../language/expression-plan';
import type { Step } from '../language/steps';
import { logicalStep, notStep } from '../language/steps';
import type { AnalysedAlgorithm } from './analyse';
import { analyseAlgorithm } from './analyse';
import type { AlgorithmDocument, AlgorithmError, AlgorithmNode, ExitRules } from './document';
import { holdCandlesStep, holdUntilStep } from './hold-steps';
import type { BarSeries, PositionContext, Signal, SignalProgram } from './program';
import { SIGNAL_BUY, SIGNAL_EXIT, SIGNAL_NONE, SIGNAL_SELL } from './program';

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
      return plan.addGraphStep(warmup, (runtime, slot) => logicalStep({ slots: runtime.slots, slot }, node.type as 'and' | 'or', inputs));
    case 'not':
      return plan.addGraphStep(warmup, (runtime, slot) => notStep({ slots: runtime.slots, slot }, inputs[0] as number));
    case 'hold': {
      const source = inputs[0] as number;
      if ('candles' in node) {
        const candles = node.candles;
        return plan.addGraphStep(warmup, (runtime, slot) => holdCandlesStep({ slots: runtime.slots, slot }, { source, candles }));
      }
      const until = plan.add(checkedRoot(analysed.untils, node.id));
      const holdWarmup = Math.max(warmup, plan.warmupOf(until));
      return plan.addGraphStep(holdWarmup, (runtime, slot) => holdUntilStep({ slots: runtime.slots, slot }, { source, until }));
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

function anyFired(slots: Float64Array, inputs: Int32Array): boolean {
  for (let k = 0; k < inputs.length; k += 1) if (slots[inputs[k] as number] !== 0) return true;
  return false;
}

function createProgram(graph: GraphPlan, series: BarSeries, options: InstantiateOptions): SignalProgram {
  const { slots, expressionSteps, graphSteps } = graph.plan.instantiate(series, options);
  const buy = Int32Array.from(graph.actions.buy);
  const sell = Int32Array.from(graph.actions.sell);
  const exit = Int32Array.from(graph.actions.exit);
  const warmup = graph.warmup;
  const firstLiveIndex = Math.max(0, warmup - 1);
  const fired = { buy: false, sell: false, exit: false };
  const run = (steps: Step[], index: number, position: PositionContext): void => {
    for (let k = 0; k < steps.length; k += 1) (steps[k] as Step)(index, position);
  };
  return {
    warmup,
    onBar(index: number, position: PositionContext): Signal {
      run(expressionSteps, index, position);
      // The rule graph starts once every condition an action reads is defined: before that all
      // its nodes are false and hold nodes keep no state, so warm-up NaNs can never fire or latch.
      if (index < firstLiveIndex) return SIGNAL_NONE;
      run(graphSteps, index, position);
      fired.buy = anyFired(slots, buy);
      fired.sell = anyFired(slots, sell);
      fired.exit = anyFired(slots, exit);
      return resolveSignal(fired, position.position);
    },
  };
}

/** Compiles a finished analysis. */
function compileAnalysed(analysed: AnalysedAlgorithm): CompiledAlgorithm {
  const graph = planGraph(analysed);
  return {
    document: analysed.document,
    warmup: graph.warmup,
    exits: analysed.document.exits ?? {},
    createProgram: (series, options = {}) => createProgram(graph, series, options),
  };
}

/**
 * Validates a document (shape, graph, expressions) and compiles it; on failure, every error with
 * its path, node id and, inside expressions, line and column.
 * @example compileAlgorithm(algorithmFromExpressions({ entry: 'close > open' })).ok // true
 */
export function compileAlgorithm(document: unknown): Result<CompiledAlgorithm, AlgorithmError[]> {
  const analysed = analyseAlgorithm(document);
  return analysed.ok ? ok(compileAnalysed(analysed.value)) : err(analysed.error);
}

/** Validates a document without compiling; the typed document or every error. */
export function validateAlgorithm(document: unknown): Result<AlgorithmDocument, AlgorithmError[]> {
  const analysed = analyseAlgorithm(document);
  return analysed.ok ? ok(analysed.value.document) : err(analysed.error);
}
