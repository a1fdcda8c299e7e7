import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type pg from 'pg';
import type { AccessTokenClaims } from '../auth/jwt';
import { registerGraphqlCsv, type RowSource } from './csv';
import { GRAPHQL_PATHS, registerGraphqlHttp } from './http';
import { resolveTransportLimits, type TransportLimits } from './limits';
import { PAT_TABLE, PatSessions } from './pat-sessions';
import { createSessionResolver, sessionRecheck } from './session';
import { createTransportGuards, type TransportGuards } from './transport-guards';
import type { GraphqlEngine, GraphqlRequest, GraphqlSession } from './types';
import { createLiveQueryManager, type LiveQueryManager, type LiveQueryManagerOptions } from './ws/live-queries';
import { attachGraphqlWebSocket, type GraphqlWebSocket } from './ws/server';

export interface GraphqlPluginOptions {
  readonly engine: GraphqlEngine;
  readonly pool: pg.Pool;
  /** Verifies an access token (auth/signing-keys.ts `createSigningKeys(...).verify`). */
  verifyToken(token: string): Promise<AccessTokenClaims>;
  /** ADMIN_SECRET; undefined = the admin secret is refused. */
  readonly adminSecret?: string | undefined;
  /** Hides internal error details from clients. */
  readonly production: boolean;
  readonly log: FastifyBaseLogger;
  /** The JWT claims namespace (auth config `jwt.claimsNamespace`); Hasura's default otherwise. */
  readonly claimsNamespace?: string;
  readonly limits?: Partial<TransportLimits>;
  /** The CSV rows (the engine's `executeRows`); when absent the engine's `executeRows` method, else `execute` (not streamed). */
  readonly executeRows?: RowSource;
  readonly liveQueries?: Omit<LiveQueryManagerOptions, 'pool' | 'log'>;
}

/** What registerGraphql started (tests and health checks look at it). */
export interface GraphqlTransport {
  readonly liveQueries: LiveQueryManager;
  readonly webSocket: GraphqlWebSocket;
  readonly guards: TransportGuards;
}

/**
 * Registers the GraphQL transport on an app that is not listening yet: POST /v1/graphql and
 * /graphql, POST /api/gql/csv, WebSocket (graphql-transport-ws and graphql-ws) on the GraphQL
 * paths, and the live-query manager with its LISTEN connection. Closing the app closes the
 * sockets and the LISTEN connection.
 */
export async function registerGraphql(app: FastifyInstance, options: GraphqlPluginOptions): Promise<GraphqlTransport> {
  const limits = resolveTransportLimits(options.limits);
  // One PAT liveness cache for every transport, emptied whenever a PAT row changes (below).
  const patSessions = new PatSessions({ pool: options.pool });
  const sessions = createSessionResolver({
    verifyToken: options.verifyToken,
    adminSecret: options.adminSecret,
    pool: options.pool,
    patSessions,
    ...(options.claimsNamespace === undefined ? {} : { claimsNamespace: options.claimsNamespace }),
  });
  // One budget and one admission for every transport: a client cannot double its share by switching.
  const guards = createTransportGuards(limits);
  const common = { engine: options.engine, sessions, limits, log: options.log, production: options.production, guards };
  await registerGraphqlHttp(app, common);
  await registerGraphqlCsv(app, { ...common, rows: rowSourceFor(options) });
  const liveQueries = createLiveQueryManager({ ...options.liveQueries, pool: options.pool, log: options.log });
  // A PAT revoked in any process (migration 0017's NOTIFY): HTTP and CSV refuse its sessions at once.
  const unwatchPats = liveQueries.watchTable(PAT_TABLE, () => patSessions.forget());
  const webSocket = attachGraphqlWebSocket({
    ...common, liveQueries, server: app.server, paths: GRAPHQL_PATHS, recheckSession: sessionRecheck({ pool: options.pool, patSessions }),
  });
  // Before the HTTP server closes: it would wait forever for upgraded sockets otherwise.
  app.addHook('preClose', async () => {
    unwatchPats();
    await webSocket.close();
    await liveQueries.close();
  });
  return { liveQueries, webSocket, guards };
}

function rowSourceFor(options: GraphqlPluginOptions): RowSource {
  if (options.executeRows) return options.executeRows;
  const engine = options.engine as GraphqlEngine & { executeRows?: RowSource };
  if (typeof engine.executeRows === 'function') return (request, session) => (engine.executeRows as RowSource).call(engine, request, session);
  return (request, session) => rowsFromExecute(options.engine, { request, session });
}

/**
 * Rows of the first root field from a whole (not streamed) result: the fallback when the
 * engine has no `executeRows`. An object is one row, null none.
 */
async function* rowsFromExecute(engine: GraphqlEngine, input: { request: GraphqlRequest; session: GraphqlSession }): AsyncGenerator<Record<string, unknown>> {
  const outcome = await engine.execute(input.request, input.session);
  if (outcome.failed) throw Object.assign(new Error(outcome.errors[0]?.message ?? 'the query failed'), { errors: outcome.errors });
  const data = (JSON.parse(outcome.body) as { data?: Record<string, unknown> }).data ?? {};
  const first = Object.values(data)[0];
  if (Array.isArray(first)) {
    for (const row of first) yield row as Record<string, unknown>;
  } else if (typeof first === 'object' && first !== null) {
    yield first as Record<string, unknown>;
  }
}
