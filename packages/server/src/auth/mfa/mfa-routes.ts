import type { FastifyInstance, FastifyRequest } from 'fastify';
import QRCode from 'qrcode';
import type { AuthContext } from '../context';
import { proveFactorEnrolment, refusePatSession } from '../credential-proof';
import { AuthError, invalidRequest } from '../errors';
import type { AuthRouteModule } from '../routes';
import { userAccount } from '../signin-throttle';
import { clearOtpAttempts, reserveOtpAttempt } from './otp-attempts';
import { bodyObject, optionalString, replyOk, requiredString } from './request-fields';
import { generateTotpSecret, matchTotp, otpauthUrl } from './totp';
import { claimTotpStep } from './totp-replay';
import { elevateWithTotp } from './totp-elevation';

// TOTP multi-factor authentication (hasura-auth's endpoints): generate a secret, activate or
// deactivate it with a code, and finish a password sign-in with the `mfaTotp:` ticket it gave;
// plus ours, POST /elevate/totp (totp-elevation.ts). A PAT session may do none of the changes.
// Activating needs fresh proof besides the code (credential-proof.ts): `currentPassword` in the
// body, a fresh elevation, or a sign-in at most 5 minutes ago; otherwise a stolen token could
// switch on a second factor of the thief's and elevate with it. Generating a secret needs none:
// a GET cannot carry the password, and a pending secret is worth nothing until activated.

export interface MfaRouteOptions {
  /** The issuer label authenticator apps show (AUTH_MFA_TOTP_ISSUER). */
  readonly issuer?: string;
  /** The clock, replaceable in tests. */
  readonly nowMilliseconds?: () => number;
}

const MFA_TICKET = /^mfaTotp:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface TotpState {
  readonly secret: string | null;
  readonly activeMfaType: string | null;
  readonly accountName: string;
}

/** The MFA route module: GET /mfa/totp/generate, POST /user/mfa, POST /signin/mfa/totp, POST /elevate/totp. */
export function createMfaRouteModule(options: MfaRouteOptions = {}): AuthRouteModule {
  const issuer = options.issuer ?? (process.env.AUTH_MFA_TOTP_ISSUER?.trim() || 'Vyuha');
  const now = options.nowMilliseconds ?? Date.now;
  return {
    name: 'mfa-totp',
    register(app: FastifyInstance, context: AuthContext) {
      app.get('/mfa/totp/generate', async (request) => generate({ request, context, issuer }));
      app.post('/user/mfa', async (request, reply) => {
        await changeMfa({ request, context, now });
        return replyOk(reply);
      });
      app.post('/signin/mfa/totp', async (request) => ({ session: await signInWithTicket({ request, context, now }), mfa: null }));
      app.post('/elevate/totp', async (request) => ({ session: await elevateWithTotp({ request, context, accept: (input) => acceptCode({ context, ...input, nowMilliseconds: now() }) }) }));
    },
  };
}

async function generate(input: { request: FastifyRequest; context: AuthContext; issuer: string }): Promise<{ imageUrl: string; totpSecret: string }> {
  const { request, context } = input;
  const user = await context.authenticateBearer(request);
  refusePatSession(user);
  await context.requireElevation(user);
  const state = await totpState(context, user.userId);
  if (state.activeMfaType === 'totp') throw new AuthError('totp-already-active');
  const secret = generateTotpSecret();
  // Pending until POST /user/mfa proves the app holds it; a new generate replaces it.
  await context.pool.query('UPDATE auth.users SET totp_secret = $2 WHERE id = $1', [user.userId, secret]);
  const imageUrl = await QRCode.toDataURL(otpauthUrl({ secret, accountName: state.accountName, issuer: input.issuer }));
  await context.audit.record({ action: 'auth.mfa.totp_generate', actorUserId: user.userId, entityId: user.userId, request });
  return { imageUrl, totpSecret: secret };
}

