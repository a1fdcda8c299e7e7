/**
 * parse (cached by query text, bytes-bounded) -> pick the operation -> measure every definition
 * against the limits (document-measure.ts: linear, before any super-linear validation rule) ->
 * validate against the role's schema -> introspection policy. A prepared operation is cached by
 * role, operation name and text (bytes-bounded), so a repeated query costs two map lookups
 * before compiling. Nothing that failed is cached: a flood of distinct bad documents leaves the
 * caches as they were.
 */
import {
  GraphQLError, Kind, parse, validate,
  type DocumentNode, type FragmentDefinitionNode, type GraphQLObjectType, type GraphQLSchema, type OperationDefinitionNode,
} from 'graphql';
import type { BatchSpent, GraphqlError, GraphqlRequest, GraphqlSession } from '../types';
import type { RoleModel } from '../schema/role-model';
import { roleKey } from '../schema/role-model';
import type { RoleSchemas } from '../schema/role-schemas';
import { measureDocument, type OperationSize } from './document-measure';
import { graphqlError, validationError } from './errors';
import type { EngineLimits } from './limits';
import { listWeightsOf } from './list-weights';
import { ByteLruCache, stringBytes } from './lru';
import { MAX_BRACKET_NESTING, scanQuery } from './query-scan';

export interface PreparedOperation {
  /** Unique per prepared operation in this process (plan-cache.ts keys plans by it). */
  readonly id: number;
  readonly document: DocumentNode;
  readonly operation: OperationDefinitionNode;
  readonly fragments: Readonly<Record<string, FragmentDefinitionNode>>;
  readonly schema: GraphQLSchema;
  readonly model: RoleModel;
  readonly rootType: GraphQLObjectType;
  /** What the operation asks for (document-measure.ts). */
  readonly size: OperationSize;
  /** Tokens of its document, comments included. */
  readonly tokens: number;
}

export type Prepared = { readonly ok: true; readonly operation: PreparedOperation } | { readonly ok: false; readonly errors: readonly GraphqlError[] };

/** Roles that may introspect in production mode (besides the admin secret). */
const INTROSPECTING_ROLES = new Set(['administrator', 'superadmin']);

/**
 * Estimated heap bytes per token of a parsed document: the token object (graphql-js links every
 * token, comments included, from the tree's locations), its share of AST nodes and locations.
 */
export const BYTES_PER_TOKEN = 240;
/** No single cached document or operation may hold more than this share of its cache. */
const ENTRY_SHARE = 16;

export interface PreparerOptions {
  readonly schemas: RoleSchemas;
  readonly limits: EngineLimits;
  readonly production: boolean;
}

interface ParsedDocument {
  readonly document: DocumentNode;
  readonly bytes: number;
}

let nextOperationId = 1;

export class OperationPreparer {
  private readonly documents: ByteLruCache<string, ParsedDocument>;
  private readonly operations: ByteLruCache<string, PreparedOperation>;
  /** Estimated bytes of each parsed document (an operation entry holds its document). */
  private readonly documentSizes = new WeakMap<DocumentNode, number>();
  /** Tokens of each parsed document (batches spend them). */
  private readonly documentTokens = new WeakMap<DocumentNode, number>();
  /** Query texts longer than this can never be cached (see prepare). */
  private readonly maxCachedQueryBytes: number;

  constructor(private readonly options: PreparerOptions) {
    const { documentCacheBytes, operationCacheBytes } = options.limits;
    this.documents = new ByteLruCache({ maxBytes: documentCacheBytes, maxEntryBytes: Math.floor(documentCacheBytes / ENTRY_SHARE) });
    this.operations = new ByteLruCache({ maxBytes: operationCacheBytes, maxEntryBytes: Math.floor(operationCacheBytes / ENTRY_SHARE) });
    this.maxCachedQueryBytes = Math.floor(Math.min(documentCacheBytes, operationCacheBytes) / ENTRY_SHARE);
  }

