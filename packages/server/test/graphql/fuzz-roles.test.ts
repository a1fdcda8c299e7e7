/**
 * Issue 15, item 5: schema-derived random queries and mutations at every role, over HTTP (and a
 * few reads as live subscriptions over graphql-transport-ws) against
 * the real platform (the permission matrix's world: the seeded demo users, a twin of every tier,
 * a row of every user-owned table for everyone, signed-in tokens). For each persona, operations
 * are generated from that role's own graphql-js schema (fuzz-generator.ts, seeded) and sent with
 * the persona's token, role and managed user. Every answer must be:
 * - never a 5xx, and no error but the ones a bad request earns (never `unexpected`);
 * - within the response ceiling;
 * - free of other users' rows: every object of a table with `user_id` belongs to a user whose
 *   rows the persona may read (the matrix's intent, as SQL over the real tables).
 * A failure names the persona and the seed that reproduces it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCatalogue } from '../../src/graphql/catalogue';
import { DEFAULT_ENGINE_LIMITS } from '../../src/graphql/execute/limits';
import { ALL_ROLES, vyuhaMetadata } from '../../src/graphql/metadata/index';
import { RoleSchemas } from '../../src/graphql/schema/role-schemas';
import { generateOperation, objectsAt, type GeneratedOperation, type ValuePool } from './fuzz-generator';
import { personasOf, type Persona } from './permission-matrix-cases';
import { visibleRows } from './permission-matrix-intent';
import { personaHeaders, startMatrixServer, webSocketTransports, type MatrixServer, type WebSocketTransports } from './permission-matrix-transport';

/** Operations per persona: reads, writes (which change the world as they go), and live reads over WebSocket. */
const READS_PER_PERSONA = 14;
const WRITES_PER_PERSONA = 5;
const LIVE_PER_PERSONA = 2;
/** Codes a request may earn by being wrong; anything else (`unexpected`) is a fault of ours. */
const CLIENT_CODES = new Set(['validation-failed', 'constraint-violation', 'data-exception', 'permission-error', 'not-supported']);

let server: MatrixServer;
let schemas: RoleSchemas;
let pool: ValuePool;
let sockets: WebSocketTransports;

beforeAll(async () => {
  server = await startMatrixServer();
  const metadata = vyuhaMetadata([]);
  schemas = new RoleSchemas({ catalogue: await readCatalogue(server.pool, metadata), actions: metadata.actions });
  const ids = await server.pool.query<{ id: string }>(
    `SELECT user_id::text AS id FROM users UNION ALL SELECT strategy_id::text FROM strategies UNION ALL SELECT algorithm_id::text FROM algorithms
     UNION ALL SELECT run_id::text FROM strategy_runs`);
  const ints = await server.pool.query<{ id: number }>('SELECT instrument_id AS id FROM instruments ORDER BY instrument_id LIMIT 20');
  pool = { uuids: ids.rows.map((row) => row.id), ints: ints.rows.map((row) => row.id) };
  sockets = webSocketTransports(server.origin, server.tokens);
});
afterAll(async () => {
  await sockets?.close();
  await server?.close();
});

function viewerOf(persona: Persona) {
  const acting = persona.actingFor ?? persona.user;
  return {
    role: persona.role,
    ...(acting ? { acting } : {}),
    ...(persona.user ? { actor: persona.user, minuteCandlesFrom: persona.session.variables['x-hasura-w1m'] ?? '' } : {}),
  };
}

/** The users whose rows of `table` the persona may read; undefined: every user's (staff, reference data). */
async function readableOwners(persona: Persona, table: string, cache: Map<string, Set<string> | undefined>): Promise<Set<string> | undefined> {
  if (cache.has(table)) return cache.get(table);
  const visible = visibleRows(table, viewerOf(persona));
  let owners: Set<string> | undefined = new Set();
  if (visible && visible.text === 'true') owners = undefined;
  else if (visible) {
    const { rows } = await server.pool.query<{ owner: string }>(`SELECT DISTINCT t.user_id::text AS owner FROM "${table}" t WHERE ${visible.text}`, visible.params as unknown[]);
    owners = new Set(rows.map((row) => row.owner));
  }
  cache.set(table, owners);
  return owners;
}