async function changeMfa(input: { request: FastifyRequest; context: AuthContext; now: () => number }): Promise<void> {
  const { request, context } = input;
  const user = await context.authenticateBearer(request);
  refusePatSession(user);
  await context.requireElevation(user);
  const body = bodyObject(request.body);
  const code = requiredString(body, 'code');
  const activeMfaType = optionalString(body, 'activeMfaType') ?? '';
  if (activeMfaType !== 'totp' && activeMfaType !== '') throw new AuthError('mfa-type-not-found', `activeMfaType: "${activeMfaType}" is not an MFA type (use "totp" or "")`);
  const state = await totpState(context, user.userId);
  if (activeMfaType === 'totp' && state.activeMfaType === 'totp') throw new AuthError('totp-already-active');
  if (activeMfaType === '' && state.activeMfaType !== 'totp') throw new AuthError('disabled-mfa-totp');
  if (state.secret === null) throw new AuthError('no-totp-secret');
  // Proven before the code is claimed, so a refusal here does not use the code up.
  const proof = activeMfaType === 'totp' ? await proveFactorEnrolment(context, { request, user, body }) : undefined;
  const attempt = await context.signInThrottle.begin(request, { account: userAccount(user.userId) });
  const accepted = await acceptCode({ context, userId: user.userId, secret: state.secret, code, nowMilliseconds: input.now() });
  await (accepted ? attempt.succeeded() : attempt.failed());
  const action = activeMfaType === 'totp' ? 'auth.mfa.activate' : 'auth.mfa.deactivate';
  if (!accepted) {
    await context.audit.record({ action: `${action}_failed`, actorUserId: user.userId, entityId: user.userId, details: { reason: 'invalid-totp' }, request });
    throw new AuthError('invalid-totp');
  }
  if (activeMfaType === 'totp') {
    await context.pool.query("UPDATE auth.users SET active_mfa_type = 'totp' WHERE id = $1", [user.userId]);
  } else {
    // The secret goes too: re-enabling must show a new QR code, never revive a possibly leaked one.
    await context.pool.query('UPDATE auth.users SET active_mfa_type = NULL, totp_secret = NULL WHERE id = $1', [user.userId]);
  }
  await context.audit.record({ action, actorUserId: user.userId, entityId: user.userId, details: { mfaType: 'totp', ...(proof ? { proof: proof.kind } : {}) }, request });
}

async function signInWithTicket(input: { request: FastifyRequest; context: AuthContext; now: () => number }): Promise<unknown> {
  const { request, context } = input;
  const body = bodyObject(request.body);
  const ticket = requiredString(body, 'ticket');
  const otp = requiredString(body, 'otp');
  if (!MFA_TICKET.test(ticket)) throw invalidRequest('ticket', 'must look like mfaTotp:<uuid>');
  const userId = await context.tickets.peek(ticket, 'mfaTotp');
  if (userId === undefined) {
    await (await context.signInThrottle.begin(request, {})).failed();
    await context.audit.record({ action: 'auth.signin_failed', details: { method: 'mfa-totp', reason: 'invalid-ticket' }, request });
    throw new AuthError('invalid-ticket');
  }
  // Per account (the password is already proven): strangers' wrong codes slow only strangers down.
  const attempt = await context.signInThrottle.begin(request, { account: userAccount(userId) });
  // The row outlives any MFA ticket (5 minutes), so the count cannot restart while the ticket lives.
  const withinLimit = await reserveOtpAttempt(context.pool, { subject: ticket, lifetimeSeconds: context.config.ticketExpiresIn });
  if (!withinLimit) {
    await attempt.failed();
    // Five wrong codes kill the ticket: the password has to be proven again.
    await context.tickets.consume(ticket, 'mfaTotp');
    await context.audit.record({ action: 'auth.signin_failed', entityId: userId, details: { method: 'mfa-totp', reason: 'too-many-attempts' }, request });
    throw new AuthError('invalid-ticket', 'Too many wrong codes: sign in again');
  }
  const state = await totpState(context, userId);
  if (state.activeMfaType !== 'totp' || state.secret === null) throw new AuthError('disabled-mfa-totp');
  const accepted = await acceptCode({ context, userId, secret: state.secret, code: otp, nowMilliseconds: input.now() });
  await (accepted ? attempt.succeeded() : attempt.failed());
  if (!accepted) {
    await context.audit.record({ action: 'auth.signin_failed', entityId: userId, details: { method: 'mfa-totp', reason: 'invalid-totp' }, request });
    throw new AuthError('invalid-totp');
  }
  if ((await context.tickets.consume(ticket, 'mfaTotp')) !== userId) throw new AuthError('invalid-ticket');
  await clearOtpAttempts(context.pool, ticket);
  const session = await context.issueSession(userId);
  await context.audit.record({ action: 'auth.signin', actorUserId: userId, entityId: userId, details: { method: 'mfa-totp' }, request });
  return session;
}

/** A code is accepted when it matches a step of the window AND that step is newer than any used before. */
async function acceptCode(input: { context: AuthContext; userId: string; secret: string; code: string; nowMilliseconds: number }): Promise<boolean> {
  const step = matchTotp({ secret: input.secret, code: input.code, nowMilliseconds: input.nowMilliseconds });
  if (step === undefined) return false;
  return claimTotpStep(input.context.pool, { userId: input.userId, step });
}

async function totpState(context: AuthContext, userId: string): Promise<TotpState> {
  const result = await context.pool.query<{ totp_secret: string | null; active_mfa_type: string | null; email: string | null; phone_number: string | null }>(
    'SELECT totp_secret, active_mfa_type, email::text AS email, phone_number FROM auth.users WHERE id = $1',
    [userId],
  );
  const row = result.rows[0];
  if (!row) throw new AuthError('unauthenticated-user');
  return { secret: row.totp_secret, activeMfaType: row.active_mfa_type, accountName: row.email ?? row.phone_number ?? userId };
}
