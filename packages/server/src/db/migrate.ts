import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type pg from 'pg';

/** One versioned SQL file of `packages/server/migrations`. */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
  readonly checksum: string;
}

/** A migration failed or the history no longer matches the files; nothing of it was applied. */
export class MigrationError extends Error {
  override readonly name = 'MigrationError';
}

const FILE_PATTERN = /^(\d{4})_([a-z0-9_-]+)\.sql$/;
// Any constant: every Vyuha process takes this lock so that N processes starting at once
// against one database apply each migration exactly once.
const MIGRATION_LOCK_KEY = 727_001;

/** Reads the migration files in version order, refusing gaps in naming and duplicate versions. */
export async function loadMigrations(directory: string): Promise<Migration[]> {
  const files = (await readdir(directory)).filter((file) => file.endsWith('.sql')).sort();
  const migrations: Migration[] = [];
  for (const file of files) {
    const match = FILE_PATTERN.exec(file);
    if (!match) throw new MigrationError(`${file}: migration files are named NNNN_snake_name.sql`);
    const version = Number(match[1]);
    if (migrations.some((m) => m.version === version)) throw new MigrationError(`${file}: version ${version} is used twice`);
    const sql = await readFile(join(directory, file), 'utf8');
    migrations.push({ version, name: file, sql, checksum: createHash('sha256').update(sql).digest('hex') });
  }
  return migrations;
}

/**
 * Applies, in order, every migration the database has not had yet, each in its own transaction,
 * and records it in `vyuha_migrations`. Forward only: an applied file that has since changed is
 * an error, never re-run. Returns the names of the migrations applied now.
 */
export async function migrate(pool: pg.Pool, migrations: readonly Migration[]): Promise<string[]> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await client.query(`CREATE TABLE IF NOT EXISTS vyuha_migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      checksum text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const applied = new Map<number, { name: string; checksum: string }>();
    for (const row of (await client.query<{ version: number; name: string; checksum: string }>('SELECT version, name, checksum FROM vyuha_migrations')).rows) {
      applied.set(row.version, row);
    }
    const appliedNow: string[] = [];
    for (const migration of migrations) {
      const previous = applied.get(migration.version);
      if (previous) {
        if (previous.checksum !== migration.checksum) {
          throw new MigrationError(`${migration.name} was changed after it was applied (as ${previous.name}). Migrations are forward only: put the change in a new file.`);
        }
        continue;
      }
      await applyOne(client, migration);
      appliedNow.push(migration.name);
    }
    return appliedNow;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    client.release();
  }
}

async function applyOne(client: pg.PoolClient, migration: Migration): Promise<void> {
  await client.query('BEGIN');
  try {
    await client.query(migration.sql);
    await client.query('INSERT INTO vyuha_migrations (version, name, checksum) VALUES ($1, $2, $3)', [migration.version, migration.name, migration.checksum]);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw new MigrationError(`${migration.name}:${describePosition(migration.sql, error)} ${(error as Error).message}`);
  }
}

/** PostgreSQL reports a character offset; people want `line:column`. */
function describePosition(sql: string, error: unknown): string {
  const position = Number((error as { position?: string }).position);
  if (!position) return '';
  const before = sql.slice(0, position - 1).split('\n');
  return `${before.length}:${(before.at(-1)?.length ?? 0) + 1}:`;
}
