/**
 * Compiled query plans, so a repeated query does no field collection and no SQL compile: the
 * SQL text plus, for each parameter, where its value comes from (a request variable, a session
 * variable, or a constant).
 *
 * A plan belongs to one prepared operation (role key, operation name and query text) and one
 * variable shape: every variable that is not a plain string scalar enters the shape with its
 * value (booleans steer @include/@skip, numbers steer limits, objects steer `where` structure);
 * string scalars (uuid, String, timestamptz, ...) enter only as "a string".
 *
 * How a plan is found without trusting the compiler's internals: the operation is compiled a
 * second time with every string variable AND every session variable (except the role, which is
 * in the key) replaced by a unique sentinel. A plan is kept only when
 * - both compiles give the same SQL text and parameter count,
 * - every sentinel occurs only as a whole parameter value (never inside SQL, never transformed
 *   or embedded in another value), and every other parameter is identical in both compiles,
 * - the plan instantiated with this request's values gives exactly this request's parameters.
 * So no session value (user id, tier dates) can ever be baked into a plan shared by users of a
 * role: session values always come back as parameters, read from each request's own session.
 * Anything else (a compile error, a value the compiler inspects or rewrites, a field that is not
 * a table field) marks the shape "not cacheable" and those requests take the full path.
 * Invariant the compiler keeps for this to be sound: it never branches on the content of a
 * string variable or a session variable (it only passes them into parameters).
 */
import {
  GraphQLBoolean, GraphQLFloat, GraphQLInt, getNamedType, isNonNullType, isScalarType, typeFromAST,
  type GraphQLSchema, type OperationDefinitionNode,
} from 'graphql';
import { GraphqlFailure, type GraphqlSession } from '../types';
import type { CompiledStatement } from '../sql/context';

/** Where one parameter's value comes from. */
export type ParameterSource =
  | { readonly kind: 'constant'; readonly value: unknown }
  | { readonly kind: 'variable'; readonly name: string }
  | { readonly kind: 'session'; readonly key: string };

/** One response key of the plan: a column of the statement's row, or a fixed JSON text (`__typename`). */
export type PlanField = { readonly prefix: string; readonly column: number } | { readonly prefix: string; readonly json: string };

export interface QueryPlan {
  readonly sql: string;
  readonly tables: readonly string[];
  readonly params: readonly ParameterSource[];
  /** In response order; `prefix` is `"key":`. */
  readonly fields: readonly PlanField[];
}

const NOT_CACHEABLE = 'not-cacheable';
/** Shapes kept per prepared operation (the prepared operations themselves are an LRU). */
const MAX_SHAPES = 32;
const MARKER = 'vyuha~plan~sentinel';

interface OperationPlans {
  /** Variables of a plain string scalar type: their values never enter the shape key. */
  readonly stringVariables: ReadonlySet<string>;
  readonly shapes: Map<string, QueryPlan | typeof NOT_CACHEABLE>;
}

export interface PlanLookup {
  readonly key: string;
  readonly plan: QueryPlan | undefined;
  /** True when this shape is known not to be cacheable (do not try to build a plan). */
  readonly known: boolean;
}

/** Plans by prepared operation (weakly: an operation evicted from the preparer's LRU takes its plans along). */
export class QueryPlanCache {
  private readonly bySchema = new WeakMap<GraphQLSchema, WeakMap<OperationDefinitionNode, OperationPlans>>();

  private plansOf(input: { schema: GraphQLSchema; operation: OperationDefinitionNode }): OperationPlans {
    // The same document node can be validated against several role schemas: key by both.
    let perSchema = this.bySchema.get(input.schema);
    if (!perSchema) {
      perSchema = new WeakMap();
      this.bySchema.set(input.schema, perSchema);
    }
    let plans = perSchema.get(input.operation);
    if (!plans) {
      plans = { stringVariables: stringVariables(input), shapes: new Map() };
      perSchema.set(input.operation, plans);
    }
    return plans;
  }

  /** The plan (or its absence) for an operation and coerced variables; session.admin and role are already in the operation's key. */
  lookup(input: { schema: GraphQLSchema; operation: OperationDefinitionNode; variables: Readonly<Record<string, unknown>> }): PlanLookup {
    const plans = this.plansOf(input);
    const key = shapeKey(input.variables, plans.stringVariables);
    const found = plans.shapes.get(key);
    if (found === undefined) return { key, plan: undefined, known: false };
    return found === NOT_CACHEABLE ? { key, plan: undefined, known: true } : { key, plan: found, known: true };
  }

  /** Stores a plan (or "not cacheable") for a shape. */
  store(input: { schema: GraphQLSchema; operation: OperationDefinitionNode; key: string; plan: QueryPlan | undefined }): void {
    const plans = this.plansOf(input);
    if (plans.shapes.size >= MAX_SHAPES && !plans.shapes.has(input.key)) return;
    plans.shapes.set(input.key, input.plan ?? NOT_CACHEABLE);
  }

