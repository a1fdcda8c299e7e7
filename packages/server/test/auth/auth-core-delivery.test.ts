import { Writable } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAuthConfig } from '../../src/auth/config';
import { createAuthContext } from '../../src/auth/create-context';
import { registerAuth } from '../../src/auth/plugin';
import { freshDatabase, type TestDatabase } from '../helpers/db';

// Without SMTP every message stays in auth.outbox and a log line says so without the secret;
// plus the switches that close endpoints and the elevation rule, through app.inject.

let db: TestDatabase;
const logLines: string[] = [];

async function appWith(env: Record<string, string>): Promise<FastifyInstance> {
  const sink = new Writable({ write(chunk: Buffer, _encoding, done) { logLines.push(chunk.toString('utf8')); done(); } });
  const app = Fastify({ logger: { level: 'info', stream: sink } });
  await registerAuth(app, { pool: db.pool, config: readAuthConfig({ AUTH_CLIENT_URL: 'http://localhost:3000', ...env }), version: 'test', modules: [] });
  return app;
}

beforeAll(async () => {
  db = await freshDatabase();
});
afterAll(() => db.close());

describe('delivery without SMTP', () => {
  it('keeps the verification mail in auth.outbox and logs that, never the link', async () => {
    const app = await appWith({});
    const response = await app.inject({ method: 'POST', url: '/v1/auth/signup/email-password', payload: { email: 'outbox@example.in', password: 'outbox passphrase' } });
    expect(response.json()).toEqual({ session: null });
    // The mail is made after the answer (no enumeration by timing): wait for it.
    const read = () => db.pool.query<{ channel: string; subject: string; body: string; template: string; sent_at: Date | null }>(
      "SELECT channel, subject, body, template, sent_at FROM auth.outbox WHERE recipient = 'outbox@example.in'");
    let rows = await read();
    for (let wait = 0; wait < 100 && rows.rows.length === 0; wait += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      rows = await read();
    }
    expect(rows.rows).toHaveLength(1);
    const row = rows.rows[0];
    expect(row).toMatchObject({ channel: 'email', template: 'email-verify', sent_at: null });
    const ticket = /ticket=([^&\s]+)/.exec(row?.body ?? '')?.[1] ?? '';
    expect(decodeURIComponent(ticket)).toMatch(/^verifyEmail:[0-9a-f-]{36}$/);
    const logged = logLines.join('');
    expect(logged).toContain('e-mail kept in auth.outbox');
    expect(logged).not.toContain(decodeURIComponent(ticket).split(':')[1]);
    await app.close();
  });

  it('sends SMS to the outbox through the context', async () => {
    const context = createAuthContext({ pool: db.pool, config: readAuthConfig({}), version: 'test', log: pino({ level: 'silent' }) });
    await context.sms.send({ to: '+919876543210', body: 'Your code is 123456' });
    const rows = await db.pool.query("SELECT channel, subject, body FROM auth.outbox WHERE recipient = '+919876543210'");
    expect(rows.rows).toEqual([{ channel: 'sms', subject: null, body: 'Your code is 123456' }]);
  });
});

describe('switches and elevation', () => {
  it('refuses sign-up when AUTH_DISABLE_SIGNUP and anonymous sign-in unless enabled', async () => {
    const app = await appWith({ AUTH_DISABLE_SIGNUP: 'true' });
    const signUp = await app.inject({ method: 'POST', url: '/v1/auth/signup/email-password', payload: { email: 'closed@example.in', password: 'closed passphrase' } });
    expect(signUp.statusCode).toBe(403);
    expect(signUp.json()).toEqual({ status: 403, message: 'Sign up is disabled', error: 'signup-disabled' });
    const anonymous = await app.inject({ method: 'POST', url: '/v1/auth/signin/anonymous' });
    expect(anonymous.json()).toMatchObject({ status: 409, error: 'disabled-endpoint' });
    await app.close();
  });

  it('accepts a bodiless anonymous sign-in posted as JSON', async () => {
    const app = await appWith({ AUTH_ANONYMOUS_USERS_ENABLED: 'true' });
    const anonymous = await app.inject({ method: 'POST', url: '/v1/auth/signin/anonymous', headers: { 'content-type': 'application/json' }, payload: '' });
    expect(anonymous.statusCode).toBe(200);
    expect(anonymous.json().session.user.isAnonymous).toBe(true);
    await app.close();
  });

  it('requires an elevated token for POST /pat when AUTH_REQUIRE_ELEVATED_CLAIM=required', async () => {
    const app = await appWith({ AUTH_REQUIRE_ELEVATED_CLAIM: 'required', AUTH_EMAIL_SIGNIN_EMAIL_VERIFIED_REQUIRED: 'false' });
    const signUp = await app.inject({ method: 'POST', url: '/v1/auth/signup/email-password', payload: { email: 'elevate@example.in', password: 'elevate passphrase' } });
    const session = signUp.json().session as { accessToken: string; user: { id: string } };
    const payload = { expiresAt: new Date(Date.now() + 86_400_000).toISOString() };
    const plain = await app.inject({ method: 'POST', url: '/v1/auth/pat', headers: { authorization: `Bearer ${session.accessToken}` }, payload });
    expect(plain.json()).toEqual({ status: 401, message: 'Elevated claim required', error: 'elevated-claim-required' });
    // What the WebAuthn elevation hands out: a session whose token carries x-hasura-auth-elevated.
    const context = createAuthContext({ pool: db.pool, config: readAuthConfig({}), version: 'test', log: pino({ level: 'silent' }) });
    const elevated = await context.issueSession(session.user.id, { elevated: true });
    const allowed = await app.inject({ method: 'POST', url: '/v1/auth/pat', headers: { authorization: `Bearer ${elevated.accessToken}` }, payload });
    expect(allowed.statusCode).toBe(200);
    expect(allowed.json()).toMatchObject({ id: expect.any(String), personalAccessToken: expect.any(String) });
    await app.close();
  });

  it('needs a Bearer token to sign out everywhere', async () => {
    const app = await appWith({});
    const response = await app.inject({ method: 'POST', url: '/v1/auth/signout', payload: { all: true } });
    expect(response.json()).toMatchObject({ status: 401, error: 'unauthenticated-user' });
    await app.close();
  });
});
