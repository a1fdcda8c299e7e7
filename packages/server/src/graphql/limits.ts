/**
 * Transport-level limits of the GraphQL endpoints (HTTP, CSV, WebSocket). The engine has its own
 * depth, cost, row and response limits (execute/limits.ts); these protect the process before a
 * request reaches it: body and message sizes, JSON values, the request budget per address and
 * user (request-budget.ts), operations in flight (admission.ts), bytes queued for slow readers.
 */
import type { BudgetRule } from './request-budget';

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
  /** Most values in one body or message, counted before JSON.parse (json-scan.ts); a little above the engine's variable limit. */
  readonly maxJsonValues: number;
  /** Deepest nesting of one body or message. */
  readonly maxJsonDepth: number;
  /** Requests per client address (`VYUHA_GRAPHQL_ADDRESS_BUDGET`). */
  readonly addressBudget: BudgetRule;
  /** Requests per signed-in user (`VYUHA_GRAPHQL_USER_BUDGET`). */
  readonly userBudget: BudgetRule;
  /** GraphQL operations worked on at once in this process (`VYUHA_GRAPHQL_MAX_IN_FLIGHT`). */
  readonly maxInFlight: number;
  /** Of those, at most this many for one client address. */
  readonly maxInFlightPerAddress: number;
  /** Operations waiting for a slot; more are refused (503). */
  readonly maxQueued: number;
  /** Longest wait for a slot (ms); then 503. */
  readonly queueTimeoutMs: number;
  /** Largest CSV export (bytes); the stream is cut (and the cut logged) past it. */
  readonly maxCsvBytes: number;
  /** Bytes one WebSocket may have queued unread; a slower reader is closed (1013). */
  readonly maxSocketPendingBytes: number;
  /** Bytes all WebSockets together may have queued; past it, sockets with unread data are closed (1013). */
  readonly maxPendingBytes: number;
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
  maxJsonValues: 10_500,
  maxJsonDepth: 40,
  addressBudget: { requests: 6_000, perSeconds: 60 },
  userBudget: { requests: 1_200, perSeconds: 60 },
  maxInFlight: 32,
  maxInFlightPerAddress: 16,
  maxQueued: 256,
  queueTimeoutMs: 10_000,
  maxCsvBytes: 256 * 1024 * 1024,
  maxSocketPendingBytes: 8 * 1024 * 1024,
  maxPendingBytes: 128 * 1024 * 1024,
};

/**
 * The defaults with `overrides` applied; a value that is not a positive whole number throws,
 * naming the field.
 * @example resolveTransportLimits({ maxBatchSize: 5 }).maxBatchSize -> 5
 */
export function resolveTransportLimits(overrides: Partial<TransportLimits> = {}): TransportLimits {
  const limits = { ...DEFAULT_TRANSPORT_LIMITS, ...overrides };
  for (const [field, value] of Object.entries(limits)) {
    // No queue at all is a choice: every operation past the limit is refused at once.
    if (typeof value === 'number' && !(field === 'maxQueued' && value === 0)) requirePositive(field, value);
  }
  requirePositive('handshakesPerAddress.burst', limits.handshakesPerAddress.burst);
  requirePositive('handshakesPerAddress.intervalMs', limits.handshakesPerAddress.intervalMs);
  for (const name of ['addressBudget', 'userBudget'] as const) {
    requirePositive(`${name}.requests`, limits[name].requests);
    requirePositive(`${name}.perSeconds`, limits[name].perSeconds);
  }
  if (limits.maxInFlightPerAddress > limits.maxInFlight) throw new Error('graphql limits: maxInFlightPerAddress must not be above maxInFlight');
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
