// disconnect_broker end to end on a real database: the session is ended at Kite (DELETE
// /session/token, answered by a small Kite on loopback that records what it was asked) and here
// (invalidated, audited), only for the caller's own account or a managed user's, and a Kite that
// cannot be reached still leaves the session ended here, with words that say so.
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAuthConfig } from '../../src/auth/config';
import { createSigningKeys } from '../../src/auth/signing-keys';
import { storeVerifiedSession } from '../../src/brokers/broker-ownership';
import { liveBrokerSession } from '../../src/brokers/broker-sessions';
import { encryptBrokerSecret, generateBrokerSecretKey } from '../../src/brokers/broker-secrets';
import { brokerActions } from '../../src/graphql/actions/broker-secret-action';
import { createGraphqlEngine, type VyuhaGraphqlEngine } from '../../src/graphql/engine';
import { vyuhaMetadata } from '../../src/graphql/metadata';
import { resolveSession, type SessionInput } from '../../src/graphql/session';
import type { GraphqlSession } from '../../src/graphql/types';
import { freshDatabase, type TestDatabase } from '../helpers/db';
import { TEST_JWT_KEY, testToken } from './live-test-engine';

const DISCONNECT = `mutation ($id: uuid!) { disconnect_broker(user_broker_id: $id) { user_broker_id broker_confirmed message } }`;

let db: TestDatabase;
let kite: Server;
let kiteUrl: string;
const kiteCalls: { method: string; url: string; authorization: string | undefined }[] = [];
const key = generateBrokerSecretKey();
let verifyToken: SessionInput['verifyToken'];
const users = { owner: randomUUID(), other: randomUUID() };

async function addUser(id: string): Promise<void> {
  await db.pool.query(`INSERT INTO auth.users (id, email, default_role) VALUES ($1, $2, 'basic')`, [id, `${id}@example.com`]);
  await db.pool.query(`INSERT INTO users (user_id, name, tier) VALUES ($1, 'Trader', 'basic')`, [id]);
}

async function connectedAccount(userId: string, token: string): Promise<string> {
  const clientId = `ZD${Math.floor(Math.random() * 1e6)}`;
  const { rows } = await db.pool.query<{ user_broker_id: string }>(
    `INSERT INTO user_brokers (user_id, broker, client_id, api_key) VALUES ($1, 'zerodha', $2, 'kitekey') RETURNING user_broker_id`, [userId, clientId]);
  const id = (rows[0] as { user_broker_id: string }).user_broker_id;
  await storeVerifiedSession(db.pool, {
    userBrokerId: id, broker: 'zerodha', clientId, brokerUserId: clientId, token: encryptBrokerSecret(key, token),
    expiresAt: new Date(Date.now() + 3_600_000), actorUserId: userId, ip: null,
  });
  return id;
}

function engineAt(url: string): Promise<VyuhaGraphqlEngine> {
  return createGraphqlEngine({ pool: db.pool, metadata: vyuhaMetadata(brokerActions({ pool: db.pool, key, kiteApiUrl: url })) });
}

async function sessionOf(userId: string): Promise<GraphqlSession> {
  const token = testToken({ userId, roles: ['basic', 'user', 'me'], defaultRole: 'basic' });
  return resolveSession({ headers: { authorization: `Bearer ${token}` }, verifyToken, pool: db.pool });
}

async function disconnect(engine: VyuhaGraphqlEngine, userId: string, id: string): Promise<{ data?: { disconnect_broker: { broker_confirmed: boolean; message: string } | null } | null; errors?: { extensions: { code: string } }[] }> {
  const outcome = await engine.execute({ query: DISCONNECT, variables: { id } }, await sessionOf(userId));
  return JSON.parse(outcome.body) as never;
}

beforeAll(async () => {
  db = await freshDatabase();
  await addUser(users.owner);
  await addUser(users.other);
  verifyToken = createSigningKeys({ pool: db.pool, config: readAuthConfig({ HASURA_GRAPHQL_JWT_SECRET: JSON.stringify({ type: 'HS256', key: TEST_JWT_KEY }) }) }).verify;
  kite = createServer((request, response) => {
    kiteCalls.push({ method: request.method ?? '', url: request.url ?? '', authorization: request.headers.authorization });
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify({ status: 'success', data: true }));
  });
  await new Promise<void>((resolve) => kite.listen(0, '127.0.0.1', resolve));
  kiteUrl = `http://127.0.0.1:${(kite.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => kite?.close(resolve));
  await db?.close();
});

describe('disconnect_broker', () => {
  it('ends the session at Kite and here, and audits it without the token', async () => {
    const id = await connectedAccount(users.owner, 'token-to-end');
    const answer = await disconnect(await engineAt(kiteUrl), users.owner, id);
    expect(answer.data?.disconnect_broker).toMatchObject({ broker_confirmed: true });
    const call = kiteCalls.at(-1);
    expect(call?.method).toBe('DELETE');
    expect(new URL(call?.url ?? '', kiteUrl).pathname).toBe('/session/token');
    expect(new URL(call?.url ?? '', kiteUrl).searchParams.get('access_token')).toBe('token-to-end');
    const after = await liveBrokerSession(db.pool, { userBrokerId: id, keys: [key], nowMs: Date.now() });
    expect(after).toMatchObject({ ok: false, error: { code: 'session-invalidated' } });
    const audit = await db.pool.query<{ after: Record<string, unknown> }>(`SELECT after FROM audit_log WHERE action = 'broker.logout' AND entity_id = $1`, [id]);
    expect(audit.rows).toHaveLength(1);
    expect(JSON.stringify(audit.rows)).not.toContain('token-to-end');
    // Again: nothing left to end, Kite is not asked.
    const calls = kiteCalls.length;
    expect((await disconnect(await engineAt(kiteUrl), users.owner, id)).data?.disconnect_broker).toMatchObject({ broker_confirmed: false });
    expect(kiteCalls).toHaveLength(calls);
  });

  it("refuses another user's account as if it did not exist, and changes nothing", async () => {
    const id = await connectedAccount(users.other, 'token-of-other');
    const calls = kiteCalls.length;
    const answer = await disconnect(await engineAt(kiteUrl), users.owner, id);
    expect(answer.errors?.[0]?.extensions.code).toBe('not-found');
    expect(kiteCalls).toHaveLength(calls);
    expect(await liveBrokerSession(db.pool, { userBrokerId: id, keys: [key], nowMs: Date.now() })).toMatchObject({ ok: true });
  });

  it('ends the session here when Kite cannot be reached, and says Kite ends it at 06:00 IST', async () => {
    const id = await connectedAccount(users.owner, 'token-unreachable');
    const answer = await disconnect(await engineAt('http://127.0.0.1:9'), users.owner, id);
    expect(answer.data?.disconnect_broker?.broker_confirmed).toBe(false);
    expect(answer.data?.disconnect_broker?.message).toContain('06:00 IST');
    expect(await liveBrokerSession(db.pool, { userBrokerId: id, keys: [key], nowMs: Date.now() })).toMatchObject({ ok: false, error: { code: 'session-invalidated' } });
  });
});
