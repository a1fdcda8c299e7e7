import type { FastifyRequest } from 'fastify';
import type { AuthContext, Session } from '../context';
import { bearerToken } from '../create-context';
import { AuthError } from '../errors';
import { JwtError } from '../jwt';
import { findToken, hashToken, insertRefreshToken, markUsed, revokeFamily, revokeUserSessions } from '../refresh-tokens';
import type { AuthRouteModule } from '../routes';
import { inTransaction } from '../users';
import { bodyObject, optionalBoolean, optionalString, requiredUuid } from '../validation';

/** POST /token, POST /token/verify, POST /signout, GET /.well-known/jwks.json. */
export const tokenRoutes: AuthRouteModule = {
  name: 'tokens',
  register(app, context) {
    app.post('/token', async (request) => refresh(context, request));
    app.post('/token/verify', async (request) => verify(context, request));
    app.post('/signout', async (request) => signOut(context, request));
    app.get('/.well-known/jwks.json', async () => context.keys.jwks());
  },
};

type RotationOutcome =
  | {
    kind: 'rotated'; userId: string; familyId: string; refreshToken: string; refreshTokenId: string;
    pat: { id: string; expiresAt: Date } | undefined; passwordResetOpen: boolean; signedInAt: Date;
  }
  | { kind: 'refused'; code: 'invalid-refresh-token' | 'disabled-user'; reuse?: { userId: string; familyId: string; revoked: number } };

/**
 * Single-use rotation: the presented token is marked used and a new one joins its family. A
 * token presented after it was used means a copy exists somewhere (a thief or a replay): the
 * whole family (this session and everything rotated from it) is revoked. A PAT session rotates
 * only while its PAT is live (else the family is revoked) and never past the PAT's expiry; a
 * family's password-reset grant and its sign-in time go with it to the new token (a refresh never
 * makes a session look freshly signed in: credential-proof.ts).
 */
async function refresh(context: AuthContext, request: FastifyRequest): Promise<Session> {
  const body = bodyObject(request.body);
  await context.rateLimiter.hit(request, { bucket: 'token' });
  let token: string;
  try {
    token = requiredUuid(body, 'refreshToken');
  } catch {
    throw new AuthError('invalid-refresh-token');
  }
  const outcome = await inTransaction(context.pool, async (client): Promise<RotationOutcome> => {
    const stored = await findToken(client, token);
    if (!stored || stored.type !== 'regular' || stored.revoked_at !== null || stored.expired) return { kind: 'refused', code: 'invalid-refresh-token' };
    if (stored.used_at !== null || !(await markUsed(client, stored.id))) {
      const revoked = await revokeFamily(client, stored.family_id);
      return { kind: 'refused', code: 'invalid-refresh-token', reuse: { userId: stored.user_id, familyId: stored.family_id, revoked } };
    }
    if (stored.disabled) return { kind: 'refused', code: 'disabled-user' };
    if (stored.pat_id !== null && (stored.pat_live !== true || stored.pat_expires_at === null)) {
      await revokeFamily(client, stored.family_id);
      return { kind: 'refused', code: 'invalid-refresh-token' };
    }
    const pat = stored.pat_id !== null && stored.pat_expires_at !== null ? { id: stored.pat_id, expiresAt: stored.pat_expires_at } : undefined;
    const next = await insertRefreshToken(client, {
      userId: stored.user_id, expiresInSeconds: context.config.refreshTokenExpiresIn, familyId: stored.family_id,
      passwordResetUntil: stored.password_reset_until, signedInAt: stored.signed_in_at, ...(pat ? { pat } : {}),
    });
    return {
      kind: 'rotated', userId: stored.user_id, familyId: stored.family_id, refreshToken: next.token, refreshTokenId: next.id,
      pat, passwordResetOpen: stored.password_reset_open, signedInAt: stored.signed_in_at,
    };
  });
  if (outcome.kind === 'refused') {
    if (outcome.reuse) {
      await context.audit.record({ action: 'auth.refresh_token.reuse', entityId: outcome.reuse.userId, details: { familyId: outcome.reuse.familyId, revoked: outcome.reuse.revoked }, request });
      request.log.warn({ familyId: outcome.reuse.familyId }, 'auth: a used refresh token was presented again; its family is revoked');
    }
    throw new AuthError(outcome.code);
  }
  const user = await context.users.get(outcome.userId);
  if (!user) throw new AuthError('invalid-refresh-token');
  const fresh = await context.createAccessToken(outcome.userId, {
    signedInAt: outcome.signedInAt,
    ...(outcome.pat ? { pat: outcome.pat } : {}), ...(outcome.passwordResetOpen ? { passwordResetFamily: outcome.familyId } : {}),
  });
  return { ...fresh, refreshToken: outcome.refreshToken, refreshTokenId: outcome.refreshTokenId, user };
}

async function verify(context: AuthContext, request: FastifyRequest): Promise<string> {
  const body = bodyObject(request.body);
  const token = optionalString(body, 'token') ?? bearerToken(request);
  if (token === undefined) throw new AuthError('unauthenticated-user', 'No token: give `token` or an Authorization Bearer header');
  try {
    await context.keys.verify(token);
  } catch (error) {
    if (error instanceof JwtError) throw new AuthError('unauthenticated-user', 'Invalid or expired access token');
    throw error;
  }
  return 'OK';
}

async function signOut(context: AuthContext, request: FastifyRequest): Promise<string> {
  const body = bodyObject(request.body);
  if (optionalBoolean(body, 'all') === true) {
    const user = await context.authenticateBearer(request, { allowAnonymous: true });
    const revoked = await revokeUserSessions(context.pool, user.userId);
    await context.audit.record({ action: 'auth.signout', actorUserId: user.userId, entityId: user.userId, details: { all: true, revoked }, request });
    return 'OK';
  }
  const refreshToken = optionalString(body, 'refreshToken');
  if (refreshToken === undefined) throw new AuthError('invalid-request', 'refreshToken: is required unless all is true');
  const found = await context.pool.query<{ family_id: string; user_id: string }>(
    "SELECT family_id, user_id FROM auth.refresh_tokens WHERE refresh_token_hash = $1 AND type = 'regular'", [hashToken(refreshToken)]);
  const row = found.rows[0];
  // An unknown token is already signed out: "OK" either way, and nothing to learn from the answer.
  if (row) {
    const revoked = await revokeFamily(context.pool, row.family_id);
    await context.audit.record({ action: 'auth.signout', actorUserId: row.user_id, entityId: row.user_id, details: { all: false, revoked }, request });
  }
  return 'OK';
}
