/**
 * The size of a parsed document, measured BEFORE graphql-js validates it: depth, fields, aliases
 * and cost of every operation and every fragment, root fields of every operation.
 *
 * Why before, and why memoised: fragments may spread each other (each spreading the next twice
 * makes a 1 KB document expand to 2^40 fields); a walk that expands every spread again, and some
 * of graphql-js's own validation rules (OverlappingFieldsCanBeMerged), do exponential or
 * quadratic work on such documents. Here each fragment is measured once and its size reused at
 * every spread, so the walk is linear in the document; it stops at the first limit passed.
 *
 * Invariants:
 * - every definition of the document is measured (validation looks at all of them), and each
 *   fragment's sizes are relative to its own selection set: spreading it adds them to the
 *   enclosing field's, multiplied by the enclosing lists for the cost;
 * - depth, fields and aliases only grow as the walk goes, so they are checked at every step;
 *   the cost is checked per operation (a fragment's cost depends on where it is spread);
 * - introspection objects are built by graphql-js in this process (about 10 microseconds each,
 *   with their fields), rows by PostgreSQL in its own: each introspection object weighs
 *   INTROSPECTION_ITEM_WEIGHT rows, so one full introspection of the largest role (about 7,200
 *   objects) fits the default cost limit and two of a signed-in role (about 5,000 each) do not;
 * - a fragment cycle is refused here (the walk would not end), in graphql-js's words;
 * - unknown fields and fragments count as leaves: validation names them afterwards;
 * - directives (@include, @skip) are ignored: a field counts whether or not it will run.
 */
import {
  getNamedType, isCompositeType, isInterfaceType, isListType, isNonNullType, isObjectType, Kind,
  type DefinitionNode, type FieldNode, type FragmentDefinitionNode, type GraphQLNamedType, type GraphQLOutputType,
  type GraphQLSchema, type OperationDefinitionNode, type SelectionSetNode,
} from 'graphql';
import type { GraphqlError } from '../types';
import { graphqlError } from './errors';
import type { EngineLimits } from './limits';
import type { ListWeights } from './list-weights';

/** Deepest syntactic nesting of selection sets accepted (inline fragments and `ofType` chains included). */
export const MAX_SELECTION_NESTING = 64;

/**
 * Most times one response key may be selected in one selection set (fragments expanded):
 * graphql-js compares every pair of same-named fields (OverlappingFieldsCanBeMerged), so 1,000
 * copies cost half a million comparisons; a real query repeats a key a handful of times, fragments
 * included. With 8, the costliest document the other limits allow validates in a few ms.
 */
export const MAX_REPEATED_FIELD = 8;

/** Rows one introspection object weighs in the cost (see the invariants above). */
export const INTROSPECTION_ITEM_WEIGHT = 20_000;

interface Size {
  readonly depth: number;
  readonly nodes: number;
  readonly aliases: number;
  readonly cost: number;
}

const ZERO: Size = { depth: 0, nodes: 0, aliases: 0, cost: 0 };
const NO_KEYS: ReadonlyMap<string, number> = new Map();

/** A selection set's size and how often each response key occurs at its top level. */
interface SetSize {
  readonly size: Size;
  readonly keys: ReadonlyMap<string, number>;
}

interface Position {
  readonly parent: GraphQLNamedType | undefined;
  /** Syntactic nesting of the selection set (1 for an operation's or a fragment's own). */
  readonly nesting: number;
  /** The objects here are every item of an introspection enumeration (`__schema { types { ... } }`). */
  readonly enumerated: boolean;
}

export interface MeasureInput {
  readonly definitions: readonly DefinitionNode[];
  readonly schema: GraphQLSchema;
  readonly weights: ListWeights;
  readonly limits: EngineLimits;
}

/** What an operation asks for, measured before validation. */
export interface OperationSize {
  readonly depth: number;
  readonly nodes: number;
  readonly aliases: number;
  readonly cost: number;
}

export type Measured =
  | { readonly ok: true; readonly sizes: ReadonlyMap<OperationDefinitionNode, OperationSize> }
  | { readonly ok: false; readonly error: GraphqlError };

/** The size of every operation, or the first limit the document passes as a `validation-failed` error. */
export function measureDocument(input: MeasureInput): Measured {
  try {
    return { ok: true, sizes: new DocumentMeasure(input).measureAll() };
  } catch (error) {
    if (error instanceof LimitPassed) return { ok: false, error: error.error };
    throw error;
  }
}

