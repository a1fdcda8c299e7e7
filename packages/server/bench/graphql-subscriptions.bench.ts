// One table change reaching 1,000 WebSocket subscribers (docs/BUDGETS.md budget: <= 1 s): 1,000
// graphql-ws clients, each a different user's session on the same subscription shape (so the
// live-query manager multiplexes them), then one UPDATE that changes every user's result; timed
// from the UPDATE's commit to the last subscriber's `next`. Reference, same run: a plain `ws`
// server broadcasting one message to 1,000 plain sockets (the transport's floor).
//   cd packages/server && npm run bench graphql-subscriptions

import { Worker } from 'node:worker_threads';
import pg from 'pg';
import { WebSocketServer } from 'ws';
import { benchToken, createBenchEngine, seedUsers, startBenchServer, UNLIMITED_BUDGETS, withBenchDatabase } from './graphql-bench-support';

const SUBSCRIBERS = 1_000;
const ROUNDS = 5;

type WorkerMessage = { type: 'ready' } | { type: 'connected' } | { type: 'round'; lastAt: number; received: number } | { type: 'error'; error: string };

const now = (): number => performance.timeOrigin + performance.now();

/** A worker of subscribers and a way to wait for its next message of a type. */
function startClients(workerData: Record<string, unknown>): { worker: Worker; next(type: WorkerMessage['type']): Promise<WorkerMessage> } {
  const worker = new Worker(new URL('./graphql-clients-worker.mjs', import.meta.url), { workerData });
  const queue: WorkerMessage[] = [];
  let wake: (() => void) | undefined;
  worker.on('message', (message: WorkerMessage) => {
    if (message.type === 'error') console.error(`subscriber error: ${message.error}`);
    queue.push(message);
    wake?.();
  });
  worker.on('error', (error) => {
    console.error(error);
    process.exit(1);
  });
  return {
    worker,
    async next(type) {
      for (;;) {
        const index = queue.findIndex((message) => message.type === type);
        if (index >= 0) return queue.splice(index, 1)[0] as WorkerMessage;
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 60_000).unref();
        });
      }
    },
  };
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

async function rawBroadcast(): Promise<number[]> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((resolve) => server.once('listening', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const clients = startClients({ mode: 'raw', url: `ws://127.0.0.1:${port}`, count: SUBSCRIBERS });
  await clients.next('connected');
  const payload = JSON.stringify({ id: 'x', type: 'next', payload: { data: { strategies: [{ strategy_id: '00000000-0000-4000-8000-000000000000', name: 'Straddle 0000+' }] } } });
  const broadcast = (): void => {
    for (const socket of server.clients) socket.send(payload);
  };
  broadcast();
  await clients.next('ready');
  const times: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const sentAt = now();
    broadcast();
    const done = (await clients.next('round')) as { lastAt: number };
    times.push(done.lastAt - sentAt);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await clients.worker.terminate();
  for (const socket of server.clients) socket.terminate();
  await new Promise((resolve) => server.close(resolve));
  return times;
}

async function main(): Promise<void> {
  await withBenchDatabase(async (url) => {
    const pool = new pg.Pool({ connectionString: url, max: 8 });
    // The embedded server's shutdown at the end cuts connections the pool is still closing.
    pool.on('error', () => undefined);
    const users = await seedUsers(pool, SUBSCRIBERS);
    const engine = await createBenchEngine(pool);
    const server = await startBenchServer({ pool, engine, limits: { ...UNLIMITED_BUDGETS, handshakesPerAddress: { burst: 10_000, intervalMs: 10_000 } } });
    console.log(`${SUBSCRIBERS} graphql-ws subscribers, one user each, subscription { strategies { strategy_id name } }; ${ROUNDS} rounds`);

    const connectStarted = now();
    const clients = startClients({
      mode: 'graphql',
      url: `ws://127.0.0.1:${server.port}/v1/graphql`,
      tokens: users.map((user) => benchToken(user.userId)),
      query: 'subscription { strategies { strategy_id name } }',
    });
    await clients.next('ready');
    console.log(`all subscribed with a first result in ${Math.round(now() - connectStarted)} ms; live queries: ${JSON.stringify(server.transport.liveQueries.statistics())}`);

    const times: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const before = server.transport.liveQueries.statistics().statements;
      await pool.query("UPDATE strategies SET name = name || '+'");
      const committedAt = now();
      const done = (await clients.next('round')) as { lastAt: number; received: number };
      times.push(done.lastAt - committedAt);
      console.log(`round ${round + 1}: ${done.received} subscribers reached in ${(done.lastAt - committedAt).toFixed(1)} ms with ${server.transport.liveQueries.statistics().statements - before} refetch statement(s)`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await clients.worker.terminate();
    await server.close();
    await pool.end();

    const reference = await rawBroadcast();
    const graphqlMedian = median(times);
    const referenceMedian = median(reference);
    console.log(`UPDATE commit -> last of ${SUBSCRIBERS} subscribers: median ${graphqlMedian.toFixed(1)} ms, worst ${Math.max(...times).toFixed(1)} ms`);
    console.log(`reference (plain ws broadcast to ${SUBSCRIBERS} sockets): median ${referenceMedian.toFixed(1)} ms`);
    console.log(`ratio: ${(graphqlMedian / referenceMedian).toFixed(1)}x the plain broadcast`);
    console.log(`budget (<= 1,000 ms): ${Math.max(...times) <= 1_000 ? 'within' : 'OUTSIDE'}`);
  });
}

await main();
