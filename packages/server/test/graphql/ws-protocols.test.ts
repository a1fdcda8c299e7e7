import { createClient, type Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { freshDatabase, type TestDatabase } from '../helpers/db';
import { createTestEngine, NOTES_TABLE_SQL, startGraphqlServer, testToken, type TestServer } from './live-test-engine';

let db: TestDatabase;
let server: TestServer;
const alice = 'a11ce000-0000-4000-8000-000000000001';
const bob = 'b0b00000-0000-4000-8000-000000000002';

beforeAll(async () => {
  db = await freshDatabase();
  await db.pool.query(NOTES_TABLE_SQL);
  server = await startGraphqlServer({
    pool: db.pool,
    engine: createTestEngine(db.pool),
    limits: { connectionInitTimeoutMs: 300, maxOperationsPerConnection: 3, keepAliveMs: 100 },
    liveQueries: { refetchIntervalMs: 20 },
  });
});

afterAll(async () => {
  await server.close();
  await db.close();
});

interface RawSocket {
  readonly socket: WebSocket;
  readonly messages: Record<string, unknown>[];
  send(message: unknown): void;
  /** The next message of a type (skipping `ka`), waiting for it. */
  next(type?: string): Promise<Record<string, unknown>>;
  readonly closed: Promise<{ code: number; reason: string }>;
}

async function raw(protocols: string | string[] | undefined, options: { url?: string } = {}): Promise<RawSocket> {
  const socket = protocols === undefined ? new WebSocket(options.url ?? server.wsUrl) : new WebSocket(options.url ?? server.wsUrl, protocols);
  const messages: Record<string, unknown>[] = [];
  let read = 0;
  socket.on('message', (data) => messages.push(JSON.parse(String(data)) as Record<string, unknown>));
  const closed = new Promise<{ code: number; reason: string }>((resolve) => socket.on('close', (code, reason) => resolve({ code, reason: String(reason) })));
  await new Promise<void>((resolve, reject) => {
    socket.on('open', () => resolve());
    socket.on('error', reject);
  });
  return {
    socket,
    messages,
    closed,
    send: (message) => socket.send(typeof message === 'string' ? message : JSON.stringify(message)),
    async next(type) {
      const deadline = Date.now() + 3_000;
      for (;;) {
        const message = messages[read];
        if (message) {
          read += 1;
          if (message.type === 'ka' && type !== 'ka') continue;
          if (type === undefined || message.type === type) return message;
          throw new Error(`expected ${type}, got ${JSON.stringify(message)}`);
        }
        if (Date.now() > deadline) throw new Error(`no ${type ?? 'message'} within 3 s; got ${JSON.stringify(messages)}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    },
  };
}

function graphqlWsClient(connectionParams: Record<string, unknown>): Client {
  return createClient({ url: server.wsUrl, webSocketImpl: WebSocket, connectionParams, retryAttempts: 0, lazy: true });
}

async function insertNote(userId: string, body: string): Promise<void> {
  const response = await fetch(`${server.url}/v1/graphql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${testToken({ userId })}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query: 'mutation ($body: String!) { insert_note(body: $body) { id } }', variables: { body } }),
  });
  expect(response.status).toBe(200);
}

describe('graphql-transport-ws with the graphql-ws client', () => {
  it('follows a subscription through a change made over HTTP', async () => {
    const client = graphqlWsClient({ headers: { Authorization: `Bearer ${testToken({ userId: alice })}` } });
    const results: unknown[] = [];
    const subscription = client.iterate<{ notes: { body: string }[] }>({ query: 'subscription { notes { body } }' });
    const first = await subscription.next();
    results.push(first.value);
    await insertNote(alice, 'live one');
    await insertNote(bob, 'not for alice');
    const second = await subscription.next();
    results.push(second.value);
    expect(results).toMatchObject([{ data: { notes: [] } }, { data: { notes: [{ body: 'live one' }] } }]);
    await subscription.return?.();
    await client.dispose();
  });

  it('runs queries and mutations over the socket (one result, then complete) and reports request errors', async () => {
    const client = graphqlWsClient({ Authorization: `Bearer ${testToken({ userId: bob })}` });
    const results: unknown[] = [];
    await new Promise<void>((resolve, reject) => {
      client.subscribe({ query: '{ notes { body } }' }, { next: (value) => results.push(value), error: reject, complete: resolve });
    });
    expect(results).toEqual([{ data: { notes: [expect.objectContaining({ body: 'not for alice' })] } }]);
    const failure = await new Promise<unknown>((resolve) => {
      client.subscribe({ query: '{ nothing }' }, { next: () => undefined, error: resolve, complete: () => resolve('completed') });
    });
    expect(failure).toEqual([{ message: "field 'nothing' not found in type: 'query_root'", extensions: { path: '$.selectionSet.nothing', code: 'validation-failed' } }]);
    await client.dispose();
  });
});

describe('graphql-transport-ws close codes (docs/PRODUCT.md section 8)', () => {
  const init = (token?: string) => ({ type: 'connection_init', payload: token ? { headers: { Authorization: `Bearer ${token}` } } : {} });

  it('4406 when no known subprotocol is offered', async () => {
    const socket = await raw(undefined);
    expect(await socket.closed).toEqual({ code: 4406, reason: 'Subprotocol not acceptable' });
  });

  it('4400 for a message that is not JSON, or of an unknown type', async () => {
    const socket = await raw('graphql-transport-ws');
    socket.send(init());
    await socket.next('connection_ack');
    socket.send('{not json');
    expect((await socket.closed).code).toBe(4400);
    const other = await raw('graphql-transport-ws');
    other.send({ type: 'shout' });
    expect(await other.closed).toEqual({ code: 4400, reason: 'Unexpected message of type shout received' });
  });

  it('4401 for subscribe before connection_init', async () => {
    const socket = await raw('graphql-transport-ws');
    socket.send({ id: '1', type: 'subscribe', payload: { query: '{ notes { id } }' } });
    expect(await socket.closed).toEqual({ code: 4401, reason: 'Unauthorized' });
  });

  it('4403 when the session is refused, with the reason', async () => {
    const socket = await raw('graphql-transport-ws');
    socket.send(init(testToken({ userId: alice, expiresIn: -1 })));
    expect(await socket.closed).toEqual({ code: 4403, reason: 'Forbidden: Could not verify JWT: JWTExpired' });
  });

  it('4403 when the token expires on an open connection', async () => {
    const socket = await raw('graphql-transport-ws');
    socket.send(init(testToken({ userId: alice, expiresIn: 1 })));
    await socket.next('connection_ack');
    const started = Date.now();
    expect(await socket.closed).toEqual({ code: 4403, reason: 'Forbidden: Could not verify JWT: JWTExpired' });
    expect(Date.now() - started).toBeLessThan(2_500);
  });

  it('4408 without connection_init in time', async () => {
    const socket = await raw('graphql-transport-ws');
    expect(await socket.closed).toEqual({ code: 4408, reason: 'Connection initialisation timeout' });
  });

  it('4409 for a second subscriber with the same id', async () => {
    const socket = await raw('graphql-transport-ws');
    socket.send(init(testToken({ userId: alice })));
    await socket.next('connection_ack');
    socket.send({ id: 'same', type: 'subscribe', payload: { query: 'subscription { notes { id } }' } });
    socket.send({ id: 'same', type: 'subscribe', payload: { query: 'subscription { notes { id } }' } });
    expect(await socket.closed).toEqual({ code: 4409, reason: 'Subscriber for same already exists' });
  });

  it('4429 for a second connection_init', async () => {
    const socket = await raw('graphql-transport-ws');
    socket.send(init());
    socket.send(init());
    expect(await socket.closed).toEqual({ code: 4429, reason: 'Too many initialisation requests' });
  });

  it('4500 when the session cannot be resolved for an internal reason', async () => {
    const broken = await startGraphqlServer({ pool: db.pool, engine: createTestEngine(db.pool), verifyToken: () => Promise.reject(new Error('key store unreachable')) });
    try {
      const socket = await raw('graphql-transport-ws', { url: broken.wsUrl });
      socket.send(init(testToken({ userId: alice })));
      expect(await socket.closed).toEqual({ code: 4500, reason: 'Internal server error' });
    } finally {
      await broken.close();
    }
  });

  it('answers ping with pong, and caps operations per connection', async () => {
    const socket = await raw('graphql-transport-ws');
    socket.send({ type: 'ping', payload: { at: 1 } });
    socket.send(init(testToken({ userId: alice })));
    expect(await socket.next()).toEqual({ type: 'pong', payload: { at: 1 } });
    await socket.next('connection_ack');
    for (const id of ['1', '2', '3']) socket.send({ id, type: 'subscribe', payload: { query: 'subscription { notes { id } }' } });
    for (let count = 0; count < 3; count += 1) await socket.next('next');
    socket.send({ id: '4', type: 'subscribe', payload: { query: 'subscription { notes { id } }' } });
    expect(await socket.next('error')).toMatchObject({ id: '4', payload: [{ extensions: { code: 'too-many-requests' } }] });
    socket.send({ id: '1', type: 'complete' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.send({ id: '4', type: 'subscribe', payload: { query: 'subscription { notes { id } }' } });
    expect(await socket.next('next')).toMatchObject({ id: '4' });
    socket.socket.close();
  });
});

describe('the older graphql-ws protocol (subscriptions-transport-ws)', () => {
  it('acknowledges, keeps alive, streams data, stops with complete, and terminates', async () => {
    const socket = await raw('graphql-ws');
    socket.send({ type: 'connection_init', payload: { headers: { authorization: `Bearer ${testToken({ userId: bob })}` } } });
    await socket.next('connection_ack');
    await socket.next('ka');
    socket.send({ id: 's1', type: 'start', payload: { query: 'subscription { notes { body } }' } });
    expect(await socket.next('data')).toMatchObject({ id: 's1', payload: { data: { notes: [{ body: 'not for alice' }] } } });
    await insertNote(bob, 'second for bob');
    expect(await socket.next('data')).toMatchObject({ id: 's1', payload: { data: { notes: [{ body: 'not for alice' }, { body: 'second for bob' }] } } });
    socket.send({ id: 's1', type: 'stop' });
    expect(await socket.next('complete')).toEqual({ type: 'complete', id: 's1' });
    socket.send({ id: 'q1', type: 'start', payload: { query: '{ notes { id } }' } });
    expect(await socket.next('data')).toMatchObject({ id: 'q1', payload: { data: { notes: [{}, {}] } } });
    expect(await socket.next('complete')).toEqual({ type: 'complete', id: 'q1' });
    socket.send({ id: 'q2', type: 'start', payload: { query: '{ nothing }' } });
    expect(await socket.next('error')).toMatchObject({ id: 'q2', payload: { errors: [{ extensions: { code: 'validation-failed' } }] } });
    socket.send({ type: 'connection_terminate' });
    expect((await socket.closed).code).toBe(1000);
  });

  it("answers a refused session with connection_error in Hasura's words, then closes", async () => {
    const socket = await raw('graphql-ws');
    socket.send({ type: 'connection_init', payload: { Authorization: `Bearer ${testToken({ userId: bob, expiresIn: -1 })}` } });
    expect(await socket.next('connection_error')).toEqual({ type: 'connection_error', payload: 'Could not verify JWT: JWTExpired' });
    expect((await socket.closed).code).toBe(4403);
  });

  it('takes the session from top-level payload keys and honours x-hasura-role', async () => {
    const socket = await raw('graphql-ws');
    socket.send({ type: 'connection_init', payload: { Authorization: `Bearer ${testToken({ userId: bob })}`, 'x-hasura-role': 'superadmin' } });
    expect(await socket.next('connection_error')).toEqual({ type: 'connection_error', payload: 'Your requested role is not in allowed roles' });
  });
});

describe('the WebSocket endpoint', () => {
  it('refuses upgrades on other paths', async () => {
    const error = await raw('graphql-transport-ws', { url: server.wsUrl.replace('/v1/graphql', '/elsewhere') }).then(() => undefined, (caught: Error) => caught);
    expect(error?.message).toMatch(/404/);
  });

  it('serves the /graphql alias, and closes sockets (1001) when the app closes', async () => {
    const own = await startGraphqlServer({ pool: db.pool, engine: createTestEngine(db.pool) });
    const socket = await raw('graphql-transport-ws', { url: own.wsUrl.replace('/v1/graphql', '/graphql') });
    socket.send({ type: 'connection_init' });
    await socket.next('connection_ack');
    await own.close();
    expect((await socket.closed).code).toBe(1001);
  });
});
