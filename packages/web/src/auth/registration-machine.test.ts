import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createActor, waitFor } from 'xstate';
import type { AuthSession } from './auth-types';
import { createRegistrationMachine, UNKNOWN_DEANONYMIZATION_METHOD, type RegistrationEnvironment, type RegistrationEvent } from './registration-machine';

// The auth service answered by a hand-written fetch: each path has a queue of answers, and every
// request is written down with its body and bearer token.
type Answer = { readonly status: number; readonly body: unknown };
interface Call {
  readonly path: string;
  readonly body: Record<string, unknown> | undefined;
  readonly authorization: string | undefined;
}

const realFetch = globalThis.fetch;
let answers: Map<string, Answer[]>;
let calls: Call[];

function answer(path: string, ...queue: Answer[]): void {
  answers.set(path, [...(answers.get(path) ?? []), ...queue]);
}

async function stubFetch(url: string | URL | Request, init?: RequestInit): Promise<Response> {
  const path = String(url).replace('/v1/auth', '');
  const headers = (init?.headers ?? {}) as Record<string, string>;
  const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : undefined;
  calls.push({ path, body, authorization: headers.authorization });
  const next = answers.get(path)?.shift();
  if (!next) throw new TypeError('Failed to fetch');
  return new Response(JSON.stringify(next.body), { status: next.status, headers: { 'content-type': 'application/json' } });
}

const SESSION: AuthSession = { accessToken: 'header.payload.signature', accessTokenExpiresIn: 900, refreshToken: 'r-1', refreshTokenId: 'r-id-1' };
const CREATION_OPTIONS = { challenge: 'c', rp: { name: 'Vyuha' }, user: { id: 'u', name: 'asha@example.in', displayName: 'Asha' }, pubKeyCredParams: [] };

// The browser's authenticator, stubbed: it records what it was asked and answers a fixed credential.
const created: unknown[] = [];
const authenticator: RegistrationEnvironment = {
  createCredential: async (options) => {
    created.push(options);
    return { ok: true, value: { id: 'credential-1', type: 'public-key' } };
  },
};

function start() {
  return createActor(createRegistrationMachine(authenticator)).start();
}

type Actor = ReturnType<typeof start>;

/** Sends one event and waits until the machine has left `registering`. */
async function send(actor: Actor, event: RegistrationEvent) {
  actor.send(event);
  return waitFor(actor, (snapshot) => snapshot.status === 'done' || !snapshot.matches({ incomplete: 'registering' }));
}

beforeEach(() => {
  answers = new Map();
  calls = [];
  created.length = 0;
  globalThis.fetch = stubFetch as typeof fetch;
});

afterEach(() => {
  globalThis.fetch = realFetch;
});

