/**
 * The platform as an outside client meets it: a seeded database, `buildApp` with auth, GraphQL
 * and the actions of start.ts (backtest; broker secret with a random key; trading) listening on
 * 127.0.0.1:0, a pg-boss queue (and, when asked, real backtest workers), demo users signed in
 * through POST /v1/auth/signin/email-password, and small clients for HTTP and WebSocket
 * (graphql-transport-ws through the unchanged `graphql-ws` client).
 * Shared by the acceptance tests of issue 6 (docs/PRODUCT.md section 7, ra-data-hasura, backtest subscription).
 */
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { createClient, type Client } from 'graphql-ws';
import pg from 'pg';
import { WebSocket } from 'ws';
import { readAuthConfig } from '../../src/auth/config';
import type { SigningKeys } from '../../src/auth/context';
import { createSigningKeys } from '../../src/auth/signing-keys';
import { DEMO_PASSWORD, demoEmail, type DemoRole } from '../../src/db/seed/demo-users';
import { generateBrokerSecretKey } from '../../src/brokers/broker-secrets';
import { backtestActions } from '../../src/graphql/actions/backtest-actions';
import { sweepActions } from '../../src/graphql/actions/sweep-actions';
import { brokerActions } from '../../src/graphql/actions/broker-secret-action';
import { tradingActions } from '../../src/graphql/actions/trading-actions';
import { managerLinkActions } from '../../src/graphql/actions/manager-link-actions';
import { createMailer } from '../../src/auth/delivery';
import pino from 'pino';
import type { EngineLimits } from '../../src/graphql/execute/limits';
import type { TransportLimits } from '../../src/graphql/limits';
import { buildApp } from '../../src/http/app';
import { startBacktestWorkers, type BacktestWorkers } from '../../src/jobs/backtest-workers';
import { createJobQueue, type JobQueue } from '../../src/jobs/job-queue';
import { startSweepWorkers, type SweepWorkers } from '../../src/jobs/sweep-workers';
import { freshDatabase, type TestDatabase } from '../helpers/db';

export const SPEC_ADMIN_SECRET = 'spec-admin-secret-0123456789abcdef';

export interface GraphqlBody {
  readonly data?: Record<string, unknown> | null;
  readonly errors?: ReadonlyArray<{ readonly message: string; readonly extensions?: { readonly code?: string; readonly path?: string } }>;
}

export interface GraphqlCall {
  readonly query: string;
  readonly variables?: Record<string, unknown>;
  readonly operationName?: string;
}

export interface SpecServer {
  /** Test-side database handle (separate pool from the server's). */
  readonly db: TestDatabase;
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  /** `ws://127.0.0.1:<port>/v1/graphql` */
  readonly wsUrl: string;
  readonly queue: JobQueue;
  /** The auth service's keys over the same database: tests mint tokens the server's verifier accepts or refuses. */
  readonly keys: SigningKeys;
  /** Signs a demo user in over HTTP (cached per role); the access token. */
  token(role: DemoRole): Promise<string>;
  /** The demo user's id, from `users.tier`. */
  userId(role: DemoRole): Promise<string>;
  /** POST /v1/graphql with a bearer token (or none), plus extra headers. */
  graphql(call: GraphqlCall, auth: { token?: string; headers?: Record<string, string> }): Promise<GraphqlBody>;
  /** A graphql-ws client whose connection payload carries the headers (docs/PRODUCT.md section 7: auth header in connection params). */
  wsClient(headers: Record<string, string>): Client;
  close(): Promise<void>;
}

export interface SpecServerOptions {
  /** Starts real backtest and sweep workers on the server's queue. */
  readonly workers?: boolean;
  /** Extra AUTH_* environment for readAuthConfig. */
  readonly authEnv?: Record<string, string>;
  /** GraphQL transport limits over the defaults (request budgets, operations in flight). */
  readonly graphqlLimits?: Partial<TransportLimits>;
  /** GraphQL engine limits over the defaults (response ceiling, ...). */
  readonly engineLimits?: Partial<EngineLimits>;
}

