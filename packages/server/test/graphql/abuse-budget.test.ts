/**
 * Issue 15, item 2: the request budget in front of GraphQL, per client address and per user,
 * over HTTP, CSV and WebSocket alike (429, Retry-After, Hasura's error shape with code
 * `too-many-requests`), the bound on operations in flight (503, `server-busy`), and the
 * environment variables that set them. The budgets here are tiny so a few requests reach them;
 * the defaults (limits.ts) are generous.
 */
import { request as httpRequest } from 'node:http';
import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { ConfigError } from '../../src/config';
import { readGraphqlLimits } from '../../src/graphql/config';
import { DEFAULT_TRANSPORT_LIMITS, resolveTransportLimits } from '../../src/graphql/limits';
import { TokenBuckets } from '../../src/graphql/request-budget';
import { startSpecServer, type SpecServer } from './spec-server';

const SMALL_QUERY = JSON.stringify({ query: '{ exchanges(limit: 1) { exchange } }' });

async function post(origin: string, body: string, input: { token?: string; path?: string } = {}): Promise<{ status: number; retryAfter: string | null; body: unknown }> {
  const response = await fetch(`${origin}${input.path ?? '/v1/graphql'}`, {
    method: 'POST', headers: { 'content-type': 'application/json', ...(input.token ? { authorization: `Bearer ${input.token}` } : {}) }, body,
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // CSV
  }
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: parsed };
}

/** The first answer of one operation over graphql-transport-ws (next or error payload). */
function overWebSocket(url: string, headers: Record<string, string>): Promise<unknown> {
  const client = createClient({ url, webSocketImpl: WebSocket, retryAttempts: 0, lazy: true, connectionParams: { headers } });
  return new Promise((resolve) => {
    client.subscribe({ query: '{ exchanges(limit: 1) { exchange } }' }, {
      next: (value) => resolve(value),
      error: (error) => resolve(error),
      complete: () => undefined,
    });
  }).finally(() => client.dispose());
}

describe('the budget of one client address (HTTP, CSV and WebSocket share it)', () => {
  let server: SpecServer;
  beforeAll(async () => {
    server = await startSpecServer({ graphqlLimits: { addressBudget: { requests: 5, perSeconds: 600 } } });
  });
  afterAll(async () => server?.close());

  it('answers 429 with Retry-After and a Hasura error once the address has spent its budget, on every transport', async () => {
    for (let n = 0; n < 3; n += 1) expect((await post(server.origin, SMALL_QUERY)).status).toBe(200);
    expect((await post(server.origin, SMALL_QUERY, { path: '/api/gql/csv' })).status).toBe(200);
    expect(await overWebSocket(server.wsUrl, {})).toEqual({ data: { exchanges: [{ exchange: expect.any(String) }] } });
    const refused = await post(server.origin, SMALL_QUERY);
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(refused.body).toEqual({ errors: [{ message: expect.stringMatching(/^too many GraphQL requests from this address: try again in \d+ s$/), extensions: { path: '$', code: 'too-many-requests' } }] });
    expect((await post(server.origin, SMALL_QUERY, { path: '/api/gql/csv' })).status).toBe(429);
    expect(await overWebSocket(server.wsUrl, {})).toEqual([expect.objectContaining({ extensions: { path: '$', code: 'too-many-requests' } })]);
    // Health checks are not GraphQL: never budgeted.
    expect((await fetch(`${server.origin}/healthz`)).status).toBe(200);
  });
});

