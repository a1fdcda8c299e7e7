import { createHmac, sign as rsaSign, timingSafeEqual, verify as rsaVerify, type KeyObject } from 'node:crypto';

/** The payload of a Vyuha access token (docs/AUTH-CONTRACT.md's JWT layout). */
export interface AccessTokenClaims {
  readonly sub: string;
  readonly iss: string;
  readonly iat: number;
  readonly exp: number;
  readonly [namespace: string]: unknown;
}

export type JwtAlgorithm = 'RS256' | 'HS256';

/** Why a token was refused; the HTTP answer is always 401 unauthenticated-user, the reason goes to tests and debug logs. */
export type JwtFailure =
  | 'malformed' | 'algorithm-not-allowed' | 'unknown-key' | 'bad-signature' | 'expired' | 'not-yet-valid' | 'wrong-issuer' | 'missing-claims';

export class JwtError extends Error {
  override readonly name = 'JwtError';
  constructor(readonly reason: JwtFailure, message: string) {
    super(message);
  }
}

/** The key to sign with: an RSA private key with its id, or an HMAC secret. */
export type SigningKey =
  | { readonly algorithm: 'RS256'; readonly kid: string; readonly privateKey: KeyObject }
  | { readonly algorithm: 'HS256'; readonly secret: Buffer };

/** The keys a verifier accepts: exactly one algorithm (the allow list), and for RS256 the public keys by id. */
export type VerificationKeys =
  | { readonly algorithm: 'RS256'; readonly publicKey: (kid: string) => Promise<KeyObject | undefined> }
  | { readonly algorithm: 'HS256'; readonly secret: Buffer };

/** base64url without padding. @example base64url(Buffer.from('hi')) -> 'aGk' */
export function base64url(data: Buffer | string): string {
  return Buffer.from(data).toString('base64url');
}

/** Signs a compact JWS. */
export function signJwt(claims: Readonly<Record<string, unknown>>, key: SigningKey): string {
  const header = key.algorithm === 'RS256' ? { alg: 'RS256', typ: 'JWT', kid: key.kid } : { alg: 'HS256', typ: 'JWT' };
  const signingInput = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(claims))}`;
  const signature = key.algorithm === 'RS256'
    ? rsaSign('sha256', Buffer.from(signingInput), key.privateKey)
    : createHmac('sha256', key.secret).update(signingInput).digest();
  return `${signingInput}.${base64url(signature)}`;
}

/**
 * Verifies a compact JWS and its registered claims. Only the configured algorithm is accepted:
 * `none`, and HS256 when keys are RSA (the classic confusion where the public key is used as an
 * HMAC secret), are refused before any key is touched.
 */
export async function verifyJwt(token: string, options: { keys: VerificationKeys; issuer: string; nowSeconds: number }): Promise<AccessTokenClaims> {
  const parts = token.split('.');
  if (parts.length !== 3) throw new JwtError('malformed', 'a JWT has three dot-separated parts');
  const [headerPart = '', payloadPart = '', signaturePart = ''] = parts;
  const header = decodeJson(headerPart, 'header');
  if (header.alg !== options.keys.algorithm) throw new JwtError('algorithm-not-allowed', `algorithm ${String(header.alg)} is not allowed`);
  const signingInput = Buffer.from(`${headerPart}.${payloadPart}`);
  const signature = Buffer.from(signaturePart, 'base64url');
  if (!(await signatureMatches({ header, signingInput, signature, keys: options.keys }))) throw new JwtError('bad-signature', 'the signature does not match');
  const payload = decodeJson(payloadPart, 'payload');
  checkRegisteredClaims(payload, options);
  return payload as unknown as AccessTokenClaims;
}

async function signatureMatches(input: { header: Record<string, unknown>; signingInput: Buffer; signature: Buffer; keys: VerificationKeys }): Promise<boolean> {
  const { keys } = input;
  if (keys.algorithm === 'HS256') {
    const expected = createHmac('sha256', keys.secret).update(input.signingInput).digest();
    // Constant time: a byte-by-byte compare would leak how much of a forged MAC was right.
    return expected.length === input.signature.length && timingSafeEqual(expected, input.signature);
  }
  if (typeof input.header.kid !== 'string') throw new JwtError('unknown-key', 'the token names no key id');
  const publicKey = await keys.publicKey(input.header.kid);
  if (!publicKey) throw new JwtError('unknown-key', `no key with id ${input.header.kid}`);
  return rsaVerify('sha256', input.signingInput, publicKey, input.signature);
}

function checkRegisteredClaims(payload: Record<string, unknown>, options: { issuer: string; nowSeconds: number }): void {
  const { exp, iat, iss, sub } = payload;
  if (typeof exp !== 'number' || typeof iat !== 'number' || typeof sub !== 'string') throw new JwtError('missing-claims', 'exp, iat and sub are required');
  if (iss !== options.issuer) throw new JwtError('wrong-issuer', `issuer ${String(iss)} is not ${options.issuer}`);
  if (exp <= options.nowSeconds) throw new JwtError('expired', 'the token has expired');
  // A minute of leeway for clocks of several processes; a token from the future is forged or misdated.
  if (iat > options.nowSeconds + 60) throw new JwtError('not-yet-valid', 'the token was issued in the future');
}

function decodeJson(part: string, what: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // fall through to the error below
  }
  throw new JwtError('malformed', `the ${what} is not a base64url JSON object`);
}
