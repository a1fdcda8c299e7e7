/**
 * The GraphQL engine: Hasura-shaped queries, mutations, actions and live queries over
 * PostgreSQL, with one schema per role generated from the metadata and the catalogue.
 *
 * Life of a request: parse (cached) -> validate against the role's schema (cached) -> coerce
 * variables -> collect root fields -> compile each table field to SQL that builds the JSON in
 * PostgreSQL -> run (queries: one statement; mutations: one transaction) -> splice the JSON
 * texts into `{"data":{...}}`.
 */
import type pg from 'pg';
import type { ExecuteOptions, GraphqlEngine, GraphqlError, GraphqlRequest, GraphqlSession } from './types';
import { readCatalogue, type Catalogue } from './catalogue';
import { validateMetadata } from './catalogue-validate';
import type { Metadata } from './metadata/types';
import { RoleSchemas } from './schema/role-schemas';
import { StatementRunner } from './execute/database';
import { resolveEngineLimits, type EngineLimits } from './execute/limits';
import { ByteLruCache } from './execute/lru';
import { prepareLiveQuery } from './execute/live';
import { OperationPreparer } from './execute/prepare';
import { QueryPlanCache } from './execute/plan-cache';
import { executeRows } from './execute/rows';
import { coerceRequest, executeRequest, type ExecutorDependencies } from './execute/run';

export interface GraphqlEngineOptions {
  readonly pool: pg.Pool;
  readonly metadata: Metadata;
  /** Production mode: introspection only for the admin secret, administrator and superadmin. */
  readonly production?: boolean;
  readonly limits?: Partial<EngineLimits>;
  /** Where unexpected errors are logged (their details never reach the client). */
  readonly log?: (message: string) => void;
}

export interface VyuhaGraphqlEngine extends GraphqlEngine {
  /** Rows of the first root field of a query, streamed in batches (CSV export); throws GraphqlFailure on request errors. */
  executeRows(request: GraphqlRequest, session: GraphqlSession): AsyncIterable<Record<string, unknown>>;
  /** The catalogue the engine was built from (tests, docs). */
  readonly catalogue: Catalogue;
  /**
   * Everything before a request runs (parse, limits, validation, variables), for tests and the
   * abuse benchmark: the errors that would refuse it, or none.
   */
  prepare(request: GraphqlRequest, session: GraphqlSession, options?: ExecuteOptions): { readonly errors: readonly GraphqlError[] };
  /** Estimated bytes each cache holds (tests, the abuse benchmark); each stays within its EngineLimits budget. */
  cacheBytes(): { readonly documents: number; readonly operations: number; readonly plans: number; readonly introspection: number };
}

/**
 * Reads the catalogue, validates the metadata against it (throws naming table, role and path),
 * builds the schema of every role named in the metadata, and returns the engine.
 */
export async function createGraphqlEngine(options: GraphqlEngineOptions): Promise<VyuhaGraphqlEngine> {
  const catalogue = await readCatalogue(options.pool, options.metadata);
  validateMetadata(catalogue);
  const actionNames = new Set<string>();
  for (const action of options.metadata.actions) {
    if (actionNames.has(action.name)) throw new Error(`graphql metadata: action "${action.name}" is declared twice`);
    actionNames.add(action.name);
  }
  const limits: EngineLimits = resolveEngineLimits(options.limits);
  const schemas = new RoleSchemas({ catalogue, actions: options.metadata.actions });
  // Build every schema now: a bad action SDL fails the start, and no request pays the build.
  schemas.forSession({ admin: true, role: 'admin' });
  for (const role of schemas.knownRoles()) schemas.forSession({ admin: false, role });
  const preparer = new OperationPreparer({ schemas, limits, production: options.production ?? false });
  const dependencies: ExecutorDependencies = {
    catalogue,
    runner: new StatementRunner(options.pool),
    preparer,
    limits,
    actions: new Map(options.metadata.actions.map((action) => [action.name, action])),
    log: options.log,
    plans: new QueryPlanCache({ maxBytes: limits.planCacheBytes }),
    introspection: new ByteLruCache({ maxBytes: limits.introspectionCacheBytes, maxEntryBytes: Math.floor(limits.introspectionCacheBytes / 4) }),
  };
  return {
    catalogue,
    execute: (request, session, options) => executeRequest(dependencies, { request, session, batch: options?.batch }),
    subscribe: async (request, session) => prepareLiveQuery(dependencies, { request, session }),
    executeRows: (request, session) => executeRows(dependencies, { request, session }),
    prepare: (request, session, options) => {
      const coerced = coerceRequest(dependencies, { request, session, batch: options?.batch });
      return { errors: 'errors' in coerced ? coerced.errors : [] };
    },
    cacheBytes: () => ({ ...preparer.cachedBytes(), plans: dependencies.plans.bytes, introspection: dependencies.introspection.bytes }),
  };
}
