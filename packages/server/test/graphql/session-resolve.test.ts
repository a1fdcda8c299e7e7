import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAuthConfig } from '../../src/auth/config';
import type { AccessTokenClaims } from '../../src/auth/jwt';
import { createSigningKeys } from '../../src/auth/signing-keys';
import { resolveSession, TokenCache, type SessionInput } from '../../src/graphql/session';
import { GraphqlFailure } from '../../src/graphql/types';
import { freshDatabase, type TestDatabase } from '../helpers/db';
import { TEST_JWT_KEY, testToken } from './live-test-engine';

let db: TestDatabase;
let verifyToken: SessionInput['verifyToken'];
const manager = randomUUID();
const managed = randomUUID();
const stranger = randomUUID();

async function addUser(id: string, tier: string): Promise<void> {
  await db.pool.query('INSERT INTO auth.users (id, email, default_role) VALUES ($1, $2, $3)', [id, `${id}@example.com`, tier]);
  await db.pool.query('INSERT INTO users (user_id, name, tier) VALUES ($1, $2, $3)', [id, `User ${id.slice(0, 4)}`, tier]);
}

beforeAll(async () => {
  db = await freshDatabase();
  await addUser(manager, 'manager');
  await addUser(managed, 'basic');
  await addUser(stranger, 'basic');
  await db.pool.query('INSERT INTO managers (manager_id, user_id) VALUES ($1, $2)', [manager, managed]);
  const config = readAuthConfig({ HASURA_GRAPHQL_JWT_SECRET: JSON.stringify({ type: 'HS256', key: TEST_JWT_KEY }) });
  verifyToken = createSigningKeys({ pool: db.pool, config }).verify;
});

afterAll(async () => {
  await db.close();
});

function resolve(headers: Record<string, string>, extra: Partial<SessionInput> = {}) {
  return resolveSession({ headers, verifyToken, adminSecret: 'the-admin-secret', pool: db.pool, ...extra });
}

async function failureOf(promise: Promise<unknown>): Promise<GraphqlFailure> {
  const error = await promise.then(() => undefined, (caught: unknown) => caught);
  expect(error).toBeInstanceOf(GraphqlFailure);
  return error as GraphqlFailure;
}

