/**
 * The request budget in front of GraphQL (HTTP, CSV and WebSocket operations): a token bucket
 * per client address and one per signed-in user. A bucket holds `requests` tokens and refills
 * `requests` every `perSeconds`, smoothly; each operation takes one (a batch one per item).
 * An empty bucket answers 429 with Retry-After: the seconds until one token is back.
 *
 * Defaults (limits.ts) are generous: a web app user's busiest screen sends a few dozen requests,
 * and an office behind one address is many users. Memory stays bounded: a full bucket is the
 * same as no bucket, so full ones are dropped as they are met, and past `maxKeys` the oldest go.
 */

export interface BudgetRule {
  /** Bucket size: requests allowed at once, and refilled every `perSeconds`. */
  readonly requests: number;
  readonly perSeconds: number;
}

export type BudgetVerdict = { readonly ok: true } | { readonly ok: false; readonly retryAfterSeconds: number };

interface Bucket {
  tokens: number;
  at: number;
}

/** Most keys remembered per budget (oldest dropped first: it only forgets a debt). */
const MAX_KEYS = 100_000;

export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();

  constructor(private readonly rule: BudgetRule) {}

  /**
   * Takes `count` tokens for `key` at `now` (epoch ms) when that many are there.
   * @example new TokenBuckets({ requests: 1, perSeconds: 10 }).take('a', { count: 2, now: 0 }) -> { ok: false, retryAfterSeconds: 10 }
   */
  take(key: string, input: { count: number; now: number }): BudgetVerdict {
    const { requests, perSeconds } = this.rule;
    const perMs = requests / (perSeconds * 1000);
    const bucket = this.buckets.get(key);
    const tokens = bucket ? Math.min(requests, bucket.tokens + (input.now - bucket.at) * perMs) : requests;
    if (tokens < input.count) {
      const missing = Math.min(input.count, requests) - tokens;
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(missing / perMs / 1000)) };
    }
    this.buckets.delete(key);
    const left = tokens - input.count;
    // A full bucket needs no memory: it is what an unknown key gets.
    if (left < requests) this.buckets.set(key, { tokens: left, at: input.now });
    if (this.buckets.size > MAX_KEYS) {
      const oldest = this.buckets.keys().next();
      if (!oldest.done) this.buckets.delete(oldest.value);
    }
    return { ok: true };
  }

  get size(): number {
    return this.buckets.size;
  }
}

/** The two budgets of the GraphQL transport. */
export class RequestBudget {
  private readonly addresses: TokenBuckets;
  private readonly users: TokenBuckets;

  constructor(rules: { readonly perAddress: BudgetRule; readonly perUser: BudgetRule }) {
    this.addresses = new TokenBuckets(rules.perAddress);
    this.users = new TokenBuckets(rules.perUser);
  }

  /** Takes `count` from the client address's bucket. */
  address(address: string, count = 1, now = Date.now()): BudgetVerdict {
    return this.addresses.take(address, { count, now });
  }

  /** Takes `count` from the user's bucket; undefined user (anonymous, admin secret): always ok. */
  user(userId: string | undefined, count = 1, now = Date.now()): BudgetVerdict {
    return userId === undefined ? { ok: true } : this.users.take(userId, { count, now });
  }
}

/** The message of a refused request (Hasura's error shape carries it, code `too-many-requests`). */
export function budgetMessage(input: { who: 'address' | 'user'; retryAfterSeconds: number }): string {
  const whose = input.who === 'address' ? 'from this address' : 'for this user';
  return `too many GraphQL requests ${whose}: try again in ${input.retryAfterSeconds} s`;
}
