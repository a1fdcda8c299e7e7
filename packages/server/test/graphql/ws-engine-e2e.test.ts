import { randomUUID } from 'node:crypto';
import { createClient, type Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { createGraphqlEngine } from '../../src/graphql/engine';
import type { Metadata, PermissionFilter, RolePermissions } from '../../src/graphql/metadata/types';
import { freshDatabase, type TestDatabase } from '../helpers/db';
import { startGraphqlServer, testToken, type TestServer } from './live-test-engine';

// End to end with the real engine (createGraphqlEngine) over a small metadata of our own:
// HTTP, CSV and both WebSocket protocols, sessions from real tokens, live queries multiplexed.

const own: PermissionFilter = { user_id: { _eq: 'X-Hasura-User-Id' } };
const strategyPermissions: RolePermissions = {
  select: { filter: own, columns: ['strategy_id', 'name', 'status', 'user_id', 'updated_at'] },
  update: { filter: own, columns: ['name'] },
};
const METADATA: Metadata = {
  tables: [
    { name: 'users', permissions: { basic: { select: { filter: own, columns: ['user_id', 'name'] } }, user: { select: { filter: own, columns: ['user_id', 'name'] } } } },
    {
      name: 'strategies',
      objectRelationships: { user: { table: 'users', columns: { user_id: 'user_id' } } },
      permissions: { basic: strategyPermissions, user: strategyPermissions },
    },
  ],
  actions: [],
};

let db: TestDatabase;
let server: TestServer;
const alice = { userId: randomUUID(), strategyId: randomUUID() };
const bob = { userId: randomUUID(), strategyId: randomUUID() };
const manager = randomUUID();

async function addUser(id: string, options: { name: string; tier: string; strategy?: string }): Promise<void> {
  await db.pool.query('INSERT INTO auth.users (id, email, default_role) VALUES ($1, $2, $3)', [id, `${id}@example.com`, options.tier]);
  await db.pool.query('INSERT INTO users (user_id, name, tier) VALUES ($1, $2, $3)', [id, options.name, options.tier]);
  if (options.strategy) {
    await db.pool.query("INSERT INTO strategies (strategy_id, user_id, name, kind, updated_at) VALUES ($1, $2, $3, 'basket', '2024-05-02T03:45:00Z')", [options.strategy, id, `${options.name} straddle`]);
  }
}

beforeAll(async () => {
  db = await freshDatabase();
  await addUser(alice.userId, { name: 'Alice', tier: 'basic', strategy: alice.strategyId });
  await addUser(bob.userId, { name: '=Bob', tier: 'basic', strategy: bob.strategyId });
  await addUser(manager, { name: 'Manoj', tier: 'manager' });
  await db.pool.query('INSERT INTO managers (manager_id, user_id) VALUES ($1, $2)', [manager, bob.userId]);
  const engine = await createGraphqlEngine({ pool: db.pool, metadata: METADATA });
  server = await startGraphqlServer({ pool: db.pool, engine, liveQueries: { refetchIntervalMs: 20 } });
});

afterAll(async () => {
  await server.close();
  await db.close();
});

const bearer = (userId: string) => `Bearer ${testToken({ userId })}`;

async function graphql(body: unknown, authorization: string, path = '/v1/graphql') {
  const response = await fetch(`${server.url}${path}`, { method: 'POST', headers: { authorization, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, text: await response.text(), headers: response.headers };
}

function wsClient(connectionParams: Record<string, unknown>): Client {
  return createClient({ url: server.wsUrl, webSocketImpl: WebSocket, connectionParams, retryAttempts: 0 });
}

describe('the real engine over HTTP and CSV', () => {
  it('reads by primary key with row permissions', async () => {
    const query = 'query ($id: uuid!) { strategies_by_pk(strategy_id: $id) { strategy_id name user { name } } }';
    const mine = await graphql({ query, variables: { id: alice.strategyId } }, bearer(alice.userId));
    expect(JSON.parse(mine.text)).toEqual({ data: { strategies_by_pk: { strategy_id: alice.strategyId, name: 'Alice straddle', user: { name: 'Alice' } } } });
    const theirs = await graphql({ query, variables: { id: bob.strategyId } }, bearer(alice.userId));
    expect(JSON.parse(theirs.text)).toEqual({ data: { strategies_by_pk: null } });
  });

  it('exports a query as CSV with dotted columns and the formula guard', async () => {
    const response = await graphql({ query: '{ strategies { name user { name } updated_at } }' }, bearer(bob.userId), '/api/gql/csv');
    expect(response.status).toBe(200);
    expect(response.text).toBe("name,user.name,updated_at\r\n'=Bob straddle,'=Bob,2024-05-02T03:45:00+00:00\r\n");
  });

  it('answers a CSV request error with JSON and a 400', async () => {
    const response = await graphql({ query: '{ strategies { secret_column } }' }, bearer(bob.userId), '/api/gql/csv');
    expect(response.status).toBe(400);
    expect(JSON.parse(response.text)).toMatchObject({ errors: [{ extensions: { code: 'validation-failed' } }] });
  });
});

describe('the real engine over WebSocket', () => {
  it('pushes each user only their own changes, from one multiplexed live query', async () => {
    const subscription = 'subscription { strategies { name updated_at } }';
    const aliceClient = wsClient({ headers: { Authorization: bearer(alice.userId) } });
    const bobClient = wsClient({ headers: { Authorization: bearer(bob.userId) } });
    const received: Record<string, unknown[]> = { alice: [], bob: [] };
    const stops = [
      aliceClient.subscribe({ query: subscription }, { next: (value) => received.alice?.push(value), error: () => undefined, complete: () => undefined }),
      bobClient.subscribe({ query: subscription }, { next: (value) => received.bob?.push(value), error: () => undefined, complete: () => undefined }),
    ];
    const waitUntil = async (check: () => boolean) => {
      const deadline = Date.now() + 3_000;
      while (!check()) {
        if (Date.now() > deadline) throw new Error(`timed out: ${JSON.stringify(received)}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    };
    await waitUntil(() => received.alice?.length === 1 && received.bob?.length === 1);
    expect(received.alice?.[0]).toEqual({ data: { strategies: [{ name: 'Alice straddle', updated_at: '2024-05-02T03:45:00+00:00' }] } });
    expect(server.transport.liveQueries.statistics()).toMatchObject({ cohorts: 1, groups: 2 });
    const update = await graphql(
      { query: 'mutation ($id: uuid!) { update_strategies_by_pk(pk_columns: {strategy_id: $id}, _set: {name: "Alice iron fly"}) { name } }', variables: { id: alice.strategyId } },
      bearer(alice.userId),
    );
    expect(JSON.parse(update.text)).toEqual({ data: { update_strategies_by_pk: { name: 'Alice iron fly' } } });
    await waitUntil(() => received.alice?.length === 2);
    expect(received.alice?.[1]).toMatchObject({ data: { strategies: [{ name: 'Alice iron fly' }] } });
    // The multiplexed text equals what the engine answers over HTTP for the same query.
    const overHttp = await graphql({ query: '{ strategies { name updated_at } }' }, bearer(alice.userId));
    expect(received.alice?.[1]).toEqual(JSON.parse(overHttp.text));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(received.bob).toHaveLength(1);
    for (const stop of stops) stop();
    await Promise.all([aliceClient.dispose(), bobClient.dispose()]);
  });

  it('lets a manager subscribe as the user they manage (x-hasura-managed-user-id in the payload)', async () => {
    const token = testToken({ userId: manager, roles: ['user', 'me', 'manager'], defaultRole: 'manager' });
    const client = wsClient({ headers: { Authorization: `Bearer ${token}`, 'x-hasura-role': 'user', 'x-hasura-managed-user-id': bob.userId } });
    const first = await client.iterate({ query: 'subscription { strategies { name } }' }).next();
    expect(first.value).toEqual({ data: { strategies: [{ name: '=Bob straddle' }] } });
    await client.dispose();
  });

  it('closes an open connection (4403) once the manager no longer manages the user, so no new operation runs', async () => {
    const managed = randomUUID();
    await addUser(managed, { name: 'Meera', tier: 'basic', strategy: randomUUID() });
    await db.pool.query('INSERT INTO managers (manager_id, user_id) VALUES ($1, $2)', [manager, managed]);
    const token = testToken({ userId: manager, roles: ['user', 'me', 'manager'], defaultRole: 'manager' });
    const client = wsClient({ headers: { Authorization: `Bearer ${token}`, 'x-hasura-role': 'user', 'x-hasura-managed-user-id': managed } });
    // A subscription kept running holds the one connection open (the client is lazy).
    const live = client.iterate({ query: 'subscription { strategies { name } }' });
    expect((await live.next()).value).toEqual({ data: { strategies: [{ name: 'Meera straddle' }] } });
    await db.pool.query('DELETE FROM managers WHERE manager_id = $1 AND user_id = $2', [manager, managed]);
    const after = await new Promise<unknown>((resolve) => {
      client.subscribe({ query: 'subscription { strategies { name } }' }, { next: resolve, error: resolve, complete: () => resolve('complete') });
    });
    // The removed link ends the connection (the `managers` change is watched): the new
    // operation gets the close, never a result.
    expect(after).toMatchObject({ code: 4403, reason: expect.stringContaining('no longer manage') });
    await live.return?.();
    await client.dispose();
  });

  it('reports a subscription that does not validate as an error message', async () => {
    const client = wsClient({ headers: { Authorization: bearer(alice.userId) } });
    const error = await new Promise<unknown>((resolve) => {
      client.subscribe({ query: 'subscription { strategies { secret_column } }' }, { next: () => undefined, error: resolve, complete: () => resolve('complete') });
    });
    expect(error).toMatchObject([{ extensions: { code: 'validation-failed' } }]);
    await client.dispose();
  });

  it('serves the older graphql-ws protocol with the same engine', async () => {
    const socket = new WebSocket(server.wsUrl, 'graphql-ws');
    const messages: Record<string, unknown>[] = [];
    socket.on('message', (data) => messages.push(JSON.parse(String(data)) as Record<string, unknown>));
    await new Promise((resolve) => socket.on('open', resolve));
    socket.send(JSON.stringify({ type: 'connection_init', payload: { headers: { Authorization: bearer(bob.userId) } } }));
    socket.send(JSON.stringify({ id: '1', type: 'start', payload: { query: 'subscription { strategies { name } }' } }));
    const deadline = Date.now() + 3_000;
    while (!messages.some((message) => message.type === 'data') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(messages.find((message) => message.type === 'data')).toEqual({ type: 'data', id: '1', payload: { data: { strategies: [{ name: '=Bob straddle' }] } } });
    socket.close();
  });
});
