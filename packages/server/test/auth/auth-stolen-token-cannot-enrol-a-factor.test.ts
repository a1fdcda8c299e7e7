import { createClient, type NhostClient } from '@nhost/nhost-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAuthConfig } from '../../src/auth/config';
import { createMfaRouteModule } from '../../src/auth/mfa/mfa-routes';
import { totpCode, totpStep } from '../../src/auth/mfa/totp';
import { createOauthRouteModule } from '../../src/auth/oauth/oauth-routes';
import { readOAuthProviders } from '../../src/auth/oauth/providers';
import { createSigningKeys } from '../../src/auth/signing-keys';
import { createWebauthnRouteModule } from '../../src/auth/webauthn/webauthn-routes';
import { startOidcFixture, type OidcFixture } from './support/oidc-fixture';
import { jwtClaims, postJson, startMethodsApp, type JsonBody, type MethodsApp } from './support/methods-app';
import { SoftwareAuthenticator } from './support/software-authenticator';

// Issue 15, after items 6 and 9. What broke: a stolen regular access or refresh token could add a
// FIRST security key (no elevation was asked of a user without one), switch TOTP on, or link an
// OAuth provider account of the thief's, then elevate (or sign in) with that new factor and change
// the password. Now enrolling a factor needs fresh proof: `currentPassword`, a fresh elevation, or
// a session whose interactive sign-in was at most 5 minutes ago. That time (`auth_time`) is kept on
// the refresh-token family (migration 0016), so a refresh does not make an old session fresh. The
// auth service's clock is moved here: "6 minutes later" without waiting.

const ORIGIN = 'http://localhost:3000';
const SETTINGS = { enabled: true, rpId: 'localhost', rpName: 'Vyuha', origins: [ORIGIN], timeoutMilliseconds: 60_000 };
const PASSWORD = 'owner passphrase 2026';
const SIX_MINUTES = 6 * 60_000;

let clockOffset = 0;
const now = (): number => Date.now() + clockOffset;
let service: MethodsApp;
let fixture: OidcFixture;
const url = (path: string): string => `${service.authUrl}${path}`;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

beforeAll(async () => {
  fixture = await startOidcFixture({ 'thief-account': { email: 'thief@example.com', emailVerified: true, name: 'Thief' } });
  const providers = readOAuthProviders({
    AUTH_PROVIDER_OIDC_ISSUER: fixture.issuer, AUTH_PROVIDER_OIDC_CLIENT_ID: fixture.clientId, AUTH_PROVIDER_OIDC_CLIENT_SECRET: fixture.clientSecret,
  });
  service = await startMethodsApp({
    modules: [createMfaRouteModule({ nowMilliseconds: now }), createWebauthnRouteModule(SETTINGS), createOauthRouteModule({ providers })],
    now,
  });
  fixture.allowRedirectUri(url('/signin/provider/oidc/callback'));
});
afterAll(async () => {
  await service.close();
  await fixture.close();
});

/** A new account signed in now; returns its session. */
async function signedUp(email: string): Promise<{ accessToken: string; refreshToken: string; user: { id: string } }> {
  const signUp = await postJson(url('/signup/email-password'), { email, password: PASSWORD });
  expect(signUp.status, JSON.stringify(signUp.body)).toBe(200);
  return signUp.body.session;
}

/** What a thief replaying a refresh token stolen from a session signed in 6 minutes ago gets. */
async function staleSession(email: string): Promise<{ accessToken: string; userId: string }> {
  const session = await signedUp(email);
  clockOffset += SIX_MINUTES;
  const refreshed = await postJson(url('/token'), { refreshToken: session.refreshToken });
  expect(refreshed.status).toBe(200);
  return { accessToken: refreshed.body.accessToken, userId: session.user.id };
}

async function challenges(userId: string): Promise<number> {
  const found = await service.db.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM auth.webauthn_challenges WHERE user_id = $1 AND purpose = 'add'", [userId]);
  return found.rows[0]?.n ?? 0;
}

const missingProof = (body: JsonBody) => {
  expect(body).toMatchObject({ status: 400, error: 'invalid-request' });
  expect(body.message).toMatch(/^currentPassword: is required to add a security key, two-factor sign-in or a linked provider/);
};

