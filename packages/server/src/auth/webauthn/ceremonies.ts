import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransportFuture,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type pg from 'pg';
import type { AuthContext } from '../context';
import { AuthError, invalidRequest } from '../errors';
import { challengeOf, saveChallenge, takeChallenge, type ChallengePurpose, type StoredChallenge } from './challenge-store';
import type { WebauthnSettings } from './webauthn-config';

// The two WebAuthn ceremonies (registration and assertion) on top of @simplewebauthn/server,
// with challenges kept server-side and credentials in auth.user_security_keys.

interface StoredKey {
  readonly id: string;
  readonly userId: string;
  readonly credentialId: string;
  readonly publicKey: Buffer;
  readonly counter: number;
  readonly transports: AuthenticatorTransportFuture[];
}

type Queryable = Pick<pg.Pool, 'query'>;

/** Creation options for a new credential, with the challenge stored for `purpose`. */
export async function startRegistration(
  context: AuthContext,
  input: { settings: WebauthnSettings; purpose: 'signup' | 'add'; userName: string; displayName: string; userId?: string; email?: string; options?: Record<string, unknown> },
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const existing = input.userId === undefined ? [] : await keysOfUser(context.pool, input.userId);
  const options = await generateRegistrationOptions({
    rpName: input.settings.rpName,
    rpID: input.settings.rpId,
    userName: input.userName,
    userDisplayName: input.displayName,
    // The user handle: the account id when it exists; random bytes for a sign-up (no user yet).
    ...(input.userId === undefined ? {} : { userID: Buffer.from(input.userId) }),
    attestationType: 'none',
    timeout: input.settings.timeoutMilliseconds,
    excludeCredentials: existing.map((key) => ({ id: key.credentialId, transports: key.transports })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
  });
  await saveChallenge(context.pool, { challenge: options.challenge, purpose: input.purpose, timeoutMilliseconds: input.settings.timeoutMilliseconds, ...pick(input) });
  return options;
}

/** Request options for an assertion; with `userId`, only that user's keys are allowed. */
export async function startAssertion(context: AuthContext, input: { settings: WebauthnSettings; purpose: 'signin' | 'elevate'; userId?: string }): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const keys = input.userId === undefined ? [] : await keysOfUser(context.pool, input.userId);
  const options = await generateAuthenticationOptions({
    rpID: input.settings.rpId,
    timeout: input.settings.timeoutMilliseconds,
    userVerification: 'preferred',
    ...(keys.length === 0 ? {} : { allowCredentials: keys.map((key) => ({ id: key.credentialId, transports: key.transports })) }),
  });
  await saveChallenge(context.pool, { challenge: options.challenge, purpose: input.purpose, timeoutMilliseconds: input.settings.timeoutMilliseconds, ...(input.userId === undefined ? {} : { userId: input.userId }) });
  return options;
}

/** The stored challenge a credential answers, used up; invalid-request when unknown or expired. */
export async function answeredChallenge(context: AuthContext, input: { credential: unknown; purpose: ChallengePurpose }): Promise<StoredChallenge> {
  checkCredentialShape(input.credential);
  const challenge = challengeOf(input.credential);
  const stored = challenge === undefined ? undefined : await takeChallenge(context.pool, { challenge, purpose: input.purpose });
  if (!stored) throw invalidRequest('credential', 'answers no pending challenge (unknown, used or expired): start again');
  return stored;
}

/** Verifies an attestation and returns the credential to store; 401 when it does not verify. */
export async function verifyRegistration(input: { settings: WebauthnSettings; credential: unknown; challenge: string }): Promise<{ credentialId: string; publicKey: Buffer; counter: number; transports: string[] }> {
  let verified;
  try {
    verified = await verifyRegistrationResponse({
      response: input.credential as RegistrationResponseJSON,
      expectedChallenge: input.challenge,
      expectedOrigin: [...input.settings.origins],
      expectedRPID: input.settings.rpId,
      requireUserVerification: false,
    });
  } catch (error) {
    throw new AuthError('unauthenticated-user', `The security key could not be registered: ${(error as Error).message}`);
  }
  if (!verified.verified) throw new AuthError('unauthenticated-user', 'The security key could not be registered');
  const credential = verified.registrationInfo.credential;
  const transports = (input.credential as { response?: { transports?: unknown } }).response?.transports;
  return {
    credentialId: credential.id,
    publicKey: Buffer.from(credential.publicKey),
    counter: credential.counter,
    transports: Array.isArray(transports) ? transports.filter((item): item is string => typeof item === 'string') : [],
  };
}

