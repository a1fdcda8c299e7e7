import { createClient, type NhostClient } from '@nhost/nhost-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMfaRouteModule } from '../../src/auth/mfa/mfa-routes';
import { totpCode, totpStep } from '../../src/auth/mfa/totp';
import { auditActions, postJson, startMethodsApp, type MethodsApp } from './support/methods-app';

// TOTP MFA driven by the unchanged Nhost client: enable, sign in with ticket + code, replay and
// attempt limits, deactivate. The MFA module's clock is moved by hand so codes of successive
// 30-second steps can be computed without waiting.

let clock = Date.UTC(2025, 0, 6, 4, 0, 0);
const codeNow = (secret: string): string => totpCode({ secret, step: totpStep(clock) });
const nextStep = (): void => {
  clock += 30_000;
};

function nhostClient(authUrl: string): NhostClient {
  let saved: unknown = null;
  const base = authUrl.replace(/\/v1\/auth$/, '');
  return createClient({
    authUrl,
    graphqlUrl: `${base}/v1/graphql`,
    storageUrl: `${base}/v1/storage`,
    functionsUrl: `${base}/v1/functions`,
    storage: { get: () => saved as never, set: (value) => { saved = value; }, remove: () => { saved = null; } },
  });
}

async function failure(promise: Promise<unknown>): Promise<{ status: number; error: string }> {
  try {
    await promise;
  } catch (caught) {
    const error = caught as { status: number; body: { error: string } };
    return { status: error.status, error: error.body.error };
  }
  throw new Error('expected the request to fail');
}

describe('TOTP MFA with the Nhost client', () => {
  let service: MethodsApp;
  const email = 'mfa.user@example.com';
  const password = 'correct horse battery';
  let secret = '';
  let userId = '';

  beforeAll(async () => {
    service = await startMethodsApp({ modules: [createMfaRouteModule({ issuer: 'Vyuha Test', nowMilliseconds: () => clock })] });
  });
  afterAll(async () => service.close());

  it('generates a secret with a QR code and activates it with a valid code', async () => {
    const nhost = nhostClient(service.authUrl);
    const signUp = await nhost.auth.signUpEmailPassword({ email, password });
    userId = signUp.body.session?.user?.id ?? '';
    expect(userId).not.toBe('');
    const generated = await nhost.auth.changeUserMfa();
    expect(generated.body.imageUrl).toMatch(/^data:image\/png;base64,/);
    expect(generated.body.totpSecret).toMatch(/^[A-Z2-7]{32}$/);
    secret = generated.body.totpSecret;
    expect(await failure(nhost.auth.verifyChangeUserMfa({ code: '000000', activeMfaType: 'totp' }))).toEqual({ status: 401, error: 'invalid-totp' });
    const activated = await nhost.auth.verifyChangeUserMfa({ code: codeNow(secret), activeMfaType: 'totp' });
    expect(activated.body).toBe('OK');
    expect(await failure(nhost.auth.changeUserMfa())).toEqual({ status: 400, error: 'totp-already-active' });
  });

  it('answers a password sign-in with an mfaTotp ticket, and refuses a replayed code', async () => {
    const nhost = nhostClient(service.authUrl);
    const signIn = await nhost.auth.signInEmailPassword({ email, password });
    expect(signIn.body.session ?? null).toBeNull();
    const ticket = signIn.body.mfa?.ticket ?? '';
    expect(ticket).toMatch(/^mfaTotp:[0-9a-f-]{36}$/);
    // Same step as the activation: the code was already used.
    expect(await failure(nhost.auth.verifySignInMfaTotp({ ticket, otp: codeNow(secret) }))).toEqual({ status: 401, error: 'invalid-totp' });
    nextStep();
    const verified = await nhost.auth.verifySignInMfaTotp({ ticket, otp: codeNow(secret) });
    expect(verified.body.session?.user?.activeMfaType).toBe('totp');
    expect(verified.body.session?.user?.id).toBe(userId);
    // The session is stored by the client: an authenticated call works.
    expect((await nhost.auth.getUser()).body.email).toBe(email);
    // The ticket worked once.
    nextStep();
    expect(await failure(nhost.auth.verifySignInMfaTotp({ ticket, otp: codeNow(secret) }))).toEqual({ status: 401, error: 'invalid-ticket' });
  });

  it('kills a ticket after five wrong codes', async () => {
    const nhost = nhostClient(service.authUrl);
    const ticket = (await nhost.auth.signInEmailPassword({ email, password })).body.mfa?.ticket ?? '';
    nextStep();
    const right = codeNow(secret);
    const wrong = right === '111111' ? '222222' : '111111';
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect(await failure(nhost.auth.verifySignInMfaTotp({ ticket, otp: wrong }))).toEqual({ status: 401, error: 'invalid-totp' });
    }
    expect(await failure(nhost.auth.verifySignInMfaTotp({ ticket, otp: right }))).toEqual({ status: 401, error: 'invalid-ticket' });
  });

  it('refuses malformed tickets with a message naming the field', async () => {
    const response = await postJson(`${service.authUrl}/signin/mfa/totp`, { ticket: 'passwordReset:abc', otp: '123456' });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: 'invalid-request' });
    expect(response.body.message).toMatch(/^ticket:/);
  });

  it('deactivates with a valid code; then sign-in needs no second factor', async () => {
    const nhost = nhostClient(service.authUrl);
    nextStep();
    const ticket = (await nhost.auth.signInEmailPassword({ email, password })).body.mfa?.ticket ?? '';
    await nhost.auth.verifySignInMfaTotp({ ticket, otp: codeNow(secret) });
    expect(await failure(nhost.auth.verifyChangeUserMfa({ code: codeNow(secret), activeMfaType: '' }))).toEqual({ status: 401, error: 'invalid-totp' });
    nextStep();
    expect((await nhost.auth.verifyChangeUserMfa({ code: codeNow(secret), activeMfaType: '' })).body).toBe('OK');
    const again = await nhostClient(service.authUrl).auth.signInEmailPassword({ email, password });
    expect(again.body.session?.user?.activeMfaType ?? null).toBeNull();
    expect(await failure(nhost.auth.verifyChangeUserMfa({ code: codeNow(secret), activeMfaType: '' }))).toEqual({ status: 401, error: 'disabled-mfa-totp' });
  });

  it('writes every MFA change, sign-in and failure to the audit log', async () => {
    const actions = await auditActions(service.db, userId);
    for (const action of ['auth.mfa.totp_generate', 'auth.mfa.activate_failed', 'auth.mfa.activate', 'auth.signin', 'auth.signin_failed', 'auth.mfa.deactivate']) {
      expect(actions).toContain(action);
    }
    const secretsInTrail = await service.db.pool.query("SELECT count(*)::int AS n FROM audit_log WHERE after::text LIKE '%' || $1 || '%'", [secret]);
    expect(secretsInTrail.rows[0].n).toBe(0);
  });
});

describe('TOTP MFA when elevation is required', () => {
  let service: MethodsApp;
  beforeAll(async () => {
    service = await startMethodsApp({ modules: [createMfaRouteModule({ nowMilliseconds: () => clock })], env: { AUTH_REQUIRE_ELEVATED_CLAIM: 'required' } });
  });
  afterAll(async () => service.close());

  it('refuses to generate a secret with a token that is not elevated', async () => {
    const nhost = nhostClient(service.authUrl);
    await nhost.auth.signUpEmailPassword({ email: 'strict@example.com', password: 'correct horse battery' });
    expect(await failure(nhost.auth.changeUserMfa())).toEqual({ status: 401, error: 'elevated-claim-required' });
  });
});
