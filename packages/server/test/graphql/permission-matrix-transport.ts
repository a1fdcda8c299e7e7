/**
 * The permission matrix replayed through a real server: `buildApp` with auth and GraphQL on a
 * loopback port, every persona signed in through POST /v1/auth/signin/email-password (real
 * access tokens the server verifies), and transports that send a case's request over HTTP or
 * over WebSocket (graphql-transport-ws, through the unchanged `graphql-ws` client) with the
 * persona's token, `x-hasura-role` and `x-hasura-managed-user-id`.
 */
import type { AddressInfo } from 'node:net';
import { Kind, parse, print, type OperationDefinitionNode } from 'graphql';
import { createClient, type Client } from 'graphql-ws';
import pg from 'pg';
import { WebSocket } from 'ws';
import type { FastifyInstance } from 'fastify';
import { readAuthConfig } from '../../src/auth/config';
import { createPasswords } from '../../src/auth/passwords';
import { DEMO_PASSWORD } from '../../src/db/seed/demo-users';
import { ALL_ROLES, vyuhaMetadata } from '../../src/graphql/metadata/index';
import type { GraphqlRequest } from '../../src/graphql/types';
import { buildApp } from '../../src/http/app';
import { freshDatabase, type TestDatabase } from '../helpers/db';
import { permissionCases, type PermissionCase, type Persona } from './permission-matrix-cases';
import { runPermissionCase, type CaseTransport } from './permission-matrix-run';
import { buildPermissionWorld, type PermissionWorld } from './permission-matrix-world';

export const MATRIX_ADMIN_SECRET = 'matrix-admin-secret-0123456789';

/** Request budgets no test run reaches (the budgets themselves are tested in abuse-budget.test.ts). */
export const UNLIMITED_BUDGETS = {
  addressBudget: { requests: 1_000_000_000, perSeconds: 1 },
  userBudget: { requests: 1_000_000_000, perSeconds: 1 },
} as const;

export interface MatrixServer {
  readonly db: TestDatabase;
  /** For the oracle's and the probes' SQL (separate from the server's pool). */
  readonly pool: pg.Pool;
  readonly world: PermissionWorld;
  readonly cases: readonly PermissionCase[];
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  /** Access token by world user label, as /v1/auth/signin/email-password returned it. */
  readonly tokens: ReadonlyMap<string, string>;
  close(): Promise<void>;
}

/**
 * Seeded database, permission world, the platform app with auth and GraphQL listening on
 * 127.0.0.1, and a signed-in access token for every world user. The server gets its own pool
 * so that the oracle's SQL never waits behind the server's queries.
 */
