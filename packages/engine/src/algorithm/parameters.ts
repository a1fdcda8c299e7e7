import type { Result } from '@vyuha/core';
import { err, ok } from '@vyuha/core';
import type { Expression } from '../language/ast';
import type { CheckedExpression } from '../language/checked';
import { checkExpression } from '../language/checker';
import type { ExpressionError } from '../language/expression-error';
import { arithmetic, compare } from '../language/operations';
import { bindParameters, parameterReferences } from '../language/parameters';
import { parseExpression } from '../language/parser';
import { didYouMean } from '../language/suggest';
import type { AlgorithmError, AlgorithmParameter } from './document';
import { gridValue, isOnGrid } from './parameter-grid-values';

/*
 * The values an algorithm's `$name`s take, and its constraints.
 *
 * - Values: each declared parameter's default, replaced by the bound value where one is given. A
 *   bound value must be a finite number on the parameter's grid (inside from..to, a whole number of
 *   steps from `from`); a binding for an undeclared name is an error. Whether a value suits the
 *   place it is used (a whole indicator period) is the checker's call, after binding.
 * - Constraints: conditions over `$parameters`, numbers, arithmetic, comparisons, and/or/not and
 *   abs/min/max only. They are type-checked with the defaults bound and evaluated with the
 *   language's own value rules (operations.ts), so a constraint dividing by zero is simply false.
 */

/** Values for some of an algorithm's parameters, by name (without `$`). */
export type ParameterBindings = Readonly<Record<string, number>>;

/** A checked constraint, evaluated over values in the order of the declared parameters. */
export interface ParameterConstraint {
  /** Its index in the document's `constraints`. */
  readonly index: number;
  readonly source: string;
  /** The declared parameters it reads (indices into the declaration order). */
  readonly reads: readonly number[];
  /** True when the values (one per declared parameter, declaration order) satisfy it. */
  holds(values: ArrayLike<number>): boolean;
}

const CONSTRAINT_FUNCTIONS: ReadonlySet<string> = new Set(['abs', 'min', 'max']);

/** How a set of values reads in a message. @example describeValues(new Map([['fast', 10]])) // '$fast = 10' */
export function describeValues(values: ReadonlyMap<string, number>): string {
  return [...values].map(([name, value]) => `$${name} = ${value}`).join(', ');
}

function gridText(parameter: AlgorithmParameter): string {
  return `${parameter.from} to ${parameter.to} by ${parameter.step}`;
}

/**
 * Defaults overridden by `bindings`, or every problem: an undeclared name, a value that is not a
 * finite number, outside from..to, or off the step grid.
 * @example parameterValues([{ name: 'fast', default: 10, from: 5, to: 20, step: 5 }], { fast: 15 }).ok // true
 */
export function parameterValues(parameters: readonly AlgorithmParameter[], bindings: ParameterBindings = {}): Result<Map<string, number>, AlgorithmError[]> {
  const errors: AlgorithmError[] = [];
  const values = new Map<string, number>();
  const declared = parameters.map((parameter) => parameter.name);
  for (const name of Object.keys(bindings)) {
    if (!declared.includes(name)) {
      const known = declared.length === 0 ? 'the algorithm declares no parameters' : `declared: ${declared.map((item) => `$${item}`).join(', ')}`;
      errors.push({ path: 'parameters', message: `no parameter '$${name}' is declared${didYouMean(name, declared)} (${known})` });
    }
  }
  parameters.forEach((parameter, index) => {
    const bound = Object.hasOwn(bindings, parameter.name) ? bindings[parameter.name] : undefined;
    if (bound === undefined) {
      values.set(parameter.name, parameter.default);
      return;
    }
    const problem = boundValueProblem(parameter, bound);
    if (problem !== undefined) errors.push({ path: `parameters[${index}]`, message: problem });
    values.set(parameter.name, bound);
  });
  return errors.length > 0 ? err(errors) : ok(values);
}

