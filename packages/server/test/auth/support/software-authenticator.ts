import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

// A WebAuthn authenticator in software, for tests: one ES256 (P-256) key per credential,
// attestation format "none", and a signature counter that goes up with every assertion. It
// plays the part of the browser too (clientDataJSON), so tests can drive the server over HTTP.

type CborValue = number | string | Uint8Array | CborValue[] | Map<CborValue, CborValue>;

/** Minimal CBOR encoder (RFC 8949): the subset a WebAuthn attestation object needs. */
export function encodeCbor(value: CborValue): Buffer {
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) throw new Error('encodeCbor: only integers are supported');
    return value >= 0 ? cborHead(0, value) : cborHead(1, -1 - value);
  }
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([cborHead(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([cborHead(2, value.length), value]);
  if (Array.isArray(value)) return Buffer.concat([cborHead(4, value.length), ...value.map(encodeCbor)]);
  const parts = [cborHead(5, value.size)];
  for (const [key, item] of value) parts.push(encodeCbor(key), encodeCbor(item));
  return Buffer.concat(parts);
}

function cborHead(majorType: number, length: number): Buffer {
  const major = majorType << 5;
  if (length < 24) return Buffer.from([major | length]);
  if (length < 0x100) return Buffer.from([major | 24, length]);
  if (length < 0x10000) {
    const head = Buffer.alloc(3);
    head[0] = major | 25;
    head.writeUInt16BE(length, 1);
    return head;
  }
  const head = Buffer.alloc(5);
  head[0] = major | 26;
  head.writeUInt32BE(length, 1);
  return head;
}

/** The JSON shapes @simplewebauthn/server hands out and takes back (only the fields used here). */
export interface CreationOptionsJson {
  readonly challenge: string;
  readonly rp: { readonly id?: string; readonly name: string };
  readonly user: { readonly id: string; readonly name: string; readonly displayName: string };
}
export interface RequestOptionsJson {
  readonly challenge: string;
  readonly rpId?: string;
  readonly allowCredentials?: readonly { readonly id: string }[];
}

interface StoredCredential {
  readonly id: Buffer;
  readonly privateKey: KeyObject;
  readonly publicKey: KeyObject;
  readonly userHandle: string;
  signCount: number;
}

const FLAG_USER_PRESENT = 0x01;
const FLAG_USER_VERIFIED = 0x04;
const FLAG_ATTESTED_DATA = 0x40;

/** A software security key bound to one origin. */
export class SoftwareAuthenticator {
  private readonly credentials: StoredCredential[] = [];

  constructor(private readonly relyingParty: { readonly origin: string; readonly rpId: string }) {}

  /** navigator.credentials.create(): makes a key pair and returns the RegistrationResponseJSON. */
  createCredential(options: CreationOptionsJson): Record<string, unknown> {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const credential: StoredCredential = { id: randomBytes(32), privateKey, publicKey, userHandle: options.user.id, signCount: 0 };
    this.credentials.push(credential);
    const clientData = this.clientData({ type: 'webauthn.create', challenge: options.challenge });
    const authenticatorData = Buffer.concat([
      this.rpIdHash(options.rp.id),
      Buffer.from([FLAG_USER_PRESENT | FLAG_USER_VERIFIED | FLAG_ATTESTED_DATA]),
      uint32(credential.signCount),
      Buffer.alloc(16), // AAGUID: all zeros for attestation "none"
      uint16(credential.id.length),
      credential.id,
      coseKey(publicKey),
    ]);
    const attestationObject = encodeCbor(new Map<CborValue, CborValue>([['fmt', 'none'], ['attStmt', new Map()], ['authData', authenticatorData]]));
    return {
      id: base64url(credential.id),
      rawId: base64url(credential.id),
      type: 'public-key',
      response: { clientDataJSON: base64url(clientData), attestationObject: base64url(attestationObject), transports: ['usb'] },
      clientExtensionResults: {},
      authenticatorAttachment: 'cross-platform',
    };
  }

  /** navigator.credentials.get(): signs the challenge with the first allowed (or any) credential. */
  getAssertion(options: RequestOptionsJson, override: { signCount?: number } = {}): Record<string, unknown> {
    const allowed = options.allowCredentials?.map((entry) => entry.id) ?? [];
    const credential = this.credentials.find((candidate) => allowed.length === 0 || allowed.includes(base64url(candidate.id)));
    if (!credential) throw new Error('software authenticator: no credential matches allowCredentials');
    credential.signCount = override.signCount ?? credential.signCount + 1;
    const clientData = this.clientData({ type: 'webauthn.get', challenge: options.challenge });
    const authenticatorData = Buffer.concat([this.rpIdHash(options.rpId), Buffer.from([FLAG_USER_PRESENT | FLAG_USER_VERIFIED]), uint32(credential.signCount)]);
    const signature = sign('sha256', Buffer.concat([authenticatorData, sha256(clientData)]), credential.privateKey);
    return {
      id: base64url(credential.id),
      rawId: base64url(credential.id),
      type: 'public-key',
      response: {
        clientDataJSON: base64url(clientData),
        authenticatorData: base64url(authenticatorData),
        signature: base64url(signature),
        userHandle: credential.userHandle,
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'cross-platform',
    };
  }

  /** The base64url ids of the credentials made so far. */
  credentialIds(): string[] {
    return this.credentials.map((credential) => base64url(credential.id));
  }

  private clientData(input: { type: string; challenge: string }): Buffer {
    return Buffer.from(JSON.stringify({ type: input.type, challenge: input.challenge, origin: this.relyingParty.origin, crossOrigin: false }));
  }

  private rpIdHash(rpId: string | undefined): Buffer {
    return sha256(Buffer.from(rpId ?? this.relyingParty.rpId));
  }
}

/** COSE_Key of an EC2 P-256 public key for ES256 (RFC 9053): kty 2, alg -7, crv 1, x, y. */
function coseKey(publicKey: KeyObject): Buffer {
  const jwk = publicKey.export({ format: 'jwk' });
  if (!jwk.x || !jwk.y) throw new Error('software authenticator: the key has no x/y coordinates');
  return encodeCbor(new Map<CborValue, CborValue>([
    [1, 2],
    [3, -7],
    [-1, 1],
    [-2, Buffer.from(jwk.x, 'base64url')],
    [-3, Buffer.from(jwk.y, 'base64url')],
  ]));
}

function sha256(data: Buffer): Buffer {
  return createHash('sha256').update(data).digest();
}

function uint32(value: number): Buffer {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32BE(value);
  return buffer;
}

function uint16(value: number): Buffer {
  const buffer = Buffer.alloc(2);
  buffer.writeUInt16BE(value);
  return buffer;
}

function base64url(data: Buffer): string {
  return data.toString('base64url');
}
