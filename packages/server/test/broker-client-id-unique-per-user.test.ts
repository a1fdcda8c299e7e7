// user_brokers (broker, client_id) was unique across all users: whoever typed a client id first
// held it, so a user could probe whether an id was registered here (the insert failed) or squat
// another trader's id before they arrived. Now the key is per user (migration 0014), and the
// broker settles a client id that several users recorded: the login names who signed in at the
// broker; that user's row is verified, everyone else's row with the id is switched off, loses
// its session and says why. Over HTTP through buildApp: GraphQL as the users, the broker login
// route with their cookies, a fake Kite on loopback.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAuthConfig } from '../src/auth/config';
import { encryptBrokerSecret, generateBrokerSecretKey, type BrokerSecretKey } from '../src/brokers/broker-secrets';
import { buildApp } from '../src/http/app';
import { freshDatabase, type TestDatabase } from './helpers/db';
import { startFakeKite, type FakeKite } from './helpers/fake-kite';
import { TEST_JWT_KEY, testToken } from './graphql/live-test-engine';

const AUTH_CONFIG = readAuthConfig({ HASURA_GRAPHQL_JWT_SECRET: JSON.stringify({ type: 'HS256', key: TEST_JWT_KEY }) });
/** Whoever holds this app's key and secret signs in at the fake Kite as AB1234. */
const KITE_APP = { apiKey: 'kitekey123', secret: 'apisecret789', kiteUser: 'AB1234' };

let db: TestDatabase;
let key: BrokerSecretKey;
let kite: FakeKite;
let app: FastifyInstance;
const users = { trader: randomUUID(), squatter: randomUUID(), third: randomUUID() };
const savedKiteUrl = process.env.KITE_API_URL;

async function addUser(id: string): Promise<void> {
  await db.pool.query(`INSERT INTO auth.users (id, email, default_role) VALUES ($1, $2, 'basic')`, [id, `${id}@example.com`]);
  await db.pool.query(`INSERT INTO users (user_id, name, tier) VALUES ($1, 'Trader', 'basic')`, [id]);
}

interface GraphqlAnswer {
  readonly data?: Record<string, unknown> | null;
  readonly errors?: ReadonlyArray<{ message: string; extensions?: { code?: string } }>;
}

async function graphql(userId: string, query: string, variables: Record<string, unknown> = {}): Promise<GraphqlAnswer> {
  const token = testToken({ userId, roles: ['basic', 'user', 'me'], defaultRole: 'basic' });
  const response = await app.inject({ method: 'POST', url: '/v1/graphql', headers: { authorization: `Bearer ${token}` }, payload: { query, variables } });
  return response.json<GraphqlAnswer>();
}

/** Records the client id for a user through GraphQL, as the account page does; its API secret as set_broker_secret stores it. */
async function recordAccount(userId: string, clientId: string): Promise<string> {
  const answer = await graphql(userId, `mutation ($object: user_brokers_insert_input!) { insert_user_brokers_one(object: $object) { user_broker_id } }`,
    { object: { broker: 'zerodha', client_id: clientId, api_key: KITE_APP.apiKey, active: true } });
  expect(answer.errors).toBeUndefined();
  const id = (answer.data?.insert_user_brokers_one as { user_broker_id: string }).user_broker_id;
  const secret = encryptBrokerSecret(key, KITE_APP.secret);
  await db.pool.query('UPDATE user_brokers SET api_secret_ciphertext = $2, api_secret_nonce = $3, api_secret_key_id = $4 WHERE user_broker_id = $1',
    [id, secret.ciphertext, secret.nonce, secret.keyId]);
  return id;
}

/** Kite's callback for a user's row: the route exchanges the token and redirects to the brokers tab. */
async function logIn(userId: string, clientId: string, requestToken: string): Promise<Record<string, string>> {
  const cookie = `vyuhaAccessToken=${encodeURIComponent(testToken({ userId }))}`;
  const response = await app.inject({ url: `/api/broker_login/zerodha/${clientId}?request_token=${requestToken}&action=login&status=success`, headers: { cookie } });
  expect(response.statusCode).toBe(302);
  return Object.fromEntries(new URL(response.headers.location ?? '', 'http://vyuha.test').searchParams);
}

async function ownRows(userId: string): Promise<Array<{ client_id: string; active: boolean; ownership: string; ownership_checked_at: string | null }>> {
  const answer = await graphql(userId, '{ user_brokers(order_by: { client_id: asc }) { client_id active ownership ownership_checked_at } }');
  expect(answer.errors).toBeUndefined();
  return answer.data?.user_brokers as Array<{ client_id: string; active: boolean; ownership: string; ownership_checked_at: string | null }>;
}

