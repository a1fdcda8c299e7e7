/**
 * Builds the AuthContext every route module receives (context.ts): sessions (regular, elevated,
 * PAT sessions that end with their PAT, sessions holding a password-reset grant), Bearer
 * authentication and the elevation rule. Nothing module-global.
 */
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type pg from 'pg';
import { createAuditLog } from './audit';
import { buildAccessClaims } from './claims';
import type { AuthConfig } from './config';
import type { AccessTokenOptions, AuthContext, AuthenticatedUser, IssueSessionOptions, Mailer, Session, SigningKeys, SmsSender } from './context';
import { createMailer, createOutboxSmsSender } from './delivery';
import { AuthError } from './errors';
import { JwtError } from './jwt';
import { createLinks } from './links';
import { createPasswords } from './passwords';
import { createRateLimiter } from './rate-limit';
import { insertRefreshToken, PASSWORD_RESET_GRANT_SECONDS, patIsLive } from './refresh-tokens';
import { createSignInThrottle } from './signin-throttle';
import { createSigningKeys } from './signing-keys';
import { createTickets } from './tickets';
import { createUserStore, loadPermissions } from './users';

export interface CreateAuthContextOptions {
  readonly pool: pg.Pool;
  readonly config: AuthConfig;
  readonly version: string;
  readonly log: FastifyBaseLogger;
  /** Replaces the SMTP/outbox mailer (tests, other transports). */
  readonly mailer?: Mailer;
  /** Replaces the outbox SMS sender (a real provider). */
  readonly sms?: SmsSender;
  /** The clock, epoch milliseconds (tests move it). */
  readonly now?: () => number;
}

/** Builds the AuthContext every route module receives (see context.ts). */
export function createAuthContext(options: CreateAuthContextOptions): AuthContext {
  const { pool, config, log } = options;
  const now = options.now ?? Date.now;
  const keys = createSigningKeys({ pool, config, now });
  const users = createUserStore({ pool, config });
  const context: AuthContext = {
    pool,
    config,
    version: options.version,
    log,
    keys,
    mailer: options.mailer ?? createMailer({ pool, smtp: config.smtp, log }),
    sms: options.sms ?? createOutboxSmsSender({ pool, log }),
    audit: createAuditLog({ pool, log }),
    rateLimiter: createRateLimiter({ pool, config, log }),
    signInThrottle: createSignInThrottle({ pool, config, log }),
    tickets: createTickets({ pool, config }),
    links: createLinks(config),
    users,
    passwords: createPasswords(config),
    createAccessToken: async (userId, tokenOptions) => {
      const minted = await accessTokenFor({ context, keys, now }, { ...tokenOptions, userId, db: tokenOptions?.client ?? pool });
      return { accessToken: minted.accessToken, accessTokenExpiresIn: minted.expiresIn };
    },
    issueSession: (userId, issueOptions) => issueSession({ context, keys, now }, userId, issueOptions ?? {}),
    authenticateBearer: (request, authOptions) => authenticateToken({ context, keys, now }, { request, token: bearerToken(request) }, authOptions ?? {}),
    authenticateToken: (request, token, authOptions) => authenticateToken({ context, keys, now }, { request, token }, authOptions ?? {}),
    requireElevation: (user) => requireElevation(context, user),
  };
  return context;
}

async function issueSession(
  deps: { context: AuthContext; keys: SigningKeys; now: () => number },
  userId: string,
  options: IssueSessionOptions,
): Promise<Session> {
  const { context } = deps;
  const db = options.client ?? context.pool;
  const state = await db.query<{ disabled: boolean }>('SELECT disabled FROM auth.users WHERE id = $1', [userId]);
  const row = state.rows[0];
  if (!row) throw new AuthError('invalid-request', 'No such user');
  if (row.disabled) throw new AuthError('disabled-user');
  const passwordResetUntil = options.passwordReset === true ? new Date(deps.now() + PASSWORD_RESET_GRANT_SECONDS * 1000) : null;
  // Every session starts at an interactive sign-in (a password, link, code, key, provider or
  // elevation): its family records now, and refreshes keep that time.
  const signedInAt = new Date(deps.now());
  const refresh = await insertRefreshToken(db, {
    userId, expiresInSeconds: context.config.refreshTokenExpiresIn, passwordResetUntil, signedInAt, ...(options.pat ? { pat: options.pat } : {}),
  });
  await db.query('UPDATE auth.users SET last_seen = now() WHERE id = $1', [userId]);
  const { accessToken, user, expiresIn } = await accessTokenFor(deps, {
    userId, db, signedInAt, ...(options.elevated === undefined ? {} : { elevated: options.elevated }), ...(options.pat ? { pat: options.pat } : {}),
    ...(passwordResetUntil ? { passwordResetFamily: refresh.familyId } : {}),
  });
  return { accessToken, accessTokenExpiresIn: expiresIn, refreshToken: refresh.token, refreshTokenId: refresh.id, user };
}

