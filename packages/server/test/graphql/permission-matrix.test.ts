import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../helpers/db';
import { createGraphqlEngine } from '../../src/graphql/engine';
import type { GraphqlEngine } from '../../src/graphql/types';
import { ALL_ROLES, VYUHA_METADATA_TABLES, vyuhaMetadata } from '../../src/graphql/metadata/index';
import { buildPermissionWorld } from './permission-matrix-world';
import { permissionCases, type PermissionCase } from './permission-matrix-cases';
import { runPermissionCase, type CaseTransport } from './permission-matrix-run';

// Every role x table x operation, as two different users (and a manager acting for a managed
// user), through the engine in-process. The HTTP and WebSocket replays use the same cases.
describe('permission matrix (engine)', () => {
  let db: TestDatabase;
  let engine: GraphqlEngine;
  let cases: PermissionCase[] = [];
  const metadata = vyuhaMetadata([]);
  const transport: CaseTransport = async (request, persona) => (await engine.execute(request, persona.session)).body;

  beforeAll(async () => {
    db = await freshDatabase({ seeded: true });
    const world = await buildPermissionWorld(db.pool);
    engine = await createGraphqlEngine({ pool: db.pool, metadata });
    cases = permissionCases(metadata, world, ALL_ROLES);
  });
  afterAll(async () => { await db.close(); });

  async function run(selected: readonly PermissionCase[]): Promise<string[]> {
    const problems: string[] = [];
    for (const item of selected) problems.push(...await runPermissionCase(item, { pool: db.pool, transport }));
    return problems;
  }

  for (const table of VYUHA_METADATA_TABLES) {
    it(`${table.name}: every role reads and writes exactly its rows`, async () => {
      const selected = cases.filter((item) => item.table === table.name && item.operation !== 'special');
      expect(selected.length).toBeGreaterThan(ALL_ROLES.length * 4);
      expect(await run(selected)).toEqual([]);
    });
  }

  it('hides secrets, masks names, keeps relationships, checks written references and tiers', async () => {
    const selected = cases.filter((item) => item.operation === 'special');
    expect(selected.length).toBeGreaterThan(50);
    expect(await run(selected)).toEqual([]);
  });
});