describe('the sign-in time of a session (auth_time)', () => {
  it('is kept through refreshes: a token refreshed 6 minutes later says when its session signed in', async () => {
    const session = await signedUp('refreshed@example.com');
    const signedInAt = jwtClaims(session.accessToken).auth_time as number;
    expect(Math.abs(signedInAt - Math.floor(now() / 1000))).toBeLessThanOrEqual(1);
    clockOffset += SIX_MINUTES;
    const first = await postJson(url('/token'), { refreshToken: session.refreshToken });
    const second = await postJson(url('/token'), { refreshToken: first.body.refreshToken });
    for (const refreshed of [first, second]) {
      expect(jwtClaims(refreshed.body.accessToken).auth_time).toBe(signedInAt);
      expect(jwtClaims(refreshed.body.accessToken).iat).toBeGreaterThanOrEqual(signedInAt + 360);
    }
    const family = await service.db.pool.query<{ n: number }>(
      'SELECT count(DISTINCT signed_in_at)::int AS n FROM auth.refresh_tokens WHERE user_id = $1', [session.user.id]);
    expect(family.rows[0]?.n).toBe(1);
  });
});

describe('a stolen token of a session signed in more than 5 minutes ago', () => {
  it('cannot add a first security key without the current password; with it, it can', async () => {
    const email = 'first-key@example.com';
    const { accessToken, userId } = await staleSession(email);
    missingProof((await postJson(url('/user/webauthn/add'), {}, bearer(accessToken))).body);
    expect(await challenges(userId)).toBe(0);
    const wrong = await postJson(url('/user/webauthn/add'), { currentPassword: 'a guess' }, bearer(accessToken));
    expect(wrong.body).toMatchObject({ status: 401, error: 'invalid-email-password', message: "currentPassword: is not the account's password" });
    expect(await challenges(userId)).toBe(0);
    // The owner, who knows the password, adds the key from the same old session.
    const key = new SoftwareAuthenticator({ origin: ORIGIN, rpId: 'localhost' });
    const options = await postJson(url('/user/webauthn/add'), { currentPassword: PASSWORD }, bearer(accessToken));
    expect(options.status).toBe(200);
    const added = await postJson(url('/user/webauthn/verify'), { credential: key.createCredential(options.body), nickname: 'owner key' }, bearer(accessToken));
    expect(added.body).toMatchObject({ nickname: 'owner key' });
    const audit = await service.db.pool.query("SELECT after->>'proof' AS proof FROM audit_log WHERE action = 'auth.security_key.add' AND entity_id = $1", [userId]);
    expect(audit.rows).toEqual([{ proof: 'current-password' }]);
  });

  it('cannot switch TOTP on without the current password, and the refusal does not use the code up', async () => {
    const { accessToken, userId } = await staleSession('first-totp@example.com');
    // Generating a pending secret needs no proof (a GET; the secret counts only once activated).
    const generated = await fetch(url('/mfa/totp/generate'), { headers: bearer(accessToken) });
    expect(generated.status).toBe(200);
    const { totpSecret } = (await generated.json()) as { totpSecret: string };
    const code = totpCode({ secret: totpSecret, step: totpStep(now()) });
    missingProof((await postJson(url('/user/mfa'), { code, activeMfaType: 'totp' }, bearer(accessToken))).body);
    const state = await service.db.pool.query('SELECT active_mfa_type FROM auth.users WHERE id = $1', [userId]);
    expect(state.rows).toEqual([{ active_mfa_type: null }]);
    // No elevation with the pending secret either.
    expect((await postJson(url('/elevate/totp'), { otp: code }, bearer(accessToken))).body.error).toBe('disabled-mfa-totp');
    const activated = await postJson(url('/user/mfa'), { code, activeMfaType: 'totp', currentPassword: PASSWORD }, bearer(accessToken));
    expect(activated.body).toBe('OK');
  });

  it('cannot link an OAuth provider account (connect): only a fresh session can', async () => {
    const session = await signedUp('connect-owner@example.com');
    clockOffset += SIX_MINUTES;
    const stale = (await postJson(url('/token'), { refreshToken: session.refreshToken })).body.accessToken as string;
    const connectUrl = (token: string) => url(`/signin/provider/oidc?connect=${encodeURIComponent(token)}&redirectTo=${encodeURIComponent(ORIGIN)}`);
    const refused = await fetch(connectUrl(stale), { redirect: 'manual' });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: 'invalid-request', message: expect.stringMatching(/^connect: needs a session signed in or elevated in the last 5 minutes/) });
    expect((await service.db.pool.query("SELECT 1 FROM auth.provider_requests WHERE options->>'connectUserId' = $1", [session.user.id])).rowCount).toBe(0);
    const fresh = (await postJson(url('/signin/email-password'), { email: 'connect-owner@example.com', password: PASSWORD })).body.session.accessToken as string;
    const started = await fetch(connectUrl(fresh), { redirect: 'manual' });
    expect(started.status).toBe(302);
    expect(new URL(started.headers.get('location') ?? '').origin).toBe(new URL(fixture.issuer).origin);
  });

  it('is refused when the token does not say when its session signed in (issued before this check)', async () => {
    const session = await signedUp('no-auth-time@example.com');
    const config = readAuthConfig({});
    const claims = { ...jwtClaims(session.accessToken) };
    delete claims.auth_time;
    const token = await createSigningKeys({ pool: service.db.pool, config, now }).sign(claims as never);
    expect((await postJson(url('/user/webauthn/add'), {}, bearer(token))).status).toBe(400);
    expect((await postJson(url('/user/webauthn/add'), {}, bearer(session.accessToken))).status).toBe(200);
  });
});

