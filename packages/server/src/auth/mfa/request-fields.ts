import type { FastifyReply } from 'fastify';
import { invalidRequest } from '../errors';

// Body reading for the sign-in method routes: every problem is a 400 invalid-request naming the
// field (docs/AUTH-CONTRACT.md's default error).

/** The request body as an object (an absent body reads as `{}`). */
export function bodyObject(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw invalidRequest('body', 'must be a JSON object');
  return body as Record<string, unknown>;
}

/** A required non-empty string field. */
export function requiredString(object: Record<string, unknown>, field: string): string {
  const value = object[field];
  if (typeof value !== 'string' || value.trim() === '') throw invalidRequest(field, 'is required and must be a non-empty string');
  return value.trim();
}

/** An optional string field (undefined when absent). */
export function optionalString(object: Record<string, unknown>, field: string): string | undefined {
  const value = object[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw invalidRequest(field, 'must be a string');
  return value;
}

/** An optional object field (undefined when absent). */
export function optionalObject(object: Record<string, unknown>, field: string): Record<string, unknown> | undefined {
  const value = object[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) throw invalidRequest(field, 'must be an object');
  return value as Record<string, unknown>;
}

/** An e-mail address, lower-cased for lookups. */
export function requiredEmail(object: Record<string, unknown>, field = 'email'): string {
  const email = requiredString(object, field);
  if (email.length > 254 || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) throw invalidRequest(field, 'must be a valid email address');
  return email.toLowerCase();
}

/** A phone number as stored in auth.users: optional +, then 6 to 15 digits (spaces and dashes dropped). */
export function requiredPhoneNumber(object: Record<string, unknown>, field = 'phoneNumber'): string {
  const phoneNumber = requiredString(object, field).replace(/[\s()-]/g, '');
  if (!/^\+?[0-9]{6,15}$/.test(phoneNumber)) throw invalidRequest(field, 'must be a phone number: an optional + and 6 to 15 digits');
  return phoneNumber;
}

/**
 * Answers `"OK"` as a JSON string, as hasura-auth does: the Nhost client JSON-parses every
 * response body, and a bare `OK` (text/plain) makes it throw.
 */
export function replyOk(reply: FastifyReply): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(JSON.stringify('OK'));
}
