/**
 * Running compiled statements on the pool. Every connection the engine uses gets
 * `SET TimeZone = 'UTC'` once (tracked per client object), so timestamps render as Hasura does
 * (`2024-05-02T03:45:00+00:00`) whatever the server's default; repeated SQL texts run as named
 * prepared statements (parse and plan once per connection). Single read statements are
 * pipelined on a few pooled connections (read-lanes.ts).
 */
import { createHash } from 'node:crypto';
import type pg from 'pg';
import { ReadLanes } from './read-lanes';

/** Distinct SQL texts given a prepared-statement name; further texts run unnamed. */
const MAX_PREPARED = 5000;
/**
 * Characters of SQL text the names are kept for (the map holds the texts): a statement longer
 * than MAX_NAMED_SQL, or any once the total is reached, runs unnamed. Bounds the heap whatever
 * the mix of queries (a 1,000-field query compiles to hundreds of kilobytes of SQL).
 */
const MAX_NAMED_SQL = 64 * 1024;
const MAX_NAMED_SQL_TOTAL = 8 * 1024 * 1024;
/**
 * Pipelined reads (read-lanes.ts): at most a quarter of the pool (1 to 3 connections), so most of
 * the pool stays free for transactions; two lanes already carry several times the reads of the
 * whole pool used one statement at a time (2-core machine: ~20,000 vs ~7,000 by-key reads/s).
 */
function readLanesFor(pool: pg.Pool): { maxLanes: number; maxInFlight: number; recycleAfter: number } {
  const poolSize = (pool.options as { max?: number }).max ?? 10;
  return { maxLanes: Math.max(1, Math.min(3, Math.floor(poolSize / 4))), maxInFlight: 8, recycleAfter: 1000 };
}

export class StatementRunner {
  private readonly utcClients = new WeakSet<pg.PoolClient>();
  private readonly names = new Map<string, string>();
  private namedLength = 0;
  private readonly lanes: ReadLanes;

  constructor(private readonly pool: pg.Pool) {
    this.lanes = new ReadLanes({ connect: () => this.connect(), ...readLanesFor(pool) });
  }

  /** A pooled client whose session runs in UTC; release it when done. */
  async connect(): Promise<pg.PoolClient> {
    const client = await this.pool.connect();
    if (!this.utcClients.has(client)) {
      try {
        await client.query("SET TimeZone = 'UTC'");
      } catch (error) {
        client.release(error as Error);
        throw error;
      }
      this.utcClients.add(client);
    }
    return client;
  }

  private statementName(sql: string): string | undefined {
    let name = this.names.get(sql);
    if (name === undefined && this.names.size < MAX_PREPARED && sql.length <= MAX_NAMED_SQL && this.namedLength + sql.length <= MAX_NAMED_SQL_TOTAL) {
      this.namedLength += sql.length;
      // Named by content: engines sharing a pool (and its connections) never clash over a name.
      name = `vyuha_gql_${createHash('sha256').update(sql).digest('base64url').slice(0, 32)}`;
      this.names.set(sql, name);
    }
    return name;
  }

  /** Runs one statement on `client`; rows as arrays. */
  async query(client: pg.PoolClient, statement: { readonly sql: string; readonly params: readonly unknown[] }): Promise<unknown[][]> {
    const name = this.statementName(statement.sql);
    const config: pg.QueryArrayConfig = { text: statement.sql, values: statement.params as unknown[], rowMode: 'array', ...(name ? { name } : {}) };
    const result = await client.query(config);
    return result.rows;
  }

  /** Runs one read statement (its own implicit transaction) on a pipelined pooled connection. */
  async run(statement: { readonly sql: string; readonly params: readonly unknown[] }): Promise<unknown[][]> {
    const name = this.statementName(statement.sql);
    return this.lanes.query({ text: statement.sql, values: statement.params as unknown[], rowMode: 'array', ...(name ? { name } : {}) });
  }
}
