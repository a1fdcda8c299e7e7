import type { FastifyRequest } from 'fastify';
import type { AuthContext, Session } from '../context';
import { refusePatSession } from '../credential-proof';
import { AuthError } from '../errors';
import { userAccount } from '../signin-throttle';
import { bodyObject, requiredString } from './request-fields';

// POST /elevate/totp {otp} with a Bearer token (ours; hasura-auth elevates only with a security
// key): a user with TOTP on proves the second factor again and gets a new session whose access
// token carries `x-hasura-auth-elevated`, like POST /elevate/webauthn/verify. For 5 minutes that
// token may change the password or e-mail without the current password (credential-proof.ts),
// and it satisfies AUTH_REQUIRE_ELEVATED_CLAIM. The code is single use (the replay guard of
// totp-replay.ts) and guesses are throttled per account like sign-ins.

/** Checks a code for the user's secret (the MFA module's acceptCode, with its clock). */
export type AcceptTotpCode = (input: { userId: string; secret: string; code: string }) => Promise<boolean>;

/** Elevates the Bearer's session with a TOTP code; answers the elevated session. */
export async function elevateWithTotp(input: { request: FastifyRequest; context: AuthContext; accept: AcceptTotpCode }): Promise<Session> {
  const { request, context } = input;
  const user = await context.authenticateBearer(request);
  refusePatSession(user);
  const otp = requiredString(bodyObject(request.body), 'otp');
  const found = await context.pool.query<{ totp_secret: string | null; active_mfa_type: string | null }>(
    'SELECT totp_secret, active_mfa_type FROM auth.users WHERE id = $1', [user.userId]);
  const secret = found.rows[0]?.active_mfa_type === 'totp' ? found.rows[0].totp_secret : null;
  if (secret === null) throw new AuthError('disabled-mfa-totp');
  const attempt = await context.signInThrottle.begin(request, { account: userAccount(user.userId) });
  if (!(await input.accept({ userId: user.userId, secret, code: otp }))) {
    await attempt.failed();
    await context.audit.record({ action: 'auth.elevate_failed', actorUserId: user.userId, entityId: user.userId, details: { method: 'totp', reason: 'invalid-totp' }, request });
    throw new AuthError('invalid-totp');
  }
  await attempt.succeeded();
  const session = await context.issueSession(user.userId, { elevated: true });
  await context.audit.record({ action: 'auth.elevate', actorUserId: user.userId, entityId: user.userId, details: { method: 'totp' }, request });
  return session;
}
