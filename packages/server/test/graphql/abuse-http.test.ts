/**
 * Issue 15, items 1 to 3 from outside: the hostile shapes (abuse-shapes.ts) sent by an anonymous
 * client over HTTP to the real platform listening on loopback, while the same client polls
 * /healthz every 10 ms. Each request is answered (never a 5xx) within its budget, /healthz keeps
 * answering within 100 ms, the heap stays under the stated ceiling, batches run one after
 * another.
 *
 * The client runs in a process of its own (abuse-client.ts); a request's cost is this process's
 * CPU time while it was in flight, the least of three variants of its text (other test files run
 * beside this one and can slow any one sample): 50 ms for what is refused, 150 ms for what runs
 * (rows, JSON and the answer's sending included). /healthz's
 * median answer is held to 100 ms, or twice its median at rest when the shared machine is itself
 * slower, and no answer may take seconds.
 */
import { getIntrospectionQuery } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAbuseClient, watchProcess, type AbuseClient } from './abuse-client';
import { abuseShapes } from './abuse-shapes';
import { dataOf, startSpecServer, type SpecServer } from './spec-server';

/** The heap ceiling stated in README.md and packages/server/src/graphql/README.md (Limits). */
const HEAP_CEILING_BYTES = 2 * 1024 * 1024 * 1024;
const REFUSED_MS = 50;
const RUN_MS = 150;

let server: SpecServer;
let client: AbuseClient;

beforeAll(async () => {
  server = await startSpecServer();
  client = await startAbuseClient(server.origin);
});
afterAll(async () => {
  await client?.close();
  await server?.close();
});

describe('the abuse shapes over HTTP, with /healthz polled meanwhile', () => {
  it('answers every shape within its budget, never a 5xx, while /healthz keeps answering and the heap stays under the ceiling', async () => {
    // The same watch for a second before the abuse: what this (shared) machine gives at rest.
    const idleWatch = watchProcess();
    await client.startHealth();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const idle = await client.stopHealth();
    const idleProcess = idleWatch.stop();

    const watch = watchProcess();
    await client.startHealth();
    const problems: string[] = [];
    for (const [index, shape] of abuseShapes().entries()) {
      const samples = [];
      for (const tag of ['a', 'b', 'c']) samples.push(await client.postShape(index, tag));
      const first = samples[0];
      if (!first) continue;
      if (samples.some((sample) => sample.status >= 500 || sample.status === 0)) problems.push(`${shape.name}: ${first.status} ${first.body.slice(0, 200)}`);
      const cost = Math.min(...samples.map((sample) => sample.serverMs));
      const budget = shape.refused === true ? REFUSED_MS : RUN_MS;
      if (cost > budget) problems.push(`${shape.name}: ${cost.toFixed(1)} ms of server CPU at least, over ${budget} ms`);
      const answers = ([] as { errors?: { extensions: { code: string } }[] }[]).concat(JSON.parse(first.body) as never);
      answers.forEach((answer, position) => {
        const refused = typeof shape.refused === 'object' ? position >= shape.refused.after : shape.refused;
        const code = answer.errors?.[0]?.extensions.code;
        if (refused && code !== 'validation-failed' && code !== 'bad-request') problems.push(`${shape.name}[${position}]: expected a refusal, got ${JSON.stringify(answer).slice(0, 200)}`);
        if (!refused && code !== undefined) problems.push(`${shape.name}[${position}]: expected data, got ${JSON.stringify(answer).slice(0, 200)}`);
      });
    }
    const health = await client.stopHealth();
    const abused = watch.stop();
    const figures = `/healthz median ${health.p50.toFixed(1)} ms, p95 ${health.p95.toFixed(1)} ms, slowest ${health.slowest.toFixed(1)} ms`
      + ` (at rest: ${idle.p50.toFixed(1)}, ${idle.p95.toFixed(1)}, ${idle.slowest.toFixed(1)}); longest event-loop stall`
      + ` ${abused.longestStallMs.toFixed(1)} ms (at rest ${idleProcess.longestStallMs.toFixed(1)})`;
    expect(problems).toEqual([]);
    expect(health.failures).toBe(0);
    expect(health.polls).toBeGreaterThan(10);
    // Wall-clock figures on a shared machine carry its other work: the median must stay under
    // 100 ms (or twice the median at rest, when the machine itself is slower), and no answer may
    // take seconds (the fragment bomb froze the loop for 20 minutes). The CPU budgets above are
    // the exact per-request check; the benchmark prints these figures on a quiet machine.
    expect(health.p50, figures).toBeLessThan(Math.max(100, 2 * idle.p50));
    expect(health.slowest, figures).toBeLessThan(2_000);
    expect(abused.heapPeakBytes).toBeLessThan(HEAP_CEILING_BYTES);
  });
});

describe('introspection over HTTP', () => {
  it('answers the standard introspection, and refuses it aliased many times', async () => {
    const token = await server.token('trial');
    const full = dataOf(await server.graphql({ query: getIntrospectionQuery() }, { token }));
    expect((full.__schema as { types: unknown[] }).types.length).toBeGreaterThan(100);
    const query = `{ ${Array.from({ length: 5 }, (_v, i) => `i${i}: __schema { types { name fields { name args { name } } } }`).join(' ')} }`;
    const refused = await server.graphql({ query }, { token });
    expect(refused.errors?.[0]?.extensions?.code).toBe('validation-failed');
  });
});

describe('batches', () => {
  it('runs the operations of a batch one after another: the second reads what the first wrote', async () => {
    const token = await server.token('advanced');
    const subcategory = `batch_${Date.now()}`;
    const response = await fetch(`${server.origin}/v1/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify([
        { query: `mutation { insert_user_app_configs_one(object: {category: "abuse", subcategory: "${subcategory}", meta_data: {}}) { subcategory } }` },
        { query: `{ user_app_configs(where: {subcategory: {_eq: "${subcategory}"}}) { subcategory } }` },
      ]),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([
      { data: { insert_user_app_configs_one: { subcategory } } },
      { data: { user_app_configs: [{ subcategory }] } },
    ]);
  });
});
