// GraphQL read by primary key over HTTP on loopback (docs/BUDGETS.md budget: >= 5,000 req/s with
// p99 <= 20 ms), against a raw Fastify + pg handler doing the same SELECT, measured in the same
// run with the same load generator (a keep-alive client in a worker thread).
//   cd packages/server && npm run bench graphql-http

import { Worker } from 'node:worker_threads';
import Fastify from 'fastify';
import pg from 'pg';
import { benchToken, createBenchEngine, percentile, seedUsers, startBenchServer, UNLIMITED_BUDGETS, withBenchDatabase } from './graphql-bench-support';

const CONNECTIONS = 32;
const DURATION_MS = 8_000;
const WARM_UP_MS = 2_000;
const USERS = 200;

interface LoadResult {
  readonly count: number;
  readonly errors: number;
  readonly latencies: Float64Array;
  readonly firstBody: string | undefined;
}

interface Figures {
  readonly perSecond: number;
  readonly p50: number;
  readonly p99: number;
  readonly errors: number;
}

function load(options: { port: number; path: string; requests: { body: string; headers: Record<string, string> }[]; durationMs: number }): Promise<LoadResult> {
  const worker = new Worker(new URL('./graphql-load-worker.mjs', import.meta.url), { workerData: { ...options, connections: CONNECTIONS } });
  return new Promise((resolve, reject) => {
    worker.once('message', (result: LoadResult) => resolve(result));
    worker.once('error', reject);
  });
}

function figures(result: LoadResult, durationMs: number): Figures {
  const sorted = [...result.latencies].sort((a, b) => a - b);
  return { perSecond: result.count / (durationMs / 1000), p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), errors: result.errors };
}

function print(label: string, value: Figures): void {
  console.log(`${label.padEnd(44)} ${Math.round(value.perSecond).toLocaleString('en-IN').padStart(8)} req/s   p50 ${value.p50.toFixed(2).padStart(6)} ms   p99 ${value.p99.toFixed(2).padStart(6)} ms   errors ${value.errors}`);
}

async function measure(label: string, options: { port: number; path: string; requests: { body: string; headers: Record<string, string> }[] }): Promise<Figures> {
  await load({ ...options, durationMs: WARM_UP_MS });
  const result = await load({ ...options, durationMs: DURATION_MS });
  if (result.firstBody === undefined || !result.firstBody.includes('"name"')) throw new Error(`${label}: unexpected answer ${result.firstBody ?? '(none)'}`);
  const value = figures(result, DURATION_MS);
  print(label, value);
  return value;
}

async function main(): Promise<void> {
  await withBenchDatabase(async (url) => {
    const pool = new pg.Pool({ connectionString: url, max: 8 });
    // The embedded server's shutdown at the end cuts connections the pool is still closing.
    pool.on('error', () => undefined);
    const users = await seedUsers(pool, USERS);
    const engine = await createBenchEngine(pool);
    // The production limits, but the request budgets: 32 connections from one address are not a person.
    const server = await startBenchServer({ pool, engine, limits: UNLIMITED_BUDGETS });
    const query = 'query ($id: uuid!) { strategies_by_pk(strategy_id: $id) { strategy_id name } }';
    const graphqlRequests = users.map((user) => ({
      body: JSON.stringify({ query, variables: { id: user.strategyId } }),
      headers: { authorization: `Bearer ${benchToken(user.userId)}` },
    }));

    // The reference: the same row by the same key and owner, JSON built in SQL, no GraphQL, no auth.
    const raw = Fastify({ logger: false });
    raw.post<{ Body: { id: string; userId: string } }>('/raw', async (request, reply) => {
      const result = await pool.query<{ json: string }>(
        "SELECT json_build_object('strategy_id', strategy_id, 'name', name)::text AS json FROM strategies WHERE strategy_id = $1 AND user_id = $2",
        [request.body.id, request.body.userId],
      );
      return reply.type('application/json').send(`{"data":{"strategies_by_pk":${result.rows[0]?.json ?? 'null'}}}`);
    });
    await raw.listen({ host: '127.0.0.1', port: 0 });
    const rawAddress = raw.server.address();
    const rawPort = typeof rawAddress === 'object' && rawAddress ? rawAddress.port : 0;
    const rawRequests = users.map((user) => ({ body: JSON.stringify({ id: user.strategyId, userId: user.userId }), headers: {} }));

    console.log(`read by primary key: ${CONNECTIONS} keep-alive connections, ${DURATION_MS / 1000} s each after ${WARM_UP_MS / 1000} s warm-up, ${USERS} users' tokens in rotation`);
    const reference = await measure('raw Fastify + pg (reference)', { port: rawPort, path: '/raw', requests: rawRequests });
    const graphql = await measure('POST /v1/graphql strategies_by_pk', { port: server.port, path: '/v1/graphql', requests: graphqlRequests });
    console.log(`ratio graphql / raw: ${(graphql.perSecond / reference.perSecond).toFixed(2)} of the throughput; p99 ${(graphql.p99 / reference.p99).toFixed(2)}x`);
    const met = (ok: boolean): string => (ok ? 'met' : 'NOT MET');
    console.log(`budget throughput >= 5,000 req/s: ${met(graphql.perSecond >= 5_000)}; budget p99 <= 20 ms: ${met(graphql.p99 <= 20)}`);
    const verdict = graphql.perSecond >= 5_000 && graphql.p99 <= 20 ? 'within' : 'OUTSIDE';
    console.log(`budget (>= 5,000 req/s, p99 <= 20 ms): ${verdict}`);
    await raw.close();
    await server.close();
    await pool.end();
  });
}

await main();
