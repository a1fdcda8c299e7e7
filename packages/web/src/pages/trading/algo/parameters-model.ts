// The algorithm's `$parameters` as the editor edits them: the declarations (name, default, from,
// to, step) and the constraints over them (`$fast < $slow`), the pure transitions of the
// parameters form, where each problem goes (under its field, under its constraint), and the
// checking of a rule's expression with its `$name`s bound to the defaults, as the engine binds
// them (packages/engine/src/language/README.md "Parameters").
//
// Invariants:
// - A number field left empty is NaN in the state; it is reported as "Enter a number" and the
//   document cannot be saved while it is (so NaN is never stored).
// - A document without parameters and constraints is stored without the two keys, as before the
//   editor could declare them.
import {
  ALGORITHM_FORMAT, ALGORITHM_VERSION, bindParameters, checkExpression, formatExpressionError, gridSize, parameterReferences, parseExpression,
  validateAlgorithm,
  type AlgorithmError, type AlgorithmParameter, type ExpressionError,
} from '@vyuha/engine';
import type { ParameterDeclarations } from './graph-model';

export type ParameterField = 'name' | 'default' | 'from' | 'to' | 'step';
export const PARAMETER_FIELDS: readonly ParameterField[] = ['name', 'default', 'from', 'to', 'step'];

/** The form's state: both lists, possibly empty. */
export interface Declarations {
  readonly parameters: readonly AlgorithmParameter[];
  readonly constraints: readonly string[];
}

/** The editable lists of a document's declarations. */
export function declarationsOf(stored: ParameterDeclarations | undefined): Declarations {
  return { parameters: stored?.parameters ?? [], constraints: stored?.constraints ?? [] };
}

/**
 * What the document stores: each list only when it has entries.
 * @example storedDeclarations({ parameters: [], constraints: [] }) // {}
 */
export function storedDeclarations(declarations: Declarations): ParameterDeclarations {
  return {
    ...(declarations.parameters.length === 0 ? {} : { parameters: declarations.parameters }),
    ...(declarations.constraints.length === 0 ? {} : { constraints: declarations.constraints }),
  };
}

/** The first free name `p<n>` (n from 1). @example nextParameterName([{ name: 'p1' }]) // 'p2' */
export function nextParameterName(parameters: readonly { readonly name: string }[]): string {
  const taken = new Set(parameters.map((parameter) => parameter.name));
  let n = 1;
  while (taken.has(`p${n}`)) n += 1;
  return `p${n}`;
}

/** Adds a parameter with a free name and a small whole-number range (10, from 5 to 20 by 5). */
export function addParameter(declarations: Declarations): Declarations {
  const added: AlgorithmParameter = { name: nextParameterName(declarations.parameters), default: 10, from: 5, to: 20, step: 5 };
  return { ...declarations, parameters: [...declarations.parameters, added] };
}

/** Changes fields of the parameter at `index`. */
export function updateParameter(declarations: Declarations, index: number, change: Partial<AlgorithmParameter>): Declarations {
  return { ...declarations, parameters: declarations.parameters.map((parameter, at) => (at === index ? { ...parameter, ...change } : parameter)) };
}

export function removeParameter(declarations: Declarations, index: number): Declarations {
  return { ...declarations, parameters: declarations.parameters.filter((_, at) => at !== index) };
}

export function addConstraint(declarations: Declarations): Declarations {
  return { ...declarations, constraints: [...declarations.constraints, ''] };
}

export function updateConstraint(declarations: Declarations, index: number, source: string): Declarations {
  return { ...declarations, constraints: declarations.constraints.map((constraint, at) => (at === index ? source : constraint)) };
}

export function removeConstraint(declarations: Declarations, index: number): Declarations {
  return { ...declarations, constraints: declarations.constraints.filter((_, at) => at !== index) };
}

/** A number input's value as the state keeps it: NaN while empty or not a number. @example numberOf('') // NaN */
export function numberOf(value: number | string): number {
  if (typeof value === 'number') return value;
  if (value.trim() === '') return Number.NaN;
  const parsed = Number(value);
  return Number.isFinite(parsed) ? parsed : Number.NaN;
}

/** Problems of the declarations, placed: `fields` by `<index>.<field>`, `constraints` by index. */
export interface DeclarationErrors {
  readonly fields: ReadonlyMap<string, string>;
  readonly constraints: ReadonlyMap<number, readonly string[]>;
  /** Every message, named by its place (`$fast from: ...`, `constraint 1: ...`), for the errors panel. */
  readonly all: readonly string[];
}

/** The key of a parameter field in `DeclarationErrors.fields`. @example fieldKey(0, 'step') // '0.step' */
export function fieldKey(index: number, field: ParameterField): string {
  return `${index}.${field}`;
}

const EMPTY_CONSTRAINT = 'Write a condition over $parameters, e.g. $fast < $slow';

/** The editor's own checks: empty number fields and empty constraints (the engine's words for them are about JSON). */
function draftProblems(declarations: Declarations): { fields: Map<string, string>; constraints: Map<number, string[]> } {
  const fields = new Map<string, string>();
  declarations.parameters.forEach((parameter, index) => {
    for (const field of PARAMETER_FIELDS) {
      if (field !== 'name' && Number.isNaN(parameter[field])) fields.set(fieldKey(index, field), 'Enter a number');
    }
    if (parameter.name.trim() === '') fields.set(fieldKey(index, 'name'), 'Name the parameter (letters, digits and _), e.g. fast');
  });
  const constraints = new Map<number, string[]>();
  declarations.constraints.forEach((source, index) => {
    if (source.trim() === '') constraints.set(index, [EMPTY_CONSTRAINT]);
  });
  return { fields, constraints };
}

