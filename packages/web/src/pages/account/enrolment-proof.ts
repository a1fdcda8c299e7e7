// What the security-key, two-factor and access-token sections do when the auth service asks for
// fresh proof before a new factor is enrolled or a personal access token created (auth README,
// "Hardening"): a session signed in more than 5
// minutes ago (or a stolen token) must give the current password. The server says so with a 400
// whose message starts with `currentPassword:`, and a wrong password is a 401 whose message starts
// the same way; both are shown under the current-password field, which the section then shows.
import type { AuthErrorPayload } from '../../auth/auth-types';
import { CURRENT_PASSWORD_REQUIRED, type FieldIssue } from './credential-forms';

/** Shown when the server asks for the password the user has not typed yet. */
export const PROOF_NEEDED =
  'For your safety, enter your current password: you signed in more than 5 minutes ago';

/** Shown when the server refused the password that was sent. */
export const WRONG_CURRENT_PASSWORD = 'The current password is not right';

/** For accounts made with a security key, a sign-in link or a code. */
export const NO_PASSWORD_HINT = 'No password on this account? Sign out and sign in again, then add it within 5 minutes.';

/**
 * The field problem for a refusal of the server, or undefined when the refusal is about something
 * else (then the section shows the server's message as it is).
 * @example enrolmentProofIssue({status: 400, error: 'invalid-request', message: 'currentPassword: is required to add a security key, ...'}) -> {field: 'currentPassword', message: PROOF_NEEDED}
 */
export function enrolmentProofIssue(error: AuthErrorPayload): FieldIssue<'currentPassword'> | undefined {
  if (!error.message.startsWith('currentPassword:')) return undefined;
  if (error.error === 'invalid-email-password') return { field: 'currentPassword', message: WRONG_CURRENT_PASSWORD };
  return error.error === 'invalid-request' ? { field: 'currentPassword', message: PROOF_NEEDED } : undefined;
}

/**
 * What to send with the enrolment: the password once the field is shown (nothing before, so a
 * fresh session enrols without it, as the Nhost client does).
 * @example proofBody({shown: true, currentPassword: ''}) -> {field: 'currentPassword', message: 'Enter your current password'}
 */
export function proofBody(input: { readonly shown: boolean; readonly currentPassword: string }): { currentPassword?: string } | FieldIssue<'currentPassword'> {
  if (!input.shown) return {};
  if (input.currentPassword === '') return { field: 'currentPassword', message: CURRENT_PASSWORD_REQUIRED };
  return { currentPassword: input.currentPassword };
}
