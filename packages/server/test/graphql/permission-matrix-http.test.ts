import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_ROLES, VYUHA_METADATA_TABLES } from '../../src/graphql/metadata/index';
import type { PermissionCase } from './permission-matrix-cases';
import { personasOf } from './permission-matrix-cases';
import {
  httpTransport, isReadCase, replayCases, startMatrixServer, tokenClaims, type MatrixServer, type StatusTally,
} from './permission-matrix-transport';
import type { CaseTransport } from './permission-matrix-run';

// The permission matrix (every role x table x operation, two users per role, a manager acting
// for a managed user) replayed over HTTP against the real app: POST /v1/graphql with the access
// token /v1/auth/signin/email-password gave each persona, `x-hasura-role` for the role under
// test and `x-hasura-managed-user-id` when acting; the admin persona sends the admin secret.
describe('permission matrix over HTTP', () => {
  let server: MatrixServer;
  let transport: CaseTransport;
  const statuses: StatusTally = new Map();

  beforeAll(async () => {
    server = await startMatrixServer();
    transport = httpTransport(server.origin, server.tokens, statuses);
  }, 60_000);
  afterAll(async () => { await server.close(); });

  /** Replays the cases and checks the result: no problem, every case sent once, Hasura's 200 for every answer (errors included). */
  async function replayAndCheck(selected: readonly PermissionCase[]): Promise<void> {
    statuses.clear();
    const result = await replayCases(selected, { pool: server.pool, transport, concurrency: 8 });
    expect(result.problems).toEqual([]);
    expect(result.replayed).toBe(selected.length);
    expect(Object.fromEntries(statuses)).toEqual({ 200: selected.length });
  }

  it('signs every persona in with a token carrying the claims the matrix assumes', () => {
    for (const role of ALL_ROLES) {
      for (const persona of personasOf(role, server.world)) {
        if (!persona.user) continue;
        const claims = tokenClaims(server.tokens.get(persona.user.label) ?? '');
        const assumed = persona.session.variables;
        expect(claims['x-hasura-user-id'], persona.label).toBe(persona.user.id);
        expect(claims['x-hasura-default-role'], persona.label).toBe(persona.user.tier);
        expect(claims['x-hasura-allowed-roles'], persona.label).toContain(role);
        expect(claims['x-hasura-permissions'], persona.label).toBe(assumed['x-hasura-permissions']);
        for (const [name, value] of Object.entries(claims)) {
          if (/^x-hasura-w\d+m$/i.test(name)) expect(value, `${persona.label} ${name}`).toBe(assumed[name.toLowerCase()]);
        }
      }
    }
  });

  it('reads: every role x table as two users sees exactly its rows (no other user leaks)', async () => {
    const reads = server.cases.filter((item) => item.operation === 'select');
    const personas = ALL_ROLES.reduce((count, role) => count + personasOf(role, server.world).length, 0);
    expect(reads.length).toBe(VYUHA_METADATA_TABLES.length * personas);
    expect(reads.every(isReadCase)).toBe(true);
    await replayAndCheck(reads);
  });

  it('writes: every role x table x insert/update/delete changes exactly the rows it may', async () => {
    const writes = server.cases.filter((item) => item.operation === 'insert' || item.operation === 'update' || item.operation === 'delete');
    expect(new Set(writes.map((item) => item.table)).size).toBe(VYUHA_METADATA_TABLES.length);
    await replayAndCheck(writes);
  });

  it('special: secrets hidden, names masked for support, a manager reaches only managed users, references and tiers checked', async () => {
    const special = server.cases.filter((item) => item.operation === 'special');
    expect(special.length).toBeGreaterThan(50);
    await replayAndCheck(special);
  });
});