export async function startMatrixServer(): Promise<MatrixServer> {
  const db = await freshDatabase({ seeded: true });
  const world = await buildPermissionWorld(db.pool);
  const config = readAuthConfig({
    AUTH_SERVER_URL: 'http://127.0.0.1/v1/auth',
    AUTH_CLIENT_URL: 'http://localhost:3000',
    AUTH_ACCESS_TOKEN_EXPIRES_IN: '3600',
    // Eighteen sign-ins from one address in a few seconds: more than the default brute-force burst.
    AUTH_RATE_LIMIT_BRUTE_FORCE_BURST: '1000',
    AUTH_RATE_LIMIT_GLOBAL_BURST: '1000',
  });
  // The twins have no password; give them the demo password, hashed by the auth service's own code.
  const twinIds = [...world.users.values()].filter((user) => user.label.endsWith('-2')).map((user) => user.id);
  const passwordHash = await createPasswords(config).hash(DEMO_PASSWORD);
  await db.pool.query('UPDATE auth.users SET password_hash = $1 WHERE id = ANY($2::uuid[])', [passwordHash, twinIds]);

  const serverPool = new pg.Pool({ connectionString: db.url, max: 16 });
  const oraclePool = new pg.Pool({ connectionString: db.url, max: 8 });
  let app: FastifyInstance | undefined;
  try {
    app = await buildApp({
      pool: serverPool, version: '0.0.0+matrix', webDistDir: '/nonexistent', logLevel: 'silent',
      auth: { config },
      // Thousands of cases from one address in a minute: far past the request budget meant for people.
      graphql: { adminSecret: MATRIX_ADMIN_SECRET, production: false, actions: [], limits: UNLIMITED_BUDGETS },
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const tokens = await signInEveryone({ origin, world, pool: db.pool });
    const cases = permissionCases(vyuhaMetadata([]), world, ALL_ROLES);
    const running = app;
    return {
      db, pool: oraclePool, world, cases, origin, tokens,
      async close() {
        await running.close();
        await Promise.all([serverPool.end(), oraclePool.end()]);
        await db.close();
      },
    };
  } catch (error) {
    await app?.close();
    await Promise.all([serverPool.end(), oraclePool.end()]);
    await db.close();
    throw error;
  }
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

/** Signs every world user in; the first alone (it creates the signing key), the rest at once. */
async function signInEveryone(input: { origin: string; world: PermissionWorld; pool: pg.Pool }): Promise<Map<string, string>> {
  const users = [...input.world.users.values()];
  const emails = await input.pool.query<{ id: string; email: string }>('SELECT id, email FROM auth.users WHERE id = ANY($1::uuid[])', [users.map((user) => user.id)]);
  const emailOf = new Map(emails.rows.map((row) => [row.id, row.email]));
  const tokens = new Map<string, string>();
  const one = async (label: string, id: string): Promise<void> => {
    const email = emailOf.get(id);
    if (!email) throw new Error(`no e-mail for world user ${label}`);
    tokens.set(label, await signIn(input.origin, email));
  };
  const [first, ...rest] = users;
  if (first) await one(first.label, first.id);
  await Promise.all(rest.map((user) => one(user.label, user.id)));
  return tokens;
}

/** The Hasura claims of an access token (not verified here: the server verifies it). */
export function tokenClaims(token: string): Record<string, unknown> {
  const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
  return (payload['https://hasura.io/jwt/claims'] ?? {}) as Record<string, unknown>;
}

/** The request headers a persona sends: admin secret, or its token with the role under test and the managed user. */
export function personaHeaders(persona: Persona, tokens: ReadonlyMap<string, string>): Record<string, string> {
  if (persona.session.admin) return { 'x-hasura-admin-secret': MATRIX_ADMIN_SECRET };
  if (!persona.user) return {};
  const token = tokens.get(persona.user.label);
  if (!token) throw new Error(`no token for ${persona.user.label}`);
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, 'x-hasura-role': persona.role };
  if (persona.actingFor) headers['x-hasura-managed-user-id'] = persona.actingFor.id;
  return headers;
}

/** HTTP status codes seen, by code. */
export type StatusTally = Map<number, number>;

/** POST /v1/graphql as the persona; the body text is returned whatever the status (the tally records it). */
export function httpTransport(origin: string, tokens: ReadonlyMap<string, string>, statuses: StatusTally): CaseTransport {
  return async (request, persona) => {
    const response = await fetch(`${origin}/v1/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...personaHeaders(persona, tokens) },
      body: JSON.stringify(request),
    });
    statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
    return response.text();
  };
}

/** How WebSocket results arrived: `next` with data, `next` with errors, or the protocol's `error` message. */
export interface WebSocketTally {
  nextData: number;
  nextErrors: number;
  errorMessages: number;
  /** Sockets opened (graphql-ws `connected` events); one per persona and role when reused. */
  connections: number;
}

export interface WebSocketTransports {
  /** A query or mutation as a `subscribe` message; its single `next` (or `error`). */
  readonly single: CaseTransport;
  /** A read case as a live subscription; its first `next` (or `error`), then `complete`. */
  readonly live: CaseTransport;
  readonly tally: WebSocketTally;
  /** Distinct persona-and-role connections asked for. */
  readonly clients: () => number;
  close(): Promise<void>;
}

/** The `error` message's payload (a list of GraphQL errors) as the body HTTP would have sent. */
function failureText(error: unknown, tally: WebSocketTally): string {
  if (Array.isArray(error)) {
    tally.errorMessages += 1;
    return JSON.stringify({ errors: error });
  }
  // A closed socket or a client failure: not JSON, so the case reports it with this text.
  const detail = error instanceof Error ? error.message : JSON.stringify({ code: (error as { code?: number }).code, reason: (error as { reason?: string }).reason });
  return `websocket failure: ${detail}`;
}

function resultText(value: unknown, tally: WebSocketTally): string {
  if ((value as { errors?: unknown[] }).errors?.length) tally.nextErrors += 1;
  else tally.nextData += 1;
  return JSON.stringify(value);
}

const RESULT_TIMEOUT_MS = 10_000;

/**
 * One `graphql-ws` client per persona and role (connection payload `{headers}`), kept open for
 * the whole run; operations on one connection run concurrently.
 */
export function webSocketTransports(origin: string, tokens: ReadonlyMap<string, string>): WebSocketTransports {
  const url = `${origin.replace(/^http/, 'ws')}/v1/graphql`;
  const clients = new Map<string, Client>();
  const tally: WebSocketTally = { nextData: 0, nextErrors: 0, errorMessages: 0, connections: 0 };
  const clientOf = (persona: Persona): Client => {
    const key = `${persona.label}\u0000${persona.role}`;
    let client = clients.get(key);
    if (!client) {
      client = createClient({
        url, webSocketImpl: WebSocket, lazy: false, retryAttempts: 0, keepAlive: 0,
        connectionParams: { headers: personaHeaders(persona, tokens) },
        on: { connected: () => { tally.connections += 1; } },
        // Without lazy, a failed connection is reported to the operations, not thrown here.
        onNonLazyError: () => undefined,
      });
      clients.set(key, client);
    }
    return client;
  };

  // Each operation settles once: its result, its error, or a timeout (a hang becomes a problem, not a stuck test).
  const operation = (request: GraphqlRequest, input: { persona: Persona; live: boolean }): Promise<string> => new Promise((resolve) => {
    let settled = false;
    let result: unknown;
    let stop = (): void => undefined;
    const settle = (text: string): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      stop();
      resolve(text);
    };
    const timer = setTimeout(() => settle(`websocket: no result within ${RESULT_TIMEOUT_MS} ms`), RESULT_TIMEOUT_MS);
    stop = clientOf(input.persona).subscribe(payloadOf(input.live ? asSubscription(request) : request), {
      next: (value) => {
        if (input.live) settle(resultText(value, tally));
        else result = value;
      },
      error: (error) => settle(failureText(error, tally)),
      complete: () => settle(result === undefined ? 'websocket: completed without a result' : resultText(result, tally)),
    });
  });

  return {
    single: (request, persona) => operation(request, { persona, live: false }),
    live: (request, persona) => operation(request, { persona, live: true }),
    tally,
    clients: () => clients.size,
    async close() {
      await Promise.all([...clients.values()].map((client) => client.dispose()));
    },
  };
}

function payloadOf(request: GraphqlRequest): { query: string; variables?: Record<string, unknown>; operationName?: string } {
  return {
    query: request.query,
    ...(request.variables ? { variables: request.variables as Record<string, unknown> } : {}),
    ...(request.operationName ? { operationName: request.operationName } : {}),
  };
}

function operationOf(request: GraphqlRequest): OperationDefinitionNode | undefined {
  const definitions = parse(request.query).definitions.filter((definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION);
  return request.operationName ? definitions.find((definition) => definition.name?.value === request.operationName) : definitions[0];
}

/** The same selection as a subscription operation (Hasura's subscription root has the same table fields). */
export function asSubscription(request: GraphqlRequest): GraphqlRequest {
  const document = parse(request.query);
  const rewritten = {
    ...document,
    definitions: document.definitions.map((definition) =>
      (definition.kind === Kind.OPERATION_DEFINITION ? { ...definition, operation: 'subscription' as OperationDefinitionNode['operation'] } : definition)),
  };
  return { ...request, query: print(rewritten) };
}

/** A case that only reads: a query with nothing to prepare or clean up (safe to run beside other reads). */
export function isReadCase(testCase: PermissionCase): boolean {
  return testCase.prepare.length === 0 && testCase.cleanup.length === 0 && operationOf(testCase.request)?.operation === 'query';
}

export interface ReplayResult {
  readonly problems: string[];
  readonly replayed: number;
  readonly elapsedMs: number;
}

/**
 * Tables whose probes change what other cases see: `managers` rows decide whose rows a manager
 * reaches, so its cases run with nothing else in flight.
 */
const EXCLUSIVE_TABLES: readonly string[] = ['managers'];

/** Runs `work` over `items`, at most `concurrency` at a time. */
async function inParallel<T>(items: readonly T[], options: { concurrency: number; work: (item: T) => Promise<void> }): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next] as T;
      next += 1;
      await options.work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency, items.length) }, worker));
}

/**
 * Replays cases: first the read cases, `concurrency` at a time (nothing writes meanwhile); then the
 * other cases in their given order within each table, `concurrency` tables at a time (each
 * case's probe rows carry its own tag, so cases of different tables cannot see each other's
 * rows), and the exclusive tables alone.
 */
export async function replayCases(cases: readonly PermissionCase[], options: { pool: pg.Pool; transport: CaseTransport; concurrency: number }): Promise<ReplayResult> {
  const started = performance.now();
  const problems: string[] = [];
  let replayed = 0;
  const run = async (testCase: PermissionCase): Promise<void> => {
    problems.push(...await runPermissionCase(testCase, { pool: options.pool, transport: options.transport }));
    replayed += 1;
  };
  await inParallel(cases.filter(isReadCase), { concurrency: options.concurrency, work: run });
  const byTable = new Map<string, PermissionCase[]>();
  for (const testCase of cases.filter((item) => !isReadCase(item))) {
    byTable.set(testCase.table, [...(byTable.get(testCase.table) ?? []), testCase]);
  }
  const sequence = async (group: readonly PermissionCase[]): Promise<void> => {
    for (const testCase of group) await run(testCase);
  };
  const shared = [...byTable].filter(([table]) => !EXCLUSIVE_TABLES.includes(table)).map(([, group]) => group);
  await inParallel(shared, { concurrency: options.concurrency, work: sequence });
  for (const table of EXCLUSIVE_TABLES) await sequence(byTable.get(table) ?? []);
  return { problems, replayed, elapsedMs: Math.round(performance.now() - started) };
}