class LimitPassed {
  constructor(readonly error: GraphqlError) {}
}

function refuse(message: string): never {
  throw new LimitPassed(graphqlError('validation-failed', message));
}

class DocumentMeasure {
  private readonly fragments = new Map<string, FragmentDefinitionNode>();
  private readonly sizes = new Map<string, SetSize>();
  private readonly rootCounts = new Map<string, number>();
  private readonly active = new Set<string>();

  constructor(private readonly input: MeasureInput) {
    for (const definition of input.definitions) {
      if (definition.kind === Kind.FRAGMENT_DEFINITION) this.fragments.set(definition.name.value, definition);
    }
  }

  measureAll(): Map<OperationDefinitionNode, OperationSize> {
    const { limits, schema } = this.input;
    const sizes = new Map<OperationDefinitionNode, OperationSize>();
    for (const definition of this.input.definitions) {
      if (definition.kind === Kind.OPERATION_DEFINITION) {
        const rootFields = this.rootFields(definition.selectionSet);
        if (rootFields > limits.maxRootFields) refuse(`too many root fields: ${rootFields} (at most ${limits.maxRootFields})`);
        const { size } = this.selectionSet(definition.selectionSet, { parent: schema.getRootType(definition.operation) ?? undefined, nesting: 1, enumerated: false });
        if (size.cost > limits.maxCost) {
          refuse(`query may return ${formatCount(size.cost)} rows or more, more than the limit of ${formatCount(limits.maxCost)}`
            + ' (each list of objects counts its literal limit, else the row cap, multiplied through nested lists)');
        }
        sizes.set(definition, size);
      } else if (definition.kind === Kind.FRAGMENT_DEFINITION) {
        this.fragment(definition.name.value, false);
      }
    }
    return sizes;
  }

  /** A fragment's size where its objects are (`enumerated`) or are not every item of an introspection enumeration. */
  private fragment(name: string, enumerated: boolean): SetSize {
    const key = `${enumerated ? 'e' : 'n'}${name}`;
    const known = this.sizes.get(key);
    if (known) return known;
    const definition = this.fragments.get(name);
    if (!definition) return { size: ZERO, keys: NO_KEYS };
    if (this.active.has(name)) refuse(`Cannot spread fragment "${name}" within itself.`);
    this.active.add(name);
    const parent = this.input.schema.getType(definition.typeCondition.name.value);
    const size = this.selectionSet(definition.selectionSet, { parent, nesting: 1, enumerated });
    this.active.delete(name);
    this.sizes.set(key, size);
    return size;
  }

  private selectionSet(set: SelectionSetNode, at: Position): SetSize {
    if (at.nesting > MAX_SELECTION_NESTING) refuse(`selection sets are nested more than ${MAX_SELECTION_NESTING} deep`);
    let depth = 0;
    let nodes = 0;
    let aliases = 0;
    let cost = 0;
    const keys = new Map<string, number>();
    const count = (key: string, times: number): void => {
      const total = (keys.get(key) ?? 0) + times;
      if (total > MAX_REPEATED_FIELD) refuse(`the field "${key}" is selected more than ${MAX_REPEATED_FIELD} times in one selection set`);
      keys.set(key, total);
    };
    for (const selection of set.selections) {
      let part: Size;
      if (selection.kind === Kind.FIELD) {
        part = this.field(selection, at);
        count((selection.alias ?? selection.name).value, 1);
      } else {
        let inner: SetSize;
        if (selection.kind === Kind.INLINE_FRAGMENT) {
          const parent = selection.typeCondition ? this.input.schema.getType(selection.typeCondition.name.value) : at.parent;
          inner = this.selectionSet(selection.selectionSet, { parent, nesting: at.nesting + 1, enumerated: at.enumerated });
        } else inner = this.fragment(selection.name.value, at.enumerated);
        part = inner.size;
        // The node check first: it bounds the merging below by the field limit.
        this.check({ depth: Math.max(depth, part.depth), nodes: nodes + part.nodes, aliases: aliases + part.aliases });
        for (const [key, times] of inner.keys) count(key, times);
      }
      depth = Math.max(depth, part.depth);
      nodes += part.nodes;
      aliases += part.aliases;
      cost += part.cost;
      this.check({ depth, nodes, aliases });
    }
    return { size: { depth, nodes, aliases, cost }, keys };
  }

