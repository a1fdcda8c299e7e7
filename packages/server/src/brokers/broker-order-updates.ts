// Order updates that reach the platform outside the process trading the account: a broker's
// postbacks arrive at the API process (POST /api/broker_postback/...), while the account's venue
// lives in the worker that leases it. The API process checks the postback and publishes it on a
// PostgreSQL channel; every worker listens and hands it to the venue of that broker account, if it
// runs one. A lost notification loses nothing: the venue also reads the broker's order book
// (its polling fallback), so a postback only makes the news faster.
import pg from 'pg';

export const BROKER_ORDER_UPDATE_CHANNEL = 'vyuha_broker_order_update';
/** NOTIFY payloads must stay under 8,000 bytes; a Kite order update is about 1.5 KB. */
export const BROKER_ORDER_UPDATE_MAX_BYTES = 7_000;

/** An update as published: the broker account it is about and the broker's JSON text, unparsed. */
export interface PublishedOrderUpdate {
  readonly userBrokerId: string;
  readonly update: string;
}

/**
 * Publishes a verified order update for the workers (false when the text is too long to publish:
 * the workers' polling still finds the order's state).
 */
export async function publishBrokerOrderUpdate(db: pg.Pool | pg.ClientBase, update: PublishedOrderUpdate): Promise<boolean> {
  const payload = JSON.stringify(update);
  if (Buffer.byteLength(payload) > BROKER_ORDER_UPDATE_MAX_BYTES) return false;
  await db.query('SELECT pg_notify($1, $2)', [BROKER_ORDER_UPDATE_CHANNEL, payload]);
  return true;
}

/** One LISTEN connection per process; venues register for their broker account's updates. */
export class BrokerOrderUpdates {
  private readonly handlers = new Map<string, Set<(update: string) => void>>();
  private client: pg.Client | undefined;
  private closed = false;

  private constructor(private readonly pool: pg.Pool, private readonly log: (message: string) => void) {}

  /** Opens the listening connection (resolves once LISTEN is in place). */
  static async open(options: { readonly pool: pg.Pool; readonly log?: (message: string) => void }): Promise<BrokerOrderUpdates> {
    const updates = new BrokerOrderUpdates(options.pool, options.log ?? (() => undefined));
    await updates.listen();
    return updates;
  }

  /** Calls `handler` with every update of the account until the returned function is called. */
  register(userBrokerId: string, handler: (update: string) => void): () => void {
    let set = this.handlers.get(userBrokerId);
    if (set === undefined) {
      set = new Set();
      this.handlers.set(userBrokerId, set);
    }
    set.add(handler);
    return () => {
      set.delete(handler);
      if (set.size === 0) this.handlers.delete(userBrokerId);
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async listen(): Promise<void> {
    const client = new pg.Client({ ...this.pool.options, application_name: 'vyuha-broker-updates' } as pg.ClientConfig);
    client.on('notification', (message) => {
      if (message.channel !== BROKER_ORDER_UPDATE_CHANNEL || message.payload === undefined) return;
      let published: PublishedOrderUpdate;
      try {
        published = JSON.parse(message.payload) as PublishedOrderUpdate;
      } catch {
        this.log('broker order update: a notification that is not JSON was ignored');
        return;
      }
      for (const handler of this.handlers.get(published.userBrokerId) ?? []) handler(published.update);
    });
    client.on('error', (error) => {
      this.log(`broker order updates: LISTEN connection lost (the venues' polling continues): ${error.message}`);
      if (this.client === client) this.client = undefined;
      if (!this.closed) setTimeout(() => void this.listen().catch(() => undefined), 1_000).unref();
    });
    await client.connect();
    await client.query(`LISTEN ${BROKER_ORDER_UPDATE_CHANNEL}`);
    if (this.closed) {
      await client.end();
      return;
    }
    this.client = client;
  }
}
