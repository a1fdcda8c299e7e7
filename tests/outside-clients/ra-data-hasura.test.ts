// Issue 6 acceptance: a Hasura client nobody on the team wrote works unchanged against Vyuha's
// /v1/graphql. ra-data-hasura 0.6.1 (react-admin's data provider, over Apollo Client 3) introspects
// the schema of the caller's role and sends its own generated queries and mutations; a plain
// graphql-ws client follows the same rows live. ra-data-hasura hard-codes the key `id`
// (GET_ONE is `where: {id: {_eq}}`, UPDATE is `update_<t>_by_pk(pk_columns: {id})`, no idKey
// option), so the resources are the tables keyed by `id`: user_credits and deployed_strategies.
import { ApolloClient, InMemoryCache } from '@apollo/client/core';
import { createClient, type Client } from 'graphql-ws';
import type { DataProvider, RaRecord } from 'ra-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
// Type-only: brings the test run's ProvidedContext (`postgresAdminUrl`) into this project's type check.
import type {} from '../../packages/server/test/global-setup';
import { LiveFeed, startSpecServer, type SpecServer } from '../../packages/server/test/graphql/spec-server';
import { hasuraProviderBuilder, keyedHasuraProvider } from './outside-keyed-provider';

const buildHasuraProvider = hasuraProviderBuilder();

interface Credit extends RaRecord {
  readonly id: string;
  readonly user_id: string;
  readonly credits: number | string;
  readonly expiry: string;
  readonly category: string;
  readonly subcategory: string;
}