describe('the budget of one user, and operations in flight', () => {
  let server: SpecServer;
  beforeAll(async () => {
    server = await startSpecServer({
      graphqlLimits: { userBudget: { requests: 3, perSeconds: 600 }, maxInFlight: 1, maxInFlightPerAddress: 1, maxQueued: 0 },
    });
  });
  afterAll(async () => server?.close());

  it('refuses a user past their budget (a batch counts each operation), while another user from the same address goes on', async () => {
    const advanced = await server.token('advanced');
    const basic = await server.token('basic');
    expect((await post(server.origin, SMALL_QUERY, { token: advanced })).status).toBe(200);
    const batch = JSON.stringify([{ query: '{ exchanges(limit: 1) { exchange } }' }, { query: '{ exchanges(limit: 2) { exchange } }' }]);
    expect((await post(server.origin, batch, { token: advanced })).status).toBe(200);
    const refused = await post(server.origin, SMALL_QUERY, { token: advanced });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ errors: [{ message: expect.stringMatching(/^too many GraphQL requests for this user: try again in \d+ s$/), extensions: { path: '$', code: 'too-many-requests' } }] });
    const overWs = await overWebSocket(server.wsUrl, { Authorization: `Bearer ${advanced}` });
    expect(overWs).toEqual([expect.objectContaining({ extensions: { path: '$', code: 'too-many-requests' } })]);
    expect((await post(server.origin, SMALL_QUERY, { token: basic })).status).toBe(200);
    // Anonymous requests spend only the address's budget.
    expect((await post(server.origin, SMALL_QUERY)).status).toBe(200);
  });

  it('answers 503 (server-busy) when every slot in flight is taken and none may wait; the slot frees when the request ends', async () => {
    const { port } = new URL(server.origin);
    // A request whose body never finishes arriving holds its slot (taken before the body is read).
    const held = httpRequest({ host: '127.0.0.1', port, path: '/v1/graphql', method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(SMALL_QUERY.length) } });
    const heldAnswer = new Promise<number>((resolve) => held.on('response', (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    }));
    held.write(SMALL_QUERY.slice(0, 10));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const busy = await post(server.origin, SMALL_QUERY);
    expect(busy.status).toBe(503);
    expect(busy.retryAfter).toBe('1');
    expect(busy.body).toEqual({ errors: [{ message: expect.stringContaining('busy'), extensions: { path: '$', code: 'server-busy' } }] });
    held.end(SMALL_QUERY.slice(10));
    expect(await heldAnswer).toBe(200);
    expect((await post(server.origin, SMALL_QUERY)).status).toBe(200);
  });
});

describe('configuration', () => {
  it('reads the budgets and the in-flight bound from the environment, naming a bad variable', () => {
    expect(readGraphqlLimits({})).toEqual({});
    expect(readGraphqlLimits({ VYUHA_GRAPHQL_ADDRESS_BUDGET: '9000/60', VYUHA_GRAPHQL_USER_BUDGET: ' 100 / 10 ', VYUHA_GRAPHQL_MAX_IN_FLIGHT: '8' })).toEqual({
      addressBudget: { requests: 9000, perSeconds: 60 }, userBudget: { requests: 100, perSeconds: 10 }, maxInFlight: 8, maxInFlightPerAddress: 4,
    });
    expect(() => readGraphqlLimits({ VYUHA_GRAPHQL_USER_BUDGET: '600' })).toThrow(ConfigError);
    expect(() => readGraphqlLimits({ VYUHA_GRAPHQL_USER_BUDGET: '600' })).toThrow(/^VYUHA_GRAPHQL_USER_BUDGET must be <requests>\/<seconds>/);
    expect(() => readGraphqlLimits({ VYUHA_GRAPHQL_ADDRESS_BUDGET: '0/60' })).toThrow(/^VYUHA_GRAPHQL_ADDRESS_BUDGET /);
    expect(() => readGraphqlLimits({ VYUHA_GRAPHQL_MAX_IN_FLIGHT: '-3' })).toThrow(/^VYUHA_GRAPHQL_MAX_IN_FLIGHT must be a positive whole number/);
    expect(() => resolveTransportLimits({ maxInFlight: 2, maxInFlightPerAddress: 3 })).toThrow(/maxInFlightPerAddress/);
  });

  it('has defaults a busy office behind one address does not reach', () => {
    // 6,000 a minute per address (100 a second for everyone behind it), 1,200 a minute per user
    // (a busy screen sends a few dozen requests; the web app's backtest results page, one per 5,000 orders).
    expect(DEFAULT_TRANSPORT_LIMITS.addressBudget).toEqual({ requests: 6_000, perSeconds: 60 });
    expect(DEFAULT_TRANSPORT_LIMITS.userBudget).toEqual({ requests: 1_200, perSeconds: 60 });
  });

  it('refills a bucket smoothly and tells when a token is back', () => {
    const buckets = new TokenBuckets({ requests: 2, perSeconds: 10 });
    expect(buckets.take('a', { count: 2, now: 0 })).toEqual({ ok: true });
    expect(buckets.take('a', { count: 1, now: 1_000 })).toEqual({ ok: false, retryAfterSeconds: 4 });
    expect(buckets.take('a', { count: 1, now: 5_000 })).toEqual({ ok: true });
    // A full bucket is forgotten: memory holds only clients that spent something.
    expect(buckets.take('b', { count: 1, now: 0 })).toEqual({ ok: true });
    expect(buckets.take('b', { count: 0, now: 60_000 })).toEqual({ ok: true });
    expect(buckets.size).toBe(1);
  });
});