/** A fresh access token for the user (used by sessions and by /token rotation) and its lifetime in seconds. */
export async function accessTokenFor(
  deps: { context: AuthContext; keys: SigningKeys; now: () => number },
  options: Omit<AccessTokenOptions, 'client'> & { userId: string; db: pg.Pool | pg.PoolClient },
): Promise<{ accessToken: string; expiresIn: number; user: NonNullable<Awaited<ReturnType<AuthContext['users']['get']>>> }> {
  const user = await deps.context.users.get(options.userId, 'release' in options.db ? options.db : undefined);
  if (!user) throw new AuthError('invalid-request', 'No such user');
  const permissions = await loadPermissions(options.db, options.userId);
  const nowSeconds = Math.floor(deps.now() / 1000);
  const claims = buildAccessClaims({
    user, permissions, elevated: options.elevated ?? false, nowSeconds,
    ...(options.pat ? { pat: { id: options.pat.id, expiresAtSeconds: Math.floor(options.pat.expiresAt.getTime() / 1000) } } : {}),
    ...(options.passwordResetFamily === undefined ? {} : { passwordResetFamily: options.passwordResetFamily }),
    ...(options.signedInAt === undefined ? {} : { signedInAtSeconds: Math.floor(options.signedInAt.getTime() / 1000) }),
  }, deps.context.config);
  return { accessToken: await deps.keys.sign(claims), expiresIn: Math.max(1, claims.exp - nowSeconds), user };
}

/** The Bearer token of a request, if any. */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
  return match?.[1];
}

async function authenticateToken(
  deps: { context: AuthContext; keys: SigningKeys; now: () => number },
  input: { request: FastifyRequest; token: string | undefined },
  options: { allowAnonymous?: boolean },
): Promise<AuthenticatedUser> {
  const { request, token } = input;
  if (token === undefined) throw new AuthError('unauthenticated-user', 'User is not authenticated: no Bearer token');
  const claims = await verifyOrRefuse(deps, token, request);
  const namespace = claims[deps.context.config.jwt.claimsNamespace];
  if (typeof namespace !== 'object' || namespace === null) throw new AuthError('unauthenticated-user');
  const hasura = namespace as Record<string, unknown>;
  const userId = claims.sub;
  // Tokens are stateless; a disabled account still loses access at once for everything here.
  const row = (await deps.context.pool.query<{ disabled: boolean; is_anonymous: boolean }>('SELECT disabled, is_anonymous FROM auth.users WHERE id = $1', [userId])).rows[0];
  if (!row) throw new AuthError('unauthenticated-user');
  if (row.disabled) throw new AuthError('disabled-user');
  if (row.is_anonymous && !options.allowAnonymous) throw new AuthError('forbidden-anonymous');
  const patId = typeof hasura['x-hasura-auth-pat-id'] === 'string' ? hasura['x-hasura-auth-pat-id'] : undefined;
  // A PAT session lives only as long as its PAT: revoked or expired, its tokens stop here at once.
  if (patId !== undefined && !(await patIsLive(deps.context.pool, patId))) {
    throw new AuthError('unauthenticated-user', 'The personal access token of this session was revoked or has expired');
  }
  const elevated = hasura['x-hasura-auth-elevated'] === userId;
  const resetFamily = hasura['x-hasura-auth-password-reset'];
  const nowSeconds = Math.floor(deps.now() / 1000);
  return {
    userId,
    isAnonymous: row.is_anonymous,
    elevated,
    elevatedForSeconds: elevated ? Math.max(0, nowSeconds - claims.iat) : undefined,
    signedInForSeconds: typeof claims.auth_time === 'number' ? Math.max(0, nowSeconds - claims.auth_time) : undefined,
    patId,
    passwordResetFamily: typeof resetFamily === 'string' ? resetFamily : undefined,
    claims,
  };
}

async function verifyOrRefuse(deps: { keys: SigningKeys; context: AuthContext }, token: string, request: FastifyRequest): ReturnType<SigningKeys['verify']> {
  try {
    return await deps.keys.verify(token);
  } catch (error) {
    if (error instanceof JwtError) {
      request.log.debug({ reason: error.reason }, 'auth: access token refused');
      throw new AuthError('unauthenticated-user', 'Invalid or expired access token');
    }
    throw error;
  }
}

/**
 * AUTH_REQUIRE_ELEVATED_CLAIM: `required` always wants an elevated token; `recommended` only
 * when the user has a security key to elevate with (hasura-auth's rule); `disabled` never.
 */
async function requireElevation(context: AuthContext, user: AuthenticatedUser): Promise<void> {
  const mode = context.config.requireElevatedClaim;
  if (mode === 'disabled' || user.elevated) return;
  if (mode === 'recommended') {
    const keys = await context.pool.query('SELECT 1 FROM auth.user_security_keys WHERE user_id = $1 LIMIT 1', [user.userId]);
    if (!keys.rowCount) return;
  }
  throw new AuthError('elevated-claim-required');
}
