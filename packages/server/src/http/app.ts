import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import type pg from 'pg';
import { registerAuth, type AuthPluginOptions } from '../auth/plugin';
import { createSigningKeys } from '../auth/signing-keys';
import { brokerLoginRoutes } from '../brokers/broker-login-routes';
import { brokerPostbackRoutes } from '../brokers/broker-postback-routes';
import type { BrokerSecretKey } from '../brokers/broker-secrets';
import { createGraphqlEngine } from '../graphql/engine';
import type { ActionDeclaration } from '../graphql/metadata/types';
import { vyuhaMetadata } from '../graphql/metadata';
import { registerGraphql } from '../graphql/plugin';
import type { EngineLimits } from '../graphql/execute/limits';
import type { TransportLimits } from '../graphql/limits';

export interface AppOptions {
  readonly pool: pg.Pool;
  readonly version: string;
  /** The built web app; when missing, `/` explains how to build it. */
  readonly webDistDir: string;
  readonly logLevel: string;
  /** Mounts the auth service at /v1/auth (pool and version come from here). */
  readonly auth?: Omit<AuthPluginOptions, 'pool' | 'version'>;
  /** Mounts GraphQL at /v1/graphql and /graphql, and CSV at /api/gql/csv; needs `auth` (tokens are verified with its keys). */
  readonly graphql?: {
    readonly adminSecret: string | undefined;
    readonly production: boolean;
    /** Custom root fields (the backtest actions) on top of the table metadata. */
    readonly actions: readonly ActionDeclaration[];
    /** Transport limits over the defaults (request budgets, operations in flight: `readGraphqlLimits`). */
    readonly limits?: Partial<TransportLimits>;
    /** Engine limits over the defaults (depth, cost, response ceiling). */
    readonly engineLimits?: Partial<EngineLimits>;
  };
  /**
   * Mounts GET /api/broker_login/:broker/:client_id (needs `auth`: the browser's token cookie is
   * verified with its keys) and POST /api/broker_postback/:broker (verified by the order's checksum).
   */
  readonly brokerLogin?: { readonly key: BrokerSecretKey | undefined };
}

/** Path prefixes that belong to APIs: a miss there is a JSON 404, never the web app. */
const API_PREFIXES = ['/v1/', '/api/', '/graphql', '/healthz', '/version.json'];

/**
 * Update mode (the web app's update-mode check): `app_meta.update_mode = true` while a new version
 * is being deployed; screens under the check turn read-only. An unreachable database reads as off
 * (the health check reports it).
 */
async function updateModeOn(pool: pg.Pool): Promise<boolean> {
  try {
    const { rows } = await pool.query<{ value: unknown }>(`SELECT value FROM app_meta WHERE key = 'update_mode'`);
    return rows[0]?.value === true;
  } catch {
    return false;
  }
}

/** Builds the HTTP application (not yet listening). */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: options.logLevel,
      // Secrets never reach the logs.
      redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-hasura-admin-secret"]', 'res.headers["set-cookie"]'], censor: '[redacted]' },
    },
    // One line per request only when debugging; errors are logged regardless.
    logController: new LogController({ disableRequestLogging: options.logLevel !== 'debug' && options.logLevel !== 'trace' }),
    trustProxy: false,
  });

  app.get('/healthz', async (_request, reply) => {
    try {
      await options.pool.query('SELECT 1');
      return { status: 'ok', database: 'ok', version: options.version };
    } catch (error) {
      app.log.error({ err: error }, 'health check: database unreachable');
      return reply.code(503).send({ status: 'error', database: 'unreachable', version: options.version });
    }
  });

  app.get('/version.json', async (_request, reply) => {
    void reply.header('cache-control', 'no-store');
    return { version: options.version, updateMode: await updateModeOn(options.pool) };
  });

  if (options.auth) await registerAuth(app, { ...options.auth, pool: options.pool, version: options.version });
  if (options.graphql) {
    if (!options.auth) throw new Error('graphql needs auth: tokens are verified with the auth service\'s keys');
    const { config } = options.auth;
    const engine = await createGraphqlEngine({
      pool: options.pool,
      metadata: vyuhaMetadata(options.graphql.actions),
      production: options.graphql.production,
      log: (message) => app.log.error(message),
      ...(options.graphql.engineLimits ? { limits: options.graphql.engineLimits } : {}),
    });
    const keys = createSigningKeys({ pool: options.pool, config });
    await registerGraphql(app, {
      engine,
      pool: options.pool,
      verifyToken: (token) => keys.verify(token),
      adminSecret: options.graphql.adminSecret,
      production: options.graphql.production,
      log: app.log,
      claimsNamespace: config.jwt.claimsNamespace,
      ...(options.graphql.limits ? { limits: options.graphql.limits } : {}),
    });
  }
  if (options.auth && options.brokerLogin) {
    const keys = createSigningKeys({ pool: options.pool, config: options.auth.config });
    await app.register(brokerLoginRoutes, { pool: options.pool, verifyToken: (token) => keys.verify(token), claimsNamespace: options.auth.config.jwt.claimsNamespace, key: options.brokerLogin.key });
  }
  // Postbacks come from the broker, not a signed-in browser: verified by the order's checksum.
  if (options.brokerLogin) await app.register(brokerPostbackRoutes, { pool: options.pool, key: options.brokerLogin.key });
  await registerWebApp(app, options.webDistDir);
  return app;
}

async function registerWebApp(app: FastifyInstance, webDistDir: string): Promise<void> {
  const indexFile = join(webDistDir, 'index.html');
  const built = existsSync(indexFile);
  if (built) {
    await app.register(fastifyStatic, {
      root: webDistDir,
      wildcard: false,
      index: false,
      // Served by its own route above, uncached; a second route for the file would clash.
      globIgnore: ['version.json'],
      // Hashed assets never change; index.html must always be revalidated so deploys show.
      setHeaders: (reply, path) => {
        void reply.header('cache-control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const wantsPage = request.method === 'GET' && !API_PREFIXES.some((prefix) => path.startsWith(prefix));
    if (!wantsPage) return reply.code(404).send({ error: 'not-found', message: `No route for ${request.method} ${path}` });
    if (!built) {
      return reply.code(503).type('text/plain').send('The web app is not built yet: `npm start` builds it, or run `npm run build`.');
    }
    // History fallback: client routes (/dashboard, /backtest/42, unknown paths) are the SPA's to render.
    void reply.header('cache-control', 'no-cache');
    return reply.type('text/html').sendFile('index.html');
  });
}
