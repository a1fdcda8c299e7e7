import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GraphqlEngine } from '../../src/graphql/types';
import { freshDatabase, type TestDatabase } from '../helpers/db';
import { createTestEngine, NOTES_TABLE_SQL, startGraphqlServer, testToken, type TestServer } from './live-test-engine';

let db: TestDatabase;
let server: TestServer;
const alice = 'a11ce000-0000-4000-8000-000000000001';
const bob = 'b0b00000-0000-4000-8000-000000000002';

beforeAll(async () => {
  db = await freshDatabase();
  await db.pool.query(NOTES_TABLE_SQL);
  await db.pool.query("INSERT INTO public.test_notes (owner, body) VALUES ($1, 'alice one'), ($2, 'bob one')", [alice, bob]);
  server = await startGraphqlServer({ pool: db.pool, engine: createTestEngine(db.pool), limits: { bodyLimitBytes: 4096, maxBatchSize: 3 } });
});

afterAll(async () => {
  await server.close();
  await db.close();
});

async function post(body: unknown, options: { token?: string; path?: string; headers?: Record<string, string>; raw?: boolean } = {}) {
  const response = await fetch(`${server.url}${options.path ?? '/v1/graphql'}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(options.token ? { authorization: `Bearer ${options.token}` } : {}), ...options.headers },
    body: options.raw ? (body as string) : JSON.stringify(body),
  });
  return { status: response.status, type: response.headers.get('content-type'), body: (await response.json()) as unknown };
}

const NOTES = '{ notes { id body } }';

describe('POST /v1/graphql and /graphql', () => {
  it("answers a query with the engine's body under the caller's session", async () => {
    const answer = await post({ query: NOTES }, { token: testToken({ userId: alice }) });
    expect(answer).toEqual({ status: 200, type: 'application/json; charset=utf-8', body: { data: { notes: [{ id: 1, body: 'alice one', owner: { id: alice }, created_at: '2024-05-02T03:45:00+00:00' }] } } });
    const alias = await post({ query: NOTES }, { token: testToken({ userId: bob }), path: '/graphql' });
    expect(alias.body).toMatchObject({ data: { notes: [{ body: 'bob one' }] } });
  });

  it('runs a mutation with variables, and the admin secret sees every row', async () => {
    const inserted = await post({ query: 'mutation ($body: String!) { insert_note(body: $body) { id } }', variables: { body: 'alice two' } }, { token: testToken({ userId: alice }) });
    expect(inserted.body).toMatchObject({ data: { insert_note: { body: 'alice two', owner: { id: alice } } } });
    const all = await post({ query: NOTES }, { headers: { 'x-hasura-admin-secret': 'test-admin-secret' } });
    expect((all.body as { data: { notes: unknown[] } }).data.notes).toHaveLength(3);
  });

  it('answers a batch with an array in order, and refuses an empty or oversized batch', async () => {
    const token = testToken({ userId: bob });
    const batch = await post([{ query: '{ mine: notes { id } }' }, { query: '{ nothing }' }], { token });
    expect(batch.status).toBe(200);
    expect(batch.body).toEqual([
      { data: { mine: [{ id: 2, body: 'bob one', owner: { id: bob }, created_at: '2024-05-02T03:45:00+00:00' }] } },
      { errors: [{ message: "field 'nothing' not found in type: 'query_root'", extensions: { path: '$.selectionSet.nothing', code: 'validation-failed' } }] },
    ]);
    expect((await post([], { token })).status).toBe(400);
    const tooMany = await post([{ query: NOTES }, { query: NOTES }, { query: NOTES }, { query: NOTES }], { token });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toEqual({ errors: [{ message: 'a batch may hold at most 3 operations, got 4', extensions: { path: '$', code: 'bad-request' } }] });
  });

  it('answers 400 naming the field for a body that is not a GraphQL request', async () => {
    const notJson = await post('{"query": ', { raw: true });
    expect(notJson.status).toBe(400);
    expect(notJson.body).toMatchObject({ errors: [{ extensions: { code: 'parse-failed' } }] });
    expect((await post({ variables: {} })).body).toEqual({ errors: [{ message: "the key 'query' was not present", extensions: { path: '$.query', code: 'bad-request' } }] });
    expect((await post({ query: NOTES, variables: [1] })).body).toMatchObject({ errors: [{ extensions: { path: '$.variables' } }] });
    expect((await post([{ query: NOTES }, { query: 7 }])).body).toMatchObject({ errors: [{ extensions: { path: '$[1].query' } }] });
  });

  it('answers 413 above the body limit', async () => {
    const answer = await post({ query: `{ notes { id } } # ${'x'.repeat(5000)}` });
    expect(answer.status).toBe(413);
    expect(answer.body).toMatchObject({ errors: [{ extensions: { code: 'bad-request' } }] });
  });

  it("keeps Hasura's 200 for session and validation errors under application/json", async () => {
    const expired = await post({ query: NOTES }, { token: testToken({ userId: alice, expiresIn: -5 }) });
    expect(expired).toMatchObject({ status: 200, body: { errors: [{ message: 'Could not verify JWT: JWTExpired', extensions: { code: 'invalid-jwt' } }] } });
    const anonymous = await post({ query: NOTES });
    expect(anonymous).toMatchObject({ status: 200, body: { errors: [{ extensions: { code: 'validation-failed' } }] } });
  });

  it('uses GraphQL-over-HTTP status codes when the client accepts application/graphql-response+json', async () => {
    const accept = { accept: 'application/graphql-response+json' };
    const expired = await post({ query: NOTES }, { token: testToken({ userId: alice, expiresIn: -5 }), headers: accept });
    expect([expired.status, expired.type]).toEqual([401, 'application/graphql-response+json; charset=utf-8']);
    const wrongRole = await post({ query: NOTES }, { token: testToken({ userId: alice }), headers: { ...accept, 'x-hasura-role': 'superadmin' } });
    expect(wrongRole.status).toBe(403);
    expect((await post({ query: '{ nothing }' }, { token: testToken({ userId: alice }), headers: accept })).status).toBe(400);
    expect((await post({ query: NOTES }, { token: testToken({ userId: alice }), headers: accept })).status).toBe(200);
  });

  it('answers GET with 405 and Allow: POST', async () => {
    const response = await fetch(`${server.url}/v1/graphql?query=${encodeURIComponent(NOTES)}`);
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
  });

  it('answers 500 unexpected, without details in production, when the engine throws', async () => {
    const broken: GraphqlEngine = {
      execute: () => Promise.reject(new Error('relation "secret_table" does not exist')),
      subscribe: () => Promise.reject(new Error('unused')),
    };
    const other = await startGraphqlServer({ pool: db.pool, engine: broken, production: true });
    try {
      const response = await fetch(`${other.url}/v1/graphql`, { method: 'POST', body: JSON.stringify({ query: NOTES }) });
      expect(response.status).toBe(500);
      expect(await response.json()).toEqual({ errors: [{ message: 'internal error', extensions: { path: '$', code: 'unexpected' } }] });
    } finally {
      await other.close();
    }
  });
});
