/**
 * parse (LRU by query text) -> pick the operation -> validate against the role's schema (LRU by
 * role, operation name and text) -> limits and introspection policy. The result is cached with
 * its errors, so a repeated query costs two map lookups before compiling.
 */
import {
  GraphQLError, Kind, parse, validate,
  type DocumentNode, type FragmentDefinitionNode, type GraphQLObjectType, type GraphQLSchema, type OperationDefinitionNode,
} from 'graphql';
import type { GraphqlError, GraphqlRequest, GraphqlSession } from '../types';
import type { RoleModel } from '../schema/role-model';
import { roleKey } from '../schema/role-model';
import type { RoleSchemas } from '../schema/role-schemas';
import { graphqlError, validationError } from './errors';
import { measureOperation, type EngineLimits } from './limits';
import { LruCache } from './lru';

export interface PreparedOperation {
  readonly document: DocumentNode;
  readonly operation: OperationDefinitionNode;
  readonly fragments: Readonly<Record<string, FragmentDefinitionNode>>;
  readonly schema: GraphQLSchema;
  readonly model: RoleModel;
  readonly rootType: GraphQLObjectType;
}

export type Prepared = { readonly ok: true; readonly operation: PreparedOperation } | { readonly ok: false; readonly errors: readonly GraphqlError[] };

/** Roles that may introspect in production mode (besides the admin secret). */
const INTROSPECTING_ROLES = new Set(['administrator', 'superadmin']);

export interface PreparerOptions {
  readonly schemas: RoleSchemas;
  readonly limits: EngineLimits;
  readonly production: boolean;
}

export class OperationPreparer {
  private readonly documents: LruCache<string, DocumentNode | GraphqlError>;
  private readonly operations: LruCache<string, Prepared>;

  constructor(private readonly options: PreparerOptions) {
    this.documents = new LruCache(options.limits.documentCacheSize);
    this.operations = new LruCache(options.limits.operationCacheSize);
  }

  /** The prepared operation of a request for a session, or its request errors. */
  prepare(request: GraphqlRequest, session: GraphqlSession): Prepared {
    const operationName = request.operationName ?? '';
    const key = `${roleKey(session)}\u0000${operationName}\u0000${request.query}`;
    let prepared = this.operations.get(key);
    if (!prepared) {
      prepared = this.prepareUncached(request, session);
      this.operations.set(key, prepared);
    }
    return prepared;
  }

  private parseDocument(query: string): DocumentNode | GraphqlError {
    let document = this.documents.get(query);
    if (!document) {
      try {
        document = parse(query);
      } catch (error) {
        const detail = error instanceof GraphQLError && error.locations?.[0]
          ? `${error.message.replace(/^Syntax Error: /, '')} at ${error.locations[0].line}:${error.locations[0].column}`
          : String(error);
        document = graphqlError('validation-failed', `not a valid graphql query: ${detail}`, '$.query');
      }
      this.documents.set(query, document);
    }
    return document;
  }

  private prepareUncached(request: GraphqlRequest, session: GraphqlSession): Prepared {
    if (typeof request.query !== 'string' || request.query.trim() === '') {
      return { ok: false, errors: [graphqlError('validation-failed', 'the query is empty', '$.query')] };
    }
    const document = this.parseDocument(request.query);
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
    const validationErrors = validate(schema, document);
    if (validationErrors.length > 0) {
      return { ok: false, errors: validationErrors.slice(0, 10).map((error) => validationError(error, { operation, fragments })) };
    }
    const policyError = this.checkPolicy({ operation, fragments, session });
    if (policyError) return { ok: false, errors: [policyError] };
    const rootType = schema.getRootType(operation.operation);
    if (!rootType) return { ok: false, errors: [graphqlError('validation-failed', `no ${operation.operation}s exist for this role`)] };
    return { ok: true, operation: { document, operation, fragments, schema, model, rootType } };
  }

  private checkPolicy(input: { operation: OperationDefinitionNode; fragments: Readonly<Record<string, FragmentDefinitionNode>>; session: GraphqlSession }): GraphqlError | undefined {
    const { operation, fragments, session } = input;
    const { limits } = this.options;
    const size = measureOperation(operation.selectionSet, fragments);
    if (size.rootFields > limits.maxRootFields) {
      return graphqlError('validation-failed', `too many root fields: ${size.rootFields} (at most ${limits.maxRootFields})`);
    }
    if (size.depth > limits.maxDepth) return graphqlError('validation-failed', `query depth ${size.depth} exceeds the limit of ${limits.maxDepth}`);
    if (size.nodes > limits.maxNodes) return graphqlError('validation-failed', `query has ${size.nodes} fields, more than the limit of ${limits.maxNodes}`);
    const mayIntrospect = !this.options.production || session.admin || INTROSPECTING_ROLES.has(session.role);
    if (!mayIntrospect) {
      const introspection = rootIntrospection(operation, fragments);
      if (introspection) return graphqlError('validation-failed', 'introspection is disabled', `$.selectionSet.${introspection}`);
    }
    return undefined;
  }
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
