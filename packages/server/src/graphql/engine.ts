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
import type { GraphqlEngine, GraphqlRequest, GraphqlSession } from './types';
import { readCatalogue, type Catalogue } from './catalogue';
import { validateMetadata } from './catalogue-validate';
import type { Metadata } from './metadata/types';
import { RoleSchemas } from './schema/role-schemas';
import { StatementRunner } from './execute/database';
import { DEFAULT_ENGINE_LIMITS, type EngineLimits } from './execute/limits';
import { prepareLiveQuery } from './execute/live';
import { OperationPreparer } from './execute/prepare';
import { QueryPlanCache } from './execute/plan-cache';
import { executeRows } from './execute/rows';
import { executeRequest, type ExecutorDependencies } from './execute/run';

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
  const limits: EngineLimits = { ...DEFAULT_ENGINE_LIMITS, ...options.limits };
  const schemas = new RoleSchemas({ catalogue, actions: options.metadata.actions });
  // Build every schema now: a bad action SDL fails the start, and no request pays the build.
  schemas.forSession({ admin: true, role: 'admin' });
  for (const role of schemas.knownRoles()) schemas.forSession({ admin: false, role });
  const dependencies: ExecutorDependencies = {
    catalogue,
    runner: new StatementRunner(options.pool),
    preparer: new OperationPreparer({ schemas, limits, production: options.production ?? false }),
    limits,
    actions: new Map(options.metadata.actions.map((action) => [action.name, action])),
    log: options.log,
    plans: new QueryPlanCache(),
  };
  return {
    catalogue,
    execute: (request, session) => executeRequest(dependencies, { request, session }),
    subscribe: async (request, session) => prepareLiveQuery(dependencies, { request, session }),
    executeRows: (request, session) => executeRows(dependencies, { request, session }),
  };
}