describe('the registration machine (docs/PRODUCT.md section 4)', () => {
  it('starts incomplete without errors', () => {
    expect(start().getSnapshot().matches({ incomplete: 'noErrors' })).toBe(true);
  });

  it('completes an e-mail + password sign-up that answers a session, with the session as output', async () => {
    answer('/signup/email-password', { status: 200, body: { session: SESSION } });
    const actor = start();
    const snapshot = await send(actor, { type: 'REGISTER', request: { method: 'email-password', email: 'asha@example.in', password: 'long-enough-1', options: { displayName: 'Asha' } } });
    expect(snapshot.matches('complete')).toBe(true);
    expect(snapshot.output).toEqual({ session: SESSION });
    expect(calls).toEqual([{ path: '/signup/email-password', body: { email: 'asha@example.in', password: 'long-enough-1', options: { displayName: 'Asha' } }, authorization: undefined }]);
  });

  it('waits for e-mail verification when the sign-up answers session null', async () => {
    answer('/signup/email-password', { status: 200, body: { session: null } });
    const snapshot = await send(start(), { type: 'REGISTER', request: { method: 'email-password', email: 'asha@example.in', password: 'long-enough-1' } });
    expect(snapshot.matches({ incomplete: 'needsEmailVerification' })).toBe(true);
    expect(snapshot.context.email).toBe('asha@example.in');
    expect(snapshot.context.converted).toBe(false);
  });

  it('refuses a badly formed e-mail or a short password before calling the server (docs/PRODUCT.md sections 5 and 8)', async () => {
    const actor = start();
    let snapshot = await send(actor, { type: 'REGISTER', request: { method: 'email-password', email: 'asha-at-example', password: 'long-enough-1' } });
    expect(snapshot.matches({ incomplete: 'failed' })).toBe(true);
    expect(snapshot.context.error).toEqual({ status: 10, error: 'invalid-email', message: 'Email is incorrectly formatted' });
    snapshot = await send(actor, { type: 'REGISTER', request: { method: 'email-password', email: 'asha@example.in', password: 'short' } });
    expect(snapshot.context.error?.message).toBe('Password is incorrectly formatted');
    snapshot = await send(actor, { type: 'REGISTER', request: { method: 'passwordless-sms', phoneNumber: '  ' } });
    expect(snapshot.context.error?.message).toBe('Phone number is incorrectly formatted');
    expect(calls).toEqual([]);
  });

  it('keeps the server error of a failed sign-up, and RESET clears it', async () => {
    answer('/signup/email-password', { status: 409, body: { status: 409, error: 'email-already-in-use', message: 'Email already in use' } });
    const actor = start();
    const snapshot = await send(actor, { type: 'REGISTER', request: { method: 'email-password', email: 'asha@example.in', password: 'long-enough-1' } });
    expect(snapshot.matches({ incomplete: 'failed' })).toBe(true);
    expect(snapshot.context.error).toEqual({ status: 409, error: 'email-already-in-use', message: 'Email already in use' });
    actor.send({ type: 'RESET' });
    expect(actor.getSnapshot().matches({ incomplete: 'noErrors' })).toBe(true);
    expect(actor.getSnapshot().context.error).toBeUndefined();
  });

  it('fails with the network error when the auth service cannot be reached', async () => {
    const snapshot = await send(start(), { type: 'REGISTER', request: { method: 'email-password', email: 'asha@example.in', password: 'long-enough-1' } });
    expect(snapshot.context.error).toEqual({ status: 0, error: 'network', message: 'Network Error' });
  });

  it('signs up with a security key: creation options, the authenticator, then verify with the nickname', async () => {
    answer('/signup/webauthn', { status: 200, body: CREATION_OPTIONS });
    answer('/signup/webauthn/verify', { status: 200, body: { session: SESSION } });
    const snapshot = await send(start(), { type: 'REGISTER', request: { method: 'security-key', email: 'asha@example.in', nickname: 'YubiKey', options: { displayName: 'Asha', redirectTo: 'http://localhost/authenticate/redirect' } } });
    expect(snapshot.matches('complete')).toBe(true);
    expect(created).toEqual([CREATION_OPTIONS]);
    expect(calls.map((call) => call.path)).toEqual(['/signup/webauthn', '/signup/webauthn/verify']);
    expect(calls[0]?.body).toEqual({ email: 'asha@example.in', options: { displayName: 'Asha', redirectTo: 'http://localhost/authenticate/redirect' } });
    expect(calls[1]?.body).toEqual({
      credential: { id: 'credential-1', type: 'public-key' },
      options: { redirectTo: 'http://localhost/authenticate/redirect', nickname: 'YubiKey' },
      nickname: 'YubiKey',
    });
  });

  it('fails a security-key sign-up whose authenticator refuses, without calling verify', async () => {
    answer('/signup/webauthn', { status: 200, body: CREATION_OPTIONS });
    const refusing: RegistrationEnvironment = { createCredential: async () => ({ ok: false, error: { status: 10, error: 'webauthn-cancelled', message: 'No security key answered' } }) };
    const actor = createActor(createRegistrationMachine(refusing)).start();
    const snapshot = await send(actor, { type: 'REGISTER', request: { method: 'security-key', email: 'asha@example.in' } });
    expect(snapshot.matches({ incomplete: 'failed' })).toBe(true);
    expect(snapshot.context.error?.message).toBe('No security key answered');
    expect(calls.map((call) => call.path)).toEqual(['/signup/webauthn']);
  });

  it('sends a magic link for a passwordless e-mail sign-up and waits for the e-mail', async () => {
    answer('/signin/passwordless/email', { status: 200, body: 'OK' });
    const snapshot = await send(start(), { type: 'REGISTER', request: { method: 'passwordless-email', email: 'asha@example.in', options: { redirectTo: 'http://localhost/authenticate/redirect' } } });
    expect(snapshot.matches({ incomplete: 'needsEmailVerification' })).toBe(true);
    expect(calls[0]?.body).toEqual({ email: 'asha@example.in', options: { redirectTo: 'http://localhost/authenticate/redirect' } });
  });

  it('texts a code for a passwordless SMS sign-up, then the code alone completes it with the held phone number', async () => {
    answer('/signin/passwordless/sms', { status: 200, body: 'OK' });
    answer('/signin/passwordless/sms/otp',
      { status: 400, body: { status: 400, error: 'invalid-otp', message: 'Invalid or expired OTP' } },
      { status: 200, body: { session: SESSION, mfa: null } });
    const actor = start();
    let snapshot = await send(actor, { type: 'REGISTER', request: { method: 'passwordless-sms', phoneNumber: '+919800000001' } });
    expect(snapshot.matches({ incomplete: 'needsOtp' })).toBe(true);
    expect(snapshot.context.phoneNumber).toBe('+919800000001');

    snapshot = await send(actor, { type: 'REGISTER', request: { method: 'sms-otp', otp: '000000' } });
    expect(snapshot.matches({ incomplete: 'failed' })).toBe(true);
    expect(snapshot.context.error?.error).toBe('invalid-otp');
    expect(snapshot.context.phoneNumber).toBe('+919800000001');

    snapshot = await send(actor, { type: 'REGISTER', request: { method: 'sms-otp', otp: '123456' } });
    expect(snapshot.matches('complete')).toBe(true);
    expect(calls.slice(1).map((call) => call.body)).toEqual([{ phoneNumber: '+919800000001', otp: '000000' }, { phoneNumber: '+919800000001', otp: '123456' }]);
  });

  it('does not complete with an MFA ticket from the SMS code: that account must sign in', async () => {
    answer('/signin/passwordless/sms/otp', { status: 200, body: { session: null, mfa: { ticket: 'mfaTotp:00000000-0000-4000-8000-000000000000' } } });
    const snapshot = await send(start(), { type: 'REGISTER', request: { method: 'sms-otp', phoneNumber: '+919800000001', otp: '123456' } });
    expect(snapshot.matches({ incomplete: 'failed' })).toBe(true);
    expect(snapshot.context.error?.error).toBe('mfa-required');
  });
});

