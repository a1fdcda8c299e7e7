// Client-side auth errors with the exact codes and messages of docs/PRODUCT.md section 8, and the input
// checks of docs/PRODUCT.md section 5. Status classes (docs/PRODUCT.md section 8): 0 network, 1 internal, 10 input, 20 state.
import type { AuthErrorPayload } from './auth-types';

export const STATUS_NETWORK = 0;
export const STATUS_INTERNAL = 1;
export const STATUS_INPUT = 10;
export const STATUS_STATE = 20;

/** docs/PRODUCT.md section 8: code -> message of the auth client's own errors. */
export const CLIENT_AUTH_ERRORS = {
  'invalid-email': { status: STATUS_INPUT, message: 'Email is incorrectly formatted' },
  'invalid-password': { status: STATUS_INPUT, message: 'Password is incorrectly formatted' },
  'invalid-phone-number': { status: STATUS_INPUT, message: 'Phone number is incorrectly formatted' },
  'invalid-mfa-ticket': { status: STATUS_INPUT, message: 'MFA ticket is invalid' },
  'no-mfa-ticket': { status: STATUS_INPUT, message: 'No MFA ticket has been provided' },
  'no-refresh-token': { status: STATUS_INPUT, message: 'No refresh token has been provided' },
  'refresher-already-running': { status: STATUS_STATE, message: 'The token refresher is already running. You must wait until is has finished before submitting a new token.' },
  'already-signed-in': { status: STATUS_STATE, message: 'User is already signed in' },
  'unauthenticated-user': { status: STATUS_STATE, message: 'User is not authenticated' },
  'unverified-user': { status: STATUS_STATE, message: 'Email needs verification' },
  'invalid-refresh-token': { status: STATUS_STATE, message: 'Invalid or expired refresh token' },
  'invalid-sign-in-method': { status: STATUS_INPUT, message: 'Invalid sign-in method' },
  network: { status: STATUS_NETWORK, message: 'Network Error' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ClientAuthErrorCode = keyof typeof CLIENT_AUTH_ERRORS;

/** The error payload of a client-side code. */
export function clientError(code: ClientAuthErrorCode): AuthErrorPayload {
  const { status, message } = CLIENT_AUTH_ERRORS[code];
  return { status, error: code, message };
}

/** Minimum password length: the auth service's AUTH_PASSWORD_MIN_LENGTH default (spec: "not shown"). */
export const MIN_PASSWORD_LENGTH = 9;

// A standard email pattern (docs/PRODUCT.md section 5): a local part, @, a domain with a dot, no spaces.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const MFA_TICKET = /^mfaTotp:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isValidEmail(email: unknown): email is string {
  return typeof email === 'string' && EMAIL.test(email);
}

export function isValidPassword(password: unknown): password is string {
  return typeof password === 'string' && password.length >= MIN_PASSWORD_LENGTH;
}

export function isValidPhoneNumber(phoneNumber: unknown): phoneNumber is string {
  return typeof phoneNumber === 'string' && phoneNumber.trim() !== '';
}

export function isValidMfaTicket(ticket: unknown): ticket is string {
  return typeof ticket === 'string' && MFA_TICKET.test(ticket);
}

/** docs/PRODUCT.md section 8: a 401 with 'Email is not verified' or code 'unverified-user' means verification is needed. */
export function needsEmailVerification(error: AuthErrorPayload): boolean {
  return error.error === 'unverified-user' || (error.status === 401 && /email is not verified/i.test(error.message));
}
