import pg from 'pg';
import type { ServerConfig } from '../config';
import { marketDataDir, migrationsDir } from '../paths';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './embedded-postgres';
import { loadMigrations, migrate } from './migrate';
import { seedDemoWorld } from './seed';

const DATABASE_NAME = 'vyuha';
const MINIMUM_SERVER_VERSION = 150000;

/**
 * The server's pool. Strategy runs order in bursts at bar boundaries, a minute or more apart, and
 * a connection opened during a burst costs its statement 50-150 ms (the password exchange hashes
 * thousands of rounds), so the server opens all of them at start (`openConnections`) and keeps them:
 * the paper runtime bench's tick-to-order latency went from about 150 to 75 ms p99 when 10 were
 * kept, and its slowest orders of a burst waited for the 11th to the 20th.
 */
export const SERVER_POOL = { max: 20, min: 20, idleTimeoutMillis: 120_000 } as const;

/** Opens `count` connections of the pool at once (released, kept by its `min`). */
export async function openPoolConnections(pool: pg.Pool, count: number): Promise<void> {
  const clients = await Promise.all(Array.from({ length: count }, () => pool.connect()));
  for (const client of clients) client.release();
}

/** The database the server runs on: a pool, and the embedded server behind it if we started one. */
export interface Database {
  readonly pool: pg.Pool;
  /** The connection string of `pool` (pg-boss opens its own connections with it). */
  readonly url: string;
  readonly embedded: EmbeddedPostgres | undefined;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  readonly config: ServerConfig;
  readonly log: (message: string) => void;
  /** Apply pending migrations (default true). */
  readonly migrate?: boolean;
  /** Seed the demo world when the configuration asks for it (default true). */
  readonly seed?: boolean;
  /** Open the pool's kept connections before returning (the server: default false, for a command that needs one or two). */
  readonly openConnections?: boolean;
}

/**
 * Connects to DATABASE_URL, or starts the embedded PostgreSQL under DATA_DIR and creates the
 * `vyuha` database on it; then migrates and, where configured, seeds the demo world.
 */
export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  const { config, log } = options;
  let embedded: EmbeddedPostgres | undefined;
  let url = config.databaseUrl;
  if (!url) {
    embedded = await startEmbeddedPostgres({ dataDir: config.dataDir, port: config.embeddedPostgresPort, log });
    url = embedded.urlFor(DATABASE_NAME);
    await createDatabaseIfMissing(embedded.urlFor('postgres'), DATABASE_NAME);
  }
  const pool = new pg.Pool({ connectionString: url, ...SERVER_POOL });
  // An idle client losing its connection (server restart) must not crash the process.
  pool.on('error', (error) => log(`database connection lost: ${error.message}`));
  const close = async () => {
    await pool.end();
    await embedded?.stop();
  };
  try {
    await assertServerVersion(pool);
    if (options.migrate ?? true) {
      const applied = await migrate(pool, await loadMigrations(migrationsDir));
      if (applied.length > 0) log(`applied migrations: ${applied.join(', ')}`);
    }
    if ((options.seed ?? true) && config.seedDemo) {
      const summary = await seedDemoWorld(pool, { dataDir: marketDataDir, log });
      log(`demo world ready (${summary.users} demo users; ${summary.inserted} rows added now)`);
    }
    if (options.openConnections === true) await openPoolConnections(pool, SERVER_POOL.min);
  } catch (error) {
    await close();
    throw error;
  }
  return { pool, url, embedded, close };
}

/** CREATE DATABASE cannot run in a transaction or take IF NOT EXISTS, hence the check first. */
export async function createDatabaseIfMissing(adminUrl: string, name: string, template?: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) {
      const from = template ? ` TEMPLATE ${pg.escapeIdentifier(template)} STRATEGY FILE_COPY` : '';
      await client.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}${from}`);
    }
  } finally {
    await client.end();
  }
}

async function assertServerVersion(pool: pg.Pool): Promise<void> {
  const { rows } = await pool.query<{ server_version_num: string }>('SHOW server_version_num');
  const version = Number(rows[0]?.server_version_num);
  if (version < MINIMUM_SERVER_VERSION) {
    throw new Error(`Vyuha needs PostgreSQL 15 or newer; the server at DATABASE_URL is ${Math.floor(version / 10000)}.`);
  }
}
