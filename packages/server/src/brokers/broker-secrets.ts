// Broker API secrets at rest: AES-256-GCM with a random 96-bit nonce per secret. The stored
// ciphertext is the GCM ciphertext followed by its 16-byte authentication tag, so a wrong key
// or any changed byte fails the tag check instead of decrypting to garbage. Each stored secret
// names the key that encrypted it (`api_secret_key_id`), so keys can rotate: decrypt picks the
// key by id. Neither a plaintext nor a key ever appears in an error message.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const ALGORITHM = 'aes-256-gcm';
/** AES-256: 32 key bytes. */
export const BROKER_SECRET_KEY_BYTES = 32;
/** GCM's recommended nonce size. */
export const BROKER_SECRET_NONCE_BYTES = 12;
const TAG_BYTES = 16;

/** An encryption key and its public id (a hash prefix: naming the key reveals nothing of it). */
export interface BrokerSecretKey {
  /** The first 16 hex characters of SHA-256 of the key bytes. */
  readonly id: string;
  readonly key: Buffer;
}

/** A secret as stored in user_brokers (api_secret_ciphertext, api_secret_nonce, api_secret_key_id). */
export interface EncryptedBrokerSecret {
  /** GCM ciphertext || 16-byte authentication tag. */
  readonly ciphertext: Buffer;
  readonly nonce: Buffer;
  readonly keyId: string;
}

/** A key of the wrong size, an unknown key id, or a ciphertext that fails authentication. */
export class BrokerSecretError extends Error {
  override readonly name = 'BrokerSecretError';
}

/**
 * Wraps 32 key bytes with their id.
 * @example brokerSecretKey(Buffer.alloc(32)).id // '66687aadf862bd77'
 */
export function brokerSecretKey(bytes: Buffer): BrokerSecretKey {
  if (bytes.length !== BROKER_SECRET_KEY_BYTES) {
    throw new BrokerSecretError(`a broker secret key must be ${BROKER_SECRET_KEY_BYTES} bytes, got ${bytes.length}`);
  }
  const key = Buffer.from(bytes);
  return { id: createHash('sha256').update(key).digest('hex').slice(0, 16), key };
}

/** A new random key (the key file of the embedded setup). */
export function generateBrokerSecretKey(): BrokerSecretKey {
  return brokerSecretKey(randomBytes(BROKER_SECRET_KEY_BYTES));
}

/**
 * Encrypts a secret under `key` with a fresh random nonce.
 * @example encryptBrokerSecret(key, 's3cret') // { ciphertext: <22 bytes: 6 + 16-byte tag>, nonce: <12 bytes>, keyId: key.id }
 */
export function encryptBrokerSecret(key: BrokerSecretKey, plaintext: string): EncryptedBrokerSecret {
  const nonce = randomBytes(BROKER_SECRET_NONCE_BYTES);
  const cipher = createCipheriv(ALGORITHM, key.key, nonce, { authTagLength: TAG_BYTES });
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return { ciphertext: Buffer.concat([body, cipher.getAuthTag()]), nonce, keyId: key.id };
}

/**
 * Decrypts a stored secret with the key its `keyId` names; throws BrokerSecretError when no
 * such key is given, when the row is malformed, or when authentication fails (wrong key bytes
 * under a matching id, or a changed ciphertext, tag or nonce).
 * @example decryptBrokerSecret([key], encryptBrokerSecret(key, 's3cret')) // 's3cret'
 */
export function decryptBrokerSecret(keys: readonly BrokerSecretKey[], row: EncryptedBrokerSecret): string {
  const key = keys.find((candidate) => candidate.id === row.keyId);
  if (key === undefined) {
    throw new BrokerSecretError(`no broker secret key with id ${row.keyId} is configured (the secret was encrypted with another key)`);
  }
  if (row.nonce.length !== BROKER_SECRET_NONCE_BYTES) {
    throw new BrokerSecretError(`a broker secret nonce must be ${BROKER_SECRET_NONCE_BYTES} bytes, got ${row.nonce.length}`);
  }
  if (row.ciphertext.length < TAG_BYTES) {
    throw new BrokerSecretError(`a broker secret ciphertext must hold at least its ${TAG_BYTES}-byte tag, got ${row.ciphertext.length} bytes`);
  }
  const body = row.ciphertext.subarray(0, row.ciphertext.length - TAG_BYTES);
  const tag = row.ciphertext.subarray(row.ciphertext.length - TAG_BYTES);
  const decipher = createDecipheriv(ALGORITHM, key.key, row.nonce, { authTagLength: TAG_BYTES });
  decipher.setAuthTag(tag);
  try {
    return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
  } catch {
    throw new BrokerSecretError(`the broker secret could not be decrypted with key ${key.id}: wrong key or tampered ciphertext`);
  }
}
