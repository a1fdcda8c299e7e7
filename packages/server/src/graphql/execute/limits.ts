/**
 * Engine-wide limits on what one request may ask for and on what the engine keeps in memory.
 * Every limit applies to every root field, introspection (`__schema`, `__type`) included: a
 * request is measured before graphql-js validates it (document-measure.ts), so no document of at
 * most the body limit costs more than a few milliseconds before it is refused or run.
 */

export interface EngineLimits {
  /** Deepest nesting of fields; a root field is depth 1 (`ofType` inside introspection adds none). Default 10. */
  readonly maxDepth: number;
  /** Most field selections in one operation, fragments expanded. Default 1,000. */
  readonly maxNodes: number;
  /** Most aliased fields in one operation, fragments expanded. Default 100. */
  readonly maxAliases: number;
  /**
   * Most rows one operation may ask for: each list of objects weighs its literal `limit`, else
   * the role's row limit or `maxRowsPerSelect` (introspection lists: the schema's own counts),
   * multiplied through nested lists; an introspection object weighs 20,000 rows. Default
   * 200,000,000 (two nested lists of 10,000 rows, twice; one full introspection).
   */
  readonly maxCost: number;
  /** Rows one select may return when neither the query nor the role asks for fewer. Default 10,000. */
  readonly maxRowsPerSelect: number;
  /** Most root fields in one operation. Default 20. */
  readonly maxRootFields: number;
  /** Longest query text (characters); large values belong in variables. Default 256 KiB. */
  readonly maxQueryLength: number;
  /** Most lexical tokens in one document (graphql-js `maxTokens`; comments counted apart). Default 10,000. */
  readonly maxTokens: number;
  /** Deepest nesting of variable values (objects and lists). Default 32. */
  readonly maxVariableDepth: number;
  /** Most values (scalars, objects, lists) in one request's variables. Default 10,000. */
  readonly maxVariableValues: number;
  /** Largest JSON text of one response (HTTP body, WebSocket payload, one CSV row); more is an error. Default 16 MiB. */
  readonly maxResponseBytes: number;
  /** Parsed documents kept, by estimated bytes (query text plus syntax tree). Default 16 MiB. */
  readonly documentCacheBytes: number;
  /** Validated operations kept per role and query, by estimated bytes. Default 32 MiB. */
  readonly operationCacheBytes: number;
  /** Compiled query plans kept, by estimated bytes (SQL text, parameter sources). Default 16 MiB. */
  readonly planCacheBytes: number;
  /** Introspection answers kept (JSON text by operation and selection). Default 16 MiB. */
  readonly introspectionCacheBytes: number;
}

export const DEFAULT_ENGINE_LIMITS: EngineLimits = {
  maxDepth: 10,
  maxNodes: 1000,
  maxAliases: 100,
  maxCost: 200_000_000,
  maxRowsPerSelect: 10_000,
  maxRootFields: 20,
  maxQueryLength: 256 * 1024,
  maxTokens: 10_000,
  maxVariableDepth: 32,
  maxVariableValues: 10_000,
  maxResponseBytes: 16 * 1024 * 1024,
  documentCacheBytes: 16 * 1024 * 1024,
  operationCacheBytes: 32 * 1024 * 1024,
  planCacheBytes: 16 * 1024 * 1024,
  introspectionCacheBytes: 16 * 1024 * 1024,
};

/**
 * The defaults with `overrides` applied; a value that is not a positive whole number throws,
 * naming the field.
 * @example resolveEngineLimits({ maxDepth: 5 }).maxDepth -> 5
 */
export function resolveEngineLimits(overrides: Partial<EngineLimits> = {}): EngineLimits {
  const limits: EngineLimits = { ...DEFAULT_ENGINE_LIMITS, ...overrides };
  for (const [field, value] of Object.entries(limits)) {
    if (!Number.isSafeInteger(value) || (value as number) <= 0) {
      throw new Error(`graphql engine limits: ${field} must be a positive whole number, got ${String(value)}`);
    }
  }
  return limits;
}
