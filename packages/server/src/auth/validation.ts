import { invalidRequest } from './errors';

/** hasura-auth's e-mail shape: something@domain.tld, no spaces, at most 254 characters. */
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** docs/AUTH-CONTRACT.md's displayName: letters, numbers, symbols, space and , . ' - ; at most 32. */
const DISPLAY_NAME_PATTERN = /^[\p{L}\p{N}\p{S} ,.'-]+$/u;

/** A JSON body as an object (an absent body is `{}`); anything else is invalid-request. */
export function bodyObject(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw invalidRequest('body', 'must be a JSON object');
  return body as Record<string, unknown>;
}

/** A nested optional object (e.g. `options`). */
export function optionalObject(body: Record<string, unknown>, field: string): Record<string, unknown> | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) throw invalidRequest(field, 'must be an object');
  return value as Record<string, unknown>;
}

/** A required non-empty string. */
export function requiredString(body: Record<string, unknown>, field: string): string {
  const value = body[field];
  if (typeof value !== 'string' || value === '') throw invalidRequest(field, 'is required and must be a non-empty string');
  return value;
}

export function optionalString(body: Record<string, unknown>, field: string): string | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw invalidRequest(field, 'must be a string');
  return value;
}

export function optionalBoolean(body: Record<string, unknown>, field: string): boolean | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw invalidRequest(field, 'must be true or false');
  return value;
}

/** A required e-mail address, trimmed; case is kept (citext compares without it). @example requiredEmail({email: ' a@b.in '}, 'email') -> 'a@b.in' */
export function requiredEmail(body: Record<string, unknown>, field: string): string {
  const value = body[field];
  if (typeof value !== 'string') throw invalidRequest(field, 'is required and must be an email address');
  const email = value.trim();
  if (email.length > 254 || !EMAIL_PATTERN.test(email)) throw invalidRequest(field, 'must be a valid email address');
  return email;
}

export function requiredUuid(body: Record<string, unknown>, field: string): string {
  const value = body[field];
  if (typeof value !== 'string' || !UUID_PATTERN.test(value)) throw invalidRequest(field, 'must be a UUID');
  return value.toLowerCase();
}

/** SignUpOptions (docs/AUTH-CONTRACT.md), shape-checked; role and redirect policy are checked by the caller. */
export interface SignUpOptions {
  readonly allowedRoles?: readonly string[];
  readonly defaultRole?: string;
  readonly displayName?: string;
  readonly locale?: string;
  readonly metadata?: Record<string, unknown>;
  readonly redirectTo?: string;
}

/** Reads `options` of a sign-up style body. */
export function readSignUpOptions(body: Record<string, unknown>, field = 'options'): SignUpOptions {
  const options = optionalObject(body, field) ?? {};
  const result: { -readonly [K in keyof SignUpOptions]: SignUpOptions[K] } = {};
  const allowedRoles = options.allowedRoles;
  if (allowedRoles !== undefined) {
    if (!Array.isArray(allowedRoles) || allowedRoles.some((role) => typeof role !== 'string')) throw invalidRequest(`${field}.allowedRoles`, 'must be a list of role names');
    result.allowedRoles = allowedRoles as string[];
  }
  const defaultRole = optionalString(options, 'defaultRole');
  if (defaultRole !== undefined) result.defaultRole = defaultRole;
  const displayName = optionalString(options, 'displayName');
  if (displayName !== undefined) {
    if ([...displayName].length > 32 || !DISPLAY_NAME_PATTERN.test(displayName)) throw invalidRequest(`${field}.displayName`, "must be at most 32 letters, digits, symbols, spaces or , . ' -");
    result.displayName = displayName;
  }
  const locale = optionalString(options, 'locale');
  if (locale !== undefined) {
    if (!/^[a-z]{2}$/.test(locale)) throw invalidRequest(`${field}.locale`, 'must be two lowercase letters');
    result.locale = locale;
  }
  const metadata = optionalObject(options, 'metadata');
  if (metadata !== undefined) result.metadata = metadata;
  const redirectTo = optionalString(options, 'redirectTo');
  if (redirectTo !== undefined) result.redirectTo = redirectTo;
  return result;
}
