import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPasswordlessRouteModule } from '../../src/auth/passwordless/passwordless-routes';
import { auditActions, awaitOutboxMessage, postJson, startMethodsApp, type MethodsApp } from './support/methods-app';

// Passwordless e-mail over HTTP: the magic link is followed through the core's GET /verify and
// the e-mailed code is read from auth.outbox (no SMTP configured). Links and codes are made and
// mailed after the answer, so the tests wait for them.

describe('passwordless e-mail', () => {
  let service: MethodsApp;
  beforeAll(async () => {
    service = await startMethodsApp({
      modules: [createPasswordlessRouteModule({ magicLinkEnabled: true, emailOtpEnabled: true, otpExpiresInSeconds: 300 })],
      env: { AUTH_ACCESS_CONTROL_ALLOWED_REDIRECT_URLS: 'http://localhost:3000' },
    });
  });
  afterAll(async () => service.close());

  it('mails a magic link that signs the new user in through /verify', async () => {
    const email = 'magic@example.com';
    const sent = await postJson(`${service.authUrl}/signin/passwordless/email`, { email, options: { redirectTo: 'http://localhost:3000/welcome', displayName: 'Magic' } });
    expect(sent).toEqual({ status: 200, body: 'OK' });
    const link = /(http:\/\/\S+\/verify\?\S+)/.exec(await awaitOutboxMessage(service.db, email))?.[1] ?? '';
    expect(new URL(link).searchParams.get('ticket')).toMatch(/^passwordlessEmail:/);
    expect(new URL(link).searchParams.get('type')).toBe('signinPasswordless');
    const followed = await fetch(link, { redirect: 'manual' });
    expect(followed.status).toBe(302);
    const landing = new URL(followed.headers.get('location') ?? '');
    expect(landing.origin + landing.pathname).toBe('http://localhost:3000/welcome');
    const refreshToken = landing.searchParams.get('refreshToken') ?? '';
    const session = await postJson(`${service.authUrl}/token`, { refreshToken });
    expect(session.status).toBe(200);
    expect(session.body.user).toMatchObject({ email, emailVerified: true, displayName: 'Magic' });
    // The link works once.
    const reused = new URL((await fetch(link, { redirect: 'manual' })).headers.get('location') ?? '');
    expect(reused.searchParams.get('error')).toBe('invalid-ticket');
  });

  it('refuses a redirect outside the allow list', async () => {
    const answer = await postJson(`${service.authUrl}/signin/passwordless/email`, { email: 'magic@example.com', options: { redirectTo: 'https://evil.example/steal' } });
    expect(answer.body).toMatchObject({ status: 400, error: 'redirectTo-not-allowed' });
  });

  it('signs in with an e-mailed code, once', async () => {
    const email = 'otp@example.com';
    expect((await postJson(`${service.authUrl}/signin/otp/email`, { email })).body).toBe('OK');
    const code = /\b(\d{6})\b/.exec(await awaitOutboxMessage(service.db, email))?.[1] ?? '';
    const wrong = code === '000000' ? '111111' : '000000';
    expect((await postJson(`${service.authUrl}/signin/otp/email/verify`, { email, otp: wrong })).body).toMatchObject({ status: 400, error: 'invalid-otp' });
    const signedIn = await postJson(`${service.authUrl}/signin/otp/email/verify`, { email, otp: code });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.session.user).toMatchObject({ email, emailVerified: true });
    expect((await postJson(`${service.authUrl}/signin/otp/email/verify`, { email, otp: code })).body.error).toBe('invalid-otp');
    const user = await service.db.pool.query<{ id: string }>('SELECT id FROM auth.users WHERE email = $1', [email]);
    // The account was made when the code was exchanged: its trail starts there (then the reused code).
    expect(await auditActions(service.db, user.rows[0]?.id ?? '')).toEqual(['auth.signup', 'auth.signin', 'auth.signin_failed']);
    const before = await service.db.pool.query("SELECT action, after->>'reason' AS reason FROM audit_log WHERE action IN ('auth.otp.email_sent', 'auth.signin_failed') ORDER BY id");
    expect(before.rows).toEqual(expect.arrayContaining([{ action: 'auth.otp.email_sent', reason: null }, { action: 'auth.signin_failed', reason: 'wrong-code' }]));
  });

  it('gives a known, a disabled and (with sign-up closed) an unknown address the same answer', async () => {
    await service.db.pool.query("UPDATE auth.users SET disabled = true WHERE email = 'otp@example.com'");
    const answers = await Promise.all(['otp@example.com', 'magic@example.com'].map((email) => postJson(`${service.authUrl}/signin/otp/email`, { email })));
    for (const answer of answers) expect(answer).toEqual({ status: 200, body: 'OK' });
    await awaitOutboxMessage(service.db, 'magic@example.com', 1);
    for (let wait = 0; wait < 100; wait += 1) {
      const refused = await service.db.pool.query("SELECT 1 FROM audit_log WHERE action = 'auth.otp.email_refused'");
      if (refused.rowCount) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const mails = await service.db.pool.query("SELECT count(*)::int AS n FROM auth.outbox WHERE recipient = 'otp@example.com'");
    expect(mails.rows[0].n).toBe(1);
  });
});

describe('passwordless e-mail with sign-up closed', () => {
  let service: MethodsApp;
  beforeAll(async () => {
    service = await startMethodsApp({
      modules: [createPasswordlessRouteModule({ magicLinkEnabled: true, emailOtpEnabled: true, otpExpiresInSeconds: 300 })],
      env: { AUTH_DISABLE_SIGNUP: 'true' },
    });
  });
  afterAll(async () => service.close());

  it('answers OK for an unknown address and creates nobody', async () => {
    expect((await postJson(`${service.authUrl}/signin/passwordless/email`, { email: 'nobody@example.com' })).body).toBe('OK');
    expect((await postJson(`${service.authUrl}/signin/otp/email`, { email: 'nobody@example.com' })).body).toBe('OK');
    // Both are decided after the answer: wait until both refusals are recorded.
    for (let wait = 0; wait < 100; wait += 1) {
      const refused = await service.db.pool.query("SELECT 1 FROM audit_log WHERE action IN ('auth.magic_link_refused', 'auth.otp.email_refused')");
      if (refused.rowCount === 2) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect((await service.db.pool.query('SELECT 1 FROM auth.pending_signups')).rowCount).toBe(0);
    const users = await service.db.pool.query("SELECT count(*)::int AS n FROM auth.users WHERE email = 'nobody@example.com'");
    expect(users.rows[0].n).toBe(0);
    const mails = await service.db.pool.query("SELECT count(*)::int AS n FROM auth.outbox WHERE recipient = 'nobody@example.com'");
    expect(mails.rows[0].n).toBe(0);
  });

  it('is off unless enabled', async () => {
    const off = await startMethodsApp({ modules: [createPasswordlessRouteModule({ magicLinkEnabled: false, emailOtpEnabled: false, otpExpiresInSeconds: 300 })] });
    try {
      expect((await postJson(`${off.authUrl}/signin/otp/email`, { email: 'a@example.com' })).body.error).toBe('disabled-endpoint');
      expect((await postJson(`${off.authUrl}/signin/passwordless/email`, { email: 'a@example.com' })).body.error).toBe('disabled-endpoint');
    } finally {
      await off.close();
    }
  });
});
