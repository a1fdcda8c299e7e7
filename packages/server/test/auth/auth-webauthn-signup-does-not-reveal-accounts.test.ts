import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebauthnRouteModule } from '../../src/auth/webauthn/webauthn-routes';
import { awaitOutboxMessage, outboxCount, postJson, startMethodsApp, type MethodsApp } from './support/methods-app';
import { SoftwareAuthenticator } from './support/software-authenticator';
import { requestFrom } from './support/source-address';

// Issue 15 item 9, security-key sign-up. What broke: `POST /signup/webauthn` answered 409
// email-already-in-use for a taken address, so anyone could ask which addresses have accounts
// (the password sign-up had stopped telling). Now, while e-mail verification is required, a taken
// address gets creation options like a new one; at `/signup/webauthn/verify` it gets the new
// address's `{"session":null}` after the same work (the key verified, the user and key rows written
// and rolled back), nothing is created, and the owner gets the "you already have an account" mail
// instead. Without verification a new address is signed in at once, so a taken one is told (409).

const ORIGIN = 'http://localhost:3000';
const SETTINGS = { enabled: true, rpId: 'localhost', rpName: 'Vyuha', origins: [ORIGIN], timeoutMilliseconds: 60_000 };
const OWNER = 'asha.owner@example.in';

let service: MethodsApp;
const url = (path: string): string => `${service.authUrl}${path}`;

beforeAll(async () => {
  service = await startMethodsApp({ modules: [createWebauthnRouteModule(SETTINGS)], env: { AUTH_EMAIL_SIGNIN_EMAIL_VERIFIED_REQUIRED: 'true' } });
  await postJson(url('/signup/email-password'), { email: OWNER, password: 'the owner passphrase', options: { displayName: 'Asha' } });
  await service.db.pool.query('UPDATE auth.users SET email_verified = true WHERE email = $1', [OWNER]);
  // Its verification mail goes after the answer: let it arrive before mails are counted.
  await awaitOutboxMessage(service.db, OWNER);
});
afterAll(async () => service.close());

/** Both halves of a security-key sign-up with a new software key; the verify answer as sent. */
async function signUpWithKey(email: string): Promise<{ options: { status: number; body: Record<string, unknown> }; verified: Awaited<ReturnType<typeof requestFrom>> }> {
  const options = await postJson(url('/signup/webauthn'), { email, options: { displayName: 'Stranger' } });
  const key = new SoftwareAuthenticator({ origin: ORIGIN, rpId: 'localhost' });
  const credential = key.createCredential(options.body as never);
  const verified = await requestFrom('127.0.0.1', url('/signup/webauthn/verify'), { body: { credential, nickname: 'stranger key' } });
  return { options, verified };
}

async function accountsWith(email: string): Promise<number> {
  const found = await service.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM auth.users WHERE email = $1', [email]);
  return found.rows[0]?.n ?? 0;
}

async function templatesTo(email: string): Promise<string[]> {
  const found = await service.db.pool.query<{ template: string }>('SELECT template FROM auth.outbox WHERE recipient = $1 ORDER BY created_at, id', [email]);
  return found.rows.map((row) => row.template);
}

describe('security-key sign-up of a taken address, while verification is required', () => {
  it('answers /signup/webauthn with creation options, as for a new address', async () => {
    const taken = await postJson(url('/signup/webauthn'), { email: OWNER });
    const fresh = await postJson(url('/signup/webauthn'), { email: 'brand.new@example.in' });
    expect(taken.status).toBe(200);
    expect(Object.keys(taken.body).sort()).toEqual(Object.keys(fresh.body).sort());
    expect(taken.body).toMatchObject({ rp: { id: 'localhost', name: 'Vyuha' }, user: { name: OWNER }, excludeCredentials: [] });
  });

  it('answers the verify step byte for byte like a new address, creates nothing and mails the owner', async () => {
    const ownerKeys = await service.db.pool.query('SELECT k.id FROM auth.user_security_keys k JOIN auth.users u ON u.id = k.user_id WHERE u.email = $1', [OWNER]);
    const since = await outboxCount(service.db, OWNER);
    const taken = await signUpWithKey(OWNER);
    const fresh = await signUpWithKey('another.new@example.in');
    expect(taken.verified.status).toBe(200);
    expect(taken.verified.raw).toBe('{"session":null}');
    expect(taken.verified.raw).toBe(fresh.verified.raw);
    expect(taken.verified.headers['content-type']).toBe(fresh.verified.headers['content-type']);
    expect(await accountsWith(OWNER)).toBe(1);
    const keysAfter = await service.db.pool.query('SELECT k.id FROM auth.user_security_keys k JOIN auth.users u ON u.id = k.user_id WHERE u.email = $1', [OWNER]);
    expect(keysAfter.rows).toEqual(ownerKeys.rows);
    expect((await service.db.pool.query("SELECT 1 FROM auth.users WHERE email LIKE 'rehearsal-%'")).rowCount).toBe(0);
    const notice = await awaitOutboxMessage(service.db, OWNER, since);
    expect(notice).toMatch(/already has one/);
    expect(notice).toContain('Hello Asha');
    expect(notice).toContain(`${ORIGIN}/authenticate/forgot-password`);
    // The new address is created, with its key, and gets the verification link.
    expect(await accountsWith('another.new@example.in')).toBe(1);
    await awaitOutboxMessage(service.db, 'another.new@example.in');
    expect(await templatesTo('another.new@example.in')).toEqual(['email-verify']);
    expect((await templatesTo(OWNER)).slice(since)).toEqual(['signup-existing-account']);
  });

  it('treats an address taken between the two steps the same way', async () => {
    const email = 'raced.address@example.in';
    const options = await postJson(url('/signup/webauthn'), { email });
    await postJson(url('/signup/email-password'), { email, password: 'the faster passphrase' });
    await awaitOutboxMessage(service.db, email);
    const key = new SoftwareAuthenticator({ origin: ORIGIN, rpId: 'localhost' });
    const since = await outboxCount(service.db, email);
    const verified = await requestFrom('127.0.0.1', url('/signup/webauthn/verify'), { body: { credential: key.createCredential(options.body as never) } });
    expect(verified.raw).toBe('{"session":null}');
    expect(await accountsWith(email)).toBe(1);
    await awaitOutboxMessage(service.db, email, since);
    expect((await templatesTo(email)).slice(since)).toEqual(['signup-existing-account']);
  });
});

describe('security-key sign-up without e-mail verification', () => {
  let open: MethodsApp;
  beforeAll(async () => {
    open = await startMethodsApp({ modules: [createWebauthnRouteModule(SETTINGS)] });
    await postJson(`${open.authUrl}/signup/email-password`, { email: OWNER, password: 'the owner passphrase' });
  });
  afterAll(async () => open.close());

  it('must still say that the address is taken (a new one is signed in at once): documented', async () => {
    expect((await postJson(`${open.authUrl}/signup/webauthn`, { email: OWNER })).body).toMatchObject({ status: 409, error: 'email-already-in-use' });
    const options = await postJson(`${open.authUrl}/signup/webauthn`, { email: 'signed.in.at.once@example.in' });
    const key = new SoftwareAuthenticator({ origin: ORIGIN, rpId: 'localhost' });
    const verified = await postJson(`${open.authUrl}/signup/webauthn/verify`, { credential: key.createCredential(options.body as never) });
    expect(verified.body.session.user.email).toBe('signed.in.at.once@example.in');
  });
});