/** Stores a verified credential for a user and returns its row id. */
export async function storeKey(database: Queryable, input: { userId: string; key: { credentialId: string; publicKey: Buffer; counter: number; transports: string[] }; nickname: string | undefined }): Promise<string> {
  try {
    const result = await database.query<{ id: string }>(
      `INSERT INTO auth.user_security_keys (user_id, credential_id, credential_public_key, counter, transports, nickname)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
      [input.userId, input.key.credentialId, input.key.publicKey, input.key.counter, input.key.transports.join(','), input.nickname ?? null],
    );
    return result.rows[0]?.id ?? '';
  } catch (error) {
    if ((error as { code?: string }).code === '23505') throw invalidRequest('credential', 'this security key is already registered');
    throw error;
  }
}

/**
 * Verifies an assertion against the stored key it names and moves the key's counter forward;
 * returns the key's user. A counter that does not rise (a cloned authenticator) is refused.
 */
export async function verifyAssertion(context: AuthContext, input: { settings: WebauthnSettings; credential: unknown; challenge: string; userId: string | null }): Promise<string> {
  const credentialId = (input.credential as { id?: unknown }).id;
  const key = typeof credentialId === 'string' ? await keyByCredentialId(context.pool, credentialId) : undefined;
  if (!key || (input.userId !== null && key.userId !== input.userId)) throw new AuthError('unauthenticated-user', 'Unknown security key');
  let verified;
  try {
    verified = await verifyAuthenticationResponse({
      response: input.credential as AuthenticationResponseJSON,
      expectedChallenge: input.challenge,
      expectedOrigin: [...input.settings.origins],
      expectedRPID: input.settings.rpId,
      credential: { id: key.credentialId, publicKey: new Uint8Array(key.publicKey), counter: key.counter, transports: key.transports },
      requireUserVerification: false,
    });
  } catch (error) {
    throw new AuthError('unauthenticated-user', `The security key could not be verified: ${(error as Error).message}`);
  }
  if (!verified.verified) throw new AuthError('unauthenticated-user', 'The security key could not be verified');
  const newCounter = verified.authenticationInfo.newCounter;
  // Compare-and-set: two assertions racing with the same counter value cannot both pass.
  const moved = await context.pool.query(
    'UPDATE auth.user_security_keys SET counter = $2 WHERE id = $1 AND (counter < $2 OR ($2 = 0 AND counter = 0))',
    [key.id, newCounter],
  );
  if (moved.rowCount !== 1) throw new AuthError('unauthenticated-user', 'The security key counter did not advance: the key may be cloned');
  return key.userId;
}

/** The user's keys. */
export async function keysOfUser(database: Queryable, userId: string): Promise<StoredKey[]> {
  const result = await database.query<KeyRow>(`${KEY_SELECT} WHERE user_id = $1 ORDER BY created_at`, [userId]);
  return result.rows.map(toKey);
}

async function keyByCredentialId(database: Queryable, credentialId: string): Promise<StoredKey | undefined> {
  const result = await database.query<KeyRow>(`${KEY_SELECT} WHERE credential_id = $1`, [credentialId]);
  const row = result.rows[0];
  return row ? toKey(row) : undefined;
}

interface KeyRow {
  id: string;
  user_id: string;
  credential_id: string;
  credential_public_key: Buffer;
  counter: string;
  transports: string;
}

const KEY_SELECT = 'SELECT id, user_id, credential_id, credential_public_key, counter, transports FROM auth.user_security_keys';

function toKey(row: KeyRow): StoredKey {
  return {
    id: row.id,
    userId: row.user_id,
    credentialId: row.credential_id,
    publicKey: row.credential_public_key,
    counter: Number(row.counter),
    transports: row.transports.split(',').filter((transport) => transport !== '') as AuthenticatorTransportFuture[],
  };
}

function checkCredentialShape(credential: unknown): void {
  const value = credential as { id?: unknown; rawId?: unknown; response?: unknown; type?: unknown } | null;
  if (typeof value !== 'object' || value === null) throw invalidRequest('credential', 'is required and must be a PublicKeyCredential JSON object');
  if (typeof value.id !== 'string' || typeof value.response !== 'object' || value.response === null) throw invalidRequest('credential', 'must have an id and a response');
}

function pick(input: { userId?: string; email?: string; options?: Record<string, unknown> }): { userId?: string; email?: string; options?: Record<string, unknown> } {
  return {
    ...(input.userId === undefined ? {} : { userId: input.userId }),
    ...(input.email === undefined ? {} : { email: input.email }),
    ...(input.options === undefined ? {} : { options: input.options }),
  };
}
