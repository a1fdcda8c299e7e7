/**
 * Issue 15, item 3's response ceiling: an answer larger than `maxResponseBytes` is a clear error
 * (`response-too-large`), checked where the text is built (in PostgreSQL for table JSON, field by
 * field for introspection), for HTTP answers, mutations (rolled back), WebSocket pushes and CSV
 * rows; a CSV export past `maxCsvBytes` is cut, never ended as if complete. The ceilings here
 * are tiny (4 KiB, 8 KiB) so the seeded holiday calendar passes them.
 */
import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startSpecServer, type GraphqlBody, type SpecServer } from './spec-server';

const CEILING = 4096;
let server: SpecServer;

beforeAll(async () => {
  server = await startSpecServer({ engineLimits: { maxResponseBytes: CEILING }, graphqlLimits: { maxCsvBytes: 2 * CEILING } });
});
afterAll(async () => server?.close());

function tooLarge(body: GraphqlBody): void {
  expect(body.data).toBeUndefined();
  expect(body.errors).toEqual([{ message: expect.stringMatching(/^the response would be .* bytes, more than the limit of 4,096: ask for fewer rows or fields$/), extensions: { path: '$', code: 'response-too-large' } }]);
}

describe('the response ceiling', () => {
  it('answers a query whose JSON would pass the ceiling with response-too-large, and smaller ones as usual', async () => {
    tooLarge(await server.graphql({ query: '{ holidays { exchange date event } }' }, {}));
    const small = await server.graphql({ query: '{ holidays(limit: 3) { date } }' }, {});
    expect((small.data?.holidays as unknown[]).length).toBe(3);
  });

  it('applies to introspection, measured field by field', async () => {
    tooLarge(await server.graphql({ query: '{ __schema { types { name description } } }' }, {}));
    expect((await server.graphql({ query: '{ __type(name: "exchanges") { name } }' }, {})).data).toEqual({ __type: { name: 'exchanges' } });
  });

  it('rolls a mutation back when its answer would pass the ceiling', async () => {
    const token = await server.token('advanced');
    const userId = await server.userId('advanced');
    const body = await server.graphql({
      query: 'mutation ($meta: jsonb) { insert_user_app_configs_one(object: {category: "ceiling", subcategory: "big", meta_data: $meta}) { meta_data } }',
      variables: { meta: { text: 'x'.repeat(2 * CEILING) } },
    }, { token });
    expect(body.errors?.[0]?.extensions?.code).toBe('response-too-large');
    const { rows } = await server.db.pool.query("SELECT 1 FROM user_app_configs WHERE user_id = $1 AND category = 'ceiling'", [userId]);
    expect(rows).toEqual([]);
  });

  it('ends a WebSocket subscription whose result would pass the ceiling with an error', async () => {
    const client = createClient({ url: server.wsUrl, webSocketImpl: WebSocket, retryAttempts: 0, lazy: true });
    const outcome = await new Promise<unknown>((resolve) => {
      client.subscribe({ query: 'subscription { holidays { exchange date event } }' }, { next: resolve, error: resolve, complete: () => resolve('complete') });
    });
    await client.dispose();
    expect(outcome).toEqual([expect.objectContaining({ extensions: { path: '$', code: 'response-too-large' } })]);
  });

  it('refuses a CSV export whose first row would pass the ceiling, and cuts one that grows past the export limit', async () => {
    const csv = (query: string) => fetch(`${server.origin}/api/gql/csv`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
    const wide = await csv('{ exchanges { exchange holidays { date event } } }');
    expect(wide.status).toBe(400);
    expect((await wide.json() as GraphqlBody).errors?.[0]?.extensions?.code).toBe('response-too-large');
    const long = await csv('{ holidays { exchange date event } }');
    expect(long.status).toBe(200);
    // The transfer is aborted: a client never mistakes the cut file for a whole one.
    await expect(long.text()).rejects.toThrow();
    const short = await csv('{ holidays(limit: 5) { date } }');
    expect((await short.text()).split('\r\n').filter(Boolean)).toHaveLength(6);
  });
});