/** What is wrong with a value bound to `parameter` (not a finite number, outside from..to, off the grid); undefined when nothing is. */
function boundValueProblem(parameter: AlgorithmParameter, bound: unknown): string | undefined {
  if (typeof bound !== 'number' || !Number.isFinite(bound)) return `$${parameter.name}: the bound value must be a finite number, got ${String(bound)}`;
  if (bound < parameter.from || bound > parameter.to) return `$${parameter.name} = ${bound} is outside its range ${gridText(parameter)}`;
  if (!isOnGrid(parameter, bound)) {
    const near = gridValue(parameter, Math.floor((bound - parameter.from) / parameter.step));
    return `$${parameter.name} = ${bound} is not on its grid ${gridText(parameter)} (the nearest value below is ${near})`;
  }
  return undefined;
}

/**
 * The values of `bindings` over the defaults, in declaration order, when parameterValues and
 * brokenConstraints would report nothing for them; undefined otherwise (those two then say what).
 * @example acceptedValues([{ name: 'fast', default: 10, from: 5, to: 20, step: 5 }], [], { fast: 15 }) // [15]
 */
export function acceptedValues(parameters: readonly AlgorithmParameter[], constraints: readonly ParameterConstraint[], bindings: ParameterBindings | undefined): number[] | undefined {
  if (bindings !== undefined) {
    for (const name of Object.keys(bindings)) if (!parameters.some((parameter) => parameter.name === name)) return undefined;
  }
  const values: number[] = [];
  for (const parameter of parameters) {
    const bound = bindings !== undefined && Object.hasOwn(bindings, parameter.name) ? bindings[parameter.name] : undefined;
    if (bound !== undefined && boundValueProblem(parameter, bound) !== undefined) return undefined;
    values.push(bound ?? parameter.default);
  }
  return constraints.every((constraint) => constraint.holds(values)) ? values : undefined;
}

/** `unknown parameter '$x'` at each reference to an undeclared name. */
export function undeclaredParameters(expression: Expression, declared: readonly string[]): ExpressionError[] {
  return parameterReferences(expression)
    .filter((reference) => !declared.includes(reference.name))
    .map((reference) => ({
      message: `unknown parameter '$${reference.name}'${didYouMean(reference.name, declared)}: declare it under "parameters"`,
      line: reference.span.start.line,
      column: reference.span.start.column,
      offset: reference.span.start.offset,
      endLine: reference.span.end.line,
      endColumn: reference.span.end.column,
    }));
}

/**
 * Binds and checks a tree (a condition), naming the parameter in each error found exactly at a
 * `$name`: `the period of sma must be a whole number; got 10.5 ($fast = 10.5)`.
 */
export function checkBoundExpression(expression: Expression, values: ReadonlyMap<string, number>): Result<CheckedExpression, ExpressionError[]> {
  const checked = checkExpression(bindParameters(expression, values), { expect: 'boolean' });
  if (checked.ok) return checked;
  const references = parameterReferences(expression);
  return err(checked.error.map((error) => {
    const at = references.find((reference) => reference.span.start.offset === error.offset && reference.span.end.column === error.endColumn && reference.span.end.line === error.endLine);
    return at === undefined ? error : { ...error, message: `${error.message} ($${at.name} = ${values.get(at.name)})` };
  }));
}

/** A node a constraint may not contain, described; undefined when the node is allowed. */
function forbiddenInConstraint(node: Expression): { node: Expression; message: string } | undefined {
  switch (node.kind) {
    case 'name':
      return { node, message: `a constraint reads only $parameters and numbers; '${node.name}' is neither` };
    case 'text':
      return { node, message: 'a constraint reads only $parameters and numbers, not a time of day' };
    case 'lookback':
      return { node, message: 'a constraint has no bars to look back over' };
    case 'call':
      if (!CONSTRAINT_FUNCTIONS.has(node.callee)) return { node, message: `a constraint may call only abs, min and max, not '${node.callee}'` };
      for (const argument of node.arguments) {
        const found = forbiddenInConstraint(argument);
        if (found !== undefined) return found;
      }
      return undefined;
    case 'unary':
      return forbiddenInConstraint(node.operand);
    case 'binary':
      return forbiddenInConstraint(node.left) ?? forbiddenInConstraint(node.right);
    case 'number':
    case 'parameter':
      return undefined;
  }
}

type Evaluate = (values: ArrayLike<number>) => number;

