/**
 * Issue 15 item 6, follow-up: a revoked personal access token's session ends at once in GraphQL
 * too. What broke: after DELETE /v1/auth/user/pats/:id the session's refresh token died and the
 * auth service refused its Bearer token, but the GraphQL engine verifies JWTs without the
 * database, so an access token already issued to the PAT session kept working over HTTP and CSV
 * until it expired (up to AUTH_ACCESS_TOKEN_EXPIRES_IN), and a graphql-ws socket opened with it
 * kept its subscriptions. Now a token carrying `x-hasura-auth-pat-id` is refused (`invalid-jwt`)
 * once its PAT is revoked or expired: at once after the change's NOTIFY (migration 0017), at the
 * latest after LIVENESS_CACHE_MS (3 s) without it; an open socket closes with 4403.
 */
import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { LIVENESS_CACHE_MS, PatSessions } from '../../src/graphql/pat-sessions';
import { GraphqlFailure } from '../../src/graphql/types';
import { startSpecServer, type SpecServer } from './spec-server';

/** How long the socket may take to close after the revocation (a NOTIFY, one SELECT, the close frame). */
const CLOSE_BOUND_MS = 2_000;
/** Slack over the cache time for a loaded machine (the poll step, a request, a GC pause). */
const SLACK_MS = 1_000;

let server: SpecServer;
let ownerToken: string;

beforeAll(async () => {
  server = await startSpecServer();
  ownerToken = await server.token('advanced');
});
afterAll(async () => server?.close());

const QUERY = '{ user_app_configs(where: {category: {_eq: "pat_probe"}}) { subcategory } }';

/** A new PAT of the advanced demo user and the access token of a session signed in with it. */
async function patSession(): Promise<{ patId: string; accessToken: string }> {
  const created = await auth('/pat', { body: { expiresAt: new Date(Date.now() + 7 * 86_400_000).toISOString(), metadata: { name: 'robot' } }, token: ownerToken });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const signedIn = await auth('/signin/pat', { body: { personalAccessToken: created.body.personalAccessToken } });
  expect(signedIn.status).toBe(200);
  return { patId: created.body.id as string, accessToken: signedIn.body.session.accessToken as string };
}