describe('resolveSession', () => {
  it('gives the anonymous role without credentials', async () => {
    expect(await resolve({})).toEqual({ role: 'anonymous', variables: { 'x-hasura-role': 'anonymous' }, admin: false });
  });

  it('gives admin for the admin secret, and takes session variables from headers as given', async () => {
    expect(await resolve({ 'X-Hasura-Admin-Secret': 'the-admin-secret' })).toEqual({ role: 'admin', variables: { 'x-hasura-role': 'admin' }, admin: true });
    const asUser = await resolve({ 'x-hasura-admin-secret': 'the-admin-secret', 'x-hasura-role': 'user', 'x-hasura-user-id': managed });
    expect(asUser).toEqual({ role: 'user', variables: { 'x-hasura-role': 'user', 'x-hasura-user-id': managed }, admin: false });
  });

  it('refuses a wrong admin secret, and any admin secret when none is configured', async () => {
    const wrong = await failureOf(resolve({ 'x-hasura-admin-secret': 'the-admin-secreT' }));
    expect(wrong.toGraphqlError()).toEqual({ message: 'invalid x-hasura-admin-secret/x-hasura-access-key', extensions: { path: '$', code: 'access-denied' } });
    const unset = await failureOf(resolve({ 'x-hasura-admin-secret': '' }, { adminSecret: undefined }));
    expect(unset.code).toBe('access-denied');
  });

  it('reads a bearer token: default role, claims as variables, actor id, expiry', async () => {
    const session = await resolve({ Authorization: `Bearer ${testToken({ userId: managed, extra: { 'x-hasura-permissions': '{"strategy:backtest"}' } })}` });
    expect(session.role).toBe('basic');
    expect(session.admin).toBe(false);
    expect(session.variables).toMatchObject({
      'x-hasura-role': 'basic',
      'x-hasura-user-id': managed,
      'x-hasura-actor-id': managed,
      'x-hasura-default-role': 'basic',
      'x-hasura-allowed-roles': '{"user","me","basic"}',
      'x-hasura-permissions': '{"strategy:backtest"}',
    });
    expect(session.expiresAtSeconds).toBeGreaterThan(Date.now() / 1000);
  });

  it('honours x-hasura-role within the allowed roles only', async () => {
    const token = testToken({ userId: managed });
    expect((await resolve({ authorization: `Bearer ${token}`, 'x-hasura-role': 'user' })).role).toBe('user');
    const refused = await failureOf(resolve({ authorization: `Bearer ${token}`, 'x-hasura-role': 'administrator' }));
    expect(refused.toGraphqlError()).toEqual({ message: 'Your requested role is not in allowed roles', extensions: { path: '$', code: 'access-denied' } });
  });

  it("answers invalid-jwt in Hasura's words for expired, forged and malformed tokens", async () => {
    const expired = await failureOf(resolve({ authorization: `Bearer ${testToken({ userId: managed, expiresIn: -10 })}` }));
    expect([expired.code, expired.message]).toEqual(['invalid-jwt', 'Could not verify JWT: JWTExpired']);
    const token = testToken({ userId: managed });
    const forged = await failureOf(resolve({ authorization: `Bearer ${token.slice(0, -4)}AAAA` }));
    expect([forged.code, forged.message]).toEqual(['invalid-jwt', 'Could not verify JWT: JWSError JWSInvalidSignature']);
    const malformed = await failureOf(resolve({ authorization: 'Bearer not-a-jwt' }));
    expect(malformed.code).toBe('invalid-jwt');
    expect(malformed.message).toMatch(/^Could not verify JWT: JWSError/);
    const notBearer = await failureOf(resolve({ authorization: 'Basic dXNlcjpwYXNz' }));
    expect(notBearer.code).toBe('invalid-headers');
  });

  it('names x-hasura-user-id when the token lacks that claim (docs/PRODUCT.md section 8: the client signs out)', async () => {
    const failure = await failureOf(resolve({ authorization: `Bearer ${testToken({})}` }));
    expect(failure.code).toBe('invalid-jwt');
    expect(failure.message).toContain('x-hasura-user-id');
  });

  it('lets a manager act for a managed user, never for another', async () => {
    const token = testToken({ userId: manager, roles: ['user', 'me', 'manager'], defaultRole: 'manager' });
    const acting = await resolve({ authorization: `Bearer ${token}`, 'x-hasura-managed-user-id': managed, 'x-hasura-role': 'user' });
    expect(acting.role).toBe('user');
    expect(acting.variables['x-hasura-user-id']).toBe(managed);
    expect(acting.variables['x-hasura-actor-id']).toBe(manager);
    const notManaged = await failureOf(resolve({ authorization: `Bearer ${token}`, 'x-hasura-managed-user-id': stranger }));
    expect(notManaged.code).toBe('access-denied');
    const badId = await failureOf(resolve({ authorization: `Bearer ${token}`, 'x-hasura-managed-user-id': 'someone' }));
    expect(badId.code).toBe('invalid-headers');
  });

  it('refuses x-hasura-managed-user-id from a tier that manages nobody, even with a link', async () => {
    await db.pool.query('INSERT INTO managers (manager_id, user_id) VALUES ($1, $2)', [stranger, managed]);
    const token = testToken({ userId: stranger });
    const failure = await failureOf(resolve({ authorization: `Bearer ${token}`, 'x-hasura-managed-user-id': managed }));
    expect(failure.code).toBe('access-denied');
  });

  it('verifies a token once while cached, and again once its exp has passed', async () => {
    let calls = 0;
    const now = Date.now();
    const claims: AccessTokenClaims = {
      sub: managed, iss: 'hasura-auth', iat: Math.floor(now / 1000), exp: Math.floor(now / 1000) + 60,
      'https://hasura.io/jwt/claims': { 'x-hasura-allowed-roles': ['user'], 'x-hasura-default-role': 'user', 'x-hasura-user-id': managed },
    };
    const counting: SessionInput['verifyToken'] = async () => {
      calls += 1;
      return claims;
    };
    const cache = new TokenCache(2);
    const headers = { authorization: 'Bearer a.b.c' };
    for (let index = 0; index < 5; index += 1) await resolve(headers, { verifyToken: counting, cache, now });
    expect(calls).toBe(1);
    // Sessions are kept per role header: the cached token still honours a different one.
    expect((await resolve({ ...headers, 'x-hasura-role': 'user' }, { verifyToken: counting, cache, now })).role).toBe('user');
    await expect(resolve({ ...headers, 'x-hasura-role': 'manager' }, { verifyToken: counting, cache, now })).rejects.toThrow('not in allowed roles');
    expect(calls).toBe(1);
    await resolve(headers, { verifyToken: counting, cache, now: now + 61_000 });
    expect(calls).toBe(2);
    // Capacity 2: the least recently used token is evicted.
    await resolve({ authorization: 'Bearer d.e.f' }, { verifyToken: counting, cache, now });
    await resolve({ authorization: 'Bearer g.h.i' }, { verifyToken: counting, cache, now });
    expect(cache.size).toBe(2);
    await resolve(headers, { verifyToken: counting, cache, now });
    expect(calls).toBe(5);
  });
});
