// Sign-up and password reset failed at http://127.0.0.1:8080, the README's own address, with
// "The value of options.redirectTo is not allowed": the allow list held only AUTH_CLIENT_URL,
// which defaults to http://localhost:PORT. The server's own origins are now always allowed.
// Here the auth service runs configured exactly as `npm start` configures it (PORT only).
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAuthConfig } from '../../src/auth/config';
import { createLinks } from '../../src/auth/links';
import { registerAuth } from '../../src/auth/plugin';
import { freshDatabase, type TestDatabase } from '../helpers/db';
import { freePort } from '../helpers/cli-process';
import { lastOutboxMessage, postJson } from './support/methods-app';

let db: TestDatabase;
let app: FastifyInstance;
let port: number;
let origin: string;

beforeAll(async () => {
  db = await freshDatabase();
  port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  // What `npm start` passes: PORT and nothing about URLs.
  const config = readAuthConfig({ PORT: String(port), AUTH_RATE_LIMIT_ENABLE: 'false' });
  app = Fastify({ logger: false });
  await registerAuth(app, { pool: db.pool, config, version: 'test', modules: [] });
  await app.listen({ port, host: '127.0.0.1' });
});
afterAll(async () => {
  await app?.close();
  await db?.close();
});

describe("redirects to the server's own address", () => {
  it('signs up at http://127.0.0.1:PORT and the e-mailed link returns there', async () => {
    const email = 'first.hour@example.in';
    const redirectTo = `${origin}/authenticate/redirect`;
    const signUp = await postJson(`${origin}/v1/auth/signup/email-password`, { email, password: 'first-hour-2026', options: { redirectTo } });
    expect(signUp).toEqual({ status: 200, body: { session: null } });

    const link = new URL(/https?:\/\/\S+/.exec(await lastOutboxMessage(db, email))?.[0] ?? '');
    expect(link.searchParams.get('redirectTo')).toBe(redirectTo);
    // The link names localhost (AUTH_SERVER_URL's default); the same server answers on 127.0.0.1.
    link.host = `127.0.0.1:${port}`;
    const verify = await fetch(link, { redirect: 'manual' });
    expect(verify.status).toBe(302);
    const back = new URL(verify.headers.get('location') ?? '');
    expect(`${back.origin}${back.pathname}`).toBe(redirectTo);
    expect(back.searchParams.get('refreshToken')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('sends a password reset from http://127.0.0.1:PORT and from http://localhost:PORT', async () => {
    for (const host of ['127.0.0.1', 'localhost']) {
      const reset = await postJson(`${origin}/v1/auth/user/password/reset`, { email: 'first.hour@example.in', options: { redirectTo: `http://${host}:${port}/authenticate/reset-password` } });
      expect(reset).toEqual({ status: 200, body: 'OK' });
    }
  });

  it('still refuses other hosts, and the same host on another port', async () => {
    for (const redirectTo of ['https://evil.example.com/authenticate/redirect', `http://127.0.0.1:${port + 1}/authenticate/redirect`]) {
      const signUp = await postJson(`${origin}/v1/auth/signup/email-password`, { email: 'other@example.in', password: 'first-hour-2026', options: { redirectTo } });
      expect(signUp.status).toBe(400);
      expect(signUp.body.error).toBe('redirectTo-not-allowed');
    }
  });
});

describe('the own origins in the configuration', () => {
  it('are 127.0.0.1, localhost and AUTH_SERVER_URL at PORT, plus a HOST that names one address', () => {
    expect(readAuthConfig({}).ownOrigins).toEqual(['http://127.0.0.1:8080', 'http://localhost:8080']);
    expect(readAuthConfig({ PORT: '9000', HOST: '192.168.1.20', AUTH_SERVER_URL: 'https://vyuha.example.in/v1/auth' }).ownOrigins)
      .toEqual(['http://127.0.0.1:9000', 'http://localhost:9000', 'http://192.168.1.20:9000', 'https://vyuha.example.in']);
    // Every address: nothing to add beyond loopback.
    expect(readAuthConfig({ HOST: '0.0.0.0' }).ownOrigins).toEqual(['http://127.0.0.1:8080', 'http://localhost:8080']);
    expect(readAuthConfig({ HOST: '::1' }).ownOrigins).toContain('http://[::1]:8080');
  });

  it('let the link checker accept them and nothing else', () => {
    const links = createLinks(readAuthConfig({ PORT: '9000', HOST: '10.0.0.5' }));
    for (const allowed of ['http://127.0.0.1:9000/x', 'http://localhost:9000/authenticate/redirect', 'http://10.0.0.5:9000/']) {
      expect(links.checkRedirect(allowed)).toBe(allowed);
    }
    for (const refused of ['http://10.0.0.6:9000/', 'https://127.0.0.1:9000/', 'http://localhost.evil.example:9000/']) {
      expect(() => links.checkRedirect(refused)).toThrow(/redirectTo/);
    }
  });
});
