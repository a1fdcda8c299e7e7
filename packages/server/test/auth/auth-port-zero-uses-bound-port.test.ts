// With PORT=0 (the operating system picks a free port) the auth settings that default to the port
// said port 0: AUTH_SERVER_URL's default (the links in mail: http://localhost:0/v1/auth/verify...),
// AUTH_CLIENT_URL's default, and the always-allowed own origins, so sign-up at the server's real
// address was refused ("redirectTo is not allowed"). The configuration is read before the server
// listens; now those settings follow the port bound once it does (listen-port.ts).
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAuthConfig, type AuthConfig } from '../../src/auth/config';
import { registerAuth } from '../../src/auth/plugin';
import { ConfigError } from '../../src/config';
import { freshDatabase, type TestDatabase } from '../helpers/db';
import { awaitOutboxMessage, postJson } from './support/methods-app';

let db: TestDatabase;
let app: FastifyInstance;
let config: AuthConfig;
let port: number;

beforeAll(async () => {
  db = await freshDatabase();
  // What `PORT=0 npm start` passes: the port and nothing about URLs.
  config = readAuthConfig({ PORT: '0', AUTH_RATE_LIMIT_ENABLE: 'false' });
  app = Fastify({ logger: false });
  await registerAuth(app, { pool: db.pool, config, version: 'test', modules: [] });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  port = typeof address === 'object' && address !== null ? address.port : 0;
});
afterAll(async () => {
  await app?.close();
  await db?.close();
});

describe('PORT=0', () => {
  it('puts the bound port in AUTH_SERVER_URL, AUTH_CLIENT_URL and the own origins once the server listens', () => {
    expect(port).toBeGreaterThan(0);
    expect(config.serverUrl).toBe(`http://localhost:${port}/v1/auth`);
    expect(config.clientUrl).toBe(`http://localhost:${port}`);
    expect(config.ownOrigins).toEqual([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);
  });

  it('signs up at http://127.0.0.1:PORT, and the mailed link names the bound port', async () => {
    const email = 'port.zero@example.in';
    const redirectTo = `http://127.0.0.1:${port}/authenticate/redirect`;
    const signUp = await postJson(`http://127.0.0.1:${port}/v1/auth/signup/email-password`, { email, password: 'port-zero-2026', options: { redirectTo } });
    expect(signUp).toEqual({ status: 200, body: { session: null } });
    const link = new URL(/https?:\/\/\S+/.exec(await awaitOutboxMessage(db, email))?.[0] ?? '');
    expect(`${link.origin}${link.pathname}`).toBe(`http://localhost:${port}/v1/auth/verify`);
    expect(link.searchParams.get('redirectTo')).toBe(redirectTo);
  });

  it('redirects to http://localhost:PORT when no redirectTo is given', async () => {
    const email = 'port.zero.default@example.in';
    await postJson(`http://127.0.0.1:${port}/v1/auth/signup/email-password`, { email, password: 'port-zero-2026' });
    const link = new URL(/https?:\/\/\S+/.exec(await awaitOutboxMessage(db, email))?.[0] ?? '');
    expect(link.searchParams.get('redirectTo')).toBe(`http://localhost:${port}`);
  });
});

describe('a fixed PORT', () => {
  it('is what the URLs say even where the server listens elsewhere, and a bad PORT names the variable', () => {
    const fixed = readAuthConfig({ PORT: '8080' });
    fixed.listenPort.bind(40_000);
    expect(fixed.serverUrl).toBe('http://localhost:8080/v1/auth');
    expect(fixed.ownOrigins).toContain('http://127.0.0.1:8080');
    // An explicit AUTH_SERVER_URL is never rewritten, PORT=0 or not.
    const explicit = readAuthConfig({ PORT: '0', AUTH_SERVER_URL: 'https://vyuha.example.in/v1/auth' });
    explicit.listenPort.bind(40_000);
    expect(explicit.serverUrl).toBe('https://vyuha.example.in/v1/auth');
    expect(explicit.ownOrigins).toEqual(['http://127.0.0.1:40000', 'http://localhost:40000', 'https://vyuha.example.in']);
    expect(() => readAuthConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => readAuthConfig({ PORT: 'eighty' })).toThrow(/^PORT must be a port number from 0 to 65535, got "eighty"$/);
  });
});
