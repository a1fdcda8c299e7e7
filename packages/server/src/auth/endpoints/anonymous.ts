import type { FastifyRequest } from 'fastify';
import type { AuthContext } from '../context';
import { AuthError, invalidRequest } from '../errors';
import { revokeUserSessions } from '../refresh-tokens';
import type { AuthRouteModule } from '../routes';
import { ensureProfile, inTransaction } from '../users';
import { bodyObject, readSignUpOptions, requiredEmail } from '../validation';
import { sendMagicLink, sendVerificationEmail } from './emails';
import { checkLocale } from './email-password';

/** POST /signin/anonymous and POST /user/deanonymize. */
export const anonymousRoutes: AuthRouteModule = {
  name: 'anonymous',
  register(app, context) {
    app.post('/signin/anonymous', async (request) => signInAnonymous(context, request));
    app.post('/user/deanonymize', async (request) => deanonymize(context, request));
  },
};

async function signInAnonymous(context: AuthContext, request: FastifyRequest): Promise<{ session: unknown }> {
  if (!context.config.anonymousUsersEnabled) throw new AuthError('disabled-endpoint', 'Anonymous sign-in is disabled (AUTH_ANONYMOUS_USERS_ENABLED)');
  // The body's fields sit at the top level (not under `options`); read them with the same checks.
  const options = readSignUpOptions({ options: bodyObject(request.body) });
  checkLocale(context, options);
  await context.rateLimiter.hit(request, { bucket: 'signups' });
  const userId = await context.users.create({
    isAnonymous: true,
    ...(options.displayName !== undefined ? { displayName: options.displayName } : {}),
    ...(options.locale !== undefined ? { locale: options.locale } : {}),
    ...(options.metadata !== undefined ? { metadata: options.metadata } : {}),
  });
  const session = await context.issueSession(userId);
  await context.audit.record({ action: 'auth.signin', actorUserId: userId, entityId: userId, details: { method: 'anonymous' }, request });
  return { session };
}

/**
 * Turns the signed-in anonymous user into a real account, keeping its id (and so everything it
 * saved). Its anonymous sessions end: the account is signed into again with the new identity.
 */
async function deanonymize(context: AuthContext, request: FastifyRequest): Promise<string> {
  const user = await context.authenticateBearer(request, { allowAnonymous: true });
  if (!user.isAnonymous) throw new AuthError('user-not-anonymous');
  const body = bodyObject(request.body);
  const method = body.signInMethod;
  if (method !== 'email-password' && method !== 'passwordless') throw invalidRequest('signInMethod', 'must be "email-password" or "passwordless"');
  const email = requiredEmail(body, 'email');
  const password = method === 'email-password' ? context.passwords.check(body.password) : undefined;
  const options = readSignUpOptions(body);
  checkLocale(context, options);
  const redirectTo = context.links.checkRedirect(options.redirectTo);
  const roles = context.users.signUpRoles(options);
  if (await context.users.findByEmail(email)) throw new AuthError('email-already-in-use');
  const passwordHash = password === undefined ? null : await context.passwords.hash(password);
  const displayName = options.displayName ?? email.split('@')[0] ?? email;
  await inTransaction(context.pool, async (client) => {
    await client.query(
      `UPDATE auth.users SET email = $2, password_hash = $3, is_anonymous = false, email_verified = false, default_role = $4,
         display_name = coalesce($5, display_name), locale = coalesce($6, locale), metadata = metadata || $7::jsonb
       WHERE id = $1`,
      [user.userId, email, passwordHash, roles.defaultRole, options.displayName ?? null, options.locale ?? null, JSON.stringify(options.metadata ?? {})],
    );
    await client.query('DELETE FROM auth.user_roles WHERE user_id = $1', [user.userId]);
    await client.query('INSERT INTO auth.user_roles (user_id, role) SELECT $1, unnest($2::text[])', [user.userId, roles.allowedRoles]);
    await ensureProfile(client, { userId: user.userId, name: displayName, tier: roles.defaultRole });
    await revokeUserSessions(client, user.userId);
    await context.audit.record({ action: 'auth.deanonymize', actorUserId: user.userId, entityId: user.userId, details: { method }, request, client });
  });
  if (method === 'email-password') await sendVerificationEmail(context, { userId: user.userId, email, displayName, redirectTo });
  else await sendMagicLink(context, { userId: user.userId, email, displayName, redirectTo });
  return 'OK';
}
