import { createCipheriv, createDecipheriv, createHash, createPrivateKey, createPublicKey, generateKeyPairSync, hkdfSync, randomBytes, type KeyObject } from 'node:crypto';
import type pg from 'pg';
import type { AuthConfig } from './config';
import type { SigningKeys } from './context';
import { signJwt, verifyJwt, type AccessTokenClaims, type SigningKey, type VerificationKeys } from './jwt';

interface StoredKey {
  readonly kid: string;
  readonly publicKey: KeyObject;
  readonly privateKey: KeyObject;
  readonly retiredAt: Date | null;
}

/** How long the in-memory key set is trusted before re-reading it (another process may have rotated). */
const KEY_CACHE_MILLISECONDS = 60_000;

/**
 * The signing keys of the configured algorithm: HS256 with the configured secret; RS256 with the
 * configured PEM pair, or else with key pairs generated on first use and kept in auth.signing_keys.
 */
export function createSigningKeys(options: { pool: pg.Pool; config: AuthConfig; now?: () => number }): SigningKeys {
  const { config, pool } = options;
  const now = options.now ?? Date.now;
  const jwt = config.jwt;
  const nowSeconds = (): number => Math.floor(now() / 1000);
  if (jwt.type === 'HS256') {
    const secret = Buffer.from(jwt.key, 'utf8');
    return {
      sign: async (claims) => signJwt(claims, { algorithm: 'HS256', secret }),
      verify: (token) => verifyJwt(token, { keys: { algorithm: 'HS256', secret }, issuer: jwt.issuer, nowSeconds: nowSeconds() }),
      jwks: async () => ({ keys: [] }),
    };
  }
  const store = jwt.key !== undefined && jwt.signingKey !== undefined
    ? staticKeyStore(jwt.key, jwt.signingKey)
    : databaseKeyStore({ pool, config, now });
  const verificationKeys: VerificationKeys = {
    algorithm: 'RS256',
    publicKey: async (kid) => (await store.find(kid))?.publicKey,
  };
  return {
    async sign(claims: AccessTokenClaims) {
      const current = await store.current();
      const key: SigningKey = { algorithm: 'RS256', kid: current.kid, privateKey: current.privateKey };
      return signJwt(claims, key);
    },
    verify: (token) => verifyJwt(token, { keys: verificationKeys, issuer: jwt.issuer, nowSeconds: nowSeconds() }),
    async jwks() {
      const keys = await store.published();
      return { keys: keys.map((key) => ({ ...(key.publicKey.export({ format: 'jwk' }) as Record<string, string>), kid: key.kid, alg: 'RS256', use: 'sig' })) };
    },
  };
}

interface KeyStore {
  current(): Promise<StoredKey>;
  published(): Promise<readonly StoredKey[]>;
  find(kid: string): Promise<StoredKey | undefined>;
}

/** An unknown key id re-reads the keys (another process may have rotated), at most this often. */
const UNKNOWN_KID_RELOAD_MILLISECONDS = 5_000;

function staticKeyStore(publicPem: string, privatePem: string): KeyStore {
  const publicKey = createPublicKey(publicPem);
  const key: StoredKey = { kid: keyId(publicKey), publicKey, privateKey: createPrivateKey(privatePem), retiredAt: null };
  return { current: async () => key, published: async () => [key], find: async (kid) => (kid === key.kid ? key : undefined) };
}

function databaseKeyStore(options: { pool: pg.Pool; config: AuthConfig; now: () => number }): KeyStore {
  let cache: { keys: StoredKey[]; loadedAt: number } | undefined;
  const load = async (force: boolean): Promise<StoredKey[]> => {
    if (!force && cache && options.now() - cache.loadedAt < KEY_CACHE_MILLISECONDS) return cache.keys;
    let keys = await readKeys(options.pool, options.config);
    if (!keys.some((key) => key.retiredAt === null)) {
      await rotateSigningKey({ pool: options.pool, config: options.config, onlyIfNone: true });
      keys = await readKeys(options.pool, options.config);
    }
    cache = { keys, loadedAt: options.now() };
    return keys;
  };
  return {
    async current() {
      const current = (await load(false)).find((key) => key.retiredAt === null) ?? (await load(true)).find((key) => key.retiredAt === null);
      if (!current) throw new Error('no current signing key after generating one');
      return current;
    },
    published: () => load(false),
    async find(kid) {
      const found = (await load(false)).find((key) => key.kid === kid);
      if (found || !cache || options.now() - cache.loadedAt < UNKNOWN_KID_RELOAD_MILLISECONDS) return found;
      return (await load(true)).find((key) => key.kid === kid);
    },
  };
}

