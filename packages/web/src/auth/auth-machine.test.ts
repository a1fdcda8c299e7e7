import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { createAuthMachine, inState, refreshDueAt, retryDelay, type AuthEnvironment, type AuthStatePath } from './auth-machine';
import type { AuthSession } from './auth-types';

// The auth service answered by a hand-written fetch: each path maps to a queue of answers.
type Answer = { status: number; body: unknown };
let answers: Map<string, Answer[]>;
const calls: Array<{ path: string; body: unknown }> = [];

function answer(path: string, ...queue: Answer[]): void {
  answers.set(path, [...(answers.get(path) ?? []), ...queue]);
}

function token(claims: Record<string, unknown>): string {
  const encode = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${encode({ alg: 'HS256' })}.${encode({ sub: 'u1', exp: 2_000_000_000, 'https://hasura.io/jwt/claims': claims })}.signature`;
}

function session(refreshToken: string, expiresIn = 900): AuthSession {
  return {
    accessToken: token({ 'x-hasura-user-id': 'u1', 'x-hasura-default-role': 'advanced', 'x-hasura-permissions': '{"strategy:backtest","strategy:deploy"}', 'x-hasura-W5m': '2020-01-01' }),
    accessTokenExpiresIn: expiresIn, refreshToken, refreshTokenId: `id-${refreshToken}`,
  };
}

function environment(stored: string | undefined, now: () => number): AuthEnvironment & { changed: AuthSession[]; ended: string[] } {
  const changed: AuthSession[] = [];
  const ended: string[] = [];
  return {
    changed, ended,
    storedRefreshToken: () => stored,
    refresh: async (current) => {
      const response = await fetch('/v1/auth/token', { method: 'POST', body: JSON.stringify({ refreshToken: current.refreshToken }) });
      const body = await response.json() as AuthSession & { error?: string; message?: string };
      return response.ok ? { ok: true, session: body } : { ok: false, error: { status: response.status, error: body.error ?? '', message: body.message ?? '' } };
    },
    signOut: async () => undefined,
    sessionChanged: (value) => changed.push(value),
    sessionEnded: (reason) => ended.push(reason),
    now,
  };
}

beforeEach(() => {
  answers = new Map();
  calls.length = 0;
  vi.stubGlobal('fetch', async (url: string, init: { body?: string }) => {
    const path = url.replace('/v1/auth', '');
    calls.push({ path, body: init.body ? JSON.parse(init.body) : undefined });
    const next = answers.get(path)?.shift();
    if (!next) throw new TypeError('network down');
    return new Response(JSON.stringify(next.body), { status: next.status, headers: { 'content-type': 'application/json' } });
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

type Running = { getSnapshot(): { matches(value: never): boolean } };

async function settle(actor: Running, state: AuthStatePath): Promise<void> {
  for (let tries = 0; tries < 200 && !inState(actor.getSnapshot(), state); tries += 1) await vi.advanceTimersByTimeAsync(10);
  expect(inState(actor.getSnapshot(), state)).toBe(true);
}

describe('the auth machine (docs/PRODUCT.md section 4)', () => {
  it('starts signed out without a saved refresh token', () => {
    const actor = createActor(createAuthMachine(environment(undefined, Date.now))).start();
    expect(inState(actor.getSnapshot(), 'signedOut.noErrors')).toBe(true);
  });

  it('imports a saved refresh token into a session with role and permissions from the token', async () => {
    vi.useFakeTimers();
    answer('/token', { status: 200, body: session('r2') });
    const env = environment('r1', Date.now);
    const actor = createActor(createAuthMachine(env)).start();
    await settle(actor, 'signedIn');
    const { context } = actor.getSnapshot();
    expect([context.userId, context.role, context.permissions]).toEqual(['u1', 'advanced', ['strategy:backtest', 'strategy:deploy']]);
    expect(calls[0]).toEqual({ path: '/token', body: { refreshToken: 'r1' } });
    expect(env.changed.map((value) => value.refreshToken)).toEqual(['r2']);
  });

  it('retries an import that met a server error, with the 5 s x 2^(n-1) delay, then gives up on a refused token', async () => {
    vi.useFakeTimers();
    answer('/token', { status: 503, body: { status: 503, error: 'internal-server-error', message: 'down' } }, { status: 401, body: { status: 401, error: 'invalid-refresh-token', message: 'Invalid or expired refresh token' } });
    const env = environment('r1', Date.now);
    const actor = createActor(createAuthMachine(env)).start();
    await vi.advanceTimersByTimeAsync(50);
    expect(inState(actor.getSnapshot(), 'starting.waiting')).toBe(true);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(retryDelay(1));
    await settle(actor, 'signedOut');
    expect(calls).toHaveLength(2);
    expect(env.ended).toEqual(['expired']);
  });

  it('asks for the TOTP code when the password step answers with an MFA ticket, then signs in', async () => {
    vi.useFakeTimers();
    const ticket = 'mfaTotp:6f1c2f0e-2f43-4c1b-9d1e-0f4b1f8f2a11';
    answer('/signin/email-password', { status: 200, body: { session: null, mfa: { ticket } } });
    answer('/signin/mfa/totp', { status: 200, body: { session: session('r9') } });
    const actor = createActor(createAuthMachine(environment(undefined, Date.now))).start();
    actor.send({ type: 'SIGNIN', request: { method: 'password', email: 'trader@example.in', password: 'long-enough-1' } });
    await settle(actor, 'signedOut.needsMfa');
    expect(actor.getSnapshot().context.mfa).toEqual({ ticket });
    actor.send({ type: 'SIGNIN', request: { method: 'mfa-totp', ticket: undefined, otp: '123456' } });
    await settle(actor, 'signedIn');
    expect(calls[1]).toEqual({ path: '/signin/mfa/totp', body: { ticket, otp: '123456' } });
  });

  it('refuses a malformed e-mail before calling the server, with the spec message', async () => {
    vi.useFakeTimers();
    const actor = createActor(createAuthMachine(environment(undefined, Date.now))).start();
    actor.send({ type: 'SIGNIN', request: { method: 'password', email: 'not-an-email', password: 'long-enough-1' } });
    await settle(actor, 'signedOut.failed');
    expect(actor.getSnapshot().context.error).toMatchObject({ error: 'invalid-email', message: 'Email is incorrectly formatted' });
    expect(calls).toHaveLength(0);
  });

  it('refreshes before the token expires, and signs out when the refresh token is refused', async () => {
    vi.useFakeTimers();
    let clock = 1_700_000_000_000;
    answer('/token', { status: 200, body: session('r2', 60) }, { status: 200, body: session('r3', 60) }, { status: 401, body: { status: 401, error: 'invalid-refresh-token', message: 'Invalid or expired refresh token' } });
    const env = environment('r1', () => clock);
    const actor = createActor(createAuthMachine(env)).start();
    await settle(actor, 'signedIn');
    // 60 s tokens refresh when half their life is left: 30 s after they arrive.
    expect(refreshDueAt(actor.getSnapshot().context) - clock).toBe(30_000);
    clock += 29_000;
    await vi.advanceTimersByTimeAsync(1_000);
    expect(calls).toHaveLength(1);
    clock += 2_000;
    await vi.advanceTimersByTimeAsync(1_000);
    expect(calls.map((call) => call.body)).toEqual([{ refreshToken: 'r1' }, { refreshToken: 'r2' }]);
    expect(actor.getSnapshot().context.session?.refreshToken).toBe('r3');
    clock += 31_000;
    await vi.advanceTimersByTimeAsync(1_000);
    await settle(actor, 'signedOut.failed');
    expect(actor.getSnapshot().context.error?.error).toBe('invalid-refresh-token');
    expect(env.ended).toEqual(['expired']);
  });

  it('does not refresh a personal-access-token session', async () => {
    vi.useFakeTimers();
    let clock = 1_700_000_000_000;
    answer('/signin/pat', { status: 200, body: { session: session('pat-r', 60) } });
    const actor = createActor(createAuthMachine(environment(undefined, () => clock))).start();
    actor.send({ type: 'SIGNIN', request: { method: 'pat', personalAccessToken: '0b6c7f3e-3a51-4a8e-9a55-2d0a4f1b6c11' } });
    await settle(actor, 'signedIn');
    clock += 120_000;
    await vi.advanceTimersByTimeAsync(5_000);
    expect(calls.map((call) => call.path)).toEqual(['/signin/pat']);
  });

  it('stores and announces a session update of this tab, but not one heard from another tab (which would bounce between the tabs)', async () => {
    vi.useFakeTimers();
    answer('/token', { status: 200, body: session('r2') });
    const env = environment('r1', Date.now);
    const actor = createActor(createAuthMachine(env)).start();
    await settle(actor, 'signedIn');
    actor.send({ type: 'SESSION_UPDATE', session: session('r3') });
    actor.send({ type: 'SESSION_UPDATE', session: session('r4'), fromOtherTab: true });
    expect(env.changed.map((value) => value.refreshToken)).toEqual(['r2', 'r3']);
    expect(actor.getSnapshot().context.session?.refreshToken).toBe('r4');
  });
});
