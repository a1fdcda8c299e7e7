import type { FastifyRequest } from 'fastify';
import type { AuthContext, AuthenticatedUser } from './context';
import { AuthError, invalidRequest } from './errors';
import { spendPasswordResetGrant } from './refresh-tokens';
import { userAccount } from './signin-throttle';

/**
 * What it takes to change an account's credentials, so that holding a token is never enough to
 * take the account over (README "Hardening"):
 *
 * - A session signed in with a personal access token never changes the password or e-mail,
 *   never elevates, never sets up MFA or security keys and never mints PATs
 *   (403 forbidden-pat-session): a leaked PAT stays a leaked PAT, revocable, not a lost account.
 * - Changing the password or the e-mail needs one of: the current password in the body
 *   (`currentPassword`, ours; guesses are throttled like sign-ins), an access token elevated
 *   (security key or TOTP) at most FRESH_ELEVATION_SECONDS ago, or, for the password only, the
 *   one-time grant of a session started by a passwordReset link (the forgot-password path).
 * - Enrolling a new factor (a security key, TOTP, an OAuth provider link) needs one of: the
 *   current password in the body (the same check; not for the OAuth redirect, a GET), a fresh
 *   elevation, or a session whose interactive sign-in happened at most FRESH_SIGN_IN_SECONDS ago
 *   (`auth_time`, which refreshes keep). Otherwise a stolen access or refresh token could add a factor of the thief's, elevate
 *   with it and then change the password. Someone who just signed in (the Nhost client's flow)
 *   enrols at once; a replayed old refresh token cannot.
 * - Minting a personal access token needs the same fresh proof: a PAT is a way in that outlives
 *   any session (up to AUTH_PAT_MAX_LIFETIME), so a stolen old token must not be able to turn
 *   itself into one.
 */

/** How recent an elevation must be to stand in for the current password: 5 minutes. */
export const FRESH_ELEVATION_SECONDS = 300;

/** How recent a session's sign-in must be to enrol a factor without the current password: 5 minutes. */
export const FRESH_SIGN_IN_SECONDS = 300;

/** 403 forbidden-pat-session for a session that came from POST /signin/pat. */
export function refusePatSession(user: AuthenticatedUser): void {
  if (user.patId !== undefined) throw new AuthError('forbidden-pat-session');
}

/** How the caller proved it may change the credentials. */
export type CredentialProof =
  | { readonly kind: 'current-password' }
  | { readonly kind: 'fresh-elevation' }
  | { readonly kind: 'fresh-sign-in' }
  | { readonly kind: 'password-reset'; readonly familyId: string };

const MISSING = `is required: the account's current password, unless the session was elevated (POST /elevate/webauthn or /elevate/totp) in the last ${FRESH_ELEVATION_SECONDS / 60} minutes`;

/**
 * Checks the proof for a password change (`allowPasswordReset`) or an e-mail change. A wrong
 * current password is 401 invalid-email-password naming the field and counts as a failed
 * sign-in of the account (a stolen token cannot guess at full speed).
 */
export async function proveCredentialChange(
  context: AuthContext,
  input: { request: FastifyRequest; user: AuthenticatedUser; body: Record<string, unknown>; allowPasswordReset: boolean },
): Promise<CredentialProof> {
  const { user } = input;
  refusePatSession(user);
  if (await checkCurrentPassword(context, input)) return { kind: 'current-password' };
  if (freshlyElevated(user)) return { kind: 'fresh-elevation' };
  if (input.allowPasswordReset && user.passwordResetFamily !== undefined) {
    if (await spendPasswordResetGrant(context.pool, { familyId: user.passwordResetFamily, userId: user.userId })) {
      return { kind: 'password-reset', familyId: user.passwordResetFamily };
    }
  }
  throw invalidRequest('currentPassword', MISSING);
}

/** What a caller asks fresh proof for, in the words of the refusal. */
export type EnrolmentPurpose = 'factor' | 'personal-access-token';

