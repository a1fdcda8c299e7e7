// The audit trail of a broker account's requests (broker_requests, migration 0023): every request
// an adapter sent and the broker's answer, secrets already redacted by the adapter, each tied to
// its order: by the tag it was placed with (the orders row has it before anything is sent), or by
// the broker order id the path or the answer names. Writing never delays a send: records queue
// in memory and go in one INSERT per flush (every `flushMs`, and at close), and a failed write is
// logged and retried with the next flush instead of failing the order it describes.
import type pg from 'pg';

/** One request to a broker and its answer, as an adapter reports it; secrets already `[redacted]`. */
export interface BrokerRequestRecord {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** The path without the query (e.g. `/orders/regular/1953367517686685697`). */
  readonly path: string;
  readonly form?: Readonly<Record<string, string>>;
  readonly query?: Readonly<Record<string, string>>;
  /** The order tag when the form has one: how the trail finds its order before the broker names it. */
  readonly tag?: string;
  /** The broker order id named by the path or by the answer. */
  readonly brokerOrderId?: string;
  /** The HTTP status; absent when no answer came. */
  readonly status?: number;
  /** 'ok', or the adapter's kind of failure (broker_requests.outcome). */
  readonly outcome: string;
  /** The parsed body (long lists summarised), or `{ text }` for a body that is not JSON. */
  readonly response?: unknown;
  readonly startedAtMs: number;
  readonly durationMs: number;
}

/** Longest response kept per request (an order book is summarised by the adapter; this is the bound). */
const RESPONSE_MAX_CHARS = 64_000;
/** More than this waiting means the database is not keeping up: the oldest go first, with a log line. */
const QUEUE_LIMIT = 20_000;

export class BrokerRequestTrail {
  private queue: BrokerRequestRecord[] = [];
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(private readonly options: {
    readonly pool: pg.Pool;
    readonly userId: string;
    readonly userBrokerId: string;
    readonly broker: string;
    readonly flushMs?: number;
    readonly log?: (message: string) => void;
  }) {}

  /** Queues a record (the adapter's `onExchange`). */
  readonly record = (record: BrokerRequestRecord): void => {
    if (this.closed) return;
    this.queue.push(record);
    if (this.queue.length > QUEUE_LIMIT) {
      const dropped = this.queue.splice(0, this.queue.length - QUEUE_LIMIT);
      this.options.log?.(`broker request trail: ${dropped.length} records dropped, the database is not keeping up`);
    }
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, this.options.flushMs ?? 200);
  };

  /** Writes what is queued; resolves when it is stored (or the failure logged). */
  flush(): Promise<void> {
    this.writing = this.writing.then(() => this.write());
    return this.writing;
  }

  /** Stores what is queued and stops taking records. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  private async write(): Promise<void> {
    const batch = this.queue;
    if (batch.length === 0) return;
    this.queue = [];
    const { pool, userId, userBrokerId, broker } = this.options;
    const column = <T>(pick: (record: BrokerRequestRecord) => T): T[] => batch.map(pick);
    try {
      await pool.query(
        `INSERT INTO broker_requests (user_id, user_broker_id, order_id, broker, method, path, request, http_status, outcome, response, started_at, duration_ms)
         SELECT $1::uuid, $2::uuid,
                (SELECT o.order_id FROM orders o
                  WHERE o.user_id = $1::uuid AND ((r.tag IS NOT NULL AND o.tag = r.tag) OR (r.broker_order_id IS NOT NULL AND o.broker_order_id = r.broker_order_id))
                  ORDER BY o.created_at DESC LIMIT 1),
                $3, r.method, r.path, r.request, r.http_status, r.outcome, r.response, to_timestamp(r.started_ms / 1000.0), r.duration_ms
         FROM unnest($4::text[], $5::text[], $6::jsonb[], $7::int[], $8::text[], $9::jsonb[], $10::float8[], $11::int[], $12::text[], $13::text[])
           AS r(method, path, request, http_status, outcome, response, started_ms, duration_ms, tag, broker_order_id)`,
        [userId, userBrokerId, broker,
          column((r) => r.method), column((r) => r.path),
          column((r) => JSON.stringify({ ...(r.form ?? {}), ...(r.query === undefined ? {} : { query: r.query }) })),
          column((r) => r.status ?? null), column((r) => r.outcome),
          column((r) => (r.response === undefined ? null : boundedJson(r.response))),
          column((r) => r.startedAtMs), column((r) => Math.max(0, Math.round(r.durationMs))),
          column((r) => r.tag ?? null), column((r) => r.brokerOrderId ?? null)]);
    } catch (error) {
      this.options.log?.(`broker request trail: ${batch.length} records not written yet (${(error as Error).message}); retrying with the next flush`);
      this.queue = [...batch, ...this.queue];
      if (!this.closed) this.timer ??= setTimeout(() => {
        this.timer = undefined;
        void this.flush();
      }, 1_000);
    }
  }
}

function boundedJson(value: unknown): string {
  const text = JSON.stringify(value);
  return text.length <= RESPONSE_MAX_CHARS ? text : JSON.stringify({ truncated: true, text: text.slice(0, RESPONSE_MAX_CHARS) });
}
