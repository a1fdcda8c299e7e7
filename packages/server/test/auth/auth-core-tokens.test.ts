import { createHmac, createPrivateKey, createPublicKey, generateKeyPairSync, verify, type KeyObject } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAuthConfig } from '../../src/auth/config';
import { signJwt, type JwtError } from '../../src/auth/jwt';
import { createSigningKeys, rotateSigningKey } from '../../src/auth/signing-keys';
import { freshDatabase } from '../helpers/db';
import { hasuraClaims, request, startCoreServer, type CoreServer } from './support/core-server';

let server: CoreServer;
let session: { accessToken: string; refreshToken: string; user: { id: string } };

beforeAll(async () => {
  server = await startCoreServer({ env: { AUTH_EMAIL_SIGNIN_EMAIL_VERIFIED_REQUIRED: 'false', AUTH_RATE_LIMIT_ENABLE: 'false' } });
  const signUp = await request(`${server.authUrl}/signup/email-password`, { body: { email: 'tokens@example.in', password: 'token test passphrase' } });
  session = signUp.body.session;
});
afterAll(() => server.close());

const base64url = (value: unknown): string => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

async function currentKey(): Promise<{ kid: string; privateKey: KeyObject; publicPem: string }> {
  const row = (await server.pool.query<{ kid: string; private_key: string; public_key: string }>('SELECT kid, private_key, public_key FROM auth.signing_keys WHERE retired_at IS NULL')).rows[0];
  if (!row) throw new Error('no signing key');
  return { kid: row.kid, privateKey: createPrivateKey(row.private_key), publicPem: row.public_key };
}

function payloadOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
}

describe('forged and wrong access tokens', () => {
  const forgeries: { name: string; reason: JwtError['reason']; forge: (token: string, key: Awaited<ReturnType<typeof currentKey>>) => string }[] = [
    {
      name: 'alg none',
      reason: 'algorithm-not-allowed',
      forge: (token) => `${base64url({ alg: 'none', typ: 'JWT' })}.${token.split('.')[1]}.`,
    },
    {
      name: 'HS256 signed with the RSA public key (algorithm confusion)',
      reason: 'algorithm-not-allowed',
      forge: (token, key) => {
        const input = `${base64url({ alg: 'HS256', typ: 'JWT', kid: key.kid })}.${token.split('.')[1]}`;
        return `${input}.${createHmac('sha256', key.publicPem).update(input).digest('base64url')}`;
      },
    },
    {
      name: 'expired',
      reason: 'expired',
      forge: (token, key) => signJwt({ ...payloadOf(token), iat: 1_700_000_000, exp: 1_700_000_900 }, { algorithm: 'RS256', kid: key.kid, privateKey: key.privateKey }),
    },
    {
      name: 'signed by another key under our key id',
      reason: 'bad-signature',
      forge: (token, key) => signJwt(payloadOf(token), { algorithm: 'RS256', kid: key.kid, privateKey: generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey }),
    },
    {
      name: 'unknown key id',
      reason: 'unknown-key',
      forge: (token) => signJwt(payloadOf(token), { algorithm: 'RS256', kid: 'not-a-key-of-ours', privateKey: generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey }),
    },
    {
      name: 'wrong issuer',
      reason: 'wrong-issuer',
      forge: (token, key) => signJwt({ ...payloadOf(token), iss: 'someone-else' }, { algorithm: 'RS256', kid: key.kid, privateKey: key.privateKey }),
    },
    {
      name: 'tampered claims (role raised to superadmin, signature kept)',
      reason: 'bad-signature',
      forge: (token) => {
        const [header, , signature] = token.split('.');
        const payload = payloadOf(token);
        const claims = payload['https://hasura.io/jwt/claims'] as Record<string, unknown>;
        const raised = { ...payload, 'https://hasura.io/jwt/claims': { ...claims, 'x-hasura-default-role': 'superadmin', 'x-hasura-allowed-roles': ['superadmin'] } };
        return `${header}.${base64url(raised)}.${signature}`;
      },
    },
    {
      name: 'garbage',
      reason: 'malformed',
      forge: () => 'not.a.jwt',
    },
  ];

  it.each(forgeries)('refuses $name over HTTP and says why inside', async ({ forge, reason }) => {
    const key = await currentKey();
    const forged = forge(session.accessToken, key);
    for (const response of [
      await request(`${server.authUrl}/token/verify`, { body: { token: forged } }),
      await request(`${server.authUrl}/user`, { token: forged }),
    ]) {
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ status: 401, message: 'Invalid or expired access token', error: 'unauthenticated-user' });
    }
    const keys = createSigningKeys({ pool: server.pool, config: readAuthConfig({}) });
    await expect(keys.verify(forged)).rejects.toMatchObject({ name: 'JwtError', reason });
  });

  it('accepts the genuine token (the table above is not refusing everything)', async () => {
    expect((await request(`${server.authUrl}/token/verify`, { body: { token: session.accessToken } })).body).toBe('OK');
    expect((await request(`${server.authUrl}/user`, { token: session.accessToken })).body.id).toBe(session.user.id);
  });

  it('signs RS256 with a kid published in the JWKS, and the JWKS key verifies it', async () => {
    const [header = '', payload = '', signature = ''] = session.accessToken.split('.');
    const parsedHeader = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { alg: string; kid: string };
    expect(parsedHeader.alg).toBe('RS256');
    const jwks = (await request(`${server.authUrl}/.well-known/jwks.json`)).body as { keys: { kid: string }[] };
    const jwk = jwks.keys.find((key) => key.kid === parsedHeader.kid);
    expect(jwk).toBeDefined();
    const publicKey = createPublicKey({ key: jwk as never, format: 'jwk' });
    expect(verify('sha256', Buffer.from(`${header}.${payload}`), publicKey, Buffer.from(signature, 'base64url'))).toBe(true);
  });
});