/**
 * The engine's errors of the declarations on their own (a document with no nodes, whose graph
 * complaint is not theirs). Empty constraints are left out (the editor reports them), so they do
 * not stop the others being checked; `constraints[i]` paths keep the form's indices.
 */
function engineErrors(declarations: Declarations): AlgorithmError[] {
  const written = declarations.constraints.map((source, index) => ({ source, index })).filter((constraint) => constraint.source.trim() !== '');
  const validated = validateAlgorithm({
    format: ALGORITHM_FORMAT, version: ALGORITHM_VERSION, nodes: [], edges: [],
    ...storedDeclarations({ parameters: declarations.parameters, constraints: written.map((constraint) => constraint.source) }),
  });
  if (validated.ok) return [];
  return validated.error.flatMap((error) => {
    if (error.path.startsWith('parameters[')) return [error];
    const constraint = /^constraints\[(\d+)\](.*)$/.exec(error.path);
    if (constraint === null) return [];
    return [{ ...error, path: `constraints[${written[Number(constraint[1])]?.index ?? 0}]${constraint[2] ?? ''}` }];
  });
}

function describeConstraintError(error: AlgorithmError): string {
  return error.line === undefined ? error.message : `${error.line}:${error.column ?? 1}: ${error.message}`;
}

/**
 * Every problem of the declarations, each under its field: the engine's shape and range checks
 * (`parameters[1].step: must be greater than 0`), its constraint checks (undeclared names,
 * not a condition, broken by the defaults), and empty fields.
 * @example placeDeclarationErrors({ parameters: [{ name: 'fast', default: 10, from: 5, to: 20, step: 0 }], constraints: [] }).fields.get('0.step') // 'must be greater than 0, got 0'
 */
export function placeDeclarationErrors(declarations: Declarations): DeclarationErrors {
  const { fields, constraints } = draftProblems(declarations);
  for (const error of engineErrors(declarations)) {
    const parameter = /^parameters\[(\d+)\]\.?(\w*)$/.exec(error.path);
    if (parameter !== null) {
      const field = (PARAMETER_FIELDS as readonly string[]).includes(parameter[2] ?? '') ? parameter[2] as ParameterField : 'name';
      const key = fieldKey(Number(parameter[1]), field);
      if (!fields.has(key)) fields.set(key, error.message);
      continue;
    }
    const constraint = /^constraints\[(\d+)\]/.exec(error.path);
    if (constraint === null) continue;
    const index = Number(constraint[1]);
    constraints.set(index, [...(constraints.get(index) ?? []), describeConstraintError(error)]);
  }
  const all: string[] = [];
  for (const [key, message] of fields) {
    const [index, field] = key.split('.');
    const name = declarations.parameters[Number(index)]?.name ?? '';
    all.push(`${name === '' ? `parameter ${Number(index) + 1}` : `$${name}`} ${field}: ${message}`);
  }
  for (const [index, messages] of constraints) for (const message of messages) all.push(`constraint ${index + 1}: ${message}`);
  return { fields, constraints, all };
}

/** How many runs a sweep of the declared grid makes (after constraints), or undefined while the declarations are wrong. */
export function sweepCombinations(declarations: Declarations): number | undefined {
  if (declarations.parameters.length === 0) return undefined;
  const size = gridSize(declarations.parameters, declarations.constraints);
  return size.ok ? size.value.valid : undefined;
}

/** The values a rule's `$name`s take while editing (each declared parameter's default) and the declared names. */
export interface ParameterScope {
  readonly declared: readonly string[];
  readonly values: ReadonlyMap<string, number>;
}

export function parameterScope(parameters: readonly AlgorithmParameter[]): ParameterScope {
  return {
    declared: parameters.map((parameter) => parameter.name),
    values: new Map(parameters.filter((parameter) => Number.isFinite(parameter.default)).map((parameter) => [parameter.name, parameter.default])),
  };
}

function undeclared(name: string, declared: readonly string[]): string {
  const known = declared.length === 0 ? 'add it under Parameters' : `declare it under Parameters (declared: ${declared.map((item) => `$${item}`).join(', ')})`;
  return `unknown parameter '$${name}': ${known}`;
}

/**
 * The errors of one condition (`1:5: ...`), its `$name`s bound to their defaults as the engine
 * binds them; an error at a `$name` says its value (`($fast = 10.5)`). A `$name` declared without
 * a usable default is not checked here (its field shows why).
 * @example checkRuleExpression('sma(close, $n) > 0', parameterScope([{ name: 'n', default: 2.5, from: 0, to: 5, step: 2.5 }])) // ['1:12: the period of sma must be a whole number; got 2.5 ($n = 2.5)']
 */
export function checkRuleExpression(source: string, scope: ParameterScope): string[] {
  const parsed = parseExpression(source);
  if (!parsed.ok) return [formatExpressionError(parsed.error)];
  const references = parameterReferences(parsed.value);
  const unknown: ExpressionError[] = references.filter((reference) => !scope.declared.includes(reference.name)).map((reference) => ({
    message: undeclared(reference.name, scope.declared), line: reference.span.start.line, column: reference.span.start.column,
    offset: reference.span.start.offset, endLine: reference.span.end.line, endColumn: reference.span.end.column,
  }));
  if (unknown.length > 0) return unknown.map(formatExpressionError);
  if (references.some((reference) => !scope.values.has(reference.name))) return [];
  const checked = checkExpression(bindParameters(parsed.value, scope.values), { expect: 'boolean' });
  if (checked.ok) return [];
  return checked.error.map((error) => {
    const at = references.find((reference) => reference.span.start.offset === error.offset && reference.span.end.column === error.endColumn && reference.span.end.line === error.endLine);
    return formatExpressionError(at === undefined ? error : { ...error, message: `${error.message} ($${at.name} = ${scope.values.get(at.name)})` });
  });
}
