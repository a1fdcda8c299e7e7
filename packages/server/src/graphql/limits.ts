/**
 * Transport-level limits of the GraphQL endpoints (HTTP, CSV, WebSocket). The engine has its own
 * depth, cost and row limits; these protect the process before a request reaches it.
 */
export interface TransportLimits {
  /** Largest request body accepted on /v1/graphql, /graphql and /api/gql/csv (bytes); more is a 413. */
  readonly bodyLimitBytes: number;
  /** Most operations in one batched (array) HTTP request. */
  readonly maxBatchSize: number;
  /** Most operations (subscriptions, queries in flight) one WebSocket connection may hold at once. */
  readonly maxOperationsPerConnection: number;
  /** Largest WebSocket message accepted (bytes); the socket is closed with 1009 above it. */
  readonly maxMessageBytes: number;
  /** How long a socket may stay open without `connection_init` (graphql-transport-ws closes 4408). */
  readonly connectionInitTimeoutMs: number;
  /** WebSocket handshakes accepted per client address per window; more are answered 429. */
  readonly handshakesPerAddress: { readonly burst: number; readonly intervalMs: number };
  /** Interval of `ka` messages on the older graphql-ws protocol (Hasura sends one every 5 s). */
  readonly keepAliveMs: number;
}

export const DEFAULT_TRANSPORT_LIMITS: TransportLimits = {
  bodyLimitBytes: 1024 * 1024,
  maxBatchSize: 20,
  maxOperationsPerConnection: 200,
  maxMessageBytes: 256 * 1024,
  connectionInitTimeoutMs: 5_000,
  // Generous: behind a proxy without trustProxy every client shares one address.
  handshakesPerAddress: { burst: 600, intervalMs: 10_000 },
  keepAliveMs: 5_000,
};

/**
 * The defaults with `overrides` applied; a value that is not a positive whole number throws,
 * naming the field.
 * @example resolveTransportLimits({ maxBatchSize: 5 }).maxBatchSize -> 5
 */
export function resolveTransportLimits(overrides: Partial<TransportLimits> = {}): TransportLimits {
  const limits = { ...DEFAULT_TRANSPORT_LIMITS, ...overrides };
  for (const [field, value] of Object.entries(limits)) {
    if (typeof value === 'number') requirePositive(field, value);
  }
  requirePositive('handshakesPerAddress.burst', limits.handshakesPerAddress.burst);
  requirePositive('handshakesPerAddress.intervalMs', limits.handshakesPerAddress.intervalMs);
  return limits;
}

function requirePositive(field: string, value: number): void {
  if (!Number.isInteger(value) || value <= 0) throw new Error(`graphql limits: ${field} must be a positive whole number, got ${value}`);
}

/**
 * A fixed-window counter per key (client address): `allow(key, now)` is false once `burst`
 * hits fell in the current window. Old windows are dropped as they pass, so memory stays
 * bounded by the addresses seen in one window.
 */
export class WindowRateLimiter {
  private readonly windows = new Map<string, { start: number; hits: number }>();
  private lastSweep = 0;

  constructor(private readonly rule: { readonly burst: number; readonly intervalMs: number }) {}

  allow(key: string, now: number): boolean {
    this.sweep(now);
    const window = this.windows.get(key);
    if (!window || now - window.start >= this.rule.intervalMs) {
      this.windows.set(key, { start: now, hits: 1 });
      return true;
    }
    window.hits += 1;
    return window.hits <= this.rule.burst;
  }

  private sweep(now: number): void {
    if (now - this.lastSweep < this.rule.intervalMs) return;
    this.lastSweep = now;
    for (const [key, window] of this.windows) {
      if (now - window.start >= this.rule.intervalMs) this.windows.delete(key);
    }
  }
}
