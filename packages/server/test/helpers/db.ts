import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import { MIGRATED_TEMPLATE, SEEDED_TEMPLATE } from './templates';

/** A database of one's own for one test file. */
export interface TestDatabase {
  readonly pool: pg.Pool;
  readonly url: string;
  readonly name: string;
  /** Ends the pool and drops the database. */
  close(): Promise<void>;
}

/** URL of the run's PostgreSQL server for the named database. */
export function testServerUrl(database: string): string {
  const url = new URL(inject('postgresAdminUrl'));
  url.pathname = `/${database}`;
  return url.toString();
}

/**
 * A brand-new database cloned from a template (file copy: milliseconds): migrated, or migrated
 * and seeded with the demo world. `empty: true` gives one with no schema at all.
 */
export async function freshDatabase(options: { seeded?: boolean; empty?: boolean } = {}): Promise<TestDatabase> {
  const name = `test_${randomBytes(6).toString('hex')}`;
  const template = options.empty ? 'template0' : options.seeded ? SEEDED_TEMPLATE : MIGRATED_TEMPLATE;
  await adminQuery(`CREATE DATABASE ${pg.escapeIdentifier(name)} TEMPLATE ${pg.escapeIdentifier(template)} STRATEGY FILE_COPY`);
  const url = testServerUrl(name);
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  return {
    pool,
    url,
    name,
    async close() {
      await pool.end();
      await dropDatabase(name);
    },
  };
}

/**
 * Drops a test database once the connections still closing (a pool's clients end asynchronously,
 * and a server's own pools may end just before) have gone: FORCE only after 0.3 s, because killing a
 * backend whose client is mid-`end()` makes that client emit an error nobody listens to any more.
 */
async function dropDatabase(name: string): Promise<void> {
  const OBJECT_IN_USE = '55006';
  for (let attempt = 0; attempt < 10; attempt += 1) {
    try {
      await adminQuery(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)}`);
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== OBJECT_IN_USE) throw error;
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
  }
  await adminQuery(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
}

async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: inject('postgresAdminUrl') });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * For tests of CLI commands that open "the configured database": for the enclosing describe
 * block, DATABASE_URL points at a fresh database of its own; the previous value comes back after.
 * Returns a getter for that database.
 */
export function useCommandDatabase(options: { seeded?: boolean } = {}): () => TestDatabase {
  const savedUrl = process.env.DATABASE_URL;
  let db: TestDatabase | undefined;
  beforeAll(async () => {
    db = await freshDatabase(options);
    process.env.DATABASE_URL = db.url;
  });
  afterAll(async () => {
    if (savedUrl === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = savedUrl;
    await db?.close();
  });
  return () => {
    if (!db) throw new Error('useCommandDatabase: the database exists only inside the tests of its describe block');
    return db;
  };
}
