import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from './helpers/db';
import { runCli } from './helpers/cli-process';

describe('npx vyuha', () => {
  it('--help lists the commands', async () => {
    const cli = runCli(['--help'], { env: {} });
    expect(await cli.exited).toEqual({ code: 0, signal: null });
    for (const command of ['start', 'db migrate', 'db seed', 'version']) expect(cli.output()).toContain(command);
  });

  it('rejects an unknown command with exit code 2 and the help', async () => {
    const cli = runCli(['frobnicate'], { env: {} });
    expect((await cli.exited).code).toBe(2);
    expect(cli.output()).toContain('unknown command "frobnicate"');
    expect(cli.output()).toContain('Usage: vyuha <command> [options]');
  });

  it('rejects an unknown option with exit code 2, naming it, and shows the command usage', async () => {
    const cli = runCli(['db', 'migrate', '--bogus'], { env: {} });
    expect((await cli.exited).code).toBe(2);
    expect(cli.output()).toContain("vyuha db migrate: Unknown option '--bogus'");
    expect(cli.output()).toContain('Usage: vyuha db migrate');
  });

  it('names the bad variable and exits 78 (EX_CONFIG: retrying cannot help) on bad configuration', async () => {
    const cli = runCli(['db', 'migrate'], { env: { PORT: 'eighty' } });
    expect((await cli.exited).code).toBe(78);
    expect(cli.output()).toContain('configuration: PORT must be a port number');
  });
});

describe('npx vyuha db with DATABASE_URL (external PostgreSQL)', () => {
  let db: TestDatabase;
  let unusedDataDir: string;
  beforeAll(async () => {
    db = await freshDatabase({ empty: true });
    unusedDataDir = await mkdtemp(join(tmpdir(), 'vyuha-external-'));
  });
  afterAll(() => db.close());

  it('migrate applies the schema, embeds nothing and seeds nothing', async () => {
    const cli = runCli(['db', 'migrate'], { env: { DATABASE_URL: db.url, DATA_DIR: unusedDataDir } });
    expect(await cli.exited).toEqual({ code: 0, signal: null });
    expect(cli.output()).toContain('Database is up to date.');
    expect(await readdir(unusedDataDir)).toEqual([]);
    const migrations = await db.pool.query('SELECT count(*)::int AS n FROM vyuha_migrations');
    expect(migrations.rows[0].n).toBeGreaterThan(0);
    expect((await db.pool.query('SELECT count(*)::int AS n FROM auth.users')).rows[0]).toEqual({ n: 0 });
  });

  it('seed loads the demo world on request', async () => {
    const cli = runCli(['db', 'seed'], { env: { DATABASE_URL: db.url, DATA_DIR: unusedDataDir } });
    expect(await cli.exited).toEqual({ code: 0, signal: null });
    expect((await db.pool.query("SELECT count(*)::int AS n FROM auth.users WHERE email LIKE '%@demo.vyuha.in'")).rows[0]).toEqual({ n: 9 });
  });
});
