import type pg from 'pg';
import { seedDemoAccounts } from './seed/demo-accounts';
import type { AccountSeedCounts } from './seed/demo-accounts';
import { seedExampleAlgorithms } from './seed/demo-research';
import { DEMO_ROLES, seedDemoUsers } from './seed/demo-users';
import { execute } from './seed/execute';
import { seedMarketData } from './seed/market-data';
import type { MarketSeedCounts } from './seed/market-data';

/**
 * How big the demo world is: the number of rows of each kind the seed guarantees exist, plus
 * how many rows this particular call inserted (0 when the world was already there).
 */
export interface SeedSummary extends MarketSeedCounts, AccountSeedCounts {
  readonly users: number;
  /** Published example algorithms (demo-research.ts). */
  readonly exampleAlgorithms: number;
  readonly inserted: number;
}

export interface SeedOptions {
  /** Absolute path of the repo's `data/market` folder. */
  readonly dataDir: string;
  readonly log?: (message: string) => void;
}

/** Bumped when the demo world gains rows; recorded in app_meta for support questions. */
const DEMO_WORLD_VERSION = 2;
// Any constant: two processes starting at once must not seed concurrently.
const SEED_LOCK_KEY = 727_002;

/**
 * Creates the demo world (users of every role, index instruments and configs, calendars, index
 * history, broker accounts, credits, example algorithms) in one transaction. Idempotent: rows are
 * found by natural or stable keys and never overwritten (only the recorded world version and the
 * credits-only runs' label are brought up to date), so a second call inserts nothing.
 */
export async function seedDemoWorld(pool: pg.Pool, options: SeedOptions): Promise<SeedSummary> {
  const log = options.log ?? (() => undefined);
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [SEED_LOCK_KEY]);
    const market = await seedMarketData(client, options.dataDir);
    log(`demo world: ${market.counts.holidays} holidays, ${market.counts.indexConfigs} index configs`);
    const users = await seedDemoUsers(client);
    const accounts = await seedDemoAccounts(client, users.ids);
    const examples = await seedExampleAlgorithms(client, users.ids);
    // An older install records the version it was first seeded at; it now holds this one's rows too.
    const meta = await execute(client,
      `INSERT INTO app_meta (key, value) VALUES ('demo_world', $1)
       ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value WHERE app_meta.value IS DISTINCT FROM EXCLUDED.value`,
      [JSON.stringify({ version: DEMO_WORLD_VERSION })]);
    await client.query('COMMIT');
    const inserted = market.inserted + users.inserted + accounts.inserted + examples.inserted + meta;
    log(`demo world: ${DEMO_ROLES.length} users, ${examples.count} example algorithms, ${inserted} rows inserted`);
    return { users: DEMO_ROLES.length, ...market.counts, ...accounts.counts, exampleAlgorithms: examples.count, inserted };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
