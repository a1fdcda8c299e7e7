import pg from 'pg';

/** The channel migration 0009's triggers notify; the payload is `schema.table`. */
export const TABLE_CHANGE_CHANNEL = 'vyuha_table_change';

export interface ListenerLog {
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

export interface TableChangeFeedOptions {
  /** A new, unconnected client on the database (one connection per process, held for LISTEN). */
  createClient(): pg.Client;
  onChange(table: string): void;
  /** Called on every (re)connection: changes made while disconnected were missed. */
  onConnected(): void;
  readonly log: ListenerLog;
  /** A `SELECT 1` this often finds a connection that died silently (default 30 s). */
  readonly heartbeatMs?: number;
}

export interface TableChangeFeed {
  /** Resolves once LISTEN is in place (the first time). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

const FIRST_RETRY_MS = 100;
const LONGEST_RETRY_MS = 5_000;

/**
 * One LISTEN connection that reconnects with backoff (100 ms doubling to 5 s) whenever it is
 * lost, and calls `onConnected` after each connection so the caller can refetch everything.
 */
export function openTableChangeFeed(options: TableChangeFeedOptions): TableChangeFeed {
  let closed = false;
  let current: pg.Client | undefined;
  let retryMs = FIRST_RETRY_MS;
  let retryTimer: NodeJS.Timeout | undefined;
  let markReady: () => void = () => undefined;
  const readyPromise = new Promise<void>((resolve) => {
    markReady = resolve;
  });

  const heartbeat = setInterval(() => {
    const client = current;
    if (client) client.query('SELECT 1').catch((error: unknown) => drop(client, error));
  }, options.heartbeatMs ?? 30_000);
  heartbeat.unref();

  const dropped = new WeakSet<pg.Client>();
  function drop(client: pg.Client, error: unknown): void {
    if (dropped.has(client)) return;
    dropped.add(client);
    if (current === client) current = undefined;
    client.end().catch(() => undefined);
    if (closed) return;
    options.log.warn({ err: error, retryMs }, 'live queries: LISTEN connection lost; reconnecting');
    retryTimer = setTimeout(() => void connect(), retryMs);
    retryTimer.unref();
    retryMs = Math.min(retryMs * 2, LONGEST_RETRY_MS);
  }

  async function connect(): Promise<void> {
    if (closed) return;
    const client = options.createClient();
    client.on('notification', (message) => {
      if (message.channel === TABLE_CHANGE_CHANNEL && message.payload) options.onChange(message.payload);
    });
    client.on('error', (error) => drop(client, error));
    client.on('end', () => drop(client, new Error('connection ended')));
    try {
      await client.connect();
      await client.query(`LISTEN ${TABLE_CHANGE_CHANNEL}`);
    } catch (error) {
      drop(client, error);
      return;
    }
    if (closed) {
      dropped.add(client);
      await client.end().catch(() => undefined);
      return;
    }
    current = client;
    retryMs = FIRST_RETRY_MS;
    options.onConnected();
    markReady();
  }

  void connect();
  return {
    ready: () => readyPromise,
    async close() {
      closed = true;
      clearInterval(heartbeat);
      if (retryTimer) clearTimeout(retryTimer);
      const client = current;
      current = undefined;
      if (client) {
        dropped.add(client);
        await client.end().catch(() => undefined);
      }
    },
  };
}

/** A client factory on the same database as the pool (its connection settings). */
export function clientFactoryFor(pool: pg.Pool): () => pg.Client {
  return () => new pg.Client({ ...pool.options, keepAlive: true, application_name: 'vyuha-live-queries' } as pg.ClientConfig);
}
