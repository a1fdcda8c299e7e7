import { createHmac, generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { IdTokenError, verifyIdToken, type PublishedKey } from '../../src/auth/oauth/id-token';

// Forged and wrong ID tokens, each refused for its own reason.

const NOW = Date.UTC(2025, 0, 6, 4, 0, 0);
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const JWK: PublishedKey = { ...publicKey.export({ format: 'jwk' }), kid: 'k1', use: 'sig', alg: 'RS256' };
const GOOD_CLAIMS = { sub: 'u1', iss: 'https://idp.example', aud: 'client-1', exp: NOW / 1000 + 600, iat: NOW / 1000, nonce: 'n-1', email: 'a@example.com' };
const EXPECTED = { keys: [JWK], issuers: ['https://idp.example'], clientId: 'client-1', nonce: 'n-1', nowMilliseconds: NOW };

const part = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

function rsToken(claims: Record<string, unknown>, header: Record<string, unknown> = { alg: 'RS256', kid: 'k1' }): string {
  const input = `${part(header)}.${part(claims)}`;
  return `${input}.${sign('sha256', Buffer.from(input), privateKey).toString('base64url')}`;
}

describe('ID token verification', () => {
  it('accepts a well-formed token', () => {
    expect(verifyIdToken(rsToken(GOOD_CLAIMS), EXPECTED).email).toBe('a@example.com');
  });

  const forgeries: readonly [string, () => string, RegExp][] = [
    ['alg none', () => `${part({ alg: 'none' })}.${part(GOOD_CLAIMS)}.`, /algorithm "none"/],
    ['HS256 keyed with the public key', () => {
      const input = `${part({ alg: 'HS256', kid: 'k1' })}.${part(GOOD_CLAIMS)}`;
      return `${input}.${createHmac('sha256', publicKey.export({ format: 'pem', type: 'spki' })).update(input).digest('base64url')}`;
    }, /algorithm "HS256"/],
    ['tampered claims', () => {
      const [header, , signature] = rsToken(GOOD_CLAIMS).split('.');
      return `${header}.${part({ ...GOOD_CLAIMS, sub: 'admin' })}.${signature}`;
    }, /signature/],
    ['unknown key id', () => rsToken(GOOD_CLAIMS, { alg: 'RS256', kid: 'other' }), /no key/],
    ['wrong issuer', () => rsToken({ ...GOOD_CLAIMS, iss: 'https://evil.example' }), /issued by/],
    ['wrong audience', () => rsToken({ ...GOOD_CLAIMS, aud: 'client-2' }), /another client/],
    ['expired', () => rsToken({ ...GOOD_CLAIMS, exp: NOW / 1000 - 3600 }), /expired/],
    ['wrong nonce', () => rsToken({ ...GOOD_CLAIMS, nonce: 'n-2' }), /nonce/],
    ['missing nonce', () => rsToken({ ...GOOD_CLAIMS, nonce: undefined }), /nonce/],
  ];
  for (const [name, forge, reason] of forgeries) {
    it(`refuses ${name}`, () => {
      expect(() => verifyIdToken(forge(), EXPECTED)).toThrow(IdTokenError);
      expect(() => verifyIdToken(forge(), EXPECTED)).toThrow(reason);
    });
  }
});