  /**
   * The prepared operation of a request for a session, or its request errors. In a batch, the
   * operation must also fit what the batch's earlier operations left of the limits.
   */
  prepare(request: GraphqlRequest, session: GraphqlSession, batch?: BatchSpent): Prepared {
    if (batch?.full) return { ok: false, errors: [batchFull(this.options.limits)] };
    const operationName = request.operationName ?? '';
    // A text too long for the cache is never looked up: building and hashing its key would copy it.
    const cacheable = stringBytes(request.query) <= this.maxCachedQueryBytes;
    const key = cacheable ? `${roleKey(session)}\u0000${operationName}\u0000${request.query}` : '';
    const cached = cacheable ? this.operations.get(key) : undefined;
    if (cached) return this.spend(cached, batch);
    const prepared = this.prepareUncached(request, session, batch);
    if (prepared.ok && cacheable) {
      const { document } = prepared.operation;
      const documentBytes = this.documentSizes.get(document) ?? stringBytes(request.query);
      this.documents.set(request.query, { document, bytes: documentBytes }, documentBytes);
      this.operations.set(key, prepared.operation, stringBytes(key) + documentBytes);
      return this.spend(prepared.operation, batch);
    }
    return prepared;
  }

  /** Adds an operation's size to its batch, or refuses it when the batch has not that much left. */
  private spend(operation: PreparedOperation, batch: BatchSpent | undefined): Prepared {
    if (!batch) return { ok: true, operation };
    const { size } = operation;
    const refused = batchRefusal({ ...size, tokens: operation.tokens }, { batch, limits: this.options.limits });
    if (refused) return { ok: false, errors: [refused] };
    batch.nodes += size.nodes;
    batch.aliases += size.aliases;
    batch.cost += size.cost;
    batch.tokens += operation.tokens;
    return { ok: true, operation };
  }

  /** Estimated bytes of the caches (tests, the benchmark). */
  cachedBytes(): { documents: number; operations: number } {
    return { documents: this.documents.bytes, operations: this.operations.bytes };
  }

  /**
   * The parsed document (not cached here: only a document whose operation prepares is kept). In
   * a batch, the parser stops at the tokens the batch has left.
   */
  private parseDocument(query: string, batch: BatchSpent | undefined): DocumentNode | GraphqlError {
    const cached = stringBytes(query) <= this.maxCachedQueryBytes ? this.documents.get(query) : undefined;
    if (cached) return cached.document;
    const { maxQueryLength } = this.options.limits;
    const maxTokens = this.options.limits.maxTokens - (batch?.tokens ?? 0);
    if (maxTokens <= 0 && batch) {
      batch.full = true;
      return batchFull(this.options.limits);
    }
    if (query.length > maxQueryLength) {
      return graphqlError('validation-failed', `the query is ${query.length} characters, more than the limit of ${maxQueryLength}: pass large values as variables`, '$.query');
    }
    // Before parsing: the parser recurses per bracket and keeps every comment uncounted.
    const unparsable = scanQuery(query, { maxNesting: MAX_BRACKET_NESTING, maxComments: maxTokens });
    if (unparsable) return graphqlError('validation-failed', `not a valid graphql query: ${unparsable}`, '$.query');
    let document: DocumentNode;
    try {
      document = parse(query, { maxTokens });
    } catch (error) {
      if (batch && batch.tokens > 0 && /tokens\. Parsing aborted/.test(String(error))) {
        batch.full = true;
        return batchFull(this.options.limits);
      }
      const detail = error instanceof GraphQLError && error.locations?.[0]
        ? `${error.message.replace(/^Syntax Error: /, '')} at ${error.locations[0].line}:${error.locations[0].column}`
        : String(error);
      return graphqlError('validation-failed', `not a valid graphql query: ${detail}`, '$.query');
    }
    const tokens = tokenCount(document);
    this.documentTokens.set(document, tokens);
    this.documentSizes.set(document, stringBytes(query) + tokens * BYTES_PER_TOKEN);
    return document;
  }

