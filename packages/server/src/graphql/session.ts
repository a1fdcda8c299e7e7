import { createHash, timingSafeEqual } from 'node:crypto';
import type pg from 'pg';
import { postgresArrayLiteral } from '../auth/claims';
import { JwtError, type AccessTokenClaims, type JwtFailure } from '../auth/jwt';
import { PatSessions } from './pat-sessions';
import { GraphqlFailure, type GraphqlSession } from './types';

/** Hasura's default claims namespace (auth/config.ts uses the same default). */
export const DEFAULT_CLAIMS_NAMESPACE = 'https://hasura.io/jwt/claims';

/** Tiers whose users may act for a user they manage (with a `managers` row linking them). */
export const MANAGING_ROLES: readonly string[] = ['manager', 'administrator', 'superadmin'];

/**
 * A session plus, for a JWT session, when its token expires (WebSocket connections end then) and,
 * for a session signed in with a personal access token, that PAT's id (claim
 * `x-hasura-auth-pat-id`): such a session lives only while the PAT does (pat-sessions.ts).
 */
export interface ResolvedSession extends GraphqlSession {
  readonly expiresAtSeconds?: number;
  readonly patId?: string;
}

export type HeaderBag = Readonly<Record<string, string | readonly string[] | undefined>>;

export interface SessionInput {
  /** Request headers (HTTP) or the WebSocket connection payload's headers; any case. */
  readonly headers: HeaderBag;
  verifyToken(token: string): Promise<AccessTokenClaims>;
  /** ADMIN_SECRET; undefined = no admin access at all. */
  readonly adminSecret?: string | undefined;
  /** For the `managers` link check. */
  readonly pool: Pick<pg.Pool, 'query'>;
  readonly claimsNamespace?: string;
  /** Verified tokens, so the hot path does not redo RSA verification. */
  readonly cache?: TokenCache;
  /** Whether a PAT session's PAT is live, kept a few seconds; absent: the database is asked every time. */
  readonly patSessions?: PatSessions;
  /** Epoch milliseconds; defaults to the wall clock. */
  readonly now?: number;
  /** Every header name is already lower-case (Node's HTTP parser guarantees it): skip the copy. */
  readonly lowerCased?: boolean;
}

/**
 * The session of a request, as Hasura builds it: admin secret, else Bearer JWT, else anonymous.
 * Throws a GraphqlFailure (`access-denied`, `invalid-jwt`, `invalid-headers`) when the
 * credentials are refused; `invalid-jwt` too for a token of a PAT session whose PAT was revoked
 * or has expired (checked on every call, the verified token cached or not).
 */
export async function resolveSession(input: SessionInput): Promise<ResolvedSession> {
  // Node lower-cases HTTP header names itself: no copy of the whole bag on the hot path then.
  const headers: HeaderBag = input.lowerCased === true ? input.headers : lowerCaseHeaders(input.headers);
  const secret = firstValue(headers['x-hasura-admin-secret']) ?? firstValue(headers['x-hasura-access-key']);
  if (secret !== undefined) return adminSession(lowerCaseHeaders(headers), { given: secret, expected: input.adminSecret });
  const authorization = firstValue(headers.authorization);
  if (authorization === undefined || authorization === '') return { role: 'anonymous', variables: { 'x-hasura-role': 'anonymous' }, admin: false };
  const match = BEARER.exec(authorization);
  if (!match?.[1]) throw new GraphqlFailure('invalid-headers', 'Malformed Authorization header');
  const token = match[1];
  const managed = firstValue(headers['x-hasura-managed-user-id']);
  const requestedRole = firstValue(headers['x-hasura-role']);
  // The hot path: the same token and role header give the same session until the token expires.
  const sessionKey = requestedRole ?? '';
  const nowSeconds = Math.floor((input.now ?? Date.now()) / 1000);
  const known = managed === undefined ? input.cache?.session(token, { sessionKey, nowSeconds }) : undefined;
  if (known) return requireLivePat(known, input);
  const claims = await verifiedClaims(token, input);
  const session = jwtSession(claims, { requestedRole, namespace: input.claimsNamespace ?? DEFAULT_CLAIMS_NAMESPACE });
  await requireLivePat(session, input);
  if (managed !== undefined) return actForManagedUser(session, { managedUserId: managed, pool: input.pool });
  input.cache?.rememberSession(token, { sessionKey, session });
  return session;
}

