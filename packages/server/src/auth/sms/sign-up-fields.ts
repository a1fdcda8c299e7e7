import type { CreateUserOptions } from '../context';
import { AuthError, invalidRequest } from '../errors';

// SignUpOptions (docs/AUTH-CONTRACT.md) as given to the passwordless and provider sign-ups, turned into the
// core's CreateUserOptions. The core's users.create checks roles, locale and display name.

type SignUpFields = Pick<CreateUserOptions, 'displayName' | 'locale' | 'metadata' | 'defaultRole' | 'allowedRoles'>;

/** The user-creation fields of a SignUpOptions object (undefined or {} gives none). */
export function signUpFields(options: Readonly<Record<string, unknown>> | undefined): SignUpFields {
  if (!options) return {};
  const fields: { -readonly [K in keyof SignUpFields]: SignUpFields[K] } = {};
  if (options.displayName !== undefined) {
    if (typeof options.displayName !== 'string') throw invalidRequest('options.displayName', 'must be a string');
    fields.displayName = options.displayName;
  }
  if (options.locale !== undefined) {
    if (typeof options.locale !== 'string') throw invalidRequest('options.locale', 'must be a 2-letter string');
    fields.locale = options.locale;
  }
  if (options.metadata !== undefined) {
    if (typeof options.metadata !== 'object' || options.metadata === null || Array.isArray(options.metadata)) throw invalidRequest('options.metadata', 'must be an object');
    fields.metadata = options.metadata as Record<string, unknown>;
  }
  if (options.defaultRole !== undefined) {
    if (typeof options.defaultRole !== 'string') throw invalidRequest('options.defaultRole', 'must be a string');
    fields.defaultRole = options.defaultRole;
  }
  if (options.allowedRoles !== undefined) {
    if (!Array.isArray(options.allowedRoles) || !options.allowedRoles.every((role) => typeof role === 'string')) throw invalidRequest('options.allowedRoles', 'must be an array of strings');
    fields.allowedRoles = options.allowedRoles as string[];
  }
  return fields;
}

/** Whether creating a user failed because the e-mail or phone number was taken meanwhile (users.create reports it as email-already-in-use). */
export function isTakenIdentity(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === '23505' || (error instanceof AuthError && error.code === 'email-already-in-use');
}
