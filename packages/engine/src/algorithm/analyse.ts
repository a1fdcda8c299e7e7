import type { Result } from '@vyuha/core';
import { err, ok } from '@vyuha/core';
import type { Expression } from '../language/ast';
import type { CheckedExpression } from '../language/checked';
import type { ExpressionError } from '../language/expression-error';
import { Checker } from '../language/checker';
import { ParameterTrace } from '../language/parameter-trace';
import type { TracedTree } from '../language/parameter-trace';
import { parseExpression } from '../language/parser';
import type { AlgorithmDocument, AlgorithmError, AlgorithmNode, AlgorithmNodeType, AlgorithmParameter } from './document';
import type { ParameterBindings, ParameterConstraint } from './parameters';
import { acceptedValues, brokenConstraints, checkBoundExpression, parameterConstraints, parameterValues, undeclaredParameters } from './parameters';
import { readAlgorithmShape } from './validate-shape';

/** A valid document with what compiling needs: each node's inputs, its checked expressions, an order. */
export interface AnalysedAlgorithm {
  readonly document: AlgorithmDocument;
  /** Input node ids of each node, in edge order. */
  readonly inputs: ReadonlyMap<string, readonly string[]>;
  /** Checked `expression` (conditions) and `until` (hold nodes) by node id. */
  readonly expressions: ReadonlyMap<string, CheckedExpression>;
  readonly untils: ReadonlyMap<string, CheckedExpression>;
  /** Node ids, every node after its inputs. */
  readonly order: readonly string[];
}

/** How many inputs each node type takes. */
const INPUTS: Readonly<Record<AlgorithmNodeType, { minimum: number; maximum: number; rule: string }>> = {
  condition: { minimum: 0, maximum: 0, rule: 'a condition takes no inputs: its expression is its input' },
  and: { minimum: 2, maximum: Number.POSITIVE_INFINITY, rule: 'an and node needs at least two inputs' },
  or: { minimum: 2, maximum: Number.POSITIVE_INFINITY, rule: 'an or node needs at least two inputs' },
  not: { minimum: 1, maximum: 1, rule: 'a not node takes exactly one input' },
  hold: { minimum: 1, maximum: 1, rule: 'a hold node takes exactly one input' },
  buy: { minimum: 1, maximum: 1, rule: 'a buy node takes exactly one input (join several with an and/or node)' },
  sell: { minimum: 1, maximum: 1, rule: 'a sell node takes exactly one input (join several with an and/or node)' },
  exit: { minimum: 1, maximum: 1, rule: 'an exit node takes exactly one input (join several with an and/or node)' },
};

const ACTIONS: ReadonlySet<AlgorithmNodeType> = new Set(['buy', 'sell', 'exit']);

class GraphChecker {
  readonly errors: AlgorithmError[] = [];
  readonly inputs = new Map<string, string[]>();
  readonly outputs = new Map<string, string[]>();
  readonly indexById = new Map<string, number>();

  /** `values`: each declared parameter's value for this compilation (`$name` -> number). */
  constructor(
    readonly document: AlgorithmDocument,
    private readonly values: ReadonlyMap<string, number>,
  ) {}

  checkIds(): void {
    this.document.nodes.forEach((node, index) => {
      const first = this.indexById.get(node.id);
      if (first !== undefined) {
        this.errors.push({ path: `nodes[${index}].id`, message: `duplicate node id '${node.id}' (also nodes[${first}])`, nodeId: node.id });
      } else {
        this.indexById.set(node.id, index);
        this.inputs.set(node.id, []);
        this.outputs.set(node.id, []);
      }
    });
  }

