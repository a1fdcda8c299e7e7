import { randomInt } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

// Six-digit one-time codes for SMS and e-mail sign-in. Only an argon2id hash is stored: a
// million codes are quick to try offline against a fast hash, much slower against argon2id, and
// online guessing is capped by the attempt counter (auth.otp_attempts).

/** A fresh code of 6 uniformly random digits. */
export function newOneTimeCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

/** The stored form of a code (argon2id, light parameters: the code dies in minutes). */
export function hashOneTimeCode(code: string): Promise<string> {
  return hash(code, { memoryCost: 4096, timeCost: 2, parallelism: 1 });
}

/** Whether `code` is the one hashed; false for a malformed code or hash. */
export async function oneTimeCodeMatches(input: { storedHash: string; code: string }): Promise<boolean> {
  if (!/^\d{6}$/.test(input.code)) return false;
  try {
    return await verify(input.storedHash, input.code);
  } catch {
    return false;
  }
}
