import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_ROLES, VYUHA_METADATA_TABLES } from '../../src/graphql/metadata/index';
import type { PermissionCase } from './permission-matrix-cases';
import { personasOf } from './permission-matrix-cases';
import type { CaseTransport } from './permission-matrix-run';
import {
  asSubscription, isReadCase, replayCases, startMatrixServer, webSocketTransports, type MatrixServer, type WebSocketTransports,
} from './permission-matrix-transport';

// The permission matrix replayed over WebSocket (graphql-transport-ws, the unchanged graphql-ws
// client): one connection per persona and role, its connection_init payload carrying the
// persona's signed-in token, `x-hasura-role` and `x-hasura-managed-user-id` (or the admin
// secret). Queries and mutations go as `subscribe` messages with a single result; every read
// case also runs as a live subscription and is judged on its first `next`.
//
// Transport-specific: a request the engine refuses (validation-failed, permission-error raised
// before execution) arrives as the protocol's `error` message, whose payload is the list of
// errors; the transport hands it to the case as `{"errors": [...]}`, the body HTTP sends.
describe('permission matrix over WebSocket', () => {
  let server: MatrixServer;
  let sockets: WebSocketTransports;

  beforeAll(async () => {
    server = await startMatrixServer();
    sockets = webSocketTransports(server.origin, server.tokens);
  }, 60_000);
  afterAll(async () => {
    await sockets.close();
    await server.close();
  });

  const personaCount = () => ALL_ROLES.reduce((count, role) => count + personasOf(role, server.world).length, 0);

  /**
   * Replays the cases and checks the result: no problem, every case answered once (by `next` or
   * by `error`), and no connection beyond one per persona and role.
   */
  async function replayAndCheck(selected: readonly PermissionCase[], transport: CaseTransport): Promise<void> {
    const before = { ...sockets.tally };
    const result = await replayCases(selected, { pool: server.pool, transport, concurrency: 8 });
    expect(result.problems).toEqual([]);
    expect(result.replayed).toBe(selected.length);
    const { nextData, nextErrors, errorMessages } = sockets.tally;
    expect(nextData + nextErrors + errorMessages - (before.nextData + before.nextErrors + before.errorMessages)).toBe(selected.length);
    expect(sockets.clients()).toBeLessThanOrEqual(personaCount() + 1);
    expect(sockets.tally.connections).toBe(sockets.clients());
  }

  it('turns a query into the same selection as a subscription', () => {
    const rewritten = asSubscription({ query: 'query ($me: uuid!) { managers(where: {manager_id: {_eq: $me}}) { user_id } }', variables: { me: 'x' } });
    expect(rewritten.query.startsWith('subscription ($me: uuid!)')).toBe(true);
    expect(rewritten.query).toContain('managers(where: {manager_id: {_eq: $me}})');
    expect(rewritten.variables).toEqual({ me: 'x' });
  });

  it('reads as single results: every role x table as two users sees exactly its rows', async () => {
    const reads = server.cases.filter((item) => item.operation === 'select');
    expect(reads.length).toBe(VYUHA_METADATA_TABLES.length * personaCount());
    await replayAndCheck(reads, sockets.single);
  });

  it("reads as live subscriptions: the first result of each is exactly the persona's rows", async () => {
    const reads = server.cases.filter(isReadCase);
    expect(reads.length).toBeGreaterThan(VYUHA_METADATA_TABLES.length * personaCount());
    await replayAndCheck(reads, sockets.live);
  });

  it('writes as single results: every role x table x insert/update/delete changes exactly the rows it may', async () => {
    const writes = server.cases.filter((item) => item.operation === 'insert' || item.operation === 'update' || item.operation === 'delete');
    expect(new Set(writes.map((item) => item.table)).size).toBe(VYUHA_METADATA_TABLES.length);
    await replayAndCheck(writes, sockets.single);
  });

  it('special: secrets hidden, names masked for support, a manager reaches only managed users, references and tiers checked', async () => {
    const special = server.cases.filter((item) => item.operation === 'special');
    expect(special.length).toBeGreaterThan(50);
    await replayAndCheck(special, sockets.single);
  });

  it('refuses over the protocol\'s error message and answers over next', async () => {
    const anonymous = personasOf('anonymous', server.world)[0];
    if (!anonymous) throw new Error('no anonymous persona');
    const before = { ...sockets.tally };
    const refused = JSON.parse(await sockets.single({ query: 'query { orders { order_id } }' }, anonymous)) as unknown;
    expect(refused).toMatchObject({ errors: [{ extensions: { code: 'validation-failed' } }] });
    expect(sockets.tally.errorMessages).toBe(before.errorMessages + 1);
    const answered = JSON.parse(await sockets.live({ query: 'query { exchanges { __typename } }' }, anonymous)) as { data?: { exchanges?: unknown[] } };
    expect(answered.data?.exchanges?.length).toBeGreaterThan(0);
    expect(sockets.tally.nextData).toBe(before.nextData + 1);
  });
});
