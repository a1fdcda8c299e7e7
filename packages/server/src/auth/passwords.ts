import { hash, verify } from '@node-rs/argon2';
import type { AuthConfig } from './config';
import type { Passwords } from './context';
import { AuthError, invalidRequest } from './errors';

/**
 * @node-rs/argon2's defaults: argon2id, 19 MiB, 2 passes, 1 lane (OWASP's minimum profile), the
 * same as the demo seed, so seeded hashes verify. (Its Algorithm enum is an ambient const enum
 * that verbatimModuleSyntax cannot import; the default algorithm is already argon2id.)
 */
const ARGON2_OPTIONS = {} as const;

/** Passwords: argon2id hashing and the length policy (AUTH_PASSWORD_MIN_LENGTH, max 256). */
export function createPasswords(config: AuthConfig): Passwords {
  // Verifying against this when the account does not exist keeps the answer time the same,
  // so timing does not reveal which e-mails have accounts.
  let dummyHash: Promise<string> | undefined;
  return {
    hash: (password) => hash(password, ARGON2_OPTIONS),
    async verify(passwordHash, password) {
      if (passwordHash === null) {
        dummyHash ??= hash('not-a-real-password-hash-seed', ARGON2_OPTIONS);
        await verify(await dummyHash, password).catch(() => false);
        return false;
      }
      try {
        return await verify(passwordHash, password);
      } catch {
        return false;
      }
    },
    check(password, field = 'password') {
      if (typeof password !== 'string') throw invalidRequest(field, 'must be a string');
      if ([...password].length < config.passwordMinLength) throw new AuthError('password-too-short', `Password is too short: at least ${config.passwordMinLength} characters`);
      if ([...password].length > config.passwordMaxLength) throw invalidRequest(field, `must be at most ${config.passwordMaxLength} characters`);
      return password;
    },
  };
}
