import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSmsRouteModule } from '../../src/auth/sms/sms-routes';
import { auditActions, awaitOutboxMessage, outboxCount, postJson, startMethodsApp, type MethodsApp } from './support/methods-app';

// SMS passwordless over HTTP: the code is read from auth.outbox (the default SMS sender).

const PHONE = '+919812345678';

function codeIn(message: string): string {
  const code = /\b(\d{6})\b/.exec(message)?.[1];
  if (!code) throw new Error(`no code in "${message}"`);
  return code;
}

/** Asks for a code and waits for its text (codes are made and sent after the answer). */
async function sendAndRead(service: MethodsApp, body: Record<string, unknown> = { phoneNumber: PHONE }): Promise<string> {
  const since = await outboxCount(service.db, PHONE);
  expect((await postJson(`${service.authUrl}/signin/passwordless/sms`, body)).body).toBe('OK');
  return codeIn(await awaitOutboxMessage(service.db, PHONE, since));
}

describe('SMS passwordless sign-in', () => {
  let service: MethodsApp;
  beforeAll(async () => {
    service = await startMethodsApp({ modules: [createSmsRouteModule({ enabled: true, otpExpiresInSeconds: 300 })] });
  });
  afterAll(async () => service.close());

  it('signs up a new number, texts a code and exchanges it for a session', async () => {
    const code = await sendAndRead(service, { phoneNumber: PHONE, options: { displayName: 'Asha' } });
    // No account until the code is used: the request waits in auth.pending_signups, with only a hash.
    expect((await service.db.pool.query('SELECT 1 FROM auth.users WHERE phone_number = $1', [PHONE])).rowCount).toBe(0);
    const stored = await service.db.pool.query('SELECT otp_hash FROM auth.pending_signups WHERE identity = $1', [PHONE]);
    expect(stored.rows[0].otp_hash).not.toContain(code);
    expect(stored.rows[0].otp_hash).toMatch(/^\$argon2id\$/);
    const signedIn = await postJson(`${service.authUrl}/signin/passwordless/sms/otp`, { phoneNumber: PHONE, otp: code });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.mfa).toBeNull();
    expect(signedIn.body.session.user).toMatchObject({ phoneNumber: PHONE, phoneNumberVerified: true, displayName: 'Asha' });
    // A code works once.
    const again = await postJson(`${service.authUrl}/signin/passwordless/sms/otp`, { phoneNumber: PHONE, otp: code });
    expect(again.body).toMatchObject({ status: 400, error: 'invalid-otp' });
  });

  it('allows five guesses per code, then not even the right code', async () => {
    const code = await sendAndRead(service);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let guess = 0; guess < 5; guess += 1) {
      expect((await postJson(`${service.authUrl}/signin/passwordless/sms/otp`, { phoneNumber: PHONE, otp: wrong })).body.error).toBe('invalid-otp');
    }
    expect((await postJson(`${service.authUrl}/signin/passwordless/sms/otp`, { phoneNumber: PHONE, otp: code })).body.error).toBe('invalid-otp');
    // A new code starts a new count.
    const fresh = await sendAndRead(service);
    expect((await postJson(`${service.authUrl}/signin/passwordless/sms/otp`, { phoneNumber: PHONE, otp: fresh })).status).toBe(200);
  });

  it('refuses an expired code', async () => {
    const code = await sendAndRead(service);
    await service.db.pool.query("UPDATE auth.users SET otp_hash_expires_at = now() - interval '1 second' WHERE phone_number = $1", [PHONE]);
    expect((await postJson(`${service.authUrl}/signin/passwordless/sms/otp`, { phoneNumber: PHONE, otp: code })).body.error).toBe('invalid-otp');
  });

  it('answers OK for a disabled user but sends nothing', async () => {
    await service.db.pool.query('UPDATE auth.users SET disabled = true WHERE phone_number = $1', [PHONE]);
    const before = await service.db.pool.query('SELECT count(*)::int AS n FROM auth.outbox WHERE recipient = $1', [PHONE]);
    const refusals = async () => (await service.db.pool.query("SELECT count(*)::int AS n FROM audit_log WHERE action = 'auth.otp.sms_refused'")).rows[0].n as number;
    const refusedBefore = await refusals();
    expect((await postJson(`${service.authUrl}/signin/passwordless/sms`, { phoneNumber: PHONE })).body).toBe('OK');
    // The decision is made after the answer: wait for it to be recorded.
    for (let wait = 0; wait < 100 && (await refusals()) === refusedBefore; wait += 1) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await refusals()).toBe(refusedBefore + 1);
    const after = await service.db.pool.query('SELECT count(*)::int AS n FROM auth.outbox WHERE recipient = $1', [PHONE]);
    expect(after.rows[0].n).toBe(before.rows[0].n);
    await service.db.pool.query('UPDATE auth.users SET disabled = false WHERE phone_number = $1', [PHONE]);
  });

  it('asks for the TOTP second factor when the user has MFA on', async () => {
    await service.db.pool.query("UPDATE auth.users SET totp_secret = 'JBSWY3DPEHPK3PXP', active_mfa_type = 'totp' WHERE phone_number = $1", [PHONE]);
    const code = await sendAndRead(service);
    const answer = await postJson(`${service.authUrl}/signin/passwordless/sms/otp`, { phoneNumber: PHONE, otp: code });
    expect(answer.body.session).toBeNull();
    expect(answer.body.mfa.ticket).toMatch(/^mfaTotp:/);
  });

  it('names the bad field', async () => {
    const answer = await postJson(`${service.authUrl}/signin/passwordless/sms`, { phoneNumber: 'call me' });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toMatch(/^phoneNumber:/);
  });

  it('audits codes sent, sign-ins and failures', async () => {
    const user = await service.db.pool.query<{ id: string }>('SELECT id FROM auth.users WHERE phone_number = $1', [PHONE]);
    const actions = await auditActions(service.db, user.rows[0]?.id ?? '');
    expect(actions).toEqual(expect.arrayContaining(['auth.otp.sms_sent', 'auth.signin', 'auth.signin_failed', 'auth.otp.sms_refused']));
  });
});

describe('SMS sign-in switched off', () => {
  let service: MethodsApp;
  beforeAll(async () => {
    service = await startMethodsApp({ modules: [createSmsRouteModule({ enabled: false, otpExpiresInSeconds: 300 })] });
  });
  afterAll(async () => service.close());

  it('answers disabled-endpoint', async () => {
    const answer = await postJson(`${service.authUrl}/signin/passwordless/sms`, { phoneNumber: PHONE });
    expect(answer.body).toMatchObject({ status: 409, error: 'disabled-endpoint' });
  });
});