  /** String variables of an operation (sentinel candidates). */
  stringVariablesOf(input: { schema: GraphQLSchema; operation: OperationDefinitionNode }): ReadonlySet<string> {
    return this.plansOf(input).stringVariables;
  }
}

function stringVariables(input: { schema: GraphQLSchema; operation: OperationDefinitionNode }): ReadonlySet<string> {
  const names = new Set<string>();
  for (const definition of input.operation.variableDefinitions ?? []) {
    const type = typeFromAST(input.schema, definition.type);
    if (!type) continue;
    const inner = isNonNullType(type) ? type.ofType : type;
    // Lists and input objects stay in the shape; so do enums (their values steer SQL structure).
    if (!isScalarType(inner)) continue;
    const named = getNamedType(inner);
    if (named === GraphQLBoolean || named === GraphQLInt || named === GraphQLFloat) continue;
    names.add(definition.variable.name.value);
  }
  return names;
}

function shapeKey(variables: Readonly<Record<string, unknown>>, strings: ReadonlySet<string>): string {
  let key = '';
  for (const name in variables) {
    const value = variables[name];
    key += strings.has(name) && typeof value === 'string' ? `${name}:s;` : `${name}=${JSON.stringify(value) ?? 'undefined'};`;
  }
  return key;
}

/** The same variables with each string variable replaced by a sentinel; `sources` maps sentinels back. */
export function sentinelVariables(variables: Readonly<Record<string, unknown>>, input: { strings: ReadonlySet<string>; sources: Map<string, ParameterSource> }): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const name of Object.keys(variables)) {
    const value = variables[name];
    if (input.strings.has(name) && typeof value === 'string') {
      const sentinel = `${MARKER}:v:${input.sources.size}:${name}`;
      input.sources.set(sentinel, { kind: 'variable', name });
      result[name] = sentinel;
    } else {
      result[name] = value;
    }
  }
  return result;
}

/** The session with every variable but the role replaced by a sentinel. */
export function sentinelSession(session: GraphqlSession, sources: Map<string, ParameterSource>): GraphqlSession {
  const variables: Record<string, string> = {};
  for (const key of Object.keys(session.variables)) {
    if (key === 'x-hasura-role') {
      variables[key] = session.variables[key] ?? '';
      continue;
    }
    const sentinel = `${MARKER}:s:${sources.size}:${key}`;
    sources.set(sentinel, { kind: 'session', key });
    variables[key] = sentinel;
  }
  return { role: session.role, admin: session.admin, variables };
}

/**
 * The parameter sources of a plan from the real and the sentinel compile of the same request,
 * or undefined when the two do not line up as the module comment requires.
 */
export function parameterSources(input: { real: CompiledStatement; probe: CompiledStatement; sources: ReadonlyMap<string, ParameterSource> }): ParameterSource[] | undefined {
  const { real, probe } = input;
  if (real.sql !== probe.sql || real.params.length !== probe.params.length || real.sql.includes(MARKER)) return undefined;
  const result: ParameterSource[] = [];
  for (let index = 0; index < probe.params.length; index += 1) {
    const value = probe.params[index];
    const source = typeof value === 'string' ? input.sources.get(value) : undefined;
    if (source) {
      result.push(source);
      continue;
    }
    const text = JSON.stringify(value) ?? 'undefined';
    if (text.includes(MARKER) || text !== (JSON.stringify(real.params[index]) ?? 'undefined')) return undefined;
    result.push({ kind: 'constant', value });
  }
  return result;
}

/** The parameter values of a plan for one request; a session variable the plan reads but the session lacks fails as the compiler does. */
export function planParameters(plan: QueryPlan, input: { variables: Readonly<Record<string, unknown>>; session: GraphqlSession }): unknown[] {
  const values: unknown[] = new Array<unknown>(plan.params.length);
  for (let index = 0; index < plan.params.length; index += 1) {
    const source = plan.params[index] as ParameterSource;
    if (source.kind === 'constant') values[index] = source.value;
    else if (source.kind === 'variable') values[index] = input.variables[source.name];
    else {
      const value = input.session.variables[source.key];
      if (value === undefined) throw new GraphqlFailure('not-found', `missing session variable: "${source.key}"`);
      values[index] = value;
    }
  }
  return values;
}

/** True when the plan gives exactly the parameters the full compile gave for this request. */
export function reproduces(plan: QueryPlan, input: { variables: Readonly<Record<string, unknown>>; session: GraphqlSession; params: readonly unknown[] }): boolean {
  let values: unknown[];
  try {
    values = planParameters(plan, input);
  } catch {
    return false;
  }
  return values.length === input.params.length
    && values.every((value, index) => value === input.params[index] || JSON.stringify(value) === JSON.stringify(input.params[index]));
}
