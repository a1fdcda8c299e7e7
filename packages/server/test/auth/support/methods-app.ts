import { createServer } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { readAuthConfig } from '../../../src/auth/config';
import { registerAuth } from '../../../src/auth/plugin';
import type { AuthRouteModule } from '../../../src/auth/routes';
import { freshDatabase, type TestDatabase } from '../../helpers/db';

// The auth service on loopback for the sign-in method tests: a fresh database, the core's
// routes plus the given method modules, listening on a free port so that AUTH_SERVER_URL (used
// in OAuth callbacks and e-mailed links) is the real address.

export interface MethodsApp {
  readonly db: TestDatabase;
  readonly app: FastifyInstance;
  /** http://127.0.0.1:PORT */
  readonly origin: string;
  /** http://127.0.0.1:PORT/v1/auth */
  readonly authUrl: string;
  close(): Promise<void>;
}

/** Starts the auth service with `modules` and extra environment variables. */
export async function startMethodsApp(options: { modules: readonly AuthRouteModule[]; env?: Readonly<Record<string, string>>; now?: () => number }): Promise<MethodsApp> {
  const db = await freshDatabase();
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const config = readAuthConfig({
    AUTH_SERVER_URL: `${origin}/v1/auth`,
    AUTH_CLIENT_URL: 'http://localhost:3000',
    AUTH_EMAIL_SIGNIN_EMAIL_VERIFIED_REQUIRED: 'false',
    AUTH_RATE_LIMIT_ENABLE: 'false',
    ...options.env,
  });
  const app = Fastify({ logger: false });
  await registerAuth(app, { pool: db.pool, config, version: 'test', modules: options.modules, ...(options.now ? { now: options.now } : {}) });
  await app.listen({ port, host: '127.0.0.1' });
  return {
    db,
    app,
    origin,
    authUrl: `${origin}/v1/auth`,
    async close() {
      await app.close();
      await db.close();
    },
  };
}

// Response bodies are whatever the server sent; tests read fields and assert on them.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type JsonBody = any;

/** POSTs JSON and returns status and parsed body. */
export async function postJson(url: string, body: unknown, headers: Readonly<Record<string, string>> = {}): Promise<{ status: number; body: JsonBody }> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
}

/** The newest outbox message to a recipient (e-mail address or phone number). */
export async function lastOutboxMessage(db: TestDatabase, recipient: string): Promise<string> {
  const result = await db.pool.query<{ body: string }>('SELECT body FROM auth.outbox WHERE recipient = $1 ORDER BY created_at DESC, id LIMIT 1', [recipient]);
  const body = result.rows[0]?.body;
  if (body === undefined) throw new Error(`no outbox message to ${recipient}`);
  return body;
}

/** How many outbox messages went to a recipient so far. */
export async function outboxCount(db: TestDatabase, recipient: string): Promise<number> {
  const result = await db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM auth.outbox WHERE recipient = $1', [recipient]);
  return result.rows[0]?.n ?? 0;
}

/**
 * The newest outbox message to a recipient once more than `since` exist: passwordless codes and
 * links are made and sent after the answer, so a test waits for them (5 s at most).
 */
export async function awaitOutboxMessage(db: TestDatabase, recipient: string, since = 0): Promise<string> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    if ((await outboxCount(db, recipient)) > since) return lastOutboxMessage(db, recipient);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no new outbox message to ${recipient}`);
}

/** The audit actions recorded about a user, oldest first. */
export async function auditActions(db: TestDatabase, userId: string): Promise<string[]> {
  const result = await db.pool.query<{ action: string }>('SELECT action FROM audit_log WHERE entity_id = $1 OR actor_user_id::text = $1 ORDER BY id', [userId]);
  return result.rows.map((row) => row.action);
}

/** The claims of a JWT, unverified (the tests only read them). */
export function jwtClaims(token: string): Record<string, JsonBody> {
  return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, JsonBody>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
