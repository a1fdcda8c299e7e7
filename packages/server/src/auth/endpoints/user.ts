import type { FastifyRequest } from 'fastify';
import type { AuthContext } from '../context';
import { AuthError } from '../errors';
import { revokeUserSessions } from '../refresh-tokens';
import type { AuthRouteModule } from '../routes';
import { bodyObject, optionalObject, optionalString, requiredEmail } from '../validation';
import { sendVerificationEmail } from './emails';

/** GET /user, e-mail change, verification e-mail, password change and reset. */
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
  if (await context.users.findByEmail(newEmail)) throw new AuthError('email-already-in-use');
  await context.pool.query('UPDATE auth.users SET new_email = $2 WHERE id = $1', [user.userId, newEmail]);
  const ticket = await context.tickets.create(user.userId, { type: 'emailConfirmChange' });
  // To the new address: whoever confirms proves they own it.
  await context.mailer.sendTemplate({
    template: 'email-confirm-change', to: newEmail, userId: user.userId,
    link: context.links.verifyLink({ ticket, type: 'emailConfirmChange', redirectTo }),
  });
  await context.audit.record({ action: 'auth.email.change_requested', actorUserId: user.userId, entityId: user.userId, details: { newEmail }, request });
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

async function changePassword(context: AuthContext, request: FastifyRequest): Promise<string> {
  const body = bodyObject(request.body);
  const newPassword = context.passwords.check(body.newPassword, 'newPassword');
  const ticket = optionalString(body, 'ticket');
  let userId: string;
  if (ticket !== undefined) {
    await context.rateLimiter.hit(request, { bucket: 'bruteForce' });
    const owner = await context.tickets.consume(ticket, 'passwordReset');
    if (owner === undefined) throw new AuthError('invalid-ticket');
    userId = owner;
  } else {
    userId = (await context.authenticateBearer(request)).userId;
  }
  await context.pool.query('UPDATE auth.users SET password_hash = $2 WHERE id = $1', [userId, await context.passwords.hash(newPassword)]);
  // A reset means the old password may be known to someone else: end every session.
  const revoked = ticket === undefined ? 0 : await revokeUserSessions(context.pool, userId);
  await context.audit.record({ action: 'auth.password.change', actorUserId: userId, entityId: userId, details: { withTicket: ticket !== undefined, sessionsRevoked: revoked }, request });
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

/**
 * Work whose duration would reveal that an account exists (creating a ticket, talking to SMTP)
 * runs after the answer: known and unknown addresses get "OK" equally fast.
 */
export function inBackground(context: AuthContext, what: string, work: () => Promise<void>): void {
  work().catch((error: unknown) => context.log.error({ err: error }, `auth: ${what} failed`));
}