  private field(node: FieldNode, at: Position): Size {
    const type = this.fieldType(node, at.parent);
    const named = type ? getNamedType(type) : undefined;
    const parentName = at.parent?.name ?? '';
    const name = node.name.value;
    const enumerates = (parentName === '__Schema' && (name === 'types' || name === 'directives'))
      || (at.enumerated && parentName === '__Type' && name === 'fields');
    const child = node.selectionSet ? this.selectionSet(node.selectionSet, { parent: named, nesting: at.nesting + 1, enumerated: enumerates }).size : ZERO;
    // A type reference nests `ofType` a few levels at most (`[T!]!`): the standard
    // introspection query asks nine deep, and none of it is a list.
    const own = parentName === '__Type' && name === 'ofType' ? 0 : 1;
    let cost = child.cost;
    if (type && named && isCompositeType(named) && listed(type)) {
      const introspection = parentName.startsWith('__');
      const items = introspection
        ? this.input.weights.introspection(parentName, name, at.enumerated) ?? this.input.limits.maxRowsPerSelect
        : this.rowWeight(node, named);
      cost = items * ((introspection ? INTROSPECTION_ITEM_WEIGHT : 1) + child.cost);
    }
    return { depth: own + child.depth, nodes: 1 + child.nodes, aliases: (node.alias ? 1 : 0) + child.aliases, cost };
  }

  private fieldType(node: FieldNode, parent: GraphQLNamedType | undefined): GraphQLOutputType | undefined {
    const name = node.name.value;
    if (name === '__schema') return this.input.schema.getType('__Schema') as GraphQLOutputType | undefined;
    if (name === '__type') return this.input.schema.getType('__Type') as GraphQLOutputType | undefined;
    if (!parent || !(isObjectType(parent) || isInterfaceType(parent))) return undefined;
    return parent.getFields()[name]?.type;
  }

  /**
   * Rows a list of table rows may hold: a literal `limit` within the row cap, else the cap. A
   * list of other objects (`update_<t>_many`'s responses, one per update given) counts once.
   */
  private rowWeight(node: FieldNode, named: GraphQLNamedType): number {
    const cap = this.input.weights.rowCap(named.name);
    if (cap === undefined) return 1;
    const limit = node.arguments?.find((argument) => argument.name.value === 'limit')?.value;
    if (limit?.kind === Kind.INT) return Math.max(1, Math.min(cap, Number(limit.value)));
    return cap;
  }

  private check(size: Omit<Size, 'cost'>): void {
    const { limits } = this.input;
    if (size.depth > limits.maxDepth) refuse(`query depth ${size.depth} exceeds the limit of ${limits.maxDepth}`);
    if (size.nodes > limits.maxNodes) refuse(`query has at least ${size.nodes} fields, more than the limit of ${limits.maxNodes}`);
    if (size.aliases > limits.maxAliases) refuse(`query has at least ${size.aliases} aliases, more than the limit of ${limits.maxAliases}`);
  }

  /** Root fields of an operation, fragments and inline fragments expanded (each fragment counted once, then reused). */
  private rootFields(set: SelectionSetNode): number {
    let count = 0;
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) count += 1;
      else if (selection.kind === Kind.INLINE_FRAGMENT) count += this.rootFields(selection.selectionSet);
      else count += this.fragmentRootFields(selection.name.value);
      // Stop early: the count only grows.
      if (count > this.input.limits.maxRootFields) return count;
    }
    return count;
  }

  private fragmentRootFields(name: string): number {
    const known = this.rootCounts.get(name);
    if (known !== undefined) return known;
    const definition = this.fragments.get(name);
    // A cycle counts nothing here: the size walk that follows refuses it by name.
    if (!definition || this.active.has(name)) return 0;
    this.active.add(name);
    const count = this.rootFields(definition.selectionSet);
    this.active.delete(name);
    this.rootCounts.set(name, count);
    return count;
  }
}

function listed(type: GraphQLOutputType): boolean {
  return isListType(isNonNullType(type) ? type.ofType : type);
}

function formatCount(value: number): string {
  return value >= 1e15 ? value.toExponential(2) : Math.round(value).toLocaleString('en-US');
}
