/**
 * Field collection as GraphQL defines it: fragments (named and inline) expanded, `@skip` and
 * `@include` applied, fields with the same response key merged (validation guarantees they
 * agree on name and arguments, so their selection sets are concatenated).
 */
import {
  GraphQLIncludeDirective, GraphQLSkipDirective, Kind, getArgumentValues, getDirectiveValues,
  type FieldNode, type FragmentDefinitionNode, type GraphQLField, type SelectionSetNode,
} from 'graphql';

export interface CollectedField {
  readonly responseKey: string;
  readonly name: string;
  /** Every node merged under this key, in document order. */
  readonly nodes: readonly FieldNode[];
}

export interface CollectOptions {
  readonly variables: Readonly<Record<string, unknown>>;
  readonly fragments: Readonly<Record<string, FragmentDefinitionNode>>;
}

function included(node: Parameters<typeof getDirectiveValues>[1], variables: Readonly<Record<string, unknown>>): boolean {
  if (getDirectiveValues(GraphQLSkipDirective, node, variables)?.if === true) return false;
  return getDirectiveValues(GraphQLIncludeDirective, node, variables)?.if !== false;
}

function collectInto(set: SelectionSetNode, options: CollectOptions, into: Map<string, FieldNode[]>): void {
  for (const selection of set.selections) {
    if (!included(selection, options.variables)) continue;
    if (selection.kind === Kind.FIELD) {
      const key = selection.alias?.value ?? selection.name.value;
      const existing = into.get(key);
      if (existing) existing.push(selection);
      else into.set(key, [selection]);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      // Every generated type is an object type, so a valid type condition always matches.
      collectInto(selection.selectionSet, options, into);
    } else {
      const fragment = options.fragments[selection.name.value];
      if (fragment) collectInto(fragment.selectionSet, options, into);
    }
  }
}

/** The fields of the selection sets of `nodes`, merged by response key, in document order. */
export function collectFields(sets: readonly (SelectionSetNode | undefined)[], options: CollectOptions): CollectedField[] {
  const into = new Map<string, FieldNode[]>();
  for (const set of sets) if (set) collectInto(set, options, into);
  return [...into].map(([responseKey, nodes]) => ({ responseKey, name: nodes[0]?.name.value ?? responseKey, nodes }));
}

/** The sub-fields of a collected field. */
export function subFields(field: CollectedField, options: CollectOptions): CollectedField[] {
  return collectFields(field.nodes.map((node) => node.selectionSet), options);
}

/** The coerced arguments of a collected field. */
export function fieldArguments(definition: GraphQLField<unknown, unknown>, field: CollectedField, variables: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const node = field.nodes[0];
  if (!node) return {};
  return getArgumentValues(definition, node, variables);
}
