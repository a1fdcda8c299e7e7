import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeBase32, encodeBase32, generateTotpSecret, matchTotp, otpauthUrl, totpCode, totpStep } from '../../src/auth/mfa/totp';

// RFC 6238 appendix B: the SHA-1 secret is the ASCII "12345678901234567890"; the RFC prints
// 8 digits, authenticator apps show the last 6.
const RFC_SECRET = encodeBase32(Buffer.from('12345678901234567890'));
const RFC_VECTORS: readonly [seconds: number, eightDigits: string][] = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
  [20000000000, '65353130'],
];

describe('TOTP (RFC 6238)', () => {
  it('matches the RFC test vectors', () => {
    expect(RFC_SECRET).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
    for (const [seconds, eightDigits] of RFC_VECTORS) {
      expect(totpCode({ secret: RFC_SECRET, step: totpStep(seconds * 1000) })).toBe(eightDigits.slice(2));
    }
  });

  it('accepts the previous, current and next step and nothing further', () => {
    const now = 1_700_000_000_000;
    const secret = generateTotpSecret();
    const step = totpStep(now);
    for (const offset of [-1, 0, 1]) {
      expect(matchTotp({ secret, code: totpCode({ secret, step: step + offset }), nowMilliseconds: now })).toBe(step + offset);
    }
    for (const offset of [-3, -2, 2, 3]) {
      const code = totpCode({ secret, step: step + offset });
      const collides = [-1, 0, 1].some((near) => totpCode({ secret, step: step + near }) === code);
      if (!collides) expect(matchTotp({ secret, code, nowMilliseconds: now })).toBeUndefined();
    }
  });

  it('rejects malformed codes', () => {
    const secret = generateTotpSecret();
    for (const code of ['', '12345', '1234567', 'abcdef', ' 123456']) expect(matchTotp({ secret, code, nowMilliseconds: 0 })).toBeUndefined();
  });

  it('round-trips base32 for any bytes', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
      expect([...decodeBase32(encodeBase32(bytes))]).toEqual([...bytes]);
    }));
  });

  it('names the bad base32 character', () => {
    expect(() => decodeBase32('ABC1')).toThrow(/"1" at position 4/);
  });

  it('builds an otpauth URL authenticator apps read', () => {
    const url = new URL(otpauthUrl({ secret: 'JBSWY3DPEHPK3PXP', accountName: 'asha@example.com', issuer: 'Vyuha' }));
    expect(url.protocol).toBe('otpauth:');
    expect(url.host).toBe('totp');
    expect(decodeURIComponent(url.pathname)).toBe('/Vyuha:asha@example.com');
    expect(url.searchParams.get('secret')).toBe('JBSWY3DPEHPK3PXP');
    expect(url.searchParams.get('period')).toBe('30');
  });
});