  checkEdges(): void {
    const edgeIds = new Map<string, number>();
    const pairs = new Set<string>();
    this.document.edges.forEach((edge, index) => {
      const path = `edges[${index}]`;
      const firstId = edgeIds.get(edge.id);
      if (firstId !== undefined) this.errors.push({ path: `${path}.id`, message: `duplicate edge id '${edge.id}' (also edges[${firstId}])` });
      edgeIds.set(edge.id, firstId ?? index);
      const source = this.node(edge.source);
      const target = this.node(edge.target);
      if (source === undefined) this.errors.push({ path: `${path}.source`, message: `no node '${edge.source}'` });
      if (target === undefined) this.errors.push({ path: `${path}.target`, message: `no node '${edge.target}'` });
      if (source === undefined || target === undefined) return;
      if (ACTIONS.has(source.type)) {
        this.errors.push({ path: `${path}.source`, message: `'${source.id}' is a ${source.type} node: actions have no outputs`, nodeId: source.id });
        return;
      }
      const pair = `${edge.source}\u0000${edge.target}`;
      if (pairs.has(pair)) {
        this.errors.push({ path, message: `a second edge from '${edge.source}' to '${edge.target}'`, nodeId: edge.target });
        return;
      }
      pairs.add(pair);
      this.inputs.get(edge.target)?.push(edge.source);
      this.outputs.get(edge.source)?.push(edge.target);
    });
  }

  checkInputCounts(): void {
    this.document.nodes.forEach((node, index) => {
      const count = this.inputs.get(node.id)?.length ?? 0;
      const { minimum, maximum, rule } = INPUTS[node.type];
      if (count < minimum || count > maximum) {
        this.errors.push({ path: `nodes[${index}]`, message: `${rule}; it has ${count}`, nodeId: node.id });
      }
    });
    if (!this.document.nodes.some((node) => ACTIONS.has(node.type))) {
      this.errors.push({ path: 'nodes', message: 'the algorithm has no buy, sell or exit node, so it can never act' });
    }
  }

  /** Depth-first order; a back edge is a cycle, reported once with its path. */
  order(): string[] {
    const state = new Map<string, 'visiting' | 'done'>();
    const order: string[] = [];
    const visit = (id: string, trail: string[]): void => {
      if (state.get(id) === 'done') return;
      if (state.get(id) === 'visiting') {
        const cycle = [...trail.slice(trail.indexOf(id)), id].join(' -> ');
        this.errors.push({ path: `nodes[${this.indexById.get(id) ?? 0}]`, message: `the graph has a cycle: ${cycle}`, nodeId: id });
        return;
      }
      state.set(id, 'visiting');
      for (const input of this.inputs.get(id) ?? []) visit(input, [...trail, id]);
      state.set(id, 'done');
      order.push(id);
    };
    for (const node of this.document.nodes) if (this.inputs.has(node.id)) visit(node.id, []);
    return order;
  }

  node(id: string): AlgorithmNode | undefined {
    const index = this.indexById.get(id);
    return index === undefined ? undefined : this.document.nodes[index];
  }

  /** The checks that read no parameter value (ids, edges, input counts, cycles); the nodes in order. */
  checkGraph(): string[] {
    this.checkIds();
    this.checkEdges();
    this.checkInputCounts();
    return this.order();
  }

  checkExpressions(): { expressions: Map<string, CheckedExpression>; untils: Map<string, CheckedExpression> } {
    const checked = { expressions: new Map<string, CheckedExpression>(), untils: new Map<string, CheckedExpression>() };
    for (const site of expressionSites(this.document)) this.checkOne(site, checked[site.into]);
    return checked;
  }

  /** Parses, binds each `$name` to its value (an undeclared one is an error) and checks the bound tree. */
  private checkOne(target: ExpressionSite, into: Map<string, CheckedExpression>): void {
    const parsed = parseExpression(target.source);
    const undeclared = parsed.ok ? undeclaredParameters(parsed.value, [...this.values.keys()]) : [parsed.error];
    const checked = !parsed.ok || undeclared.length > 0 ? err(undeclared) : checkBoundExpression(parsed.value, this.values);
    recordChecked(target, checked, { into, errors: this.errors });
  }
}

