// The checks of the change-e-mail and change-password forms, before anything is sent. Both ask
// for the current password: the auth service refuses a Bearer token alone (auth README,
// "Hardening": a leaked token must not be enough to take an account over).
import { CLIENT_AUTH_ERRORS, isValidEmail, isValidPassword } from '../../auth/auth-errors';

/** A problem with one field of a form. */
export interface FieldIssue<F extends string> {
  readonly field: F;
  readonly message: string;
}

export const CURRENT_PASSWORD_REQUIRED = 'Enter your current password';

/**
 * The first problem of the change-password form, or undefined when it may be sent.
 * @example passwordChangeIssue({currentPassword: '', newPassword: 'long enough one', repeat: 'long enough one'}) -> {field: 'currentPassword', message: 'Enter your current password'}
 */
export function passwordChangeIssue(values: { readonly currentPassword: string; readonly newPassword: string; readonly repeat: string }): FieldIssue<'currentPassword' | 'newPassword' | 'repeat'> | undefined {
  if (values.currentPassword === '') return { field: 'currentPassword', message: CURRENT_PASSWORD_REQUIRED };
  if (!isValidPassword(values.newPassword)) return { field: 'newPassword', message: CLIENT_AUTH_ERRORS['invalid-password'].message };
  if (values.newPassword === values.currentPassword) return { field: 'newPassword', message: 'The new password is the same as the current one' };
  if (values.repeat !== values.newPassword) return { field: 'repeat', message: 'The passwords differ' };
  return undefined;
}

/**
 * The first problem of the change-e-mail form, or undefined when it may be sent.
 * @example emailChangeIssue({newEmail: 'not an address', currentPassword: 'x'}) -> {field: 'newEmail', message: 'Email is incorrectly formatted'}
 */
export function emailChangeIssue(values: { readonly newEmail: string; readonly currentPassword: string }): FieldIssue<'newEmail' | 'currentPassword'> | undefined {
  if (!isValidEmail(values.newEmail.trim())) return { field: 'newEmail', message: CLIENT_AUTH_ERRORS['invalid-email'].message };
  if (values.currentPassword === '') return { field: 'currentPassword', message: CURRENT_PASSWORD_REQUIRED };
  return undefined;
}