/** The session itself when it has no PAT or its PAT is live; else `invalid-jwt`. */
async function requireLivePat(session: ResolvedSession, input: Pick<SessionInput, 'patSessions' | 'pool'>): Promise<ResolvedSession> {
  if (session.patId === undefined) return session;
  await (input.patSessions ?? new PatSessions({ pool: input.pool, capacity: 0 })).requireLive(session.patId);
  return session;
}

const BEARER = /^bearer\s+(\S+)\s*$/i;

function firstValue(value: string | readonly string[] | undefined): string | undefined {
  return typeof value === 'string' ? value : value?.[0];
}

/**
 * Resolves the session of a request's headers; holds the token cache shared by HTTP and
 * WebSocket. `lowerCased`: the header names are known to be lower-case (Node's HTTP parser).
 */
export type SessionResolver = (headers: HeaderBag, lowerCased?: boolean) => Promise<ResolvedSession>;

/** A resolver with its own token cache (see resolveSession), and a PAT liveness cache unless given one. */
export function createSessionResolver(options: Omit<SessionInput, 'headers' | 'cache' | 'now' | 'lowerCased'> & { readonly cacheSize?: number }): SessionResolver {
  const cache = new TokenCache(options.cacheSize);
  const { verifyToken, adminSecret, pool, claimsNamespace } = options;
  const patSessions = options.patSessions ?? new PatSessions({ pool });
  // Explicit properties, not a spread of `options`: this runs on every request.
  return (headers, lowerCased = false) => resolveSession({
    verifyToken, adminSecret, pool, headers, cache, patSessions, lowerCased, ...(claimsNamespace === undefined ? {} : { claimsNamespace }),
  });
}

/** Header names lower-cased, multi-valued headers reduced to their first value. */
export function lowerCaseHeaders(headers: HeaderBag): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const text = typeof value === 'string' ? value : value?.[0];
    if (text !== undefined) result[name.toLowerCase()] = text;
  }
  return result;
}

function adminSession(headers: Record<string, string>, secrets: { given: string; expected: string | undefined }): ResolvedSession {
  if (secrets.expected === undefined || !sameSecret(secrets.given, secrets.expected)) {
    throw new GraphqlFailure('access-denied', 'invalid x-hasura-admin-secret/x-hasura-access-key');
  }
  // Like Hasura: with the admin secret, session variables are taken from the headers as given.
  const variables: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (name.startsWith('x-hasura-') && name !== 'x-hasura-admin-secret' && name !== 'x-hasura-access-key') variables[name] = value;
  }
  const role = variables['x-hasura-role'] ?? 'admin';
  variables['x-hasura-role'] = role;
  return { role, variables, admin: role === 'admin' };
}

/** Constant time, whatever the lengths: both sides are hashed to 32 bytes first. */
function sameSecret(given: string, expected: string): boolean {
  const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(expected));
}

async function verifiedClaims(token: string, input: SessionInput): Promise<AccessTokenClaims> {
  const cached = input.cache?.get(token, Math.floor((input.now ?? Date.now()) / 1000));
  if (cached) return cached;
  let claims: AccessTokenClaims;
  try {
    claims = await input.verifyToken(token);
  } catch (error) {
    if (error instanceof JwtError) throw new GraphqlFailure('invalid-jwt', `Could not verify JWT: ${hasuraJwtReason(error.reason)}`);
    throw error;
  }
  input.cache?.set(token, claims);
  return claims;
}

