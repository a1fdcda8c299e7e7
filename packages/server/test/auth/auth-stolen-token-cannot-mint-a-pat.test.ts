import { createClient } from '@nhost/nhost-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMfaRouteModule } from '../../src/auth/mfa/mfa-routes';
import { totpCode, totpStep } from '../../src/auth/mfa/totp';
import { postJson, startMethodsApp, type MethodsApp } from './support/methods-app';

// Issue 15 item 6, follow-up. What broke: with AUTH_REQUIRE_ELEVATED_CLAIM=disabled (the default)
// any regular access token could mint a personal access token living up to a year, so a token
// stolen from an old session became lasting access for the thief. Now POST /pat needs the fresh
// proof of enrolling a factor: `currentPassword` in the body, an elevation at most 5 minutes old,
// or a session whose interactive sign-in was at most 5 minutes ago (kept through refreshes). The
// auth service's clock is moved here: "6 minutes later" without waiting.

const PASSWORD = 'pat owner passphrase 2026';
const SIX_MINUTES = 6 * 60_000;

let clockOffset = 0;
const now = (): number => Date.now() + clockOffset;
let service: MethodsApp;
const url = (path: string): string => `${service.authUrl}${path}`;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const inDays = (days: number): string => new Date(Date.now() + days * 86_400_000).toISOString();

beforeAll(async () => {
  service = await startMethodsApp({ modules: [createMfaRouteModule({ nowMilliseconds: now })], now });
});
afterAll(() => service.close());

/** A new account, signed in now, then its refresh token replayed 6 minutes later: what a thief holds. */
async function staleSession(email: string): Promise<{ accessToken: string; refreshToken: string; userId: string }> {
  const signUp = await postJson(url('/signup/email-password'), { email, password: PASSWORD });
  expect(signUp.status, JSON.stringify(signUp.body)).toBe(200);
  clockOffset += SIX_MINUTES;
  const refreshed = await postJson(url('/token'), { refreshToken: signUp.body.session.refreshToken });
  expect(refreshed.status).toBe(200);
  return { accessToken: refreshed.body.accessToken, refreshToken: refreshed.body.refreshToken, userId: signUp.body.session.user.id };
}

async function patCount(userId: string): Promise<number> {
  const found = await service.db.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM auth.refresh_tokens WHERE user_id = $1 AND type = 'pat'", [userId]);
  return found.rows[0]?.n ?? 0;
}

async function patProofs(userId: string): Promise<Array<string | null>> {
  const audit = await service.db.pool.query<{ proof: string | null }>("SELECT after->>'proof' AS proof FROM audit_log WHERE action = 'auth.pat.create' AND entity_id = $1 ORDER BY id", [userId]);
  return audit.rows.map((row) => row.proof);
}

describe('a stolen token of a session signed in more than 5 minutes ago', () => {
  it('cannot mint a PAT without the current password; a wrong one is refused; with it, it can', async () => {
    const { accessToken, userId } = await staleSession('stale-pat@example.com');
    const missing = await postJson(url('/pat'), { expiresAt: inDays(365), metadata: { name: 'thief' } }, bearer(accessToken));
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ error: 'invalid-request' });
    expect(missing.body.message).toMatch(/^currentPassword: is required to create a personal access token: the account's current password, unless you signed in or elevated/);
    const wrong = await postJson(url('/pat'), { expiresAt: inDays(365), currentPassword: 'a guess' }, bearer(accessToken));
    expect(wrong.body).toMatchObject({ status: 401, error: 'invalid-email-password', message: "currentPassword: is not the account's password" });
    expect(await patCount(userId)).toBe(0);

    // The owner, who knows the password, mints one from the same old session, and it works.
    const created = await postJson(url('/pat'), { expiresAt: inDays(30), metadata: { name: 'owner script' }, currentPassword: PASSWORD }, bearer(accessToken));
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect((await postJson(url('/signin/pat'), { personalAccessToken: created.body.personalAccessToken })).status).toBe(200);
    expect(await patProofs(userId)).toEqual(['current-password']);
  });

  it('refuses a bad expiry by its field before judging any password', async () => {
    const { accessToken, userId } = await staleSession('stale-pat-expiry@example.com');
    const refused = await postJson(url('/pat'), { expiresAt: 'next year', currentPassword: 'a guess' }, bearer(accessToken));
    expect(refused.body).toMatchObject({ status: 400, error: 'invalid-request', message: 'expiresAt: must be an ISO 8601 date-time' });
    const failures = await service.db.pool.query("SELECT 1 FROM audit_log WHERE action = 'auth.current_password_failed' AND entity_id = $1", [userId]);
    expect(failures.rowCount).toBe(0);
    expect(await patCount(userId)).toBe(0);
  });

  it('mints one after a fresh elevation (TOTP), without the password', async () => {
    const { accessToken, userId } = await staleSession('stale-pat-elevated@example.com');
    const generated = await fetch(url('/mfa/totp/generate'), { headers: bearer(accessToken) });
    const { totpSecret } = (await generated.json()) as { totpSecret: string };
    const activated = await postJson(url('/user/mfa'), { code: totpCode({ secret: totpSecret, step: totpStep(now()) }), activeMfaType: 'totp', currentPassword: PASSWORD }, bearer(accessToken));
    expect(activated.body).toBe('OK');
    clockOffset += 31_000; // the next TOTP step: a code is accepted once
    const elevated = await postJson(url('/elevate/totp'), { otp: totpCode({ secret: totpSecret, step: totpStep(now()) }) }, bearer(accessToken));
    expect(elevated.status, JSON.stringify(elevated.body)).toBe(200);
    const created = await postJson(url('/pat'), { expiresAt: inDays(7) }, bearer(elevated.body.session.accessToken));
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(await patProofs(userId)).toEqual(['fresh-elevation']);
  });
});

describe('someone who just signed in', () => {
  it('mints a PAT at once with the unchanged Nhost client (createPAT)', async () => {
    let saved: unknown = null;
    const nhost = createClient({ authUrl: service.authUrl, storage: { get: () => saved as never, set: (value) => { saved = value; }, remove: () => { saved = null; } } });
    const signUp = await nhost.auth.signUpEmailPassword({ email: 'fresh-pat@example.com', password: PASSWORD });
    const userId = signUp.body.session?.user?.id ?? '';
    const created = await nhost.auth.createPAT({ expiresAt: inDays(90), metadata: { name: 'cli' } });
    expect(created.body.personalAccessToken).toMatch(/^[0-9a-f-]{36}$/);
    expect(await patProofs(userId)).toEqual(['fresh-sign-in']);
  });
});
