import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { loadMigrations, migrate, MigrationError } from '../src/db/migrate';
import { migrationsDir } from '../src/paths';
import { freshDatabase, type TestDatabase } from './helpers/db';

let db: TestDatabase | undefined;
afterEach(async () => {
  await db?.close();
  db = undefined;
});

async function migrationFolder(files: Record<string, string>): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'vyuha-migrations-'));
  for (const [name, sql] of Object.entries(files)) await writeFile(join(folder, name), sql);
  return folder;
}

async function tableNames(pool: pg.Pool): Promise<string[]> {
  const { rows } = await pool.query<{ name: string }>(
    "SELECT table_schema || '.' || table_name AS name FROM information_schema.tables WHERE table_schema IN ('public', 'auth') AND table_type = 'BASE TABLE' ORDER BY 1",
  );
  return rows.map((row) => row.name);
}

describe('the real migrations', () => {
  it('apply to an empty database, once, and record themselves', async () => {
    db = await freshDatabase({ empty: true });
    const migrations = await loadMigrations(migrationsDir);
    expect(migrations.length).toBeGreaterThan(0);
    const applied = await migrate(db.pool, migrations);
    expect(applied).toEqual(migrations.map((m) => m.name));
    const recorded = await db.pool.query('SELECT version, name FROM vyuha_migrations ORDER BY version');
    expect(recorded.rows.map((row: { name: string }) => row.name)).toEqual(applied);
    const tables = await tableNames(db.pool);
    for (const table of ['public.users', 'public.strategies', 'public.strategy_runs', 'public.user_app_configs', 'public.audit_log', 'auth.users']) {
      expect(tables).toContain(table);
    }
    expect(await migrate(db.pool, migrations)).toEqual([]);
  });

  it('leave the same schema whether applied here or in the test template', async () => {
    db = await freshDatabase({ empty: true });
    await migrate(db.pool, await loadMigrations(migrationsDir));
    const template = await freshDatabase();
    try {
      expect(await tableNames(db.pool)).toEqual(await tableNames(template.pool));
    } finally {
      await template.close();
    }
  });
});

describe('the migration runner', () => {
  it('rolls a failing migration back whole and names file, line and column', async () => {
    db = await freshDatabase({ empty: true });
    const folder = await migrationFolder({
      '0001_good.sql': 'CREATE TABLE kept (id int);',
      '0002_bad.sql': 'CREATE TABLE half_done (id int);\nINSERT INTO kept VALUES (1);\nSELEC broken;\n',
    });
    const error = await migrate(db.pool, await loadMigrations(folder)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MigrationError);
    expect((error as Error).message).toMatch(/^0002_bad\.sql:3:1: syntax error at or near "SELEC"/);
    expect(await tableNames(db.pool)).toEqual(['public.kept', 'public.vyuha_migrations']);
    expect((await db.pool.query('SELECT count(*)::int AS n FROM kept')).rows[0]).toEqual({ n: 0 });
    expect((await db.pool.query('SELECT version FROM vyuha_migrations')).rows).toEqual([{ version: 1 }]);
  });

  it('refuses an applied migration whose file has changed', async () => {
    db = await freshDatabase({ empty: true });
    await migrate(db.pool, await loadMigrations(await migrationFolder({ '0001_a.sql': 'CREATE TABLE a (id int);' })));
    const edited = await loadMigrations(await migrationFolder({ '0001_a.sql': 'CREATE TABLE a (id bigint);' }));
    await expect(migrate(db.pool, edited)).rejects.toThrow(/0001_a\.sql was changed after it was applied.*forward only/);
  });

  it('refuses badly named and duplicate files', async () => {
    await expect(loadMigrations(await migrationFolder({ 'create-things.sql': '' }))).rejects.toThrow(/NNNN_snake_name/);
    await expect(loadMigrations(await migrationFolder({ '0001_a.sql': '', '0001_b.sql': '' }))).rejects.toThrow(/version 1 is used twice/);
  });

  it('applies each migration once when several processes migrate at the same moment', async () => {
    db = await freshDatabase({ empty: true });
    const migrations = await loadMigrations(await migrationFolder({ '0001_a.sql': 'CREATE TABLE a (id int); SELECT pg_sleep(0.2);', '0002_b.sql': 'CREATE TABLE b (id int);' }));
    const pools = [0, 1, 2].map(() => new pg.Pool({ connectionString: db!.url, max: 1 }));
    try {
      const results = await Promise.all(pools.map((pool) => migrate(pool, migrations)));
      expect(results.flat().sort()).toEqual(['0001_a.sql', '0002_b.sql']);
    } finally {
      await Promise.all(pools.map((pool) => pool.end()));
    }
  });
});