describe('someone who just signed in, or elevated', () => {
  function nhostClient(): NhostClient {
    let saved: unknown = null;
    return createClient({ authUrl: service.authUrl, storage: { get: () => saved as never, set: (value) => { saved = value; }, remove: () => { saved = null; } } });
  }

  it('enrols at once with the unchanged Nhost client: a security key and TOTP', async () => {
    const nhost = nhostClient();
    await nhost.auth.signUpEmailPassword({ email: 'nhost-enrol@example.com', password: PASSWORD });
    const key = new SoftwareAuthenticator({ origin: ORIGIN, rpId: 'localhost' });
    const options = await nhost.auth.addSecurityKey();
    const added = await nhost.auth.verifyAddSecurityKey({ credential: key.createCredential(options.body as never) as never, nickname: 'laptop' });
    expect(added.body).toMatchObject({ nickname: 'laptop' });
    const generated = await nhost.auth.changeUserMfa();
    const activated = await nhost.auth.verifyChangeUserMfa({ code: totpCode({ secret: generated.body.totpSecret, step: totpStep(now()) }), activeMfaType: 'totp' });
    expect(activated.body).toBe('OK');
  });

  it('adds a second key from an old session after elevating with the first (a fresh elevation is proof)', async () => {
    const email = 'second-key@example.com';
    const first = new SoftwareAuthenticator({ origin: ORIGIN, rpId: 'localhost' });
    const session = await signedUp(email);
    const options = await postJson(url('/user/webauthn/add'), {}, bearer(session.accessToken));
    await postJson(url('/user/webauthn/verify'), { credential: first.createCredential(options.body) }, bearer(session.accessToken));
    clockOffset += SIX_MINUTES;
    const stale = (await postJson(url('/token'), { refreshToken: session.refreshToken })).body.accessToken as string;
    missingProof((await postJson(url('/user/webauthn/add'), {}, bearer(stale))).body);
    const assertionOptions = await postJson(url('/elevate/webauthn'), { email }, bearer(stale));
    const elevated = await postJson(url('/elevate/webauthn/verify'), { credential: first.getAssertion(assertionOptions.body) }, bearer(stale));
    const elevatedToken = elevated.body.session.accessToken as string;
    const second = new SoftwareAuthenticator({ origin: ORIGIN, rpId: 'localhost' });
    const secondOptions = await postJson(url('/user/webauthn/add'), {}, bearer(elevatedToken));
    expect(secondOptions.status).toBe(200);
    expect((await postJson(url('/user/webauthn/verify'), { credential: second.createCredential(secondOptions.body) }, bearer(elevatedToken))).status).toBe(200);
  });
});
