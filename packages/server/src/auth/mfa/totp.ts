import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

// RFC 6238 as authenticator apps implement it: HMAC-SHA-1, 6 digits, 30-second steps, counted
// from the Unix epoch. These are the defaults every app assumes when the otpauth URL omits them.
const STEP_SECONDS = 30;
const DIGITS = 6;
const BASE32_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** Base32 (RFC 4648, no padding): the encoding authenticator apps expect for secrets. */
export function encodeBase32(bytes: Uint8Array): string {
  let bits = 0;
  let buffer = 0;
  let output = '';
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      output += BASE32_ALPHABET[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) output += BASE32_ALPHABET[(buffer << (5 - bits)) & 31];
  return output;
}

/** Decodes base32, ignoring case, spaces and `=` padding; throws on any other character. */
export function decodeBase32(text: string): Buffer {
  const clean = text.replace(/[\s=]/g, '').toUpperCase();
  const bytes: number[] = [];
  let bits = 0;
  let buffer = 0;
  for (const [index, character] of [...clean].entries()) {
    const value = BASE32_ALPHABET.indexOf(character);
    if (value < 0) throw new Error(`base32: invalid character "${character}" at position ${index + 1}`);
    buffer = ((buffer << 5) | value) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      bytes.push((buffer >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}

/** A new random TOTP secret: 20 bytes (the HMAC-SHA-1 block RFC 4226 recommends), base32. */
export function generateTotpSecret(): string {
  return encodeBase32(randomBytes(20));
}

/** The 30-second step that contains an instant. @example totpStep(59_000) // 1 */
export function totpStep(epochMilliseconds: number): number {
  return Math.floor(epochMilliseconds / 1000 / STEP_SECONDS);
}

/** The 6-digit code of one step (RFC 4226 dynamic truncation). @example totpCode({ secret: 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ', step: 1 }) // '287082' */
export function totpCode(input: { secret: string; step: number }): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(input.step));
  const digest = createHmac('sha1', decodeBase32(input.secret)).update(counter).digest();
  // The low nibble of the last byte picks where the 31-bit value starts.
  const offset = (digest[digest.length - 1] ?? 0) & 0x0f;
  const value = digest.readUInt32BE(offset) & 0x7fffffff;
  return String(value % 10 ** DIGITS).padStart(DIGITS, '0');
}

/**
 * The step whose code equals `code`, looking one step either side of now to absorb clock skew
 * (RFC 6238 section 5.2), or undefined. Every candidate is compared in constant time.
 */
export function matchTotp(input: { secret: string; code: string; nowMilliseconds: number }): number | undefined {
  if (!/^\d{6}$/.test(input.code)) return undefined;
  const current = totpStep(input.nowMilliseconds);
  const given = Buffer.from(input.code);
  let matched: number | undefined;
  for (const step of [current - 1, current, current + 1]) {
    const expected = Buffer.from(totpCode({ secret: input.secret, step }));
    // No early exit: the time taken must not say which step matched.
    if (timingSafeEqual(expected, given) && matched === undefined) matched = step;
  }
  return matched;
}

/** The otpauth:// URL authenticator apps scan (Google's Key Uri Format). */
export function otpauthUrl(input: { secret: string; accountName: string; issuer: string }): string {
  const label = `${encodeURIComponent(input.issuer)}:${encodeURIComponent(input.accountName)}`;
  const query = new URLSearchParams({ secret: input.secret, issuer: input.issuer, algorithm: 'SHA1', digits: String(DIGITS), period: String(STEP_SECONDS) });
  return `otpauth://totp/${label}?${query.toString()}`;
}
