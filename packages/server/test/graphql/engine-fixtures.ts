/**
 * A small metadata of our own over the real tables, for the engine tests (the product metadata
 * is written separately): a `user` role that sees its own rows and the users it manages, a
 * `support` role that sees names masked, an `anonymous` role that sees exchanges only.
 */
import type pg from 'pg';
import { createGraphqlEngine, type VyuhaGraphqlEngine } from '../../src/graphql/engine';
import type { ActionDeclaration, Metadata, PermissionFilter, TableDeclaration } from '../../src/graphql/metadata/types';
import type { GraphqlSession } from '../../src/graphql/types';
import { GraphqlFailure } from '../../src/graphql/types';
import type { EngineLimits } from '../../src/graphql/execute/limits';

const own: PermissionFilter = { user_id: { _eq: 'X-Hasura-User-Id' } };

const users: TableDeclaration = {
  name: 'users',
  objectRelationships: {},
  arrayRelationships: {
    strategies: { table: 'strategies', columns: { user_id: 'user_id' } },
    user_app_configs: { table: 'user_app_configs', columns: { user_id: 'user_id' } },
    user_brokers: { table: 'user_brokers', columns: { user_id: 'user_id' } },
    managed_by: { table: 'managers', columns: { user_id: 'user_id' } },
  },
  permissions: {
    user: {
      select: {
        filter: { _or: [own, { managed_by: { manager_id: { _eq: 'X-Hasura-User-Id' } } }] },
        columns: ['user_id', 'name', 'tier', 'created_at'],
        allowAggregations: true,
      },
      update: { filter: own, columns: ['name'] },
    },
    support: {
      select: {
        filter: {},
        columns: ['user_id', 'name', 'tier'],
        masked: { name: { mask: 'name', unlessRow: own } },
        limit: 5,
        allowAggregations: true,
      },
    },
  },
};

const strategies: TableDeclaration = {
  name: 'strategies',
  objectRelationships: { user: { table: 'users', columns: { user_id: 'user_id' } } },
  permissions: {
    user: {
      select: { filter: own, columns: 'all', allowAggregations: true },
      insert: { check: { status: { _neq: 'ARCHIVED' } }, columns: ['name', 'mode', 'status', 'kind', 'config', 'strategy_type', 'interval_minutes'], presets: { user_id: 'X-Hasura-User-Id' } },
      update: { filter: own, check: { status: { _neq: 'ARCHIVED' } }, columns: ['name', 'mode', 'status', 'config', 'interval_minutes'] },
      delete: { filter: own },
    },
  },
};

const userAppConfigs: TableDeclaration = {
  name: 'user_app_configs',
  objectRelationships: { user: { table: 'users', columns: { user_id: 'user_id' } } },
  permissions: {
    user: {
      select: { filter: own, columns: 'all', allowAggregations: true },
      insert: { check: own, columns: 'all' },
      update: { filter: own, columns: ['meta_data'] },
      delete: { filter: own },
    },
  },
};

const managers: TableDeclaration = {
  name: 'managers',
  objectRelationships: {
    user: { table: 'users', columns: { user_id: 'user_id' } },
    manager: { table: 'users', columns: { manager_id: 'user_id' } },
  },
  permissions: {
    user: { select: { filter: { manager_id: { _eq: 'X-Hasura-User-Id' } }, columns: 'all' } },
  },
};

const userCredits: TableDeclaration = {
  name: 'user_credits',
  permissions: { user: { select: { filter: own, columns: 'all', allowAggregations: true, limit: 3 } } },
};

const userBrokers: TableDeclaration = {
  name: 'user_brokers',
  hiddenColumns: ['api_secret_ciphertext', 'api_secret_nonce', 'api_secret_key_id'],
  permissions: { user: { select: { filter: own, columns: 'all' } } },
};

const exchanges: TableDeclaration = {
  name: 'exchanges',
  permissions: {
    anonymous: { select: { filter: {}, columns: ['exchange', 'name', 'zone', 'market_open', 'is_default'] } },
    user: { select: { filter: {}, columns: 'all', allowAggregations: true } },
  },
};

/** Admin-only: immutable snapshots (their trigger raises 42501 on UPDATE). */
const algorithms: TableDeclaration = { name: 'algorithms', permissions: {} };
const algorithmVersions: TableDeclaration = { name: 'algorithm_versions', permissions: {} };

/** An action that echoes its input and the caller, or fails with a Hasura error on demand. */
export const echoAction: ActionDeclaration = {
  name: 'echo_session',
  kind: 'mutation',
  field: 'echo_session(input: echo_input!): echo_output!',
  types: 'input echo_input { text: String!, fail: Boolean }\ntype echo_output { text: String!, user_id: uuid, calls: Int! }',
  roles: ['user'],
  async handler({ args, session }) {
    const input = args.input as { text: string; fail?: boolean | null };
    if (input.fail) throw new GraphqlFailure('action-error', `refused: ${input.text}`);
    return { text: input.text.toUpperCase(), user_id: session.variables['x-hasura-user-id'], calls: 1 };
  },
};

export const testMetadata: Metadata = {
  tables: [users, strategies, userAppConfigs, managers, userCredits, userBrokers, exchanges, algorithms, algorithmVersions],
  actions: [echoAction],
};

/** The demo users' ids by tier (trial, basic, advanced, manager, support...). */
export async function demoUserIds(pool: pg.Pool): Promise<Record<string, string>> {
  const { rows } = await pool.query<{ tier: string; user_id: string }>('SELECT tier, user_id FROM users');
  return Object.fromEntries(rows.map((row) => [row.tier, row.user_id]));
}

/** A session of role `user` (or another) acting as `userId`. */
export function userSession(userId: string, role = 'user'): GraphqlSession {
  return { role, admin: false, variables: { 'x-hasura-role': role, 'x-hasura-user-id': userId } };
}

export const adminSession: GraphqlSession = { role: 'admin', admin: true, variables: { 'x-hasura-role': 'admin' } };

/** The engine over the test metadata. */
export function testEngine(pool: pg.Pool, options: { production?: boolean; limits?: Partial<EngineLimits>; metadata?: Metadata } = {}): Promise<VyuhaGraphqlEngine> {
  return createGraphqlEngine({
    pool,
    metadata: options.metadata ?? testMetadata,
    ...(options.production === undefined ? {} : { production: options.production }),
    ...(options.limits ? { limits: options.limits } : {}),
  });
}

/** Runs a request and parses the body. */
export async function run(engine: VyuhaGraphqlEngine, input: { query: string; variables?: Record<string, unknown>; session: GraphqlSession; operationName?: string }): Promise<{ data?: Record<string, unknown>; errors?: { message: string; extensions: { code: string; path: string } }[] }> {
  const outcome = await engine.execute({ query: input.query, variables: input.variables ?? null, operationName: input.operationName ?? null }, input.session);
  return JSON.parse(outcome.body) as { data?: Record<string, unknown> };
}