async function readKeys(pool: pg.Pool, config: AuthConfig): Promise<StoredKey[]> {
  // Retired keys stay published while tokens they signed can still be alive.
  const result = await pool.query<{ kid: string; public_key: string; private_key: string; retired_at: Date | null }>(
    `SELECT kid, public_key, private_key, retired_at FROM auth.signing_keys
     WHERE retired_at IS NULL OR retired_at > now() - make_interval(secs => $1)
     ORDER BY created_at DESC`,
    [config.accessTokenExpiresIn],
  );
  return result.rows.map((row) => ({
    kid: row.kid,
    publicKey: createPublicKey(row.public_key),
    privateKey: createPrivateKey(decryptPrivateKey(row.private_key, config.signingKeyEncryptionSecret)),
    retiredAt: row.retired_at,
  }));
}

/**
 * Generates a new RS256 key pair and makes it the signing key; the previous key is retired but
 * stays in the JWKS until its last token expires. `onlyIfNone` (first start) does nothing when a
 * current key exists, so several processes starting together create exactly one. Returns the
 * new key id, or undefined when nothing was done.
 */
export async function rotateSigningKey(options: { pool: pg.Pool; config: AuthConfig; onlyIfNone?: boolean }): Promise<string | undefined> {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = keyId(publicKey);
  const client = await options.pool.connect();
  try {
    await client.query('BEGIN');
    // Serialises rotations (and first starts) across processes.
    await client.query('LOCK TABLE auth.signing_keys IN SHARE ROW EXCLUSIVE MODE');
    if (options.onlyIfNone) {
      const current = await client.query('SELECT 1 FROM auth.signing_keys WHERE retired_at IS NULL');
      if (current.rowCount) {
        await client.query('ROLLBACK');
        return undefined;
      }
    }
    await client.query('UPDATE auth.signing_keys SET retired_at = now() WHERE retired_at IS NULL');
    await client.query('INSERT INTO auth.signing_keys (kid, public_key, private_key) VALUES ($1, $2, $3)', [
      kid,
      publicKey.export({ format: 'pem', type: 'spki' }).toString(),
      encryptPrivateKey(privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(), options.config.signingKeyEncryptionSecret),
    ]);
    await client.query('COMMIT');
    return kid;
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}

/** RFC 7638-style thumbprint of the public key, so a key id never collides by accident. */
function keyId(publicKey: KeyObject): string {
  const jwk = publicKey.export({ format: 'jwk' });
  return createHash('sha256').update(JSON.stringify({ e: jwk.e, kty: jwk.kty, n: jwk.n })).digest('base64url').slice(0, 22);
}

const ENCRYPTED_PREFIX = 'enc:v1:';

function encryptionKey(secret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'vyuha-signing-keys', 'aes-256-gcm private key', 32));
}

function encryptPrivateKey(pem: string, secret: string | undefined): string {
  if (secret === undefined) return pem;
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', encryptionKey(secret), iv);
  const sealed = Buffer.concat([cipher.update(pem, 'utf8'), cipher.final()]);
  return `${ENCRYPTED_PREFIX}${iv.toString('base64url')}:${cipher.getAuthTag().toString('base64url')}:${sealed.toString('base64url')}`;
}

function decryptPrivateKey(stored: string, secret: string | undefined): string {
  if (!stored.startsWith(ENCRYPTED_PREFIX)) return stored;
  if (secret === undefined) throw new Error('auth.signing_keys holds encrypted keys: set AUTH_SIGNING_KEY_ENCRYPTION_SECRET to the secret they were written with');
  const [iv = '', tag = '', sealed = ''] = stored.slice(ENCRYPTED_PREFIX.length).split(':');
  const decipher = createDecipheriv('aes-256-gcm', encryptionKey(secret), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString('utf8');
}
