/**
 * Compiled query plans, so a repeated query does no field collection and no SQL compile: the
 * SQL text plus, for each parameter, where its value comes from (a request variable, a session
 * variable, or a constant).
 *
 * Plans are kept least recently used out first, bounded by bytes (`EngineLimits.planCacheBytes`).
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
import { ByteLruCache, stringBytes } from './lru';

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
  /** The column holding the total length of the JSON columns (response-ceiling.ts). */
  readonly sizeColumn: number;
}

const NOT_CACHEABLE = 'not-cacheable';
/** Shapes stored per prepared operation (a client varying a number variable cannot fill the cache with one query). */
const MAX_SHAPES = 32;
const MARKER = 'vyuha~plan~sentinel';

export interface PlanLookup {
  readonly key: string;
  readonly plan: QueryPlan | undefined;
  /** True when this shape is known not to be cacheable (do not try to build a plan). */
  readonly known: boolean;
}

/** What identifies a prepared operation to the plan cache. */
export interface PlanTarget {
  readonly schema: GraphQLSchema;
  readonly operation: OperationDefinitionNode;
  /** The prepared operation's id (prepare.ts): role, operation name and query text. */
  readonly id: number;
}

/** Plans by prepared operation and variable shape, least recently used out first, bounded by bytes. */
export class QueryPlanCache {
  private readonly strings = new WeakMap<GraphQLSchema, WeakMap<OperationDefinitionNode, ReadonlySet<string>>>();
  private readonly shapesStored = new WeakMap<OperationDefinitionNode, number>();
  private readonly plans: ByteLruCache<string, QueryPlan | typeof NOT_CACHEABLE>;

  constructor(budget: { readonly maxBytes: number }) {
    this.plans = new ByteLruCache({ maxBytes: budget.maxBytes, maxEntryBytes: Math.floor(budget.maxBytes / 16) });
  }

  /** The plan (or its absence) for an operation and coerced variables; session.admin and role are already in the operation's key. */
  lookup(input: PlanTarget & { variables: Readonly<Record<string, unknown>> }): PlanLookup {
    const key = `${input.id}\u0000${shapeKey(input.variables, this.stringVariablesOf(input))}`;
    const found = this.plans.get(key);
    if (found === undefined) return { key, plan: undefined, known: false };
    return found === NOT_CACHEABLE ? { key, plan: undefined, known: true } : { key, plan: found, known: true };
  }

  /** Stores a plan (or "not cacheable") for a shape. */
  store(input: PlanTarget & { key: string; plan: QueryPlan | undefined }): void {
    const stored = this.shapesStored.get(input.operation) ?? 0;
    if (stored >= MAX_SHAPES) return;
    this.shapesStored.set(input.operation, stored + 1);
    this.plans.set(input.key, input.plan ?? NOT_CACHEABLE, stringBytes(input.key) + (input.plan ? planBytes(input.plan) : 0));
  }

  /** String variables of an operation (sentinel candidates). */
  stringVariablesOf(input: { schema: GraphQLSchema; operation: OperationDefinitionNode }): ReadonlySet<string> {
    let perSchema = this.strings.get(input.schema);
    if (!perSchema) {
      perSchema = new WeakMap();
      this.strings.set(input.schema, perSchema);
    }
    let names = perSchema.get(input.operation);
    if (!names) {
      names = stringVariables(input);
      perSchema.set(input.operation, names);
    }
    return names;
  }

  /** Estimated bytes held (tests, the benchmark). */
  get bytes(): number {
    return this.plans.bytes;
  }
}

/** Estimated heap bytes of a plan: its SQL, its parameter sources and its field prefixes. */
function planBytes(plan: QueryPlan): number {
  let bytes = stringBytes(plan.sql) + 64 * plan.params.length;
  for (const source of plan.params) if (source.kind === 'constant') bytes += stringBytes(JSON.stringify(source.value) ?? '');
  for (const field of plan.fields) bytes += 48 + stringBytes(field.prefix) + ('json' in field ? stringBytes(field.json) : 0);
  return bytes;
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
    if (!sameConstant(value, real.params[index])) return undefined;
    result.push({ kind: 'constant', value });
  }
  return result;
}

/** Whether a probe's parameter equals the real compile's and carries no sentinel (strings compared as they are: a 1 MB literal is not re-encoded). */
function sameConstant(probe: unknown, real: unknown): boolean {
  if (typeof probe === 'string') return probe === real && !probe.includes(MARKER);
  const text = JSON.stringify(probe) ?? 'undefined';
  return !text.includes(MARKER) && text === (JSON.stringify(real) ?? 'undefined');
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