describe('refresh-token reuse', () => {
  it('revokes the whole family when a used token comes back', async () => {
    const signIn = await request(`${server.authUrl}/signin/email-password`, { body: { email: 'tokens@example.in', password: 'token test passphrase' } });
    const first = signIn.body.session.refreshToken as string;
    const second = (await request(`${server.authUrl}/token`, { body: { refreshToken: first } })).body;
    expect(second.refreshToken).not.toBe(first);
    const third = (await request(`${server.authUrl}/token`, { body: { refreshToken: second.refreshToken } })).body;
    expect(third.accessToken).toBeTypeOf('string');
    // The response of /token is the bare Session.
    expect(Object.keys(third).sort()).toEqual(['accessToken', 'accessTokenExpiresIn', 'refreshToken', 'refreshTokenId', 'user']);

    // A thief replays the first token: refused, and the live descendant dies with it.
    const replay = await request(`${server.authUrl}/token`, { body: { refreshToken: first } });
    expect(replay.body).toEqual({ status: 401, message: 'Invalid or expired refresh token', error: 'invalid-refresh-token' });
    const descendant = await request(`${server.authUrl}/token`, { body: { refreshToken: third.refreshToken } });
    expect(descendant.body.error).toBe('invalid-refresh-token');

    // Other sessions of the same user are another family and live on.
    expect((await request(`${server.authUrl}/token`, { body: { refreshToken: session.refreshToken } })).status).toBe(200);
    const reuse = await server.pool.query("SELECT after FROM audit_log WHERE action = 'auth.refresh_token.reuse'");
    expect(reuse.rows[0]?.after).toMatchObject({ revoked: 3 });
  });

  it('stores refresh tokens only as SHA-256 hashes', async () => {
    const signIn = await request(`${server.authUrl}/signin/email-password`, { body: { email: 'tokens@example.in', password: 'token test passphrase' } });
    const { refreshToken, refreshTokenId } = signIn.body.session as { refreshToken: string; refreshTokenId: string };
    const row = (await server.pool.query<{ match: boolean; text: string }>(
      "SELECT refresh_token_hash = sha256(convert_to($2, 'UTF8')) AS match, row_to_json(t)::text AS text FROM auth.refresh_tokens t WHERE id = $1", [refreshTokenId, refreshToken])).rows[0];
    expect(row?.match).toBe(true);
    expect(row?.text).not.toContain(refreshToken);
  });

  it('refuses malformed and unknown refresh tokens alike', async () => {
    for (const refreshToken of ['nope', '00000000-0000-4000-8000-000000000000', undefined]) {
      expect((await request(`${server.authUrl}/token`, { body: { refreshToken } })).body.error).toBe('invalid-refresh-token');
    }
  });
});

