/**
 * Whether the personal access token behind a GraphQL session is still live. An access token of a
 * session signed in with a PAT carries `x-hasura-auth-pat-id`; the engine verifies JWTs without
 * the database, so without this check a revoked PAT's access tokens kept working until they
 * expired (up to AUTH_ACCESS_TOKEN_EXPIRES_IN). Now every HTTP, CSV and WebSocket session with
 * that claim asks here, and a PAT that is revoked, expired or gone refuses it with `invalid-jwt`.
 *
 * - One query per PAT id: a primary-key lookup on `auth.refresh_tokens`.
 * - Answers are kept LIVENESS_CACHE_MS (3 s) per PAT id, at most `capacity` ids (the least
 *   recently asked go first); concurrent questions about one id share one query.
 * - `forget()` drops every answer: the plugin calls it on every change of a PAT row (migration
 *   0017 notifies `auth.refresh_tokens` then), so a revocation is seen at once in every process;
 *   the 3 s are the bound when that notification is late or the LISTEN connection is down.
 * - `fresh: true` asks the database whatever is kept (a WebSocket rechecking after a change);
 *   fresh questions asked in the same turn of the event loop share one query, all of them
 *   started after the change was announced.
 */
import type pg from 'pg';
import { GraphqlFailure } from './types';

/** How long an answer is kept: 3 s. */
export const LIVENESS_CACHE_MS = 3_000;

/** The table whose PAT rows decide; its changes are announced under this name. */
export const PAT_TABLE = 'auth.refresh_tokens';

/** The refusal of a session whose PAT is no longer live. */
export const PAT_GONE_MESSAGE = 'Could not verify JWT: the personal access token of this session was revoked or has expired';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface PatSessionsOptions {
  readonly pool: Pick<pg.Pool, 'query'>;
  /** Answers kept, by PAT id (default 10,000). */
  readonly capacity?: number;
  /** Epoch milliseconds; the wall clock by default. */
  readonly now?: () => number;
}

interface Kept {
  readonly live: boolean;
  readonly until: number;
}

export class PatSessions {
  private readonly kept = new Map<string, Kept>();
  private readonly asking = new Map<string, Promise<boolean>>();
  private readonly askingFresh = new Map<string, Promise<boolean>>();
  /** Moves on every `forget()`: an answer asked before it is not kept after it. */
  private generation = 0;
  private readonly capacity: number;
  private readonly now: () => number;

  constructor(private readonly options: PatSessionsOptions) {
    this.capacity = options.capacity ?? 10_000;
    this.now = options.now ?? Date.now;
  }

  /** Resolves when the PAT is live; else throws `invalid-jwt` (PAT_GONE_MESSAGE). */
  async requireLive(patId: string, options: { fresh?: boolean } = {}): Promise<void> {
    if (!UUID.test(patId)) throw new GraphqlFailure('invalid-jwt', 'Could not verify JWT: JWTInvalidClaims: x-hasura-auth-pat-id must be a uuid');
    if (!(await this.isLive(patId, options.fresh === true))) throw new GraphqlFailure('invalid-jwt', PAT_GONE_MESSAGE);
  }

  /** Drops every kept answer (a PAT row changed somewhere). */
  forget(): void {
    this.generation += 1;
    this.kept.clear();
    this.asking.clear();
  }

  /** Answers kept now (tests and statistics). */
  get size(): number {
    return this.kept.size;
  }

  private isLive(patId: string, fresh: boolean): Promise<boolean> {
    if (fresh) return this.askFresh(patId);
    const kept = this.kept.get(patId);
    if (kept && kept.until > this.now()) {
      // Least recently asked first out: move it to the end.
      this.kept.delete(patId);
      this.kept.set(patId, kept);
      return Promise.resolve(kept.live);
    }
    const pending = this.asking.get(patId);
    if (pending) return pending;
    const asked = this.ask(patId).finally(() => {
      if (this.asking.get(patId) === asked) this.asking.delete(patId);
    });
    this.asking.set(patId, asked);
    return asked;
  }

  private askFresh(patId: string): Promise<boolean> {
    const pending = this.askingFresh.get(patId);
    if (pending) return pending;
    const asked = this.ask(patId);
    this.askingFresh.set(patId, asked);
    // Only questions of this turn share it: a later one must see changes made after it started.
    queueMicrotask(() => {
      if (this.askingFresh.get(patId) === asked) this.askingFresh.delete(patId);
    });
    return asked;
  }

  private async ask(patId: string): Promise<boolean> {
    const generation = this.generation;
    const found = await this.options.pool.query(
      "SELECT 1 FROM auth.refresh_tokens WHERE id = $1::uuid AND type = 'pat' AND revoked_at IS NULL AND expires_at > now()",
      [patId],
    );
    const live = found.rowCount === 1;
    if (generation === this.generation) this.keep(patId, live);
    return live;
  }

  private keep(patId: string, live: boolean): void {
    this.kept.delete(patId);
    this.kept.set(patId, { live, until: this.now() + LIVENESS_CACHE_MS });
    if (this.kept.size > this.capacity) {
      const oldest = this.kept.keys().next();
      if (!oldest.done) this.kept.delete(oldest.value);
    }
  }
}