// Response bodies are whatever the server sent; the tests read fields of them.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function auth(path: string, input: { body?: unknown; token?: string; method?: string }): Promise<{ status: number; body: any }> {
  const response = await fetch(`${server.origin}/v1/auth${path}`, {
    method: input.method ?? 'POST',
    headers: { ...(input.body === undefined ? {} : { 'content-type': 'application/json' }), ...(input.token ? { authorization: `Bearer ${input.token}` } : {}) },
    ...(input.body === undefined ? {} : { body: JSON.stringify(input.body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
}

/** The error code of a GraphQL answer over HTTP, or 'ok'. */
async function httpOutcome(token: string): Promise<string> {
  const body = await server.graphql({ query: QUERY }, { token });
  return body.errors?.[0]?.extensions?.code ?? 'ok';
}

/** The CSV export's status and, when refused, its error code. */
async function csvOutcome(token: string): Promise<{ status: number; code: string }> {
  const response = await fetch(`${server.origin}/api/gql/csv`, {
    method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ query: QUERY }),
  });
  const text = await response.text();
  if (response.status === 200) return { status: 200, code: 'ok' };
  return { status: response.status, code: (JSON.parse(text) as { errors: Array<{ extensions: { code: string } }> }).errors[0]?.extensions.code ?? '' };
}

/** Polls `probe` until it says `wanted`; the milliseconds it took, or undefined past `timeoutMs`. */
async function timeUntil(probe: () => Promise<string>, input: { wanted: string; timeoutMs: number }): Promise<number | undefined> {
  const started = performance.now();
  while (performance.now() - started <= input.timeoutMs) {
    if ((await probe()) === input.wanted) return performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return undefined;
}

describe('a session signed in with a PAT that is then revoked', () => {
  it('is refused over HTTP and CSV (invalid-jwt), and its open graphql-ws subscription is closed with 4403', async () => {
    const { patId, accessToken } = await patSession();
    expect(await httpOutcome(accessToken)).toBe('ok');
    expect(await csvOutcome(accessToken)).toEqual({ status: 200, code: 'ok' });

    let closedWith: (value: { at: number; code: number; reason: string }) => void = () => undefined;
    const closed = new Promise<{ at: number; code: number; reason: string }>((resolve) => {
      closedWith = resolve;
    });
    const client = createClient({
      url: server.wsUrl, webSocketImpl: WebSocket, retryAttempts: 0, lazy: false,
      connectionParams: { headers: { Authorization: `Bearer ${accessToken}` } },
      on: { closed: (event) => closedWith({ at: performance.now(), code: (event as { code: number }).code, reason: (event as { reason: string }).reason }) },
      onNonLazyError: () => undefined,
    });
    const first = new Promise<void>((resolve, reject) => {
      client.subscribe({ query: `subscription ${QUERY}` }, { next: () => resolve(), error: reject, complete: () => undefined });
    });
    await first;

    const revokedAt = performance.now();
    expect((await auth(`/user/pats/${patId}`, { method: 'DELETE', token: ownerToken })).body).toBe('OK');

    const socket = await Promise.race([closed, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), CLOSE_BOUND_MS * 2))]);
    expect(socket, 'the socket must close').toBeDefined();
    expect(socket?.code).toBe(4403);
    expect(socket?.reason).toContain('personal access token');
    expect((socket?.at ?? Number.POSITIVE_INFINITY) - revokedAt).toBeLessThan(CLOSE_BOUND_MS);
    await client.dispose();

    const httpMs = await timeUntil(() => httpOutcome(accessToken), { wanted: 'invalid-jwt', timeoutMs: LIVENESS_CACHE_MS + SLACK_MS });
    expect(httpMs, 'HTTP must refuse within the cache time').toBeDefined();
    expect(await csvOutcome(accessToken)).toEqual({ status: 401, code: 'invalid-jwt' });
    const body = await server.graphql({ query: QUERY }, { token: accessToken });
    expect(body.errors?.[0]?.message).toBe('Could not verify JWT: the personal access token of this session was revoked or has expired');
    // A new connection with the token is refused at connection_init.
    const again = createClient({ url: server.wsUrl, webSocketImpl: WebSocket, retryAttempts: 0, lazy: false, connectionParams: { headers: { Authorization: `Bearer ${accessToken}` } }, onNonLazyError: () => undefined });
    const refused = await new Promise<{ code: number }>((resolve) => {
      again.on('closed', (event) => resolve({ code: (event as { code: number }).code }));
    });
    expect(refused.code).toBe(4403);
    await again.dispose();
  });

  it('is refused within the cache time even when the change was never announced (no NOTIFY)', async () => {
    const { patId, accessToken } = await patSession();
    expect(await httpOutcome(accessToken)).toBe('ok');
    const client = await server.db.pool.connect();
    try {
      // Triggers off for this transaction only: the revocation reaches no LISTENer.
      await client.query('BEGIN');
      await client.query('SET LOCAL session_replication_role = replica');
      await client.query('UPDATE auth.refresh_tokens SET revoked_at = now() WHERE id = $1 OR pat_id = $1', [patId]);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    const started = performance.now();
    const [httpMs, csvMs] = await Promise.all([
      timeUntil(() => httpOutcome(accessToken), { wanted: 'invalid-jwt', timeoutMs: LIVENESS_CACHE_MS + SLACK_MS }),
      timeUntil(async () => (await csvOutcome(accessToken)).code, { wanted: 'invalid-jwt', timeoutMs: LIVENESS_CACHE_MS + SLACK_MS }),
    ]);
    expect(httpMs, 'HTTP').toBeDefined();
    expect(csvMs, 'CSV').toBeDefined();
    expect(performance.now() - started).toBeLessThan(LIVENESS_CACHE_MS + SLACK_MS);
  });

  it('is refused once the PAT has expired (its row moved into the past)', async () => {
    const { patId, accessToken } = await patSession();
    expect(await httpOutcome(accessToken)).toBe('ok');
    await server.db.pool.query("UPDATE auth.refresh_tokens SET created_at = now() - interval '1 day', expires_at = now() - interval '1 second' WHERE id = $1", [patId]);
    expect(await timeUntil(() => httpOutcome(accessToken), { wanted: 'invalid-jwt', timeoutMs: LIVENESS_CACHE_MS + SLACK_MS })).toBeDefined();
  });

  it('leaves the owner\'s regular session and other PATs alone', async () => {
    const kept = await patSession();
    const revoked = await patSession();
    expect((await auth(`/user/pats/${revoked.patId}`, { method: 'DELETE', token: ownerToken })).body).toBe('OK');
    expect(await timeUntil(() => httpOutcome(revoked.accessToken), { wanted: 'invalid-jwt', timeoutMs: LIVENESS_CACHE_MS + SLACK_MS })).toBeDefined();
    expect(await httpOutcome(kept.accessToken)).toBe('ok');
    expect(await httpOutcome(ownerToken)).toBe('ok');
  });
});

describe('the PAT liveness cache (PatSessions)', () => {
  it('asks once per PAT id for concurrent questions, keeps the answer 3 s, forgets on a change, and asks again when fresh', async () => {
    const { patId } = await patSession();
    let queries = 0;
    let clock = 1_000_000;
    const counted = { query: (text: string, values: unknown[]) => { queries += 1; return server.db.pool.query(text, values); } };
    const pats = new PatSessions({ pool: counted as never, now: () => clock });
    await Promise.all([pats.requireLive(patId), pats.requireLive(patId), pats.requireLive(patId)]);
    expect(queries).toBe(1);
    clock += LIVENESS_CACHE_MS - 1;
    await pats.requireLive(patId);
    expect(queries).toBe(1);
    clock += 2;
    await pats.requireLive(patId);
    expect(queries).toBe(2);
    pats.forget();
    await pats.requireLive(patId);
    expect(queries).toBe(3);
    await Promise.all([pats.requireLive(patId, { fresh: true }), pats.requireLive(patId, { fresh: true })]);
    expect(queries).toBe(4);
    await pats.requireLive(patId, { fresh: true });
    expect(queries).toBe(5);
    const refusal = await pats.requireLive('00000000-0000-4000-8000-000000000000').catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(GraphqlFailure);
    expect((refusal as GraphqlFailure).code).toBe('invalid-jwt');
    const malformed = await pats.requireLive('not-a-uuid').catch((error: unknown) => error);
    expect((malformed as GraphqlFailure).code).toBe('invalid-jwt');
  });
});