describe('signing-key rotation', () => {
  it('signs with the new key, keeps the old one in the JWKS until its tokens expire', async () => {
    const db = await freshDatabase();
    try {
      const config = readAuthConfig({ AUTH_ACCESS_TOKEN_EXPIRES_IN: '60' });
      let now = Date.now();
      const keys = createSigningKeys({ pool: db.pool, config, now: () => now });
      const claims = { sub: 'u', iss: 'hasura-auth', iat: Math.floor(now / 1000), exp: Math.floor(now / 1000) + 60 };
      // Long-lived on purpose: it must still verify after the rotation below.
      const oldToken = await keys.sign({ ...claims, exp: claims.exp + 600 });
      const oldKid = (await keys.jwks()).keys[0]?.kid;
      const newKid = await rotateSigningKey({ pool: db.pool, config });
      expect(newKid).toBeDefined();
      expect(newKid).not.toBe(oldKid);
      now += 61_000; // past the in-memory cache; the old token is still within its minute of life when checked below
      const published = (await keys.jwks()).keys.map((key) => key.kid);
      expect(published).toEqual([newKid, oldKid]);
      const newToken = await keys.sign({ ...claims, iat: Math.floor(now / 1000), exp: Math.floor(now / 1000) + 60 });
      expect(JSON.parse(Buffer.from(newToken.split('.')[0] ?? '', 'base64url').toString('utf8')).kid).toBe(newKid);
      await expect(keys.verify(newToken)).resolves.toMatchObject({ sub: 'u' });
      await expect(keys.verify(oldToken)).resolves.toMatchObject({ sub: 'u' });

      // Once the old key has been retired longer than a token lives, it leaves the JWKS.
      await db.pool.query("UPDATE auth.signing_keys SET created_at = now() - interval '1 day', retired_at = now() - interval '61 seconds' WHERE kid = $1", [oldKid]);
      now += 61_000;
      expect((await keys.jwks()).keys.map((key) => key.kid)).toEqual([newKid]);
      await expect(keys.verify(oldToken)).rejects.toMatchObject({ name: 'JwtError', reason: 'unknown-key' });
    } finally {
      await db.close();
    }
  });

  it('generates exactly one key when several processes start together', async () => {
    const db = await freshDatabase();
    try {
      const config = readAuthConfig({});
      const processes = Array.from({ length: 4 }, () => createSigningKeys({ pool: db.pool, config }));
      await Promise.all(processes.map((keys) => keys.sign({ sub: 'u', iss: 'hasura-auth', iat: 1, exp: 2 })));
      const count = await db.pool.query('SELECT kid FROM auth.signing_keys');
      expect(count.rowCount).toBe(1);
    } finally {
      await db.close();
    }
  });

  it('encrypts generated private keys when AUTH_SIGNING_KEY_ENCRYPTION_SECRET is set', async () => {
    const db = await freshDatabase();
    try {
      const config = readAuthConfig({ AUTH_SIGNING_KEY_ENCRYPTION_SECRET: 'a long secret for the key vault 1234' });
      const keys = createSigningKeys({ pool: db.pool, config });
      const token = await keys.sign({ sub: 'u', iss: 'hasura-auth', iat: Math.floor(Date.now() / 1000), exp: Math.floor(Date.now() / 1000) + 60 });
      const stored = (await db.pool.query<{ private_key: string }>('SELECT private_key FROM auth.signing_keys')).rows[0]?.private_key ?? '';
      expect(stored.startsWith('enc:v1:')).toBe(true);
      expect(stored).not.toContain('PRIVATE KEY');
      await expect(createSigningKeys({ pool: db.pool, config }).verify(token)).resolves.toMatchObject({ sub: 'u' });
      await expect(createSigningKeys({ pool: db.pool, config: readAuthConfig({}) }).jwks()).rejects.toThrow(/AUTH_SIGNING_KEY_ENCRYPTION_SECRET/);
    } finally {
      await db.close();
    }
  });
});

describe('HS256 by configuration', () => {
  it('signs HS256 and refuses RS256 tokens', async () => {
    const hs = await startCoreServer({
      env: {
        AUTH_EMAIL_SIGNIN_EMAIL_VERIFIED_REQUIRED: 'false',
        HASURA_GRAPHQL_JWT_SECRET: JSON.stringify({ type: 'HS256', key: 'x'.repeat(40), issuer: 'vyuha-test', claims_namespace: 'https://vyuha.in/claims' }),
      },
    });
    try {
      const signUp = await request(`${hs.authUrl}/signup/email-password`, { body: { email: 'hs@example.in', password: 'hs256 test passphrase' } });
      const token = signUp.body.session.accessToken as string;
      const header = JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString('utf8')) as { alg: string };
      expect(header.alg).toBe('HS256');
      const payload = payloadOf(token);
      expect(payload.iss).toBe('vyuha-test');
      expect(payload['https://vyuha.in/claims']).toMatchObject({ 'x-hasura-user-id': signUp.body.session.user.id });
      expect((await request(`${hs.authUrl}/token/verify`, { body: { token } })).body).toBe('OK');
      expect((await request(`${hs.authUrl}/.well-known/jwks.json`)).body).toEqual({ keys: [] });
      // An RS256 token (from the other server) is refused by algorithm.
      expect((await request(`${hs.authUrl}/token/verify`, { body: { token: session.accessToken } })).status).toBe(401);
      const keys = createSigningKeys({ pool: hs.pool, config: readAuthConfig({ HASURA_GRAPHQL_JWT_SECRET: JSON.stringify({ type: 'HS256', key: 'x'.repeat(40), issuer: 'vyuha-test' }) }) });
      await expect(keys.verify(session.accessToken)).rejects.toMatchObject({ reason: 'algorithm-not-allowed' });
    } finally {
      await hs.close();
    }
  });
});

describe('claims', () => {
  it('puts the permissions array literal, W claims and custom claims under the namespace', () => {
    const claims = hasuraClaims(session.accessToken);
    expect(claims['x-hasura-permissions']).toBe('{}');
    expect(claims['x-hasura-W1m']).toBe('2025-01-01');
    expect(claims['x-hasura-W1440m']).toBe('2023-01-01');
  });
});