const PURPOSE_TEXT: Readonly<Record<EnrolmentPurpose, string>> = {
  factor: 'add a security key, two-factor sign-in or a linked provider',
  'personal-access-token': 'create a personal access token',
};

/**
 * `currentPassword: is required to <purpose>: ...`: the web app shows the password field for any
 * 400 whose message starts with `currentPassword:`.
 * @example missingForEnrolment('personal-access-token') -> "is required to create a personal access token: the account's current password, unless ..."
 */
function missingForEnrolment(purpose: EnrolmentPurpose): string {
  return `is required to ${PURPOSE_TEXT[purpose]}: the account's current password, unless you signed in or elevated (POST /elevate/webauthn or /elevate/totp) in the last ${FRESH_SIGN_IN_SECONDS / 60} minutes`;
}

/**
 * Checks the proof for enrolling a new factor (a security key, TOTP) or, with `purpose`
 * `personal-access-token`, for minting a PAT. Missing proof is 400 naming `currentPassword`; a
 * wrong password is 401 as for a credential change.
 */
export async function proveFactorEnrolment(
  context: AuthContext,
  input: { request: FastifyRequest; user: AuthenticatedUser; body: Record<string, unknown>; purpose?: EnrolmentPurpose },
): Promise<CredentialProof> {
  refusePatSession(input.user);
  if (await checkCurrentPassword(context, input)) return { kind: 'current-password' };
  const fresh = freshSession(input.user);
  if (fresh === undefined) throw invalidRequest('currentPassword', missingForEnrolment(input.purpose ?? 'factor'));
  return fresh;
}

/**
 * For a request that cannot carry the password (the OAuth `connect` redirect, a GET): linking a
 * provider needs a session signed in or elevated in the last 5 minutes; else 400 naming `field`.
 */
export function requireFreshSession(user: AuthenticatedUser, field: string): CredentialProof {
  refusePatSession(user);
  const fresh = freshSession(user);
  if (fresh === undefined) {
    throw invalidRequest(field, `needs a session signed in or elevated in the last ${FRESH_SIGN_IN_SECONDS / 60} minutes: sign in again, then link the provider`);
  }
  return fresh;
}

function freshSession(user: AuthenticatedUser): CredentialProof | undefined {
  if (freshlyElevated(user)) return { kind: 'fresh-elevation' };
  if (user.signedInForSeconds !== undefined && user.signedInForSeconds <= FRESH_SIGN_IN_SECONDS) return { kind: 'fresh-sign-in' };
  return undefined;
}

function freshlyElevated(user: AuthenticatedUser): boolean {
  return user.elevated && user.elevatedForSeconds !== undefined && user.elevatedForSeconds <= FRESH_ELEVATION_SECONDS;
}

/**
 * The one check of `currentPassword`: false when the body has none; true when it is the account's
 * password; a wrong one is 401 invalid-email-password naming the field, audited, and counted as a
 * failed sign-in of the account (a stolen token cannot guess at full speed).
 */
async function checkCurrentPassword(
  context: AuthContext,
  input: { request: FastifyRequest; user: AuthenticatedUser; body: Record<string, unknown> },
): Promise<boolean> {
  const { user } = input;
  const given = input.body.currentPassword;
  if (given === undefined || given === null) return false;
  if (typeof given !== 'string' || given === '') throw invalidRequest('currentPassword', 'must be a non-empty string');
  const attempt = await context.signInThrottle.begin(input.request, { account: userAccount(user.userId) });
  const stored = await context.pool.query<{ password_hash: string | null }>('SELECT password_hash FROM auth.users WHERE id = $1', [user.userId]);
  if (!(await context.passwords.verify(stored.rows[0]?.password_hash ?? null, given))) {
    await attempt.failed();
    await context.audit.record({ action: 'auth.current_password_failed', actorUserId: user.userId, entityId: user.userId, request: input.request });
    throw new AuthError('invalid-email-password', "currentPassword: is not the account's password");
  }
  await attempt.succeeded();
  return true;
}
