import { constants, createPublicKey, timingSafeEqual, verify, type JsonWebKey, type KeyObject } from 'node:crypto';

// Verification of an OpenID Connect ID token (OIDC Core 3.1.3.7) with node:crypto: signature by
// a key of the provider's JWKS, algorithm from an allow list (never `none`, never HMAC: a
// provider's public key must not double as a shared secret), issuer, audience, expiry, nonce.

/** The claims Vyuha reads from an ID token. */
export interface IdTokenClaims {
  readonly sub: string;
  readonly iss: string;
  readonly aud: string | readonly string[];
  readonly exp: number;
  readonly iat?: number;
  readonly nonce?: string;
  readonly azp?: string;
  readonly email?: string;
  readonly email_verified?: boolean | string;
  readonly name?: string;
  readonly picture?: string;
  readonly locale?: string;
  readonly [claim: string]: unknown;
}

/** A JSON Web Key as published in a JWKS. */
export interface PublishedKey extends JsonWebKey {
  readonly kid?: string;
  readonly use?: string;
  readonly alg?: string;
}

/** Why an ID token was refused. */
export class IdTokenError extends Error {
  override readonly name = 'IdTokenError';
}

type Verifier = (input: { data: Buffer; signature: Buffer; key: KeyObject }) => boolean;

const VERIFIERS: Readonly<Record<string, Verifier>> = {
  RS256: ({ data, signature, key }) => verify('sha256', data, key, signature),
  RS384: ({ data, signature, key }) => verify('sha384', data, key, signature),
  RS512: ({ data, signature, key }) => verify('sha512', data, key, signature),
  PS256: ({ data, signature, key }) => verify('sha256', data, { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 }, signature),
  ES256: ({ data, signature, key }) => verify('sha256', data, { key, dsaEncoding: 'ieee-p1363' }, signature),
  ES384: ({ data, signature, key }) => verify('sha384', data, { key, dsaEncoding: 'ieee-p1363' }, signature),
  EdDSA: ({ data, signature, key }) => verify(null, data, key, signature),
};

/** The JWS algorithms accepted from providers. */
export const ID_TOKEN_ALGORITHMS: readonly string[] = Object.keys(VERIFIERS);

/** What the token must match. */
export interface IdTokenExpectation {
  readonly keys: readonly PublishedKey[];
  readonly issuers: readonly string[];
  readonly clientId: string;
  readonly nonce: string;
  readonly nowMilliseconds: number;
  /** Allowed clock difference with the provider, in seconds. */
  readonly leewaySeconds?: number;
}

/** Verifies an ID token and returns its claims; throws IdTokenError saying what failed. */
export function verifyIdToken(token: string, expected: IdTokenExpectation): IdTokenClaims {
  const parts = token.split('.');
  if (parts.length !== 3) throw new IdTokenError('the ID token is not a compact JWS');
  const [headerPart = '', payloadPart = '', signaturePart = ''] = parts;
  const header = parseJsonPart(headerPart, 'header') as { alg?: unknown; kid?: unknown };
  const algorithm = typeof header.alg === 'string' ? header.alg : '';
  const verifier = VERIFIERS[algorithm];
  if (!verifier) throw new IdTokenError(`the ID token's algorithm "${algorithm}" is not allowed`);
  const key = pickKey(expected.keys, { kid: typeof header.kid === 'string' ? header.kid : undefined, algorithm });
  const signed = verifier({ data: Buffer.from(`${headerPart}.${payloadPart}`), signature: Buffer.from(signaturePart, 'base64url'), key });
  if (!signed) throw new IdTokenError('the ID token signature does not verify');
  const claims = parseJsonPart(payloadPart, 'payload') as IdTokenClaims;
  checkClaims(claims, expected);
  return claims;
}

function checkClaims(claims: IdTokenClaims, expected: IdTokenExpectation): void {
  const leeway = expected.leewaySeconds ?? 60;
  const now = Math.floor(expected.nowMilliseconds / 1000);
  if (typeof claims.sub !== 'string' || claims.sub === '') throw new IdTokenError('the ID token has no subject');
  if (!expected.issuers.includes(claims.iss)) throw new IdTokenError(`the ID token was issued by "${String(claims.iss)}", not the configured issuer`);
  const audiences = typeof claims.aud === 'string' ? [claims.aud] : Array.isArray(claims.aud) ? claims.aud : [];
  if (!audiences.includes(expected.clientId)) throw new IdTokenError('the ID token is meant for another client');
  if (audiences.length > 1 && claims.azp !== expected.clientId) throw new IdTokenError('the ID token has several audiences and another authorized party');
  if (typeof claims.exp !== 'number' || claims.exp + leeway < now) throw new IdTokenError('the ID token has expired');
  if (typeof claims.iat === 'number' && claims.iat - leeway > now) throw new IdTokenError('the ID token was issued in the future');
  if (typeof claims.nonce !== 'string' || !sameText(claims.nonce, expected.nonce)) throw new IdTokenError('the ID token nonce does not match this sign-in');
}

function pickKey(keys: readonly PublishedKey[], wanted: { kid: string | undefined; algorithm: string }): KeyObject {
  const family = wanted.algorithm.startsWith('ES') ? 'EC' : wanted.algorithm === 'EdDSA' ? 'OKP' : 'RSA';
  const candidates = keys.filter((key) => key.kty === family && (key.use === undefined || key.use === 'sig') && (key.alg === undefined || key.alg === wanted.algorithm));
  const chosen = wanted.kid === undefined ? (candidates.length === 1 ? candidates[0] : undefined) : candidates.find((key) => key.kid === wanted.kid);
  if (!chosen) throw new IdTokenError(`no key of the provider matches the ID token (kid ${wanted.kid ?? 'absent'})`);
  return createPublicKey({ key: chosen, format: 'jwk' });
}

function parseJsonPart(part: string, name: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('not an object');
    return value as Record<string, unknown>;
  } catch {
    throw new IdTokenError(`the ID token ${name} is not a JSON object`);
  }
}

function sameText(left: string, right: string): boolean {
  const a = Buffer.from(left);
  const b = Buffer.from(right);
  return a.length === b.length && timingSafeEqual(a, b);
}
