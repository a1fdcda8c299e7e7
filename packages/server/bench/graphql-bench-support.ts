// Shared pieces of the GraphQL benchmarks: a throwaway embedded PostgreSQL, users with one
// strategy each, the real engine over a small metadata of our own, and the app listening on
// loopback with registerGraphql.

import { randomUUID } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import pg from 'pg';
import { readAuthConfig } from '../src/auth/config';
import { signJwt } from '../src/auth/jwt';
import { createSigningKeys } from '../src/auth/signing-keys';
import { createDatabaseIfMissing } from '../src/db/database';
import { startEmbeddedPostgres } from '../src/db/embedded-postgres';
import { loadMigrations, migrate } from '../src/db/migrate';
import type { Metadata } from '../src/graphql/metadata/types';
import { registerGraphql, type GraphqlPluginOptions, type GraphqlTransport } from '../src/graphql/plugin';
import type { GraphqlEngine } from '../src/graphql/types';
import { migrationsDir } from '../src/paths';

export const JWT_KEY = 'graphql-bench-hs256-key-0123456789abcdef';

/** Runs `work` against a fresh, migrated database on an embedded PostgreSQL in a temp folder. */
export async function withBenchDatabase(work: (url: string) => Promise<void>): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'vyuha-gql-bench-'));
  await chmod(dataDir, 0o755);
  const server = await startEmbeddedPostgres({ dataDir, port: 0, durability: 'fast' });
  try {
    await createDatabaseIfMissing(server.urlFor('postgres'), 'bench');
    const pool = new pg.Pool({ connectionString: server.urlFor('bench'), max: 2 });
    try {
      await migrate(pool, await loadMigrations(migrationsDir));
    } finally {
      await pool.end();
    }
    await work(server.urlFor('bench'));
  } finally {
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

export interface BenchUser {
  readonly userId: string;
  readonly strategyId: string;
}

/** `count` users (tier basic), each owning one strategy. */
export async function seedUsers(pool: pg.Pool, count: number): Promise<BenchUser[]> {
  const users = Array.from({ length: count }, () => ({ userId: randomUUID(), strategyId: randomUUID() }));
  const ids = users.map((user) => user.userId);
  await pool.query("INSERT INTO auth.users (id, email, default_role) SELECT id, id || '@bench.example', 'basic' FROM unnest($1::uuid[]) id", [ids]);
  await pool.query("INSERT INTO users (user_id, name, tier) SELECT id, 'Bench ' || left(id::text, 8), 'basic' FROM unnest($1::uuid[]) id", [ids]);
  await pool.query(
    "INSERT INTO strategies (strategy_id, user_id, name, kind) SELECT s, u, 'Straddle ' || left(s::text, 4), 'basket' FROM unnest($1::uuid[], $2::uuid[]) AS t(s, u)",
    [users.map((user) => user.strategyId), ids],
  );
  return users;
}

/** The metadata of the benchmarks: strategies, each user reading their own. */
export const BENCH_METADATA: Metadata = {
  tables: [
    {
      name: 'strategies',
      permissions: {
        basic: { select: { filter: { user_id: { _eq: 'X-Hasura-User-Id' } }, columns: ['strategy_id', 'name', 'user_id', 'status', 'updated_at'] } },
      },
    },
  ],
  actions: [],
};

/** The real engine (packages/server/src/graphql/engine.ts); a clear error while it does not exist yet. */
export async function createBenchEngine(pool: pg.Pool): Promise<GraphqlEngine> {
  const modulePath = '../src/graphql/engine';
  let module: { createGraphqlEngine?: (options: { pool: pg.Pool; metadata: Metadata }) => Promise<GraphqlEngine> };
  try {
    module = (await import(modulePath)) as typeof module;
  } catch (error) {
    throw new Error(`the GraphQL engine (src/graphql/engine.ts) cannot be loaded, so this benchmark cannot run yet: ${(error as Error).message}`);
  }
  if (typeof module.createGraphqlEngine !== 'function') throw new Error('src/graphql/engine.ts exports no createGraphqlEngine');
  return module.createGraphqlEngine({ pool, metadata: BENCH_METADATA });
}

/**
 * Request budgets no benchmark reaches: a load generator sends thousands of requests a second
 * from one address, which the default budgets (meant for people) would refuse.
 */
export const UNLIMITED_BUDGETS = {
  addressBudget: { requests: 1_000_000_000, perSeconds: 1 },
  userBudget: { requests: 1_000_000_000, perSeconds: 1 },
} as const;

/** An HS256 access token for a user, as the auth service would issue it. */
export function benchToken(userId: string): string {
  const now = Math.floor(Date.now() / 1000);
  const hasura = { 'x-hasura-allowed-roles': ['user', 'me', 'basic'], 'x-hasura-default-role': 'basic', 'x-hasura-user-id': userId };
  return signJwt({ sub: userId, iss: 'hasura-auth', iat: now, exp: now + 3600, 'https://hasura.io/jwt/claims': hasura }, { algorithm: 'HS256', secret: Buffer.from(JWT_KEY) });
}

export interface BenchServer {
  readonly app: FastifyInstance;
  readonly transport: GraphqlTransport;
  readonly port: number;
  close(): Promise<void>;
}

/**
 * The app with registerGraphql on 127.0.0.1 (a free port), with the logger of the production app
 * (http/app.ts: pino, no line per request; `warn` keeps the start-up line out of the figures).
 */
export async function startBenchServer(options: { pool: pg.Pool; engine: GraphqlEngine; routes?: (app: FastifyInstance) => void } & Partial<Omit<GraphqlPluginOptions, 'pool' | 'engine'>>): Promise<BenchServer> {
  const app = Fastify({ logger: { level: 'warn' }, logController: new LogController({ disableRequestLogging: true }) });
  options.routes?.(app);
  const config = readAuthConfig({ HASURA_GRAPHQL_JWT_SECRET: JSON.stringify({ type: 'HS256', key: JWT_KEY }) });
  const keys = createSigningKeys({ pool: options.pool, config });
  const { routes: _routes, ...graphqlOptions } = options;
  const transport = await registerGraphql(app, { verifyToken: keys.verify, production: true, log: app.log, ...graphqlOptions });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  await transport.liveQueries.ready();
  return { app, transport, port: typeof address === 'object' && address ? address.port : 0, close: () => app.close() };
}

/** Percentile of sorted numbers (nearest rank). */
export function percentile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))] ?? Number.NaN;
}