let server: SpecServer;
let advanced: DataProvider;
let administrator: DataProvider;
const ids = {} as Record<'advanced' | 'basic' | 'demo' | 'administrator', string>;
const today = new Date(Date.now() + 330 * 60_000).toISOString().slice(0, 10);
const inDays = (days: number): string => new Date(Date.parse(`${today}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

async function apolloClient(role: 'advanced' | 'administrator'): Promise<ApolloClient<unknown>> {
  return new ApolloClient({
    uri: `${server.origin}/v1/graphql`,
    cache: new InMemoryCache(),
    headers: { Authorization: `Bearer ${await server.token(role)}` },
  }) as ApolloClient<unknown>;
}

async function provider(role: 'advanced' | 'administrator'): Promise<DataProvider> {
  return buildHasuraProvider({ client: await apolloClient(role) });
}

async function sql<T>(text: string, params: readonly unknown[] = []): Promise<T[]> {
  return (await server.db.pool.query(text, params as unknown[])).rows as T[];
}

beforeAll(async () => {
  server = await startSpecServer();
  for (const role of ['advanced', 'basic', 'demo', 'administrator'] as const) ids[role] = await server.userId(role);
  // Enough grants for the advanced user to page through (seed: one live BACKTEST grant, one expired, one STRATEGIES).
  for (const [index, credits] of [5_000, 7_000, 3_000, 9_000].entries()) {
    await server.db.pool.query(`INSERT INTO user_credits (user_id, credits, expiry, category, subcategory) VALUES ($1, $2, $3, 'BACKTEST', 'CANDLES')`,
      [ids.advanced, credits, inDays(30 + index)]);
  }
  await server.db.pool.query(`INSERT INTO user_credits (user_id, credits, expiry, category, subcategory) VALUES ($1, 8_000, $2, 'BACKTEST', 'CANDLES')`, [ids.basic, inDays(30)]);
  advanced = await provider('advanced');
  administrator = await provider('administrator');
}, 120_000);

afterAll(async () => {
  await server?.close();
});

describe('ra-data-hasura as a signed-in user (advanced): reads own rows only', () => {
  it('getList with filter, sort and pagination, and the total from <t>_aggregate', async () => {
    const own = await sql<{ id: string; credits: string }>(
      `SELECT id, credits FROM user_credits WHERE user_id = $1 AND category = 'BACKTEST' AND credits >= 3000 ORDER BY credits DESC`, [ids.advanced]);
    expect(own.length).toBeGreaterThanOrEqual(5);
    const page = await advanced.getList<Credit>('user_credits', {
      filter: { category: 'BACK', 'credits@_gte': 3000 },
      sort: { field: 'credits', order: 'DESC' },
      pagination: { page: 2, perPage: 2 },
    });
    expect(page.total).toBe(own.length);
    expect(page.data.map((row) => row.id)).toEqual(own.slice(2, 4).map((row) => row.id));
    expect(page.data.every((row) => row.user_id === ids.advanced)).toBe(true);
    // Nobody else's rows, whatever the filter asks for.
    const foreign = await advanced.getList<Credit>('user_credits', { filter: { user_id: ids.basic }, sort: { field: 'expiry', order: 'ASC' }, pagination: { page: 1, perPage: 50 } });
    expect(foreign).toMatchObject({ data: [], total: 0 });
  });

  it('getOne, getMany and getManyReference', async () => {
    const [first, second] = (await sql<{ id: string; credits: string }>(`SELECT id, credits FROM user_credits WHERE user_id = $1 ORDER BY credits LIMIT 2`, [ids.advanced]))
      .map((row) => ({ id: row.id, credits: Number(row.credits) })) as [{ id: string; credits: number }, { id: string; credits: number }];
    const one = await advanced.getOne<Credit>('user_credits', { id: first.id });
    expect(one.data).toMatchObject({ id: first.id, user_id: ids.advanced });
    expect(Number(one.data.credits)).toBe(first.credits);
    const many = await advanced.getMany<Credit>('user_credits', { ids: [first.id, second.id] });
    expect(many.data.map((row) => row.id).sort()).toEqual([first.id, second.id].sort());
    const [basicGrant] = await sql<{ id: string }>(`SELECT id FROM user_credits WHERE user_id = $1`, [ids.basic]);
    expect((await advanced.getMany<Credit>('user_credits', { ids: [basicGrant?.id as string] })).data).toEqual([]);
    const reference = await advanced.getManyReference<Credit>('deployed_strategies', {
      target: 'user_id', id: ids.advanced, filter: {}, sort: { field: 'expiry', order: 'ASC' }, pagination: { page: 1, perPage: 10 },
    });
    expect(reference.total).toBe(1);
    expect(reference.data[0]).toMatchObject({ user_id: ids.advanced, available: 5, utilized: 2 });
  });

  it('has no write mutations for a table only staff write: the provider refuses before sending', async () => {
    const row = (await sql<{ id: string }>(`SELECT id FROM user_credits WHERE user_id = $1 LIMIT 1`, [ids.advanced]))[0] as { id: string };
    await expect(advanced.create('user_credits', { data: { user_id: ids.advanced, credits: 1, expiry: inDays(1), category: 'BACKTEST', subcategory: 'CANDLES' } }))
      .rejects.toThrow(/No query or mutation matching fetch type CREATE/);
    await expect(advanced.update('user_credits', { id: row.id, data: { credits: 1 }, previousData: { id: row.id } })).rejects.toThrow(/fetch type UPDATE/);
    await expect(advanced.delete('user_credits', { id: row.id })).rejects.toThrow(/fetch type DELETE/);
    expect(await sql(`SELECT id FROM user_credits WHERE id = $1`, [row.id])).toHaveLength(1);
  });
});

describe('ra-data-hasura as an administrator: lists everyone, creates, updates and deletes', () => {
  let live: Client;
  let feed: LiveFeed<{ user_credits: Array<{ id: string; credits: number | string }> }>;

  beforeAll(async () => {
    // A plain graphql-ws client (not the team's code) follows the basic user's grants while the provider writes them.
    live = createClient({ url: server.wsUrl, webSocketImpl: WebSocket, retryAttempts: 0, connectionParams: { headers: { Authorization: `Bearer ${await server.token('administrator')}` } } });
    feed = new LiveFeed(live, {
      query: 'subscription ($userId: uuid!) { user_credits(where: { user_id: { _eq: $userId } }, order_by: { credits: asc }) { id credits } }',
      variables: { userId: ids.basic },
    });
  });
  afterAll(async () => {
    feed.close();
    await live.dispose();
  });

  it("getList across users (filter through another user's id, sort, paginate)", async () => {
    const everyone = await administrator.getList<Credit>('user_credits', { filter: {}, sort: { field: 'created_at', order: 'ASC' }, pagination: { page: 1, perPage: 1000 } });
    const [count] = await sql<{ n: string }>('SELECT count(*) AS n FROM user_credits');
    expect(everyone.total).toBe(Number(count?.n));
    expect(new Set(everyone.data.map((row) => row.user_id)).size).toBeGreaterThan(2);
    const basic = await administrator.getList<Credit>('user_credits', { filter: { user_id: ids.basic }, sort: { field: 'credits', order: 'ASC' }, pagination: { page: 1, perPage: 5 } });
    expect(basic.data.map((row) => [row.user_id, Number(row.credits)])).toEqual([[ids.basic, 8_000]]);
  });

  it('create, update, updateMany, delete and deleteMany on user_credits, seen live by a graphql-ws subscription', async () => {
    const first = await feed.next((data) => data.user_credits.length === 1);
    const created = await administrator.create<Credit>('user_credits', { data: { user_id: ids.basic, credits: 100, expiry: inDays(60), category: 'BACKTEST', subcategory: 'CANDLES' } });
    expect(created.data).toMatchObject({ user_id: ids.basic, expiry: inDays(60), category: 'BACKTEST' });
    const id = created.data.id;
    expect(await sql(`SELECT credits::int AS credits FROM user_credits WHERE id = $1`, [id])).toEqual([{ credits: 100 }]);
    const afterCreate = await feed.next((data) => data.user_credits.some((row) => row.id === id), { after: first.index });

    const updated = await administrator.update<Credit>('user_credits', { id, data: { credits: 250 }, previousData: created.data });
    expect(Number(updated.data.credits)).toBe(250);
    const afterUpdate = await feed.next((data) => data.user_credits.some((row) => row.id === id && Number(row.credits) === 250), { after: afterCreate.index });

    const second = await administrator.create<Credit>('user_credits', { data: { user_id: ids.basic, credits: 300, expiry: inDays(90), category: 'BACKTEST', subcategory: 'CANDLES' } });
    const both = [id, second.data.id];
    const updatedMany = await administrator.updateMany('user_credits', { ids: both, data: { expiry: inDays(120) } });
    expect([...updatedMany.data ?? []].sort()).toEqual([...both].sort());
    expect(await sql(`SELECT DISTINCT to_char(expiry, 'YYYY-MM-DD') AS expiry FROM user_credits WHERE id = ANY($1::uuid[])`, [both])).toEqual([{ expiry: inDays(120) }]);

    const deleted = await administrator.delete<Credit>('user_credits', { id, previousData: updated.data });
    expect(deleted.data.id).toBe(id);
    const deletedMany = await administrator.deleteMany('user_credits', { ids: [second.data.id] });
    expect(deletedMany.data).toEqual([second.data.id]);
    expect(await sql(`SELECT id FROM user_credits WHERE id = ANY($1::uuid[])`, [both])).toEqual([]);
    const afterDelete = await feed.next((data) => data.user_credits.length === 1, { after: afterUpdate.index });
    expect(afterDelete.data.user_credits).toEqual(first.data.user_credits);
  });

  it('update and getManyReference on deployed_strategies', async () => {
    const licences = await administrator.getManyReference('deployed_strategies', {
      target: 'user_id', id: ids.advanced, filter: {}, sort: { field: 'expiry', order: 'DESC' }, pagination: { page: 1, perPage: 5 },
    });
    expect(licences.total).toBe(1);
    const licence = licences.data[0] as RaRecord & { available: number; utilized: number };
    const changed = await administrator.update('deployed_strategies', { id: licence.id, data: { available: licence.available + 2 }, previousData: licence });
    expect(changed.data).toMatchObject({ id: licence.id, available: licence.available + 2, utilized: licence.utilized });
    // The signed-in user sees the new licence count through its own provider.
    expect((await advanced.getOne('deployed_strategies', { id: licence.id })).data).toMatchObject({ available: licence.available + 2 });
  });
});

describe('ra-data-hasura for a table keyed by another column (its extension points, no idKey option): a user writes own rows', () => {
  interface Subscription extends RaRecord {
    readonly subscription_id: string;
    readonly user_id: string;
    readonly strategy_id: string;
    readonly quantity: number;
    readonly active: boolean;
  }
  let own: DataProvider;
  let published: string;
  let foreign: string;

  beforeAll(async () => {
    own = await keyedHasuraProvider({ client: await apolloClient('advanced'), keys: { subscriptions: 'subscription_id', strategies: 'strategy_id' } });
    published = (await sql<{ strategy_id: string }>(`INSERT INTO strategies (user_id, name, kind, published) VALUES ($1, 'iron fly', 'basket', true) RETURNING strategy_id`, [ids.demo]))[0]?.strategy_id as string;
    foreign = (await sql<{ subscription_id: string }>(`INSERT INTO subscriptions (user_id, strategy_id, quantity) VALUES ($1, $2, 7) RETURNING subscription_id`, [ids.basic, published]))[0]?.subscription_id as string;
  });

  it('creates, lists (filter, sort, page), reads, updates and deletes subscriptions, never touching another user\'s', async () => {
    const created: string[] = [];
    for (const quantity of [3, 1, 2]) {
      const result = await own.create<Subscription>('subscriptions', { data: { strategy_id: published, quantity } });
      expect(result.data).toMatchObject({ user_id: ids.advanced, strategy_id: published, quantity, active: true });
      expect(result.data.id).toBe(result.data.subscription_id);
      created.push(result.data.id as string);
    }
    const [first, second, third] = created as [string, string, string];
    const page = await own.getList<Subscription>('subscriptions', { filter: { active: true }, sort: { field: 'quantity', order: 'ASC' }, pagination: { page: 1, perPage: 2 } });
    expect(page.total).toBe(3);
    expect(page.data.map((row) => row.quantity)).toEqual([1, 2]);
    expect((await own.getOne<Subscription>('subscriptions', { id: first })).data).toMatchObject({ id: first, quantity: 3 });
    expect((await own.getOne<Subscription>('subscriptions', { id: foreign })).data).toBeUndefined();
    expect((await own.getMany<Subscription>('subscriptions', { ids: [...created, foreign] })).data.map((row) => row.id).sort()).toEqual([...created].sort());
    const byStrategy = await own.getManyReference<Subscription>('subscriptions', { target: 'strategy_id', id: published, filter: {}, sort: { field: 'quantity', order: 'DESC' }, pagination: { page: 1, perPage: 10 } });
    expect(byStrategy.data.map((row) => row.quantity)).toEqual([3, 2, 1]);

    const updated = await own.update<Subscription>('subscriptions', { id: first, data: { quantity: 5 }, previousData: { id: first } });
    expect(updated.data).toMatchObject({ id: first, quantity: 5 });
    const paused = await own.updateMany('subscriptions', { ids: [second, third, foreign], data: { active: false } });
    expect([...(paused.data ?? [])].sort()).toEqual([second, third].sort());
    expect((await own.delete<Subscription>('subscriptions', { id: first, previousData: updated.data })).data.id).toBe(first);
    const removed = await own.deleteMany('subscriptions', { ids: [second, third, foreign] });
    expect([...(removed.data ?? [])].sort()).toEqual([second, third].sort());
    expect(await sql(`SELECT subscription_id, quantity, active FROM subscriptions WHERE subscription_id = ANY($1::uuid[])`, [[...created, foreign]]))
      .toEqual([{ subscription_id: foreign, quantity: 7, active: true }]);
  });
});
