import { createServer } from 'node:net';
import { createClient, type NhostClient } from '@nhost/nhost-js';
import type { Session } from '@nhost/nhost-js/session';
import type pg from 'pg';
import { buildApp } from '../../../src/http/app';
import { readAuthConfig } from '../../../src/auth/config';
import { freshDatabase, type TestDatabase } from '../../helpers/db';
import { startMailCatcher, type MailCatcher, type ReceivedMail } from '../../helpers/mail-catcher';

export { startMailCatcher, type MailCatcher, type ReceivedMail };

// The whole platform app (buildApp, as `vyuha start` builds it) with the auth service on a free
// loopback port, and a real SMTP server on loopback that keeps every mail it receives.

/** The first http(s) link in a mail. */
export function linkIn(mail: ReceivedMail): URL {
  const match = /https?:\/\/\S+/.exec(mail.text);
  if (!match) throw new Error(`no link in the mail "${mail.subject}"`);
  return new URL(match[0]);
}

export interface CoreServer {
  readonly db: TestDatabase;
  readonly pool: pg.Pool;
  readonly origin: string;
  readonly authUrl: string;
  readonly mail: MailCatcher;
  /** A fresh Nhost client (its own session storage) pointed at this server. */
  nhost(): NhostClient;
  close(): Promise<void>;
}

/** The client URL redirects go to in these tests (nothing listens there: tests read the Location header). */
export const CLIENT_URL = 'http://localhost:3000';

/** Starts the platform app with auth on a free port; `env` overrides the auth variables. */
export async function startCoreServer(options: { env?: Readonly<Record<string, string>>; seeded?: boolean } = {}): Promise<CoreServer> {
  const db = await freshDatabase({ seeded: options.seeded ?? false });
  const mail = await startMailCatcher();
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const config = readAuthConfig({
    AUTH_SERVER_URL: `${origin}/v1/auth`,
    AUTH_CLIENT_URL: CLIENT_URL,
    AUTH_ANONYMOUS_USERS_ENABLED: 'true',
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: String(mail.port),
    SMTP_SECURE: 'false',
    SMTP_SENDER: 'Vyuha Test <auth@vyuha.test>',
    ...options.env,
  });
  const app = await buildApp({ pool: db.pool, version: '1.2.3+test', webDistDir: '/nonexistent', logLevel: 'silent', auth: { config } });
  await app.listen({ port, host: '127.0.0.1' });
  const authUrl = `${origin}/v1/auth`;
  return {
    db,
    pool: db.pool,
    origin,
    authUrl,
    mail,
    nhost: () => nhostClient(origin),
    async close() {
      await app.close();
      await mail.close();
      await db.close();
    },
  };
}

/** The unchanged Nhost client, as docs/AUTH-CONTRACT.md shows it, with in-memory session storage. */
export function nhostClient(origin: string): NhostClient {
  let saved: Session | null = null;
  return createClient({
    authUrl: `${origin}/v1/auth`,
    graphqlUrl: `${origin}/v1/graphql`,
    storageUrl: `${origin}/v1/storage`,
    functionsUrl: `${origin}/v1/functions`,
    storage: { get: () => saved, set: (value) => { saved = value; }, remove: () => { saved = null; } },
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

// Bodies are what the server sent; tests read fields and assert on them.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

/** A JSON request; returns status, headers and the parsed body. */
export async function request(url: string, init: { method?: string; body?: unknown; token?: string } = {}): Promise<{ status: number; headers: Headers; body: Json }> {
  const headers: Record<string, string> = {};
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  if (init.token !== undefined) headers.authorization = `Bearer ${init.token}`;
  const response = await fetch(url, { method: init.method ?? (init.body === undefined ? 'GET' : 'POST'), headers, redirect: 'manual', ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }) });
  const text = await response.text();
  let body: Json = text;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, headers: response.headers, body };
}

/** The Hasura claims of an access token (unverified: the tests only read them). */
export function hasuraClaims(accessToken: string): Record<string, Json> {
  const payload = JSON.parse(Buffer.from(accessToken.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, Json>;
  return payload['https://hasura.io/jwt/claims'] as Record<string, Json>;
}
