import type { FastifyRequest } from 'fastify';
import type { AuthContext } from '../context';
import { AuthError } from '../errors';
import { proveCredentialChange } from '../credential-proof';
import { revokeOtherSessions, revokeUserSessions } from '../refresh-tokens';
import type { AuthRouteModule } from '../routes';
import { bodyObject, optionalObject, optionalString, requiredEmail } from '../validation';
import { inBackground, sendVerificationEmail } from './emails';

/**
 * GET /user, e-mail change, verification e-mail, password change and reset. Changing the
 * password or the e-mail needs more than a Bearer token (credential-proof.ts).
 */
export const userRoutes: AuthRouteModule = {
  name: 'user',
  register(app, context) {
    app.get('/user', async (request) => {
      const user = await context.authenticateBearer(request, { allowAnonymous: true });
      const found = await context.users.get(user.userId);
      if (!found) throw new AuthError('unauthenticated-user');
      return found;
    });
    app.post('/user/email/change', async (request) => changeEmail(context, request));
    app.post('/user/email/send-verification-email', async (request) => resendVerification(context, request));
    app.post('/user/password', async (request) => changePassword(context, request));
    app.post('/user/password/reset', async (request) => resetPassword(context, request));
  },
};

function redirectOption(context: AuthContext, body: Record<string, unknown>): string {
  const options = optionalObject(body, 'options');
  return context.links.checkRedirect(options ? optionalString(options, 'redirectTo') : undefined);
}

async function changeEmail(context: AuthContext, request: FastifyRequest): Promise<string> {
  const user = await context.authenticateBearer(request);
  const body = bodyObject(request.body);
  const newEmail = requiredEmail(body, 'newEmail');
  const redirectTo = redirectOption(context, body);
  await context.rateLimiter.hit(request, { bucket: 'email', account: user.userId });
  const proof = await proveCredentialChange(context, { request, user, body, allowPasswordReset: false });
  if (await context.users.findByEmail(newEmail)) throw new AuthError('email-already-in-use');
  await context.pool.query('UPDATE auth.users SET new_email = $2 WHERE id = $1', [user.userId, newEmail]);
  const ticket = await context.tickets.create(user.userId, { type: 'emailConfirmChange' });
  // To the new address: whoever confirms proves they own it.
  await context.mailer.sendTemplate({
    template: 'email-confirm-change', to: newEmail, userId: user.userId,
    link: context.links.verifyLink({ ticket, type: 'emailConfirmChange', redirectTo }),
  });
  await context.audit.record({ action: 'auth.email.change_requested', actorUserId: user.userId, entityId: user.userId, details: { newEmail, proof: proof.kind }, request });
  return 'OK';
}

/** Always "OK": the answer never says whether the address has an account or is verified. */
async function resendVerification(context: AuthContext, request: FastifyRequest): Promise<string> {
  const body = bodyObject(request.body);
  const email = requiredEmail(body, 'email');
  const redirectTo = redirectOption(context, body);
  await context.rateLimiter.hit(request, { bucket: 'email', account: email });
  const found = await context.users.findByEmail(email);
  if (found && !found.disabled && !found.emailVerified && !found.isAnonymous) {
    inBackground(context, 'verification e-mail', () => sendVerificationEmail(context, { userId: found.id, email, redirectTo }));
  }
  return 'OK';
}

/**
 * With a passwordReset ticket (forgot password) no session is needed; with a Bearer token the
 * proof of credential-proof.ts is. A reset (ticket or reset-link session) ends the other sessions:
 * the old password may be known to someone else.
 */
async function changePassword(context: AuthContext, request: FastifyRequest): Promise<string> {
  const body = bodyObject(request.body);
  const newPassword = context.passwords.check(body.newPassword, 'newPassword');
  const ticket = optionalString(body, 'ticket');
  let userId: string;
  let proof: string;
  let keepFamilyId: string | undefined;
  if (ticket !== undefined) {
    const attempt = await context.signInThrottle.begin(request, {});
    const owner = await context.tickets.consume(ticket, 'passwordReset');
    if (owner === undefined) {
      await attempt.failed();
      throw new AuthError('invalid-ticket');
    }
    await attempt.succeeded();
    userId = owner;
    proof = 'ticket';
  } else {
    const user = await context.authenticateBearer(request);
    const checked = await proveCredentialChange(context, { request, user, body, allowPasswordReset: true });
    userId = user.userId;
    proof = checked.kind;
    if (checked.kind === 'password-reset') keepFamilyId = checked.familyId;
  }
  await context.pool.query('UPDATE auth.users SET password_hash = $2 WHERE id = $1', [userId, await context.passwords.hash(newPassword)]);
  let revoked = 0;
  if (ticket !== undefined) revoked = await revokeUserSessions(context.pool, userId);
  else if (keepFamilyId !== undefined) revoked = await revokeOtherSessions(context.pool, { userId, keepFamilyId });
  await context.audit.record({ action: 'auth.password.change', actorUserId: userId, entityId: userId, details: { proof, sessionsRevoked: revoked }, request });
  return 'OK';
}

/** Always "OK" (no account enumeration); a mail goes only to an existing, enabled account. */
async function resetPassword(context: AuthContext, request: FastifyRequest): Promise<string> {
  const body = bodyObject(request.body);
  const email = requiredEmail(body, 'email');
  const redirectTo = redirectOption(context, body);
  await context.rateLimiter.hit(request, { bucket: 'email', account: email });
  const found = await context.users.findByEmail(email);
  if (found && !found.disabled && !found.isAnonymous) {
    inBackground(context, 'password reset e-mail', async () => {
      const ticket = await context.tickets.create(found.id, { type: 'passwordReset' });
      await context.mailer.sendTemplate({
        template: 'password-reset', to: email, userId: found.id,
        link: context.links.verifyLink({ ticket, type: 'passwordReset', redirectTo }),
      });
      await context.audit.record({ action: 'auth.password.reset_requested', entityId: found.id, request });
    });
  }
  return 'OK';
}
