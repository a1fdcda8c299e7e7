import type { CheckedNode } from './checked';

/*
 * Where the values of `$parameters` land in a checked tree, so that one check serves every
 * binding of a sweep (algorithm/analyse.ts `algorithmAnalyser`).
 *
 * A Checker given a trace checks each `$name` as a constant of the trace's value and records
 * where that constant goes: kept as a constant of the tree (`rsi(close, 14) < $level`), or read
 * as a constant argument (an indicator's period, a lookback's or a window's bars), with the bounds
 * the checker held it to. A value that the checker folds into another constant (`$a * 2`, `$a <
 * 3`), whose check could fail for another value (a divisor), or that decides the tree's shape (a
 * lookback of a constant) taints the trace: such a document is checked afresh for each binding.
 *
 * An untainted trace gives, for other values, the tree the checker would give for them, when the
 * values keep within the bounds recorded (`accepts`): the values only fill fields of nodes whose
 * shape no value changes.
 */

/** How the checker held a constant argument (Checker.checkConstant's options). */
export interface ArgumentBounds {
  readonly minimum: number;
  readonly maximum: number;
  readonly integer: boolean;
  /** A lookback of 0 bars is the value itself (no lookback node): such a value changes the tree. */
  readonly nonZero: boolean;
}

type ParameterConstant = Extract<CheckedNode, { kind: 'constant' }>;
type WithBars = Extract<CheckedNode, { kind: 'lookback' | 'extreme' }>;
type IndicatorNode = Extract<CheckedNode, { kind: 'indicator' }>;

/** One place a parameter's value goes: its index among the parameters the trace was made with. */
type Hole =
  | { readonly kind: 'constant'; readonly parameter: number }
  | { readonly kind: 'bars'; readonly parameter: number; readonly bounds: ArgumentBounds }
  | { readonly kind: 'indicator'; readonly parameters: ReadonlyArray<{ readonly index: number; readonly parameter: number; readonly bounds: ArgumentBounds }> };

export class ParameterTrace {
  /** Constants the checker made from a `$name`: their parameter's index. */
  private readonly fromParameter = new Map<ParameterConstant, number>();
  private readonly holes = new Map<CheckedNode, Hole>();
  private taint = false;

  /** `names` and `values`: the parameters in declaration order and the values checked with. */
  constructor(
    private readonly names: readonly string[],
    private readonly values: readonly number[],
  ) {}

  /** True when one check cannot serve other values. */
  get tainted(): boolean {
    return this.taint;
  }

  /** The constant a `$name` is checked as; undefined for an undeclared name. */
  constantOf(name: string): ParameterConstant | undefined {
    const parameter = this.names.indexOf(name);
    if (parameter < 0) return undefined;
    const node: ParameterConstant = { kind: 'constant', type: 'number', value: this.values[parameter] as number };
    this.fromParameter.set(node, parameter);
    return node;
  }

  /** The parameter whose `$name` made `node`, when it did. */
  parameterOf(node: CheckedNode): number | undefined {
    return node.kind === 'constant' ? this.fromParameter.get(node) : undefined;
  }

  /** The checker folded `operands` into a constant or checked a value it only knows for this binding: taints the trace when one came from a parameter. */
  folded(...operands: readonly CheckedNode[]): void {
    if (operands.some((operand) => this.parameterOf(operand) !== undefined)) this.taint = true;
  }

  /** A lookback's or window's bars, read from a parameter, are `node.bars`. */
  bars(node: WithBars, parameter: number, bounds: ArgumentBounds): void {
    this.holes.set(node, { kind: 'bars', parameter, bounds });
  }

  /** Parameters read as an indicator's constant arguments: `node.parameters[index]`. */
  indicator(node: IndicatorNode, parameters: ReadonlyArray<{ readonly index: number; readonly parameter: number; readonly bounds: ArgumentBounds }>): void {
    if (parameters.length > 0) this.holes.set(node, { kind: 'indicator', parameters });
  }

  /** A parameter's value read where it decides the tree's shape. */
  decidesShape(): void {
    this.taint = true;
  }

