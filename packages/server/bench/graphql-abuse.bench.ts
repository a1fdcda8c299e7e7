// Any single request of at most the body limit (docs/BUDGETS.md budget: <= 50 ms of CPU before it is
// refused or run; heap under the stated ceiling of 2 GiB): every hostile shape of the abuse
// suite (test/graphql/abuse-shapes.ts) sent over HTTP to the real engine with the product
// metadata, by a client in a process of its own, while it also polls /healthz every 10 ms.
// Per shape: the server process's CPU time while the request was in flight (median and worst of
// three variants of its text), against the reference measured in the same run: an ordinary small
// query. Then sixteen different full introspections at once as the admin secret (the largest
// answers built in this process) for the heap's peak.
//   cd packages/server && npm run bench graphql-abuse

import { getIntrospectionQuery } from 'graphql';
import pg from 'pg';
import { createGraphqlEngine } from '../src/graphql/engine';
import { vyuhaMetadata } from '../src/graphql/metadata/index';
import { median, startAbuseClient, watchProcess } from '../test/graphql/abuse-client';
import { abuseShapes } from '../test/graphql/abuse-shapes';
import { startBenchServer, UNLIMITED_BUDGETS, withBenchDatabase } from './graphql-bench-support';

const REFUSED_BUDGET_MS = 50;
const HEAP_CEILING_BYTES = 2 * 1024 * 1024 * 1024;
const ADMIN_SECRET = 'graphql-abuse-bench-admin-secret';
const MIB = 1024 * 1024;

interface Row {
  readonly name: string;
  readonly refused: boolean;
  readonly median: number;
  readonly worst: number;
}

await withBenchDatabase(async (url) => {
  const pool = new pg.Pool({ connectionString: url, max: 12 });
  // The embedded server's shutdown at the end cuts connections the pool is still closing.
  pool.on('error', () => undefined);
  const engine = await createGraphqlEngine({ pool, metadata: vyuhaMetadata([]) });
  const server = await startBenchServer({
    pool, engine, adminSecret: ADMIN_SECRET,
    // One client address sends everything here: the request budget is not what is measured.
    limits: UNLIMITED_BUDGETS,
    routes: (app) => app.get('/healthz', async () => {
      await pool.query('SELECT 1');
      return { status: 'ok' };
    }),
  });
  const origin = `http://127.0.0.1:${server.port}`;
  const client = await startAbuseClient(origin);
  const small = JSON.stringify({ query: '{ exchanges { exchange name } }' });
  for (let n = 0; n < 20; n += 1) await client.post(small);
  const referenceSamples = [];
  for (let n = 0; n < 30; n += 1) referenceSamples.push((await client.post(small)).serverMs);
  const reference = median(referenceSamples);

  const watch = watchProcess();
  await client.startHealth();
  const rows: Row[] = [];
  for (const [index, shape] of abuseShapes().entries()) {
    const samples = [];
    for (const tag of ['a', 'b', 'c']) samples.push((await client.postShape(index, tag)).serverMs);
    rows.push({ name: shape.name, refused: shape.refused === true, median: median(samples), worst: Math.max(...samples) });
  }
  const health = await client.stopHealth();
  const shapesPhase = watch.stop();

  // The largest answers built in this process: sixteen different full introspections at once.
  const introspection = getIntrospectionQuery();
  const heavy = watchProcess();
  const started = performance.now();
  const answers = await Promise.all(Array.from({ length: 16 }, (_v, n) => client.post(JSON.stringify({ query: `# ${n}\n${introspection}` }), { 'x-hasura-admin-secret': ADMIN_SECRET })));
  const concurrentMs = performance.now() - started;
  const heavyPhase = heavy.stop();
  const heapPeakBytes = Math.max(shapesPhase.heapPeakBytes, heavyPhase.heapPeakBytes);

  console.log(`reference (an ordinary small query, median of 30): ${reference.toFixed(2)} ms of server CPU`);
  console.log(`${'shape'.padEnd(84)} ${'median'.padStart(8)} ${'worst'.padStart(8)}   ratio`);
  for (const row of rows) {
    console.log(`${`${row.refused ? 'refused' : 'runs   '}  ${row.name}`.padEnd(84)} ${row.median.toFixed(1).padStart(6)} ms ${row.worst.toFixed(1).padStart(6)} ms   ${(row.median / reference).toFixed(0).padStart(4)}x`);
  }
  const refused = rows.filter((row) => row.refused);
  const worstRefused = refused.reduce((worst, row) => (row.median > worst.median ? row : worst));
  const worstRun = rows.filter((row) => !row.refused).reduce((worst, row) => (row.median > worst.median ? row : worst));
  console.log(`worst refused: ${worstRefused.median.toFixed(1)} ms (${worstRefused.name}), ${(worstRefused.median / reference).toFixed(0)}x the reference`);
  console.log(`worst run: ${worstRun.median.toFixed(1)} ms (${worstRun.name}), ${(worstRun.median / reference).toFixed(0)}x the reference`);
  console.log(`/healthz during the shapes: median ${health.p50.toFixed(1)} ms, p95 ${health.p95.toFixed(1)} ms, slowest ${health.slowest.toFixed(1)} ms, ${health.failures} failed of ${health.polls}`);
  console.log(`longest event-loop stall during the shapes: ${shapesPhase.longestStallMs.toFixed(1)} ms`);
  console.log(`16 full introspections at once (admin secret): ${concurrentMs.toFixed(0)} ms, ${answers.filter((answer) => answer.status === 200).length} answered,`
    + ` longest event-loop stall ${heavyPhase.longestStallMs.toFixed(1)} ms (each is built whole by graphql-js), heap peak ${(heavyPhase.heapPeakBytes / MIB).toFixed(0)} MiB`);
  console.log(`heap peak: ${(heapPeakBytes / MIB).toFixed(0)} MiB (ceiling ${HEAP_CEILING_BYTES / MIB} MiB); caches: ${JSON.stringify(Object.fromEntries(Object.entries(engine.cacheBytes()).map(([name, bytes]) => [name, `${(bytes / MIB).toFixed(1)} MiB`])))}`);
  const met = worstRefused.median <= REFUSED_BUDGET_MS && heapPeakBytes < HEAP_CEILING_BYTES;
  console.log(`budget (refused within ${REFUSED_BUDGET_MS} ms of CPU, heap under ${HEAP_CEILING_BYTES / MIB} MiB): ${met ? 'within' : 'OUTSIDE'}`);
  await client.close();
  await server.close();
  await pool.end();
});
