import type { FastifyRequest } from 'fastify';
import type { AuthContext } from '../context';
import { proveFactorEnrolment, refusePatSession } from '../credential-proof';
import { AuthError, invalidRequest } from '../errors';
import { hashToken, insertPersonalAccessToken, listPersonalAccessTokens, revokePersonalAccessToken } from '../refresh-tokens';
import type { AuthRouteModule } from '../routes';
import { bodyObject, optionalObject, requiredString, requiredUuid } from '../validation';

/**
 * POST /pat (create), POST /signin/pat, and, for the owner, GET /user/pats (list) and
 * DELETE /user/pats/:id (revoke): hasura-auth has no REST for the last two. A PAT lives at most
 * AUTH_PAT_MAX_LIFETIME; the session it signs in is marked (claim `x-hasura-auth-pat-id`, refresh
 * tokens linked by `pat_id`), cannot mint PATs or change the account, and ends with the PAT.
 * Minting one needs the fresh proof of enrolling a factor (credential-proof.ts): the current
 * password, a fresh elevation or a sign-in at most 5 minutes old, so a stolen old token cannot
 * turn itself into a year of access.
 */
export const personalAccessTokenRoutes: AuthRouteModule = {
  name: 'personal-access-tokens',
  register(app, context) {
    app.post('/pat', async (request) => create(context, request));
    app.post('/signin/pat', async (request) => signIn(context, request));
    app.get('/user/pats', async (request) => {
      const user = await context.authenticateBearer(request);
      return listPersonalAccessTokens(context.pool, user.userId);
    });
    app.delete<{ Params: { id: string } }>('/user/pats/:id', async (request) => {
      const user = await context.authenticateBearer(request);
      const tokenId = requiredUuid(request.params, 'id');
      if (!(await revokePersonalAccessToken(context.pool, { userId: user.userId, tokenId }))) throw new AuthError('not-found', 'No live personal access token with that id');
      await context.audit.record({ action: 'auth.pat.revoke', actorUserId: user.userId, entityId: user.userId, details: { patId: tokenId }, request });
      return 'OK';
    });
  },
};

async function create(context: AuthContext, request: FastifyRequest): Promise<{ id: string; personalAccessToken: string }> {
  const user = await context.authenticateBearer(request);
  refusePatSession(user);
  // AUTH_REQUIRE_ELEVATED_CLAIM first (a user with a key may have to elevate: fresh proof too).
  await context.requireElevation(user);
  const body = bodyObject(request.body);
  const expiresAt = new Date(requiredString(body, 'expiresAt'));
  if (Number.isNaN(expiresAt.getTime())) throw invalidRequest('expiresAt', 'must be an ISO 8601 date-time');
  if (expiresAt.getTime() <= Date.now()) throw invalidRequest('expiresAt', 'must be in the future');
  const maxSeconds = context.config.patMaxLifetimeSeconds;
  if (expiresAt.getTime() > Date.now() + maxSeconds * 1000) throw invalidRequest('expiresAt', `must be at most ${lifetimeText(maxSeconds)} from now (AUTH_PAT_MAX_LIFETIME)`);
  const metadata = optionalObject(body, 'metadata');
  // The body's own fields first: a bad expiry is refused before a password is judged or counted.
  const proof = await proveFactorEnrolment(context, { request, user, body, purpose: 'personal-access-token' });
  const created = await insertPersonalAccessToken(context.pool, { userId: user.userId, expiresAt, metadata });
  await context.audit.record({
    action: 'auth.pat.create', actorUserId: user.userId, entityId: user.userId, details: { patId: created.id, expiresAt: expiresAt.toISOString(), proof: proof.kind }, request,
  });
  return { id: created.id, personalAccessToken: created.token };
}

/** `30 days` or `3600 s`. @example lifetimeText(31_536_000) -> '365 days' */
function lifetimeText(seconds: number): string {
  return seconds % 86_400 === 0 ? `${seconds / 86_400} days` : `${seconds} s`;
}

async function signIn(context: AuthContext, request: FastifyRequest): Promise<{ session: unknown }> {
  const body = bodyObject(request.body);
  const token = typeof body.personalAccessToken === 'string' ? body.personalAccessToken : '';
  if (token === '') throw invalidRequest('personalAccessToken', 'is required');
  // A PAT is 122 random bits: guessing is hopeless, but failures still count against the address.
  const attempt = await context.signInThrottle.begin(request, {});
  const found = await context.pool.query<{ id: string; user_id: string; live: boolean; disabled: boolean; expires_at: Date }>(
    `SELECT t.id, t.user_id, (t.revoked_at IS NULL AND t.expires_at > now()) AS live, u.disabled, t.expires_at
     FROM auth.refresh_tokens t JOIN auth.users u ON u.id = t.user_id
     WHERE t.refresh_token_hash = $1 AND t.type = 'pat'`,
    [hashToken(token)],
  );
  const row = found.rows[0];
  if (!row?.live || row.disabled) {
    const code = row?.live && row.disabled ? 'disabled-user' : 'invalid-pat';
    if (code === 'invalid-pat') await attempt.failed();
    else await attempt.succeeded();
    await context.audit.record({ action: 'auth.signin_failed', entityId: row?.user_id ?? null, details: { method: 'pat', reason: code }, request });
    throw new AuthError(code);
  }
  await attempt.succeeded();
  const session = await context.issueSession(row.user_id, { pat: { id: row.id, expiresAt: row.expires_at } });
  await context.audit.record({ action: 'auth.signin', actorUserId: row.user_id, entityId: row.user_id, details: { method: 'pat' }, request });
  return { session };
}
