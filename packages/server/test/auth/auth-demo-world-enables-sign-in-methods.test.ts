// The sign-in tabs offered magic link and SMS code, and both answered "This endpoint is disabled":
// hasura-auth's defaults switch every optional method off, and nothing switched them on in the
// demo world. Now the demo world's environment (auth/demo-methods.ts) turns on what works on one
// machine, GET /v1/auth/methods tells the web app what is on, and both come from one reading of
// the settings. The auth service runs here as startServer builds it: readAuthConfig and
// authMethodModules over the same environment.
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAuthConfig } from '../../src/auth/config';
import { withDemoAuthMethods } from '../../src/auth/demo-methods';
import { authMethodModules } from '../../src/auth/method-modules';
import { registerAuth } from '../../src/auth/plugin';
import { freePort } from '../helpers/cli-process';
import { freshDatabase, type TestDatabase } from '../helpers/db';
import { lastOutboxMessage, postJson } from './support/methods-app';

interface Service {
  readonly db: TestDatabase;
  readonly app: FastifyInstance;
  readonly authUrl: string;
}

async function startService(env: Record<string, string | undefined>, port: number): Promise<Service> {
  const db = await freshDatabase();
  const withPort = { ...env, PORT: String(port), AUTH_RATE_LIMIT_ENABLE: 'false' };
  const app = Fastify({ logger: false });
  await registerAuth(app, { pool: db.pool, config: readAuthConfig(withPort), version: 'test', modules: authMethodModules(withPort) });
  await app.listen({ port, host: '127.0.0.1' });
  return { db, app, authUrl: `http://127.0.0.1:${port}/v1/auth` };
}

/** The newest outbox message to `recipient`, waiting for it: mail goes out after the answer (no enumeration by timing). */
async function waitForOutbox(db: TestDatabase, recipient: string): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      return await lastOutboxMessage(db, recipient);
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

async function getJson(url: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(url);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('the demo world', () => {
  let demo: Service;
  let port: number;
  beforeAll(async () => {
    port = await freePort();
    demo = await startService(withDemoAuthMethods({}, { port }), port);
  });
  afterAll(async () => {
    await demo?.app.close();
    await demo?.db.close();
  });

  it('says which methods are on: every one that works on one machine, mail and SMS to the outbox', async () => {
    expect(await getJson(`${demo.authUrl}/methods`)).toEqual({
      status: 200,
      body: {
        emailPassword: { signIn: true, signUp: true },
        magicLink: true,
        emailOtp: false,
        smsOtp: true,
        anonymous: true,
        totp: true,
        personalAccessTokens: true,
        securityKeys: { enabled: true, rpId: 'localhost', origins: [`http://localhost:${port}`] },
        oauthProviders: [],
        delivery: { email: 'outbox', sms: 'outbox' },
      },
    });
  });

  it('mails a magic link to the outbox instead of "This endpoint is disabled"', async () => {
    const email = 'magic.link@example.in';
    const sent = await postJson(`${demo.authUrl}/signin/passwordless/email`, { email, options: { redirectTo: `http://127.0.0.1:${port}/authenticate/redirect` } });
    expect(sent).toEqual({ status: 200, body: 'OK' });
    expect(await waitForOutbox(demo.db, email)).toMatch(/\/v1\/auth\/verify\?ticket=passwordlessEmail%3A/);
  });

  it('texts an SMS code to the outbox, and the code signs in', async () => {
    const phoneNumber = '+919876500001';
    expect(await postJson(`${demo.authUrl}/signin/passwordless/sms`, { phoneNumber })).toEqual({ status: 200, body: 'OK' });
    const otp = /\b(\d{6})\b/.exec(await waitForOutbox(demo.db, phoneNumber))?.[1];
    const signedIn = await postJson(`${demo.authUrl}/signin/passwordless/sms/otp`, { phoneNumber, otp });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.session.user).toMatchObject({ phoneNumber, phoneNumberVerified: true });
  });

  it('signs in a guest (anonymous)', async () => {
    const guest = await postJson(`${demo.authUrl}/signin/anonymous`, {});
    expect(guest.status).toBe(200);
    expect(guest.body.session.user.isAnonymous).toBe(true);
  });

  it('offers security keys for the localhost relying party', async () => {
    const options = await postJson(`${demo.authUrl}/signup/webauthn`, { email: 'key.holder@example.in' });
    expect(options.status).toBe(200);
    expect(options.body.rp).toMatchObject({ id: 'localhost', name: 'Vyuha' });
  });
});

describe('outside the demo world (hasura-auth defaults)', () => {
  let plain: Service;
  beforeAll(async () => {
    plain = await startService({}, await freePort());
  });
  afterAll(async () => {
    await plain?.app.close();
    await plain?.db.close();
  });

  it('reports the optional methods off, exactly as their endpoints answer', async () => {
    const { body } = await getJson(`${plain.authUrl}/methods`);
    expect(body).toMatchObject({ magicLink: false, smsOtp: false, anonymous: false, securityKeys: { enabled: false, origins: [] }, totp: true, personalAccessTokens: true });
    for (const [path, request] of [['/signin/passwordless/email', { email: 'a@example.in' }], ['/signin/passwordless/sms', { phoneNumber: '+919876500002' }], ['/signin/anonymous', {}], ['/signup/webauthn', { email: 'b@example.in' }]] as const) {
      const answer = await postJson(`${plain.authUrl}${path}`, request);
      expect(answer.body.error, path).toBe('disabled-endpoint');
    }
  });
});

describe('withDemoAuthMethods', () => {
  it('fills only what the operator left unset', () => {
    const env = withDemoAuthMethods({ AUTH_SMS_PASSWORDLESS_ENABLED: 'false', AUTH_WEBAUTHN_RP_ORIGINS: 'http://localhost:3000' }, { port: 8080 });
    expect(env).toMatchObject({
      AUTH_SMS_PASSWORDLESS_ENABLED: 'false', AUTH_EMAIL_PASSWORDLESS_ENABLED: 'true', AUTH_ANONYMOUS_USERS_ENABLED: 'true',
      AUTH_WEBAUTHN_ENABLED: 'true', AUTH_WEBAUTHN_RP_ID: 'localhost', AUTH_WEBAUTHN_RP_ORIGINS: 'http://localhost:3000',
    });
  });

  it('leaves the relying party to an AUTH_CLIENT_URL with a domain name, and never uses an IP address', () => {
    const domain = withDemoAuthMethods({ AUTH_CLIENT_URL: 'https://demo.vyuha.in' }, { port: 8080 });
    expect(domain.AUTH_WEBAUTHN_RP_ID).toBeUndefined();
    expect(domain.AUTH_WEBAUTHN_RP_ORIGINS).toBeUndefined();
    const address = withDemoAuthMethods({ AUTH_CLIENT_URL: 'http://192.168.1.20:8080' }, { port: 8080 });
    expect(address).toMatchObject({ AUTH_WEBAUTHN_RP_ID: 'localhost', AUTH_WEBAUTHN_RP_ORIGINS: 'http://localhost:8080' });
  });
});
