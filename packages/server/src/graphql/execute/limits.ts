/**
 * Engine-wide limits on what one request may ask for. Introspection fields (`__schema`,
 * `__type`) are exempt from depth and node counts: their size is bounded by the schema.
 */
import { Kind, type FragmentDefinitionNode, type SelectionSetNode } from 'graphql';

export interface EngineLimits {
  /** Deepest nesting of fields; a root field is depth 1. Default 10. */
  readonly maxDepth: number;
  /** Most field selections in one operation (fragments expanded). Default 1,000. */
  readonly maxNodes: number;
  /** Rows one select may return when neither the query nor the role asks for fewer. Default 10,000. */
  readonly maxRowsPerSelect: number;
  /** Most root fields in one operation. Default 20. */
  readonly maxRootFields: number;
  /** Parsed documents kept (LRU). Default 1,000. */
  readonly documentCacheSize: number;
  /** Validated operations kept per role and query (LRU). Default 2,000. */
  readonly operationCacheSize: number;
}

export const DEFAULT_ENGINE_LIMITS: EngineLimits = {
  maxDepth: 10,
  maxNodes: 1000,
  maxRowsPerSelect: 10_000,
  maxRootFields: 20,
  documentCacheSize: 1000,
  operationCacheSize: 2000,
};

export interface OperationSize {
  readonly depth: number;
  readonly nodes: number;
  readonly rootFields: number;
}

/** Depth, field count and root field count of a selection set (fragments expanded, directives ignored). */
export function measureOperation(selectionSet: SelectionSetNode, fragments: Readonly<Record<string, FragmentDefinitionNode>>): OperationSize {
  let nodes = 0;
  const walk = (set: SelectionSetNode, depth: number, seen: ReadonlySet<string>): number => {
    let deepest = depth - 1;
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        if (depth === 1 && (selection.name.value === '__schema' || selection.name.value === '__type')) continue;
        nodes += 1;
        deepest = Math.max(deepest, selection.selectionSet ? walk(selection.selectionSet, depth + 1, seen) : depth);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        deepest = Math.max(deepest, walk(selection.selectionSet, depth, seen));
      } else {
        const fragment = fragments[selection.name.value];
        // Validation refuses fragment cycles; `seen` keeps this safe before validation too.
        if (fragment && !seen.has(fragment.name.value)) {
          deepest = Math.max(deepest, walk(fragment.selectionSet, depth, new Set([...seen, fragment.name.value])));
        }
      }
    }
    return deepest;
  };
  const rootFields = countRootFields(selectionSet, fragments);
  const depth = walk(selectionSet, 1, new Set());
  return { depth, nodes, rootFields };
}

function countRootFields(set: SelectionSetNode, fragments: Readonly<Record<string, FragmentDefinitionNode>>): number {
  let count = 0;
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD) count += 1;
    else if (selection.kind === Kind.INLINE_FRAGMENT) count += countRootFields(selection.selectionSet, fragments);
    else {
      const fragment = fragments[selection.name.value];
      if (fragment) count += countRootFields(fragment.selectionSet, fragments);
    }
  }
  return count;
}
