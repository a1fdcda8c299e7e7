import type { FastifyRequest } from 'fastify';
import type { AuthContext } from '../context';
import { AuthError, invalidRequest } from '../errors';
import { hashToken, insertPersonalAccessToken, listPersonalAccessTokens, revokePersonalAccessToken } from '../refresh-tokens';
import type { AuthRouteModule } from '../routes';
import { bodyObject, optionalObject, requiredString, requiredUuid } from '../validation';

/**
 * POST /pat (create), POST /signin/pat, and, for the owner, GET /user/pats (list) and
 * DELETE /user/pats/:id (revoke): hasura-auth has no REST for the last two.
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
  await context.requireElevation(user);
  const body = bodyObject(request.body);
  const expiresAt = new Date(requiredString(body, 'expiresAt'));
  if (Number.isNaN(expiresAt.getTime())) throw invalidRequest('expiresAt', 'must be an ISO 8601 date-time');
  if (expiresAt.getTime() <= Date.now()) throw invalidRequest('expiresAt', 'must be in the future');
  const metadata = optionalObject(body, 'metadata');
  const created = await insertPersonalAccessToken(context.pool, { userId: user.userId, expiresAt, metadata });
  await context.audit.record({ action: 'auth.pat.create', actorUserId: user.userId, entityId: user.userId, details: { patId: created.id, expiresAt: expiresAt.toISOString() }, request });
  return { id: created.id, personalAccessToken: created.token };
}

async function signIn(context: AuthContext, request: FastifyRequest): Promise<{ session: unknown }> {
  const body = bodyObject(request.body);
  await context.rateLimiter.hit(request, { bucket: 'bruteForce' });
  const token = typeof body.personalAccessToken === 'string' ? body.personalAccessToken : '';
  if (token === '') throw invalidRequest('personalAccessToken', 'is required');
  const found = await context.pool.query<{ user_id: string; live: boolean; disabled: boolean }>(
    `SELECT t.user_id, (t.revoked_at IS NULL AND t.expires_at > now()) AS live, u.disabled
     FROM auth.refresh_tokens t JOIN auth.users u ON u.id = t.user_id
     WHERE t.refresh_token_hash = $1 AND t.type = 'pat'`,
    [hashToken(token)],
  );
  const row = found.rows[0];
  if (!row?.live || row.disabled) {
    const code = row?.live && row.disabled ? 'disabled-user' : 'invalid-pat';
    await context.audit.record({ action: 'auth.signin_failed', entityId: row?.user_id ?? null, details: { method: 'pat', reason: code }, request });
    throw new AuthError(code);
  }
  const session = await context.issueSession(row.user_id);
  await context.audit.record({ action: 'auth.signin', actorUserId: row.user_id, entityId: row.user_id, details: { method: 'pat' }, request });
  return { session };
}