/** Starts the platform on a fresh seeded database; `close()` stops everything and drops it. */
export async function startSpecServer(options: SpecServerOptions = {}): Promise<SpecServer> {
  const db = await freshDatabase({ seeded: true });
  const config = readAuthConfig({
    AUTH_SERVER_URL: 'http://127.0.0.1/v1/auth',
    AUTH_CLIENT_URL: 'http://localhost:3000',
    AUTH_ACCESS_TOKEN_EXPIRES_IN: '3600',
    AUTH_RATE_LIMIT_BRUTE_FORCE_BURST: '1000',
    AUTH_RATE_LIMIT_GLOBAL_BURST: '1000',
    ...options.authEnv,
  });
  const serverPool = new pg.Pool({ connectionString: db.url, max: 12 });
  const queue = createJobQueue({ connectionString: db.url, supervise: false });
  let app: FastifyInstance | undefined;
  let workers: BacktestWorkers | undefined;
  let sweepWorkers: SweepWorkers | undefined;
  const clients: Client[] = [];
  const stop = async (): Promise<void> => {
    await Promise.all(clients.map((client) => client.dispose()));
    await app?.close();
    await workers?.stop();
    await sweepWorkers?.stop();
    await queue.stop({ timeoutMs: 5_000 });
    await serverPool.end();
    await db.close();
  };
  try {
    await queue.start();
    app = await buildApp({
      pool: serverPool, version: '0.0.0+spec', webDistDir: '/nonexistent', logLevel: 'silent',
      auth: { config },
      graphql: {
        adminSecret: SPEC_ADMIN_SECRET, production: false,
        actions: [
          ...backtestActions({ pool: serverPool, queue }), ...sweepActions({ pool: serverPool, queue }), ...brokerActions({ pool: serverPool, key: generateBrokerSecretKey() }),
          ...tradingActions({ pool: serverPool, queue }),
          ...managerLinkActions({ pool: serverPool, mailer: createMailer({ pool: serverPool, smtp: config.smtp, log: pino({ level: 'silent' }) }), clientUrl: config.clientUrl }),
        ],
        ...(options.graphqlLimits ? { limits: options.graphqlLimits } : {}),
        ...(options.engineLimits ? { engineLimits: options.engineLimits } : {}),
      },
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    if (options.workers) {
      workers = await startBacktestWorkers({ pool: serverPool, queue, log: () => undefined, pollingIntervalSeconds: 0.5, recoveryIntervalMs: 0, progressIntervalMs: 0 });
      sweepWorkers = await startSweepWorkers({ pool: serverPool, queue, log: () => undefined, pollingIntervalSeconds: 0.5, recoveryIntervalMs: 0 });
    }
  } catch (error) {
    await stop();
    throw error;
  }
  const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const wsUrl = `${origin.replace(/^http/, 'ws')}/v1/graphql`;
  const tokens = new Map<DemoRole, Promise<string>>();
  return {
    db, origin, wsUrl, queue,
    keys: createSigningKeys({ pool: db.pool, config }),
    token(role) {
      let token = tokens.get(role);
      if (!token) {
        token = signIn(origin, demoEmail(role));
        tokens.set(role, token);
      }
      return token;
    },
    async userId(role) {
      const { rows } = await db.pool.query<{ user_id: string }>('SELECT user_id FROM users WHERE tier = $1 ORDER BY name LIMIT 1', [role]);
      if (!rows[0]) throw new Error(`no demo user of tier ${role}`);
      return rows[0].user_id;
    },
    async graphql(call, auth) {
      const response = await fetch(`${origin}/v1/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(auth.token ? { authorization: `Bearer ${auth.token}` } : {}), ...auth.headers },
        body: JSON.stringify(call),
      });
      if (response.status !== 200) throw new Error(`POST /v1/graphql answered ${response.status}: ${await response.text()}`);
      return (await response.json()) as GraphqlBody;
    },
    wsClient(headers) {
      const client = createClient({ url: wsUrl, webSocketImpl: WebSocket, connectionParams: { headers }, retryAttempts: 0, lazy: true });
      clients.push(client);
      return client;
    },
    close: stop,
  };
}

async function signIn(origin: string, email: string): Promise<string> {
  const response = await fetch(`${origin}/v1/auth/signin/email-password`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: DEMO_PASSWORD }),
  });
  const body = (await response.json()) as { session?: { accessToken?: string } | null };
  const token = body.session?.accessToken;
  if (response.status !== 200 || !token) throw new Error(`sign-in of ${email} failed: ${response.status} ${JSON.stringify(body).slice(0, 200)}`);
  return token;
}

/** `data` of an answer that must have no errors (the errors are shown when it has). */
export function dataOf(body: GraphqlBody): Record<string, unknown> {
  if (body.errors?.length || !body.data) throw new Error(`GraphQL errors: ${JSON.stringify(body.errors ?? body)}`);
  return body.data;
}

/**
 * A live subscription's results as they arrive, with the wall-clock time of each, so a test can
 * wait for the next value that satisfies a condition and measure how long it took.
 */
export class LiveFeed<T = Record<string, unknown>> {
  readonly values: Array<{ readonly at: number; readonly data: T }> = [];
  private waiters: Array<() => void> = [];
  private failure: unknown;
  private readonly stop: () => void;

  constructor(client: Client, call: GraphqlCall) {
    this.stop = client.subscribe<T>({ query: call.query, ...(call.variables ? { variables: call.variables } : {}) }, {
      next: (value) => {
        if (value.errors?.length) this.failure = new Error(`subscription errors: ${JSON.stringify(value.errors)}`);
        else this.values.push({ at: performance.now(), data: value.data as T });
        this.wake();
      },
      error: (error) => {
        this.failure = error instanceof Error ? error : new Error(`subscription failed: ${JSON.stringify(error)}`);
        this.wake();
      },
      complete: () => this.wake(),
    });
  }

  /** The first value, after index `after`, that satisfies `accept` (fails after `timeoutMs`). */
  async next(accept: (data: T) => boolean, options: { after?: number; timeoutMs?: number } = {}): Promise<{ at: number; data: T; index: number }> {
    const deadline = performance.now() + (options.timeoutMs ?? 10_000);
    for (;;) {
      if (this.failure) throw this.failure as Error;
      const index = this.values.findIndex((value, position) => position > (options.after ?? -1) && accept(value.data));
      const found = this.values[index];
      if (found) return { ...found, index };
      const left = deadline - performance.now();
      if (left <= 0) throw new Error(`no matching subscription result within ${options.timeoutMs ?? 10_000} ms; last: ${JSON.stringify(this.values.at(-1)?.data)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  close(): void {
    this.stop();
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const waiter of waiters) waiter();
  }
}