/** What is wrong with one answer (empty: nothing). */
async function problemsOf(input: { persona: Persona; operation: GeneratedOperation; status: number; text: string; owners: Map<string, Set<string> | undefined> }): Promise<string[]> {
  const { persona, operation, status, text } = input;
  const problems: string[] = [];
  if (status >= 500) problems.push(`status ${status}`);
  if (text.length > DEFAULT_ENGINE_LIMITS.maxResponseBytes) problems.push(`answer of ${text.length} characters`);
  const body = JSON.parse(text) as { data?: unknown; errors?: { message: string; extensions?: { code?: string } }[] };
  for (const error of body.errors ?? []) {
    if (!CLIENT_CODES.has(error.extensions?.code ?? '')) problems.push(`error ${error.extensions?.code}: ${error.message}`);
  }
  const acting = persona.actingFor ?? persona.user;
  for (const owned of operation.owned) {
    const owners = await readableOwners(persona, owned.table, input.owners);
    for (const row of objectsAt(body.data, owned.path)) {
      const owner = row.user_id;
      if (owner === null || owner === undefined || owners === undefined) continue;
      // Rows the operation itself wrote for the acting user are theirs.
      if (owner === acting?.id || owner === persona.user?.id) continue;
      if (!owners.has(String(owner))) problems.push(`${owned.table} row of user ${String(owner)} at ${owned.path.join('.')}`);
    }
  }
  return problems;
}

/** A read with one root field (a subscription may have only one), from the first seed at or after `seed` that gives one. */
function oneRootField(schema: ReturnType<RoleSchemas['forSession']>['schema'], seed: number): GeneratedOperation | undefined {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const operation = generateOperation(schema, { kind: 'query', seed: seed * 100 + attempt, pool });
    if (operation && !operation.query.includes(' f1: ')) return operation;
  }
  return undefined;
}

/** The first result of the read as a live subscription over graphql-transport-ws, as HTTP would answer it. */
async function subscribeOnce(persona: Persona, operation: GeneratedOperation): Promise<{ status: number; text: string }> {
  const text = await sockets.live({ query: operation.query, variables: operation.variables }, persona);
  // A refused subscription comes as the protocol's error message (as `{"errors":...}`); a broken socket is not JSON.
  return text.startsWith('{') ? { status: 200, text } : { status: 599, text: JSON.stringify({ errors: [{ message: text, extensions: { code: 'transport' } }] }) };
}

async function send(persona: Persona, operation: GeneratedOperation): Promise<{ status: number; text: string }> {
  const response = await fetch(`${server.origin}/v1/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...personaHeaders(persona, server.tokens) },
    body: JSON.stringify({ query: operation.query, variables: operation.variables }),
  });
  return { status: response.status, text: await response.text() };
}

describe('random operations from every role\'s schema', () => {
  it('never answers a 5xx or an unexpected error, stays within the ceiling, and shows no row of another user', async () => {
    const failures: string[] = [];
    let sent = 0;
    let answeredWithData = 0;
    const roles = ['anonymous', ...ALL_ROLES.filter((role) => role !== 'anonymous')];
    for (const [roleIndex, role] of roles.entries()) {
      const { schema } = schemas.forSession({ admin: false, role });
      for (const [personaIndex, persona] of personasOf(role, server.world).entries()) {
        const owners = new Map<string, Set<string> | undefined>();
        const plan: Array<'query' | 'mutation' | 'subscription'> = [
          ...Array.from({ length: READS_PER_PERSONA }, () => 'query' as const),
          ...Array.from({ length: WRITES_PER_PERSONA }, () => 'mutation' as const),
          ...Array.from({ length: LIVE_PER_PERSONA }, () => 'subscription' as const),
        ];
        for (const [n, kind] of plan.entries()) {
          const seed = 1_000_000 * (roleIndex + 1) + 1_000 * personaIndex + n;
          const live = kind === 'subscription';
          const operation = kind === 'subscription' ? oneRootField(schema, seed) : generateOperation(schema, { kind, seed, pool });
          if (!operation) continue;
          const answer = live ? await subscribeOnce(persona, operation) : await send(persona, operation);
          sent += 1;
          if (answer.status === 200 && answer.text.startsWith('{"data"')) answeredWithData += 1;
          // Writes may add rows: owners are read afresh after each.
          if (kind === 'mutation') owners.clear();
          for (const problem of await problemsOf({ persona, operation, status: answer.status, text: answer.text, owners })) {
            failures.push(`${persona.label} (${role}) seed ${seed}: ${problem}\n  ${operation.query.slice(0, 400)}`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
    // The generator must mostly produce operations that run, or it tests only the validator.
    expect(sent).toBeGreaterThan(300);
    expect(answeredWithData / sent).toBeGreaterThan(0.4);
  });
});
