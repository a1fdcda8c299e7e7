import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebauthnRouteModule } from '../../src/auth/webauthn/webauthn-routes';
import { SoftwareAuthenticator } from './support/software-authenticator';
import { auditActions, jwtClaims, postJson, startMethodsApp, type MethodsApp } from './support/methods-app';

// WebAuthn over HTTP with a software authenticator: sign up, sign in (by e-mail and with a
// discoverable key), counter and challenge checks, adding a key, elevation.

const ORIGIN = 'http://localhost:3000';
const SETTINGS = { enabled: true, rpId: 'localhost', rpName: 'Vyuha', origins: [ORIGIN], timeoutMilliseconds: 60_000 };
const EMAIL = 'keys@example.com';

describe('WebAuthn security keys', () => {
  let service: MethodsApp;
  const firstKey = new SoftwareAuthenticator({ origin: ORIGIN, rpId: 'localhost' });
  let userId = '';
  let accessToken = '';
  const url = (path: string): string => `${service.authUrl}${path}`;
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  beforeAll(async () => {
    service = await startMethodsApp({ modules: [createWebauthnRouteModule(SETTINGS)], env: { AUTH_REQUIRE_ELEVATED_CLAIM: 'recommended' } });
  });
  afterAll(async () => service.close());

  it('signs up with a new key', async () => {
    const options = await postJson(url('/signup/webauthn'), { email: EMAIL, options: { displayName: 'Key Holder' } });
    expect(options.status).toBe(200);
    expect(options.body.rp).toEqual({ name: 'Vyuha', id: 'localhost' });
    expect(options.body.user.name).toBe(EMAIL);
    const verified = await postJson(url('/signup/webauthn/verify'), { credential: firstKey.createCredential(options.body), nickname: 'yubikey' });
    expect(verified.status).toBe(200);
    expect(verified.body.session.user).toMatchObject({ email: EMAIL, displayName: 'Key Holder' });
    userId = verified.body.session.user.id;
    const keys = await service.db.pool.query('SELECT nickname, counter FROM auth.user_security_keys WHERE user_id = $1', [userId]);
    expect(keys.rows).toEqual([{ nickname: 'yubikey', counter: '0' }]);
    expect((await postJson(url('/signup/webauthn'), { email: EMAIL })).body.error).toBe('email-already-in-use');
  });

  it('signs in by e-mail, and a used challenge cannot be answered again', async () => {
    const options = await postJson(url('/signin/webauthn'), { email: EMAIL });
    expect(options.body.allowCredentials.map((entry: { id: string }) => entry.id)).toEqual(firstKey.credentialIds());
    const assertion = firstKey.getAssertion(options.body);
    const signedIn = await postJson(url('/signin/webauthn/verify'), { credential: assertion });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.session.user.id).toBe(userId);
    accessToken = signedIn.body.session.accessToken;
    const replayed = await postJson(url('/signin/webauthn/verify'), { credential: assertion });
    expect(replayed.body).toMatchObject({ status: 400, error: 'invalid-request' });
  });

  it('signs in with a discoverable key and no e-mail', async () => {
    const options = await postJson(url('/signin/webauthn'), {});
    expect(options.body.allowCredentials ?? []).toEqual([]);
    const signedIn = await postJson(url('/signin/webauthn/verify'), { credential: firstKey.getAssertion(options.body) });
    expect(signedIn.body.session.user.id).toBe(userId);
  });

  it('refuses an assertion whose counter does not rise (a cloned key)', async () => {
    const stored = await service.db.pool.query<{ counter: string }>('SELECT counter FROM auth.user_security_keys WHERE user_id = $1', [userId]);
    const options = await postJson(url('/signin/webauthn'), { email: EMAIL });
    const cloned = firstKey.getAssertion(options.body, { signCount: Number(stored.rows[0]?.counter) });
    const refused = await postJson(url('/signin/webauthn/verify'), { credential: cloned });
    expect(refused.body).toMatchObject({ status: 401, error: 'unauthenticated-user' });
  });

  it('refuses an expired challenge and a key from another origin', async () => {
    const options = await postJson(url('/signin/webauthn'), { email: EMAIL });
    await service.db.pool.query("UPDATE auth.webauthn_challenges SET created_at = now() - interval '2 minutes', expires_at = now() - interval '1 second' WHERE challenge = $1", [options.body.challenge]);
    expect((await postJson(url('/signin/webauthn/verify'), { credential: firstKey.getAssertion(options.body) })).body.error).toBe('invalid-request');
    const phishing = new SoftwareAuthenticator({ origin: 'https://vyuha.example.evil', rpId: 'localhost' });
    const creation = await postJson(url('/signup/webauthn'), { email: 'victim@example.com' });
    const refused = await postJson(url('/signup/webauthn/verify'), { credential: phishing.createCredential(creation.body) });
    expect(refused.body).toMatchObject({ status: 401, error: 'unauthenticated-user' });
    expect((await service.db.pool.query("SELECT 1 FROM auth.users WHERE email = 'victim@example.com'")).rowCount).toBe(0);
  });

  it('elevates a session, and adding a second key needs that elevation', async () => {
    const secondKey = new SoftwareAuthenticator({ origin: ORIGIN, rpId: 'localhost' });
    const notElevated = await postJson(url('/user/webauthn/add'), {}, bearer(accessToken));
    expect(notElevated.body).toMatchObject({ status: 401, error: 'elevated-claim-required' });
    const options = await postJson(url('/elevate/webauthn'), { email: EMAIL }, bearer(accessToken));
    const elevated = await postJson(url('/elevate/webauthn/verify'), { credential: firstKey.getAssertion(options.body) }, bearer(accessToken));
    expect(elevated.status).toBe(200);
    const elevatedToken = elevated.body.session.accessToken;
    expect(jwtClaims(elevatedToken)['https://hasura.io/jwt/claims']['x-hasura-auth-elevated']).toBe(userId);
    expect(jwtClaims(accessToken)['https://hasura.io/jwt/claims']['x-hasura-auth-elevated']).toBeUndefined();
    const addOptions = await postJson(url('/user/webauthn/add'), {}, bearer(elevatedToken));
    expect(addOptions.body.excludeCredentials.map((entry: { id: string }) => entry.id)).toEqual(firstKey.credentialIds());
    const added = await postJson(url('/user/webauthn/verify'), { credential: secondKey.createCredential(addOptions.body), nickname: 'phone' }, bearer(elevatedToken));
    expect(added.status).toBe(200);
    expect(added.body).toMatchObject({ nickname: 'phone' });
    expect(added.body.id).toMatch(/^[0-9a-f-]{36}$/);
    const keys = await service.db.pool.query('SELECT count(*)::int AS n FROM auth.user_security_keys WHERE user_id = $1', [userId]);
    expect(keys.rows[0].n).toBe(2);
  });

  it('does not start an elevation without a token', async () => {
    expect((await postJson(url('/elevate/webauthn'), { email: EMAIL })).body.error).toBe('unauthenticated-user');
  });

  it('audits sign-up, key changes, sign-ins, failures and elevation', async () => {
    const actions = await auditActions(service.db, userId);
    expect(actions).toEqual(expect.arrayContaining(['auth.signup', 'auth.security_key.add', 'auth.signin', 'auth.signin_failed', 'auth.elevate']));
  });
});

describe('WebAuthn switched off', () => {
  let service: MethodsApp;
  beforeAll(async () => {
    service = await startMethodsApp({ modules: [createWebauthnRouteModule({ ...SETTINGS, enabled: false })] });
  });
  afterAll(async () => service.close());

  it('answers disabled-endpoint', async () => {
    expect((await postJson(`${service.authUrl}/signin/webauthn`, { email: EMAIL })).body).toMatchObject({ status: 409, error: 'disabled-endpoint' });
  });
});
