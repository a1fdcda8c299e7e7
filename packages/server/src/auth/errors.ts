import type { FastifyReply } from 'fastify';

/**
 * The error codes of docs/AUTH-CONTRACT.md (hasura-auth's), plus four of our own, each with its HTTP status
 * and default message:
 * - `unauthenticated-user` (401): a missing, forged or expired Bearer token (the client's own
 *   code for it, docs/PRODUCT.md section 8; hasura-auth's list has none);
 * - `too-many-requests` (429): a rate limit (sent with Retry-After);
 * - `not-found` (404): a PAT id that is not the caller's;
 * - `forbidden-pat-session` (403): a session signed in with a PAT asked to change the account
 *   (password, e-mail, MFA, security keys, elevation, new PATs).
 */
export const AUTH_ERRORS = {
  'invalid-email-password': { status: 401, message: 'Incorrect email or password' },
  'disabled-user': { status: 401, message: 'User is disabled' },
  'unverified-user': { status: 401, message: 'Email is not verified' },
  'invalid-pat': { status: 401, message: 'Invalid or expired personal access token' },
  'invalid-refresh-token': { status: 401, message: 'Invalid or expired refresh token' },
  'invalid-ticket': { status: 401, message: 'Invalid or expired ticket' },
  'disabled-mfa-totp': { status: 401, message: 'MFA TOTP is not enabled for this user' },
  'invalid-totp': { status: 401, message: 'Invalid TOTP code' },
  'unauthenticated-user': { status: 401, message: 'User is not authenticated' },
  'email-already-in-use': { status: 409, message: 'Email already in use' },
  'disabled-endpoint': { status: 409, message: 'This endpoint is disabled' },
  'forbidden-anonymous': { status: 403, message: 'Forbidden, user is anonymous' },
  'forbidden-pat-session': { status: 403, message: 'A session signed in with a personal access token cannot do this' },
  'signup-disabled': { status: 403, message: 'Sign up is disabled' },
  'elevated-claim-required': { status: 401, message: 'Elevated claim required' },
  'invalid-request': { status: 400, message: 'The request payload is incorrect' },
  'default-role-must-be-in-allowed-roles': { status: 400, message: 'Default role must be in allowed roles' },
  'email-already-verified': { status: 400, message: "User's email is already verified" },
  'locale-not-allowed': { status: 400, message: 'Locale not allowed' },
  'password-too-short': { status: 400, message: 'Password is too short' },
  'password-in-hibp-database': { status: 400, message: 'Password is in HIBP database' },
  'redirectTo-not-allowed': { status: 400, message: 'The value of "options.redirectTo" is not allowed' },
  'role-not-allowed': { status: 400, message: 'Role not allowed' },
  'user-not-anonymous': { status: 400, message: 'Logged in user is not anonymous' },
  'no-totp-secret': { status: 400, message: 'No TOTP secret has been generated' },
  'mfa-type-not-found': { status: 400, message: 'No MFA type found' },
  'totp-already-active': { status: 400, message: 'TOTP is already active' },
  'invalid-state': { status: 400, message: 'Invalid state' },
  'oauth-token-echange-failed': { status: 400, message: 'Failed to exchange the OAuth token' },
  'oauth-profile-fetch-failed': { status: 400, message: 'Failed to fetch the OAuth profile' },
  'oauth-provider-error': { status: 400, message: 'The OAuth provider returned an error' },
  'cannot-send-sms': { status: 400, message: 'Cannot send SMS' },
  'invalid-otp': { status: 400, message: 'Invalid or expired OTP' },
  'not-found': { status: 404, message: 'Not found' },
  'too-many-requests': { status: 429, message: 'Too many requests, try again later' },
  'internal-server-error': { status: 500, message: 'Internal server error' },
} as const satisfies Record<string, { status: number; message: string }>;

export type AuthErrorCode = keyof typeof AUTH_ERRORS;

/**
 * Codes that would tell a caller something about an account (whether it exists, its state).
 * With AUTH_CONCEAL_ERRORS they all become 400 invalid-request "The request payload is
 * incorrect". invalid-refresh-token stays visible: clients need it to end a dead session.
 */
const SENSITIVE_CODES: ReadonlySet<AuthErrorCode> = new Set<AuthErrorCode>([
  'invalid-email-password', 'disabled-user', 'unverified-user', 'invalid-pat', 'invalid-ticket',
  'email-already-in-use', 'email-already-verified', 'forbidden-anonymous', 'user-not-anonymous',
  'invalid-totp', 'invalid-otp', 'disabled-mfa-totp', 'role-not-allowed',
  'default-role-must-be-in-allowed-roles', 'locale-not-allowed',
]);

/** The JSON body of every auth error reply (docs/AUTH-CONTRACT.md). */
export interface AuthErrorBody {
  readonly status: number;
  readonly message: string;
  readonly error: AuthErrorCode;
}

/** An error with an docs/AUTH-CONTRACT.md code; thrown anywhere under /v1/auth, turned into the reply by the plugin. */
export class AuthError extends Error {
  override readonly name = 'AuthError';
  readonly code: AuthErrorCode;
  readonly status: number;
  /** Seconds, for 429 replies. */
  readonly retryAfterSeconds: number | undefined;

  constructor(code: AuthErrorCode, message?: string, options: { retryAfterSeconds?: number; cause?: unknown } = {}) {
    super(message ?? AUTH_ERRORS[code].message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.status = AUTH_ERRORS[code].status;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  /** The reply body, concealed when asked. @example new AuthError('disabled-user').toBody(true) -> {status: 400, message: 'The request payload is incorrect', error: 'invalid-request'} */
  toBody(conceal = false): AuthErrorBody {
    if (conceal && SENSITIVE_CODES.has(this.code)) {
      return { status: 400, message: AUTH_ERRORS['invalid-request'].message, error: 'invalid-request' };
    }
    return { status: this.status, message: this.message, error: this.code };
  }
}

/** Shorthand for a 400 invalid-request naming the field. @example invalidRequest('email', 'must be a valid email address').message -> 'email: must be a valid email address' */
export function invalidRequest(field: string, problem: string): AuthError {
  return new AuthError('invalid-request', `${field}: ${problem}`);
}

/** Sends an AuthError as docs/AUTH-CONTRACT.md's `{status, message, error}` (with Retry-After for 429). */
export function sendAuthError(reply: FastifyReply, error: AuthError, conceal: boolean): FastifyReply {
  const body = error.toBody(conceal);
  if (error.retryAfterSeconds !== undefined) void reply.header('retry-after', String(Math.max(1, Math.ceil(error.retryAfterSeconds))));
  return reply.code(body.status).send(body);
}