  private prepareUncached(request: GraphqlRequest, session: GraphqlSession, batch: BatchSpent | undefined): Prepared {
    if (typeof request.query !== 'string' || !/\S/.test(request.query)) {
      return { ok: false, errors: [graphqlError('validation-failed', 'the query is empty', '$.query')] };
    }
    const document = this.parseDocument(request.query, batch);
    if (!('kind' in document)) return { ok: false, errors: [document] };
    const operations = document.definitions.filter((definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION);
    const fragments: Record<string, FragmentDefinitionNode> = {};
    for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments[definition.name.value] = definition;
    const operation = request.operationName
      ? operations.find((candidate) => candidate.name?.value === request.operationName)
      : operations.length === 1 ? operations[0] : undefined;
    if (!operation) {
      const message = request.operationName
        ? `no such operation found in the document: ${JSON.stringify(request.operationName)}`
        : 'exactly one operation has to be present in the document when operationName is not specified';
      return { ok: false, errors: [graphqlError('validation-failed', message)] };
    }
    const { schema, model } = this.options.schemas.forSession(session);
    const weights = listWeightsOf(schema, { model, maxRowsPerSelect: this.options.limits.maxRowsPerSelect });
    const measured = measureDocument({ definitions: document.definitions, schema, limits: this.options.limits, weights });
    if (!measured.ok) return { ok: false, errors: [measured.error] };
    const size = measured.sizes.get(operation) ?? { depth: 0, nodes: 0, aliases: 0, cost: 0 };
    const tokens = this.documentTokens.get(document) ?? 0;
    // In a batch, refuse before validating what the batch has no room left for.
    const refused = batch && batchRefusal({ ...size, tokens }, { batch, limits: this.options.limits });
    if (refused) return { ok: false, errors: [refused] };
    const validationErrors = validate(schema, document, undefined, { maxErrors: 10 });
    if (validationErrors.length > 0) {
      return { ok: false, errors: validationErrors.slice(0, 10).map((error) => validationError(error, { operation, fragments })) };
    }
    const policyError = this.checkPolicy({ operation, fragments, session });
    if (policyError) return { ok: false, errors: [policyError] };
    const rootType = schema.getRootType(operation.operation);
    if (!rootType) return { ok: false, errors: [graphqlError('validation-failed', `no ${operation.operation}s exist for this role`)] };
    return { ok: true, operation: { id: nextOperationId++, document, operation, fragments, schema, model, rootType, size, tokens } };
  }

  private checkPolicy(input: { operation: OperationDefinitionNode; fragments: Readonly<Record<string, FragmentDefinitionNode>>; session: GraphqlSession }): GraphqlError | undefined {
    const { operation, fragments, session } = input;
    const mayIntrospect = !this.options.production || session.admin || INTROSPECTING_ROLES.has(session.role);
    if (!mayIntrospect) {
      const introspection = rootIntrospection(operation, fragments);
      if (introspection) return graphqlError('validation-failed', 'introspection is disabled', `$.selectionSet.${introspection}`);
    }
    return undefined;
  }
}

/** The error of an operation its batch has no room left for, else undefined. */
function batchRefusal(size: OperationSize & { readonly tokens: number }, input: { batch: BatchSpent; limits: EngineLimits }): GraphqlError | undefined {
  const { batch, limits } = input;
  const fits = batch.nodes + size.nodes <= limits.maxNodes && batch.aliases + size.aliases <= limits.maxAliases
    && batch.cost + size.cost <= limits.maxCost && batch.tokens + size.tokens <= limits.maxTokens;
  if (fits) return undefined;
  batch.full = true;
  return batchFull(limits);
}

/** The refusal of an operation its batch has no room left for. */
function batchFull(limits: EngineLimits): GraphqlError {
  const message = `this batch's operations together ask for more than one operation may (${limits.maxNodes} fields, ${limits.maxAliases} aliases,`
    + ` a cost of ${limits.maxCost}, ${limits.maxTokens} tokens): send this operation in a request of its own`;
  return graphqlError('validation-failed', message);
}

/** Tokens of a parsed document, comments included (the chain graphql-js keeps from `loc`). */
function tokenCount(document: DocumentNode): number {
  let count = 0;
  for (let token = document.loc?.startToken ?? null; token !== null; token = token.next) count += 1;
  return count;
}

/** The first root `__schema` / `__type` field (fragments expanded), if any. */
function rootIntrospection(operation: OperationDefinitionNode, fragments: Readonly<Record<string, FragmentDefinitionNode>>): string | undefined {
  const seen = new Set<string>();
  const search = (selections: OperationDefinitionNode['selectionSet']['selections']): string | undefined => {
    for (const selection of selections) {
      if (selection.kind === Kind.FIELD) {
        if (selection.name.value === '__schema' || selection.name.value === '__type') return selection.name.value;
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const found = search(selection.selectionSet.selections);
        if (found) return found;
      } else if (!seen.has(selection.name.value)) {
        seen.add(selection.name.value);
        const fragment = fragments[selection.name.value];
        const found = fragment && search(fragment.selectionSet.selections);
        if (found) return found;
      }
    }
    return undefined;
  };
  return search(operation.selectionSet.selections);
}