/** Where an expression sits in the document: its node, field (`expression`, `until`), text, node path, and the map its check goes to. */
interface ExpressionSite {
  readonly node: AlgorithmNode;
  readonly field: 'expression' | 'until';
  readonly source: string;
  readonly path: string;
  readonly into: 'expressions' | 'untils';
}

/** Every expression of the document, in node order: a condition's `expression`, a hold's `until`. */
function expressionSites(document: AlgorithmDocument): ExpressionSite[] {
  const sites: ExpressionSite[] = [];
  document.nodes.forEach((node, index) => {
    const path = `nodes[${index}]`;
    if (node.type === 'condition') sites.push({ node, field: 'expression', source: node.expression, path, into: 'expressions' });
    if (node.type === 'hold' && 'until' in node) sites.push({ node, field: 'until', source: node.until, path, into: 'untils' });
  });
  return sites;
}

/** A checked expression into `into` by its node id, or each of its errors with the site's path, node id, line and column. */
function recordChecked(site: ExpressionSite, checked: Result<CheckedExpression, readonly ExpressionError[]>, to: { into: Map<string, CheckedExpression>; errors: AlgorithmError[] }): void {
  if (checked.ok) {
    to.into.set(site.node.id, checked.value);
    return;
  }
  for (const error of checked.error) {
    to.errors.push({ path: `${site.path}.${site.field}`, message: error.message, nodeId: site.node.id, line: error.line, column: error.column });
  }
}

/** Options of an analysis: values bound to some of the document's parameters (the rest keep their defaults). */
export interface AnalyseOptions {
  readonly parameters?: ParameterBindings;
}

/** The parameters' values for this analysis (errors for bad bindings and broken constraints), the document's constraints read by `parameterConstraints`. */
function boundValues(document: AlgorithmDocument, constraints: Result<ParameterConstraint[], AlgorithmError[]>, bindings: ParameterBindings | undefined): { values: Map<string, number>; errors: AlgorithmError[] } {
  const parameters = document.parameters ?? [];
  const values = parameterValues(parameters, bindings);
  const errors = [...(values.ok ? [] : values.error), ...(constraints.ok ? [] : constraints.error)];
  if (values.ok && constraints.ok) errors.push(...brokenConstraints(constraints.value, parameters, values.value));
  const usable = (bound: unknown): bound is number => typeof bound === 'number' && Number.isFinite(bound);
  const fallback = new Map(parameters.map((parameter) => {
    const bound = bindings?.[parameter.name];
    return [parameter.name, usable(bound) ? bound : parameter.default];
  }));
  return { values: values.ok ? values.value : fallback, errors };
}

/**
 * Shape, parameters, graph and expressions; every error found, or the analysed graph. Each `$name`
 * is replaced by its value before the checker sees the expression, so a bound document analyses
 * exactly as the same document with the numbers written in.
 */
export function analyseAlgorithm(value: unknown, options: AnalyseOptions = {}): Result<AnalysedAlgorithm, AlgorithmError[]> {
  const shape = readAlgorithmShape(value);
  if (shape.document === undefined) return err(shape.errors);
  const bound = boundValues(shape.document, parameterConstraints(shape.document.parameters ?? [], shape.document.constraints ?? []), options.parameters);
  const checker = new GraphChecker(shape.document, bound.values);
  checker.errors.push(...bound.errors);
  const order = checker.checkGraph();
  const { expressions, untils } = checker.checkExpressions();
  if (checker.errors.length > 0) return err(checker.errors);
  return ok({ document: shape.document, inputs: checker.inputs, expressions, untils, order });
}

/**
 * Each expression checked once with the parameters' defaults, traced (language/parameter-trace.ts)
 * so that other values can be put in its tree; undefined when one fails that check or its trace
 * is tainted (a value folded into a constant, or one that decides the tree's shape).
 */