describe('an anonymous user is converted, not created (docs/PRODUCT.md section 4)', () => {
  it('deanonymizes with e-mail + password and waits for verification when the sign-in says unverified', async () => {
    answer('/user/deanonymize', { status: 200, body: 'OK' });
    answer('/signin/email-password', { status: 401, body: { status: 401, error: 'unverified-user', message: 'Email is not verified' } });
    const snapshot = await send(start(), { type: 'REGISTER', anonymousAccessToken: 'anon-token', request: { method: 'email-password', email: 'asha@example.in', password: 'long-enough-1', options: { displayName: 'Asha' } } });
    expect(snapshot.matches({ incomplete: 'needsEmailVerification' })).toBe(true);
    expect(snapshot.context.converted).toBe(true);
    expect(calls[0]).toEqual({
      path: '/user/deanonymize',
      body: { signInMethod: 'email-password', email: 'asha@example.in', password: 'long-enough-1', options: { displayName: 'Asha' } },
      authorization: 'Bearer anon-token',
    });
    expect(calls.some((call) => call.path.startsWith('/signup'))).toBe(false);
  });

  it('completes the conversion with a session when the server does not require verification', async () => {
    answer('/user/deanonymize', { status: 200, body: 'OK' });
    answer('/signin/email-password', { status: 200, body: { session: SESSION, mfa: null } });
    const snapshot = await send(start(), { type: 'REGISTER', anonymousAccessToken: 'anon-token', request: { method: 'email-password', email: 'asha@example.in', password: 'long-enough-1' } });
    expect(snapshot.matches('complete')).toBe(true);
    expect(snapshot.output).toEqual({ session: SESSION });
  });

  it('fails with the server error when the conversion is refused', async () => {
    answer('/user/deanonymize', { status: 409, body: { status: 409, error: 'email-already-in-use', message: 'Email already in use' } });
    const snapshot = await send(start(), { type: 'REGISTER', anonymousAccessToken: 'anon-token', request: { method: 'email-password', email: 'asha@example.in', password: 'long-enough-1' } });
    expect(snapshot.matches({ incomplete: 'failed' })).toBe(true);
    expect(snapshot.context.error?.error).toBe('email-already-in-use');
    expect(calls.map((call) => call.path)).toEqual(['/user/deanonymize']);
  });

  it('converts passwordless by e-mail (magic link) and by SMS (code)', async () => {
    answer('/user/deanonymize', { status: 200, body: 'OK' }, { status: 200, body: 'OK' });
    let snapshot = await send(start(), { type: 'REGISTER', anonymousAccessToken: 'anon-token', request: { method: 'passwordless-email', email: 'asha@example.in' } });
    expect(snapshot.matches({ incomplete: 'needsEmailVerification' })).toBe(true);
    snapshot = await send(start(), { type: 'REGISTER', anonymousAccessToken: 'anon-token', request: { method: 'passwordless-sms', phoneNumber: '+919800000001' } });
    expect(snapshot.matches({ incomplete: 'needsOtp' })).toBe(true);
    expect(calls.map((call) => call.body)).toEqual([
      { signInMethod: 'passwordless', connection: 'email', email: 'asha@example.in' },
      { signInMethod: 'passwordless', connection: 'sms', phoneNumber: '+919800000001' },
    ]);
  });

  it("refuses a security key for an anonymous user: 'Unknown deanonymization method' (docs/PRODUCT.md section 5)", async () => {
    const snapshot = await send(start(), { type: 'REGISTER', anonymousAccessToken: 'anon-token', request: { method: 'security-key', email: 'asha@example.in' } });
    expect(snapshot.matches({ incomplete: 'failed' })).toBe(true);
    expect(snapshot.context.error).toEqual(UNKNOWN_DEANONYMIZATION_METHOD);
    expect(calls).toEqual([]);
  });
});