  /**
   * A checked tree made with this trace, readied for `rebind`: the parameter constants it keeps
   * become holes, and the nodes above any hole are marked to be rebuilt.
   */
  ready(root: CheckedNode): TracedTree {
    const rebuilt = new Set<CheckedNode>();
    const visit = (node: CheckedNode): boolean => {
      const parameter = this.parameterOf(node);
      if (parameter !== undefined) this.holes.set(node, { kind: 'constant', parameter });
      let below = this.holes.has(node);
      for (const child of childrenOf(node)) if (visit(child)) below = true;
      if (below) rebuilt.add(node);
      return below;
    };
    visit(root);
    return new TracedTree(root, rebuilt, this.holes);
  }
}

function childrenOf(node: CheckedNode): readonly CheckedNode[] {
  switch (node.kind) {
    case 'constant':
    case 'field':
    case 'position':
    case 'time':
      return [];
    case 'lookback':
      return [node.target];
    case 'negate':
    case 'not':
      return [node.operand];
    case 'arithmetic':
    case 'comparison':
    case 'logical':
    case 'cross':
      return [node.left, node.right];
    case 'indicator':
      return node.input === undefined ? [] : [node.input];
    case 'math':
      return node.operands;
    case 'extreme':
      return [node.input];
  }
}

function within(value: number, bounds: ArgumentBounds): boolean {
  if (bounds.integer && !Number.isInteger(value)) return false;
  if (bounds.nonZero && value === 0) return false;
  return value >= bounds.minimum && value <= bounds.maximum;
}

/** A checked tree whose parameter values can be replaced (ParameterTrace.ready). */
export class TracedTree {
  constructor(
    readonly root: CheckedNode,
    private readonly rebuilt: ReadonlySet<CheckedNode>,
    private readonly holes: ReadonlyMap<CheckedNode, Hole>,
  ) {}

  /** True when `values` (declaration order) keep within every bound the checker held them to. */
  accepts(values: ArrayLike<number>): boolean {
    for (const hole of this.holes.values()) {
      if (hole.kind === 'bars' && !within(values[hole.parameter] as number, hole.bounds)) return false;
      if (hole.kind === 'indicator') {
        for (const { parameter, bounds } of hole.parameters) if (!within(values[parameter] as number, bounds)) return false;
      }
    }
    return true;
  }

  /** The tree the checker gives with `values` bound (declaration order); only for values it `accepts`. */
  rebind(values: ArrayLike<number>): CheckedNode {
    return this.node(this.root, values);
  }

  private node(node: CheckedNode, values: ArrayLike<number>): CheckedNode {
    if (!this.rebuilt.has(node)) return node;
    const hole = this.holes.get(node);
    // The same literals as the checker's, field for field.
    switch (node.kind) {
      case 'constant':
        return hole?.kind === 'constant' ? { kind: 'constant', type: 'number', value: values[hole.parameter] as number } : node;
      case 'field':
      case 'position':
      case 'time':
        return node;
      case 'lookback':
        return { kind: 'lookback', type: node.type, target: this.node(node.target, values), bars: hole?.kind === 'bars' ? (values[hole.parameter] as number) : node.bars };
      case 'negate':
        return { kind: 'negate', type: 'number', operand: this.node(node.operand, values) };
      case 'not':
        return { kind: 'not', type: 'boolean', operand: this.node(node.operand, values) };
      case 'arithmetic':
        return { kind: 'arithmetic', type: 'number', operator: node.operator, left: this.node(node.left, values), right: this.node(node.right, values) };
      case 'comparison':
        return { kind: 'comparison', type: 'boolean', operator: node.operator, left: this.node(node.left, values), right: this.node(node.right, values) };
      case 'logical':
        return { kind: 'logical', type: 'boolean', operator: node.operator, left: this.node(node.left, values), right: this.node(node.right, values) };
      case 'indicator': {
        const parameters = [...node.parameters];
        if (hole?.kind === 'indicator') for (const { index, parameter } of hole.parameters) parameters[index] = values[parameter] as number;
        return { kind: 'indicator', type: 'number', function: node.function, input: node.input === undefined ? undefined : this.node(node.input, values), parameters };
      }
      case 'cross':
        return { kind: 'cross', type: 'boolean', direction: node.direction, left: this.node(node.left, values), right: this.node(node.right, values) };
      case 'math':
        return { kind: 'math', type: 'number', name: node.name, operands: node.operands.map((operand) => this.node(operand, values)) };
      case 'extreme':
        return { kind: 'extreme', type: 'number', name: node.name, input: this.node(node.input, values), bars: hole?.kind === 'bars' ? (values[hole.parameter] as number) : node.bars };
    }
  }
}
