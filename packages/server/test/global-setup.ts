import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { createDatabaseIfMissing } from '../src/db/database';
import { startEmbeddedPostgres } from '../src/db/embedded-postgres';
import { loadMigrations, migrate } from '../src/db/migrate';
import { seedDemoWorld } from '../src/db/seed';
import { marketDataDir, migrationsDir } from '../src/paths';
import { MIGRATED_TEMPLATE, SEEDED_TEMPLATE } from './helpers/templates';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresAdminUrl: string;
  }
}

/** Starts one throwaway PostgreSQL for the whole run and prepares the two template databases. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // In /tmp, not the checkout: as root the server runs as the postgres OS user, which must reach it.
  const dataDir = await mkdtemp(join(tmpdir(), 'vyuha-test-'));
  await chmod(dataDir, 0o755);
  const server = await startEmbeddedPostgres({ dataDir, port: 0, durability: 'fast' });
  try {
    const adminUrl = server.urlFor('postgres');
    await createDatabaseIfMissing(adminUrl, MIGRATED_TEMPLATE);
    await withPool(server.urlFor(MIGRATED_TEMPLATE), async (pool) => migrate(pool, await loadMigrations(migrationsDir)));
    await createDatabaseIfMissing(adminUrl, SEEDED_TEMPLATE, MIGRATED_TEMPLATE);
    await withPool(server.urlFor(SEEDED_TEMPLATE), (pool) => seedDemoWorld(pool, { dataDir: marketDataDir }));
    project.provide('postgresAdminUrl', adminUrl);
  } catch (error) {
    await server.stop();
    throw error;
  }
  return async () => {
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
}

async function withPool<T>(url: string, work: (pool: pg.Pool) => Promise<T>): Promise<T> {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  try {
    return await work(pool);
  } finally {
    // Templates can only be cloned while nobody is connected to them.
    await pool.end();
  }
}