/** Hasura's wording (it prints the jose library's error constructors). */
function hasuraJwtReason(reason: JwtFailure): string {
  switch (reason) {
    case 'expired': return 'JWTExpired';
    case 'not-yet-valid': return 'JWTNotYetValid';
    case 'wrong-issuer': return 'JWTNotInIssuer';
    case 'bad-signature': return 'JWSError JWSInvalidSignature';
    case 'unknown-key': return 'JWSError JWSNoValidKeys';
    case 'algorithm-not-allowed': return 'JWSError (JWSInvalidHeader "alg")';
    case 'malformed': return 'JWSError (CompactDecodeError Invalid number of parts or encoding)';
    case 'missing-claims': return 'JWTClaimsSetDecodeError "exp, iat and sub are required"';
  }
}

function jwtSession(claims: AccessTokenClaims, context: { requestedRole: string | undefined; namespace: string }): ResolvedSession {
  const hasura = claims[context.namespace];
  if (typeof hasura !== 'object' || hasura === null || Array.isArray(hasura)) {
    throw new GraphqlFailure('invalid-jwt', `Could not verify JWT: claims key: '${context.namespace}' not found`);
  }
  const variables: Record<string, string> = {};
  for (const [name, value] of Object.entries(hasura as Record<string, unknown>)) {
    const key = name.toLowerCase();
    if (key.startsWith('x-hasura-')) variables[key] = claimText(value);
  }
  const allowed = (hasura as Record<string, unknown>)['x-hasura-allowed-roles'];
  const defaultRole = variables['x-hasura-default-role'];
  if (!Array.isArray(allowed) || !allowed.every((role) => typeof role === 'string')) {
    throw new GraphqlFailure('invalid-jwt', 'Could not verify JWT: JWTInvalidClaims: x-hasura-allowed-roles must be a list of roles');
  }
  if (defaultRole === undefined) throw new GraphqlFailure('invalid-jwt', 'Could not verify JWT: JWTInvalidClaims: x-hasura-default-role is missing');
  // docs/PRODUCT.md section 8: an error naming the user-id claim makes the client sign out.
  const userId = variables['x-hasura-user-id'];
  if (userId === undefined || userId === '') throw new GraphqlFailure('invalid-jwt', 'Could not verify JWT: JWTInvalidClaims: the x-hasura-user-id claim is missing');
  const requested = context.requestedRole;
  if (requested !== undefined && !allowed.includes(requested)) throw new GraphqlFailure('access-denied', 'Your requested role is not in allowed roles');
  const role = requested ?? defaultRole;
  variables['x-hasura-role'] = role;
  variables['x-hasura-actor-id'] = userId;
  const patId = variables['x-hasura-auth-pat-id'];
  return { role, variables, admin: false, expiresAtSeconds: claims.exp, ...(patId === undefined ? {} : { patId }) };
}

function claimText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return postgresArrayLiteral(value.map((item) => (typeof item === 'string' ? item : JSON.stringify(item))));
  return JSON.stringify(value);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * `x-hasura-managed-user-id`: the signed-in user (a manager, administrator or superadmin by
 * tier) acts for a user the `managers` table links them to. Never silently ignored: any other
 * case is `access-denied`.
 */
async function actForManagedUser(session: ResolvedSession, context: { managedUserId: string; pool: Pick<pg.Pool, 'query'> }): Promise<ResolvedSession> {
  const actorId = session.variables['x-hasura-actor-id'] ?? '';
  const tier = session.variables['x-hasura-default-role'] ?? '';
  if (!MANAGING_ROLES.includes(tier)) throw new GraphqlFailure('access-denied', `x-hasura-managed-user-id is only honoured for the roles ${MANAGING_ROLES.join(', ')}`);
  if (!UUID.test(context.managedUserId)) throw new GraphqlFailure('invalid-headers', 'x-hasura-managed-user-id must be a uuid');
  const link = await context.pool.query('SELECT 1 FROM public.managers WHERE manager_id = $1::uuid AND user_id = $2::uuid', [actorId, context.managedUserId]);
  if (!link.rowCount) throw new GraphqlFailure('access-denied', 'x-hasura-managed-user-id names a user you do not manage');
  return { ...session, variables: { ...session.variables, 'x-hasura-user-id': context.managedUserId.toLowerCase() } };
}

