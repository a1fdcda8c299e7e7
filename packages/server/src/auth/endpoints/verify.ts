import type { FastifyReply, FastifyRequest } from 'fastify';
import type pg from 'pg';
import type { AuthContext, TicketType, VerifyLinkType } from '../context';
import { AuthError } from '../errors';
import { redeemPendingMagicLink } from '../pending-signups';
import type { AuthRouteModule } from '../routes';
import { inTransaction } from '../users';

const TICKET_TYPES: Readonly<Record<VerifyLinkType, TicketType>> = {
  emailVerify: 'verifyEmail',
  emailConfirmChange: 'emailConfirmChange',
  signinPasswordless: 'passwordlessEmail',
  passwordReset: 'passwordReset',
};

/**
 * GET /verify?ticket&type&redirectTo: the links in e-mails. The ticket is used up, the change
 * applied, and the browser goes to `redirectTo?refreshToken=<uuid>&type=<type>` (signed in, as
 * hasura-auth does; the client exchanges the refresh token at POST /token) or
 * `redirectTo?error=<code>&errorDescription=<text>`. A redirectTo outside AUTH_CLIENT_URL and the
 * allow list is answered with JSON 400 redirectTo-not-allowed: never redirect to an unknown site.
 * A magic link of an address without an account creates the account here (pending-signups.ts);
 * a passwordReset link's session may change the password once without the current one.
 */
export const verifyRoutes: AuthRouteModule = {
  name: 'verify',
  register(app, context) {
    app.get<{ Querystring: Record<string, string | undefined> }>('/verify', async (request, reply) => verify(context, request, reply));
  },
};

async function verify(context: AuthContext, request: FastifyRequest<{ Querystring: Record<string, string | undefined> }>, reply: FastifyReply): Promise<FastifyReply> {
  const { ticket, type } = request.query;
  const redirectTo = context.links.checkRedirect(request.query.redirectTo);
  const fail = async (code: 'invalid-ticket' | 'invalid-request' | 'disabled-user' | 'email-already-in-use', description: string): Promise<FastifyReply> => {
    await context.audit.record({ action: 'auth.verify_failed', details: { type: type ?? null, reason: code }, request });
    return reply.redirect(context.links.redirectWith(redirectTo, { error: code, errorDescription: description }), 302);
  };
  const ticketType = type !== undefined && type in TICKET_TYPES ? TICKET_TYPES[type as VerifyLinkType] : undefined;
  if (ticketType === undefined || ticket === undefined) return fail('invalid-request', 'type must be emailVerify, emailConfirmChange, signinPasswordless or passwordReset, with a ticket');
  let outcome: { userId: string; refreshToken: string } | { error: 'invalid-ticket' | 'disabled-user' | 'email-already-in-use' };
  try {
    outcome = await inTransaction(context.pool, async (client) => {
      let userId = await context.tickets.consume(ticket, ticketType, { client });
      if (userId === undefined && ticketType === 'passwordlessEmail') userId = await redeemPendingMagicLink(context, { client, ticket });
      if (userId === undefined) return { error: 'invalid-ticket' as const };
      await apply(client, { userId, type: type as VerifyLinkType });
      const session = await context.issueSession(userId, { client, passwordReset: type === 'passwordReset' });
      return { userId, refreshToken: session.refreshToken };
    });
  } catch (error) {
    if (error instanceof AuthError && (error.code === 'disabled-user' || error.code === 'email-already-in-use' || error.code === 'invalid-ticket')) outcome = { error: error.code };
    else throw error;
  }
  if ('error' in outcome) return fail(outcome.error, outcome.error === 'invalid-ticket' ? 'Invalid or expired verification ticket' : new AuthError(outcome.error).message);
  await context.audit.record({ action: 'auth.verify', actorUserId: outcome.userId, entityId: outcome.userId, details: { type }, request });
  if (type === 'signinPasswordless') {
    await context.audit.record({ action: 'auth.signin', actorUserId: outcome.userId, entityId: outcome.userId, details: { method: 'passwordless-email' }, request });
  }
  return reply.redirect(context.links.redirectWith(redirectTo, { refreshToken: outcome.refreshToken, type: type ?? '' }), 302);
}

async function apply(client: pg.PoolClient, options: { userId: string; type: VerifyLinkType }): Promise<void> {
  if (options.type === 'emailVerify' || options.type === 'signinPasswordless') {
    await client.query('UPDATE auth.users SET email_verified = true WHERE id = $1', [options.userId]);
  } else if (options.type === 'emailConfirmChange') {
    try {
      const changed = await client.query('UPDATE auth.users SET email = new_email, new_email = NULL, email_verified = true WHERE id = $1 AND new_email IS NOT NULL', [options.userId]);
      if (changed.rowCount !== 1) throw new AuthError('invalid-ticket');
    } catch (error) {
      // Someone took the address between the request and the click.
      if ((error as { code?: string }).code === '23505') throw new AuthError('email-already-in-use');
      throw error;
    }
  }
}