/** The constraint as a function of the values (declaration order); the tree is known to be allowed and well typed. */
function evaluatorOf(node: Expression, indexOf: ReadonlyMap<string, number>): Evaluate {
  switch (node.kind) {
    case 'number': {
      const value = node.value;
      return () => value;
    }
    case 'parameter': {
      const index = indexOf.get(node.name) as number;
      return (values) => values[index] as number;
    }
    case 'unary': {
      const operand = evaluatorOf(node.operand, indexOf);
      return node.operator === '-' ? (values) => -operand(values) : (values) => (operand(values) === 0 ? 1 : 0);
    }
    case 'binary': {
      const left = evaluatorOf(node.left, indexOf);
      const right = evaluatorOf(node.right, indexOf);
      const operator = node.operator;
      if (operator === 'and') return (values) => (left(values) !== 0 && right(values) !== 0 ? 1 : 0);
      if (operator === 'or') return (values) => (left(values) !== 0 || right(values) !== 0 ? 1 : 0);
      if (operator === '+' || operator === '-' || operator === '*' || operator === '/' || operator === '%') {
        return (values) => arithmetic(operator, left(values), right(values));
      }
      return (values) => compare(operator, left(values), right(values));
    }
    case 'call': {
      const operands = node.arguments.map((argument) => evaluatorOf(argument, indexOf));
      if (node.callee === 'abs') return (values) => Math.abs((operands[0] as Evaluate)(values));
      const pick = node.callee === 'min' ? Math.min : Math.max;
      return (values) => pick(...operands.map((operand) => operand(values)));
    }
    case 'text':
    case 'name':
    case 'lookback':
      throw new Error(`internal: a constraint holds a ${node.kind} node`);
  }
}

function constraintError(index: number, error: ExpressionError): AlgorithmError {
  return { path: `constraints[${index}]`, message: error.message, line: error.line, column: error.column };
}

/**
 * Parses and checks each constraint (allowed nodes, declared parameters, a condition with the
 * defaults bound) and makes its evaluator; every problem at `constraints[i]` with line:column.
 * @example parameterConstraints(parameters, ['$fast < $slow']).ok // true
 */
export function parameterConstraints(parameters: readonly AlgorithmParameter[], constraints: readonly string[]): Result<ParameterConstraint[], AlgorithmError[]> {
  const errors: AlgorithmError[] = [];
  const built: ParameterConstraint[] = [];
  const declared = parameters.map((parameter) => parameter.name);
  const indexOf = new Map(declared.map((name, index) => [name, index]));
  const defaults = new Map(parameters.map((parameter) => [parameter.name, parameter.default]));
  constraints.forEach((source, index) => {
    const parsed = parseExpression(source);
    if (!parsed.ok) {
      errors.push(constraintError(index, parsed.error));
      return;
    }
    const forbidden = forbiddenInConstraint(parsed.value);
    if (forbidden !== undefined) {
      const { start, end } = forbidden.node.span;
      errors.push(constraintError(index, { message: forbidden.message, line: start.line, column: start.column, offset: start.offset, endLine: end.line, endColumn: end.column }));
      return;
    }
    const undeclared = undeclaredParameters(parsed.value, declared);
    const checked = undeclared.length > 0 ? err(undeclared) : checkBoundExpression(parsed.value, defaults);
    if (!checked.ok) {
      const problems = checked.error;
      errors.push(...problems.map((problem) => constraintError(index, problem)));
      return;
    }
    const evaluate = evaluatorOf(parsed.value, indexOf);
    const reads = [...new Set(parameterReferences(parsed.value).map((reference) => indexOf.get(reference.name) as number))].sort((a, b) => a - b);
    built.push({ index, source, reads, holds: (values) => evaluate(values) !== 0 });
  });
  return errors.length > 0 ? err(errors) : ok(built);
}

/** The constraints a set of values breaks, each as an error at `constraints[i]`. */
export function brokenConstraints(
  constraints: readonly ParameterConstraint[],
  parameters: readonly AlgorithmParameter[],
  values: ReadonlyMap<string, number>,
): AlgorithmError[] {
  const ordered = parameters.map((parameter) => values.get(parameter.name) ?? Number.NaN);
  return constraints
    .filter((constraint) => !constraint.holds(ordered))
    .map((constraint) => ({ path: `constraints[${constraint.index}]`, message: `${describeValues(values)} break the constraint ${constraint.source}` }));
}