/**
 * What a WebSocket connection checks again before each operation and push, and when a watched
 * table changes (ws/operations.ts): a PAT session's PAT must still be live (`fresh`: after a
 * change of PAT rows, not answered from the few seconds' cache), and a session acting for a
 * managed user still needs its `managers` link. HTTP requests resolve both on every request.
 */
export function sessionRecheck(input: { pool: Pick<pg.Pool, 'query'>; patSessions: PatSessions }): SessionRecheck {
  const managedLink = managedLinkRecheck(input.pool);
  return async (session, options = {}) => {
    if (session.patId !== undefined) await input.patSessions.requireLive(session.patId, { fresh: options.fresh === true });
    await managedLink(session);
  };
}

/** A recheck of a live session; throws a GraphqlFailure to refuse it. */
export type SessionRecheck = (session: ResolvedSession, options?: { readonly fresh?: boolean }) => Promise<void>;

/**
 * The check a WebSocket connection runs before each new operation: a session acting for a
 * managed user (actor and user differ) still needs the `managers` link, which may have been
 * removed since `connection_init`. HTTP requests resolve the link on every request already.
 */
export function managedLinkRecheck(pool: Pick<pg.Pool, 'query'>): (session: ResolvedSession) => Promise<void> {
  return async (session) => {
    const actorId = session.variables['x-hasura-actor-id'];
    const userId = session.variables['x-hasura-user-id'];
    if (session.admin || actorId === undefined || userId === undefined || actorId === userId) return;
    const link = await pool.query('SELECT 1 FROM public.managers WHERE manager_id = $1::uuid AND user_id = $2::uuid', [actorId, userId]);
    if (!link.rowCount) throw new GraphqlFailure('access-denied', 'x-hasura-managed-user-id names a user you no longer manage');
  };
}

/**
 * Verified token claims by token text, least recently used out first, each kept until its
 * `exp`. A signature stays valid until the token expires, so caching the verification changes
 * nothing about what is accepted; what can end earlier (a PAT session's PAT) is checked on every
 * request after the cache (resolveSession).
 */
export class TokenCache {
  private readonly entries = new Map<string, { readonly claims: AccessTokenClaims; readonly sessions: Map<string, ResolvedSession> }>();

  constructor(private readonly capacity = 10_000) {}

  get(token: string, nowSeconds: number): AccessTokenClaims | undefined {
    return this.entry(token, nowSeconds)?.claims;
  }

  set(token: string, claims: AccessTokenClaims): void {
    this.entries.delete(token);
    this.entries.set(token, { claims, sessions: new Map() });
    if (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
  }

  /** The session built from a cached token for one `x-hasura-role` header value. */
  session(token: string, key: { sessionKey: string; nowSeconds: number }): ResolvedSession | undefined {
    return this.entry(token, key.nowSeconds)?.sessions.get(key.sessionKey);
  }

  rememberSession(token: string, value: { sessionKey: string; session: ResolvedSession }): void {
    const sessions = this.entries.get(token)?.sessions;
    // A handful of role headers per token at most; more is not a client we need to speed up.
    if (sessions && sessions.size < 8) sessions.set(value.sessionKey, value.session);
  }

  private entry(token: string, nowSeconds: number): { readonly claims: AccessTokenClaims; readonly sessions: Map<string, ResolvedSession> } | undefined {
    const entry = this.entries.get(token);
    if (!entry) return undefined;
    this.entries.delete(token);
    if (entry.claims.exp <= nowSeconds) return undefined;
    this.entries.set(token, entry);
    return entry;
  }

  get size(): number {
    return this.entries.size;
  }
}