function tracedSites(parameters: readonly AlgorithmParameter[], sites: ReadonlyArray<{ site: ExpressionSite; parsed: Expression }>): Array<{ site: ExpressionSite; tree: TracedTree }> | undefined {
  const names = parameters.map((parameter) => parameter.name);
  const defaults = parameters.map((parameter) => parameter.default);
  const traced: Array<{ site: ExpressionSite; tree: TracedTree }> = [];
  for (const { site, parsed } of sites) {
    const trace = new ParameterTrace(names, defaults);
    const checker = new Checker(trace);
    // As checkBoundExpression's check: a condition, every error collected.
    const root = checker.check(parsed);
    if (root === undefined || root.type !== 'boolean' || checker.errors.length > 0 || trace.tainted) return undefined;
    traced.push({ site, tree: trace.ready(root) });
  }
  return traced;
}

/**
 * `analyseAlgorithm` of one document for many bindings (a sweep's combinations): what does not
 * depend on the values (the shape, the graph, each expression's parse, the constraints' parse) is
 * done once, and each call binds the values and checks the bound expressions. Each call returns
 * what `analyseAlgorithm(value, { parameters: bindings })` returns, errors in the same order; a
 * document with an error that no binding changes is analysed in full each time.
 *
 * Where every `$name` only fills a place in its expression's checked tree (an indicator's period,
 * a window's bars, a constant compared with a series), each expression is checked once and a
 * binding whose values the checks would accept gets those trees with its values put in (the same
 * trees: `parameters.test.ts` compares them); any other binding is checked as above, for its errors.
 */
export function algorithmAnalyser(value: unknown): (bindings: ParameterBindings | undefined) => Result<AnalysedAlgorithm, AlgorithmError[]> {
  const whole = (bindings: ParameterBindings | undefined): Result<AnalysedAlgorithm, AlgorithmError[]> => analyseAlgorithm(value, bindings === undefined ? {} : { parameters: bindings });
  const shape = readAlgorithmShape(value);
  const document = shape.document;
  if (document === undefined) return whole;
  const parameters = document.parameters ?? [];
  const declared = parameters.map((parameter) => parameter.name);
  // The graph's checks read no value: an empty map stands for the values here.
  const checker = new GraphChecker(document, new Map());
  const order = checker.checkGraph();
  const sites: Array<{ site: ExpressionSite; parsed: Expression }> = [];
  let unbound = checker.errors.length > 0;
  for (const site of expressionSites(document)) {
    const parsed = parseExpression(site.source);
    if (!parsed.ok || undeclaredParameters(parsed.value, declared).length > 0) unbound = true;
    else sites.push({ site, parsed: parsed.value });
  }
  if (unbound) return whole;
  const constraints = parameterConstraints(parameters, document.constraints ?? []);
  const traced = constraints.ok ? tracedSites(parameters, sites) : undefined;
  return (bindings) => {
    const values = traced === undefined || !constraints.ok ? undefined : acceptedValues(parameters, constraints.value, bindings);
    if (traced !== undefined && values !== undefined && traced.every(({ tree }) => tree.accepts(values))) {
      const checked = { expressions: new Map<string, CheckedExpression>(), untils: new Map<string, CheckedExpression>() };
      for (const { site, tree } of traced) checked[site.into].set(site.node.id, { root: tree.rebind(values), type: tree.root.type });
      return ok({ document, inputs: checker.inputs, expressions: checked.expressions, untils: checked.untils, order });
    }
    const bound = boundValues(document, constraints, bindings);
    const errors = [...bound.errors];
    const checked = { expressions: new Map<string, CheckedExpression>(), untils: new Map<string, CheckedExpression>() };
    for (const { site, parsed } of sites) recordChecked(site, checkBoundExpression(parsed, bound.values), { into: checked[site.into], errors });
    if (errors.length > 0) return err(errors);
    return ok({ document, inputs: checker.inputs, expressions: checked.expressions, untils: checked.untils, order });
  };
}