async function sessionCount(userBrokerId: string): Promise<number> {
  return (await db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM broker_sessions WHERE user_broker_id = $1', [userBrokerId])).rows[0]?.n ?? 0;
}

const rows = { squatter: '', trader: '', third: '' };

beforeAll(async () => {
  db = await freshDatabase();
  key = generateBrokerSecretKey();
  kite = await startFakeKite({ [KITE_APP.apiKey]: { secret: KITE_APP.secret, userId: KITE_APP.kiteUser } });
  process.env.KITE_API_URL = kite.url;
  for (const id of Object.values(users)) await addUser(id);
  app = await buildApp({
    pool: db.pool, version: '0.0.0+test', webDistDir: '/nonexistent', logLevel: 'silent',
    auth: { config: AUTH_CONFIG }, graphql: { adminSecret: undefined, production: false, actions: [] }, brokerLogin: { key },
  });
});
afterAll(async () => {
  if (savedKiteUrl === undefined) delete process.env.KITE_API_URL;
  else process.env.KITE_API_URL = savedKiteUrl;
  await app?.close();
  await kite?.close();
  await db?.close();
});

describe('a client id recorded by several users', () => {
  it('can be recorded by a second user: no unique violation reveals or blocks it', async () => {
    rows.squatter = await recordAccount(users.squatter, 'AB1234');
    rows.trader = await recordAccount(users.trader, 'AB1234');
    // Kite ids are upper case; a row typed in lower case is the same id.
    rows.third = await recordAccount(users.third, 'ab1234');
    expect(await ownRows(users.trader)).toEqual([{ client_id: 'AB1234', active: true, ownership: 'unverified', ownership_checked_at: null }]);
  });

  it('twice by the same user is still refused', async () => {
    const again = await graphql(users.trader, `mutation { insert_user_brokers_one(object: { broker: "zerodha", client_id: "AB1234" }) { user_broker_id } }`);
    expect(again.errors?.[0]?.extensions?.code).toBe('constraint-violation');
  });

  it("goes to whoever logs in at the broker: the others' rows are switched off and lose their session", async () => {
    // The squatter had a session stored somehow; the broker's verdict ends it.
    const stale = encryptBrokerSecret(key, 'StaleToken');
    await db.pool.query(`INSERT INTO broker_sessions (user_broker_id, access_token_ciphertext, access_token_nonce, access_token_key_id, broker_user_id, expires_at)
                         VALUES ($1, $2, $3, $4, 'AB1234', now() + interval '1 hour')`, [rows.squatter, stale.ciphertext, stale.nonce, stale.keyId]);
    expect(await logIn(users.trader, 'AB1234', 'TraderTok1')).toEqual({ tab: 'brokers', broker_login: 'ok', broker: 'zerodha', client_id: 'AB1234' });

    expect(await ownRows(users.trader)).toEqual([{ client_id: 'AB1234', active: true, ownership: 'verified', ownership_checked_at: expect.any(String) as unknown }]);
    expect(await sessionCount(rows.trader)).toBe(1);
    for (const [user, row, clientId] of [[users.squatter, rows.squatter, 'AB1234'], [users.third, rows.third, 'ab1234']] as const) {
      expect(await ownRows(user)).toEqual([{ client_id: clientId, active: false, ownership: 'claimed_elsewhere', ownership_checked_at: expect.any(String) as unknown }]);
      expect(await sessionCount(row)).toBe(0);
    }
    const audit = await db.pool.query<{ entity_id: string; actor_user_id: string; after: Record<string, unknown> }>(
      `SELECT entity_id, actor_user_id, after FROM audit_log WHERE action = 'broker.claim_lost' ORDER BY entity_id`);
    expect(audit.rows.map((row) => row.entity_id).sort()).toEqual([rows.squatter, rows.third].sort());
    expect(audit.rows.every((row) => row.actor_user_id === users.trader && row.after.ownership === 'claimed_elsewhere')).toBe(true);
    expect(JSON.stringify(audit.rows)).not.toContain('StaleToken');
  });

  it('a row the broker gave to someone else cannot simply be switched back on', async () => {
    const answer = await graphql(users.squatter, `mutation ($id: uuid!) { update_user_brokers_by_pk(pk_columns: { user_broker_id: $id }, _set: { active: true }) { active } }`, { id: rows.squatter });
    expect(answer.errors?.[0]?.extensions?.code).toBe('constraint-violation');
    expect((await ownRows(users.squatter))[0]?.active).toBe(false);
  });

  it('nor can a user write the ownership themselves', async () => {
    const answer = await graphql(users.squatter, `mutation ($id: uuid!) { update_user_brokers_by_pk(pk_columns: { user_broker_id: $id }, _set: { ownership: "verified" }) { ownership } }`, { id: rows.squatter });
    expect(answer.errors).toBeDefined();
    expect((await ownRows(users.squatter))[0]?.ownership).toBe('claimed_elsewhere');
  });

  it('comes back to a user who logs in at the broker later (the latest login wins)', async () => {
    expect((await logIn(users.squatter, 'AB1234', 'SquatTok2')).broker_login).toBe('ok');
    expect(await ownRows(users.squatter)).toEqual([{ client_id: 'AB1234', active: true, ownership: 'verified', ownership_checked_at: expect.any(String) as unknown }]);
    expect((await ownRows(users.trader))[0]).toMatchObject({ active: false, ownership: 'claimed_elsewhere' });
    expect(await sessionCount(rows.trader)).toBe(0);
    expect(await sessionCount(rows.squatter)).toBe(1);
  });

  it('is untouched by a failed login', async () => {
    const before = await ownRows(users.squatter);
    expect(await logIn(users.trader, 'AB1234', 'UsedTok3')).toMatchObject({ broker_login: 'error', code: 'request-token-expired' });
    expect(await ownRows(users.squatter)).toEqual(before);
    expect((await ownRows(users.trader))[0]?.ownership).toBe('claimed_elsewhere');
  });
});
