import { describe, expect, it } from 'vitest';
import {
  BrokerSecretError, brokerSecretKey, decryptBrokerSecret, encryptBrokerSecret, generateBrokerSecretKey,
} from '../src/brokers/broker-secrets';

describe('broker secrets (AES-256-GCM)', () => {
  it('names a key by the first 16 hex characters of its SHA-256', () => {
    expect(brokerSecretKey(Buffer.alloc(32)).id).toBe('66687aadf862bd77');
    expect(() => brokerSecretKey(Buffer.alloc(16))).toThrow(/must be 32 bytes, got 16/);
  });

  it('round-trips, with a new 12-byte nonce each time and the 16-byte tag after the ciphertext', () => {
    const key = generateBrokerSecretKey();
    const first = encryptBrokerSecret(key, 'api-secret-ä');
    const second = encryptBrokerSecret(key, 'api-secret-ä');
    expect(first.keyId).toBe(key.id);
    expect(first.nonce).toHaveLength(12);
    expect(first.ciphertext).toHaveLength(Buffer.byteLength('api-secret-ä') + 16);
    expect(first.nonce.equals(second.nonce)).toBe(false);
    expect(first.ciphertext.equals(second.ciphertext)).toBe(false);
    expect(decryptBrokerSecret([key], first)).toBe('api-secret-ä');
    expect(decryptBrokerSecret([key], second)).toBe('api-secret-ä');
  });

  it('refuses a changed nonce, tag or ciphertext byte, and a malformed row, without revealing the key', () => {
    const key = generateBrokerSecretKey();
    const sealed = encryptBrokerSecret(key, 'secret');
    const flip = (bytes: Buffer, index: number): Buffer => {
      const copy = Buffer.from(bytes);
      copy[index] = (copy[index] ?? 0) ^ 0x80;
      return copy;
    };
    for (const changed of [
      { ...sealed, ciphertext: flip(sealed.ciphertext, 0) },
      { ...sealed, ciphertext: flip(sealed.ciphertext, sealed.ciphertext.length - 1) },
      { ...sealed, nonce: flip(sealed.nonce, 5) },
    ]) {
      expect(() => decryptBrokerSecret([key], changed)).toThrow(BrokerSecretError);
      expect(() => decryptBrokerSecret([key], changed)).toThrow(`the broker secret could not be decrypted with key ${key.id}: wrong key or tampered ciphertext`);
    }
    const message = String((() => {
      try {
        return decryptBrokerSecret([key], { ...sealed, nonce: flip(sealed.nonce, 0) });
      } catch (error) {
        return (error as Error).message;
      }
    })());
    for (const encoding of ['hex', 'base64'] as const) expect(message).not.toContain(key.key.toString(encoding));
    expect(() => decryptBrokerSecret([key], { ...sealed, nonce: Buffer.alloc(8) })).toThrow(/nonce must be 12 bytes, got 8/);
    expect(() => decryptBrokerSecret([key], { ...sealed, ciphertext: Buffer.alloc(10) })).toThrow(/at least its 16-byte tag/);
    expect(() => decryptBrokerSecret([], sealed)).toThrow(`no broker secret key with id ${key.id} is configured`);
  });
});
