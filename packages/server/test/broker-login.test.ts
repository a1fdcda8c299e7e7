import { createHash, randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readAuthConfig } from '../src/auth/config';
import { createSigningKeys } from '../src/auth/signing-keys';
import { brokerLoginRoutes } from '../src/brokers/broker-login-routes';
import { decryptBrokerSecret, encryptBrokerSecret, generateBrokerSecretKey, type BrokerSecretKey } from '../src/brokers/broker-secrets';
import { buildApp } from '../src/http/app';
import { freshDatabase, type TestDatabase } from './helpers/db';
import { startFakeKite, type FakeKite, type KiteApps, type KiteRequest } from './helpers/fake-kite';
import { TEST_JWT_KEY, testToken } from './graphql/live-test-engine';

// The Zerodha login end to end: a real database, the route plugin with a logger we can read, and
// a fake Kite on 127.0.0.1 that checks the form and the checksum the way Kite does and answers
// with Kite's recorded payload shapes. The real Kite is never called. Every ending is a redirect
// to the brokers tab with a code (a page of raw JSON told a trader nothing); who owns a client id
// that several users recorded is settled by the login (broker-client-id-unique-per-user.test.ts).

const AUTH_CONFIG = readAuthConfig({ HASURA_GRAPHQL_JWT_SECRET: JSON.stringify({ type: 'HS256', key: TEST_JWT_KEY }) });
/** 2026-03-02 15:30 IST: the session dies at 06:00 IST on 03-03. */
const NOW = Date.parse('2026-03-02T10:00:00Z');
const EXPIRES = '2026-03-03T00:30:00.000Z';

/** The fake Kite's apps: api_key -> the api_secret it knows and the Kite user who signs in. */
const KITE_APPS: KiteApps = {
  kitekey123: { secret: 'apisecret789', userId: 'AB1234' },
  kitekey456: { secret: 'the-real-secret', userId: 'EF3456' },
};

let db: TestDatabase;
let key: BrokerSecretKey;
let kite: FakeKite;
let kiteUrl: string;
let kiteRequests: KiteRequest[];
let app: FastifyInstance;
const logLines: string[] = [];
const users = { owner: randomUUID(), other: randomUUID() };

async function addUser(id: string): Promise<void> {
  await db.pool.query(`INSERT INTO auth.users (id, email, default_role) VALUES ($1, $2, 'basic')`, [id, `${id}@example.com`]);
  await db.pool.query(`INSERT INTO users (user_id, name, tier) VALUES ($1, 'Trader', 'basic')`, [id]);
}

async function addAccount(account: { userId: string; broker?: string; clientId: string; apiKey?: string; apiSecret?: string }): Promise<string> {
  const secret = account.apiSecret === undefined ? undefined : encryptBrokerSecret(key, account.apiSecret);
  const { rows } = await db.pool.query<{ user_broker_id: string }>(
    `INSERT INTO user_brokers (user_id, broker, client_id, api_key, api_secret_ciphertext, api_secret_nonce, api_secret_key_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING user_broker_id`,
    [account.userId, account.broker ?? 'zerodha', account.clientId, account.apiKey ?? null, secret?.ciphertext ?? null, secret?.nonce ?? null, secret?.keyId ?? null]);
  return (rows[0] as { user_broker_id: string }).user_broker_id;
}

function cookieFor(userId: string): string {
  return `theme=dark; vyuhaAccessToken=${encodeURIComponent(testToken({ userId }))}`;
}

/** GET as the owner's browser; `null`: a browser without the cookie. */
async function get(url: string, userId: string | null = users.owner) {
  return app.inject({ method: 'GET', url, headers: userId === null ? {} : { cookie: cookieFor(userId) } });
}

async function sessionOf(userBrokerId: string) {
  const { rows } = await db.pool.query<{ access_token_ciphertext: Buffer; access_token_nonce: Buffer; access_token_key_id: string; broker_user_id: string; expires_at: Date }>(
    'SELECT access_token_ciphertext, access_token_nonce, access_token_key_id, broker_user_id, expires_at FROM broker_sessions WHERE user_broker_id = $1', [userBrokerId]);
  return rows[0];
}

async function auditRows(userBrokerId: string) {
  const { rows } = await db.pool.query<{ actor_user_id: string; entity: string; after: Record<string, unknown>; row: string }>(
    `SELECT actor_user_id, entity, after, to_jsonb(a)::text AS row FROM audit_log a WHERE action = 'broker.login' AND entity_id = $1 ORDER BY id`, [userBrokerId]);
  return rows;
}

/** The brokers-tab query of a failed login, for `code`. */
function failure(code: string, broker: string, clientId: string): Record<string, string> {
  return { tab: 'brokers', broker_login: 'error', code, broker, client_id: clientId };
}

function redirectQuery(location: string | undefined): Record<string, string> {
  const url = new URL(location ?? '', 'http://vyuha.test');
  expect(url.pathname).toBe('/users/edit');
  return Object.fromEntries(url.searchParams);
}

async function routesApp(options: { kiteApiUrl: string; key?: BrokerSecretKey | undefined }): Promise<FastifyInstance> {
  const instance = Fastify({ logger: { level: 'trace', stream: { write: (line: string) => { logLines.push(line); } } } });
  const keys = createSigningKeys({ pool: db.pool, config: AUTH_CONFIG });
  await instance.register(brokerLoginRoutes, {
    pool: db.pool, verifyToken: (token) => keys.verify(token), claimsNamespace: AUTH_CONFIG.jwt.claimsNamespace,
    key: 'key' in options ? options.key : key, kiteApiUrl: options.kiteApiUrl, now: () => NOW,
  });
  return instance;
}

const accounts = { ab: '', ef: '', noSecret: '', noKey: '', wrongUser: '', others: '', upstox: '' };

beforeAll(async () => {
  db = await freshDatabase();
  key = generateBrokerSecretKey();
  kite = await startFakeKite(KITE_APPS);
  kiteUrl = kite.url;
  kiteRequests = kite.requests;
  await addUser(users.owner);
  await addUser(users.other);
  accounts.ab = await addAccount({ userId: users.owner, clientId: 'AB1234', apiKey: 'kitekey123', apiSecret: 'apisecret789' });
  accounts.ef = await addAccount({ userId: users.owner, clientId: 'EF3456', apiKey: 'kitekey456', apiSecret: 'a-stale-secret' });
  accounts.noSecret = await addAccount({ userId: users.owner, clientId: 'CD5678', apiKey: 'kitekey999' });
  accounts.noKey = await addAccount({ userId: users.owner, clientId: 'NK0000' });
  accounts.wrongUser = await addAccount({ userId: users.owner, clientId: 'GH7890', apiKey: 'kitekey123', apiSecret: 'apisecret789' });
  accounts.others = await addAccount({ userId: users.other, clientId: 'ZZ9999', apiKey: 'kitekey123', apiSecret: 'apisecret789' });
  accounts.upstox = await addAccount({ userId: users.owner, broker: 'upstox', clientId: 'UP1111', apiKey: 'upkey' });
  app = await routesApp({ kiteApiUrl: kiteUrl });
});
afterAll(async () => {
  await app.close();
  await kite.close();
  await db.close();
});
beforeEach(() => {
  kiteRequests.length = 0;
});

describe('who may log in', () => {
  it('sends a browser without the token cookie to sign in', async () => {
    const response = await get('/api/broker_login/zerodha/AB1234', null);
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/authenticate/signin');
  });

  it.each([
    ['a malformed token', 'vyuhaAccessToken=not-a-jwt'],
    ['an expired token', `vyuhaAccessToken=${testToken({ userId: randomUUID(), expiresIn: -60 })}`],
    ['a token without a user id', `vyuhaAccessToken=${testToken({})}`],
    ['an empty cookie', 'vyuhaAccessToken='],
  ])('sends a browser with %s to sign in', async (_name, cookie) => {
    const response = await app.inject({ url: '/api/broker_login/zerodha/AB1234', headers: { cookie } });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/authenticate/signin');
  });

  it("returns account-not-found for another user's client id, exactly as for a missing one", async () => {
    const others = await get('/api/broker_login/zerodha/ZZ9999');
    const missing = await get('/api/broker_login/zerodha/QQ0000');
    expect(others.statusCode).toBe(302);
    expect(redirectQuery(others.headers.location)).toEqual(failure('account-not-found', 'zerodha', 'ZZ9999'));
    expect(redirectQuery(missing.headers.location)).toEqual(failure('account-not-found', 'zerodha', 'QQ0000'));
    // Not even with Kite's callback: the other user's secret is never used.
    const callback = await get('/api/broker_login/zerodha/ZZ9999?request_token=abc&action=login&status=success');
    expect(redirectQuery(callback.headers.location)).toEqual(failure('account-not-found', 'zerodha', 'ZZ9999'));
    expect(kiteRequests).toEqual([]);
  });

  it('returns unknown-broker for a broker that does not exist', async () => {
    const response = await get('/api/broker_login/robinhood/AB1234');
    expect(redirectQuery(response.headers.location)).toEqual(failure('unknown-broker', 'robinhood', 'AB1234'));
  });

  it('keeps anything malformed out of the address it returns to', async () => {
    const response = await get(`/api/broker_login/${encodeURIComponent('Robin Hood')}/${encodeURIComponent('<b>x</b>')}`);
    expect(redirectQuery(response.headers.location)).toEqual({ tab: 'brokers', broker_login: 'error', code: 'unknown-broker' });
    const badClient = await get(`/api/broker_login/zerodha/${encodeURIComponent('call +91 at once')}`);
    expect(redirectQuery(badClient.headers.location)).toEqual({ tab: 'brokers', broker_login: 'error', code: 'account-not-found', broker: 'zerodha' });
  });

  it('returns not-supported for a broker whose login is not built (the raw JSON 501 before)', async () => {
    const response = await get('/api/broker_login/upstox/UP1111');
    expect(response.statusCode).toBe(302);
    expect(redirectQuery(response.headers.location)).toEqual(failure('not-supported', 'upstox', 'UP1111'));
  });
});

describe('starting a login', () => {
  it("sends the browser to Kite's login page with the account's api_key", async () => {
    const response = await get('/api/broker_login/zerodha/AB1234');
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('https://kite.zerodha.com/connect/login?v=3&api_key=kitekey123');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(kiteRequests).toEqual([]);
  });

  it('returns api-key-missing when the account has none (the raw JSON 400 before)', async () => {
    const response = await get('/api/broker_login/zerodha/NK0000');
    expect(response.statusCode).toBe(302);
    expect(redirectQuery(response.headers.location)).toEqual(failure('api-key-missing', 'zerodha', 'NK0000'));
  });
});

describe("Kite's callback", () => {
  it('stores the access token encrypted, with its 06:00 IST expiry, and returns to the brokers tab', async () => {
    const response = await get('/api/broker_login/zerodha/AB1234?request_token=GoodTok1&action=login&status=success');
    expect(response.statusCode).toBe(302);
    expect(redirectQuery(response.headers.location)).toEqual({ tab: 'brokers', broker_login: 'ok', broker: 'zerodha', client_id: 'AB1234' });

    expect(kiteRequests).toHaveLength(1);
    const sent = kiteRequests[0] as KiteRequest;
    expect(sent.headers['x-kite-version']).toBe('3');
    expect(sent.form).toEqual({
      api_key: 'kitekey123', request_token: 'GoodTok1',
      checksum: createHash('sha256').update('kitekey123GoodTok1apisecret789').digest('hex'),
    });

    const stored = await sessionOf(accounts.ab);
    expect(stored).toBeDefined();
    if (stored === undefined) return;
    expect(stored.access_token_ciphertext.toString('latin1')).not.toContain('KiteAccessTokenGoodTok1');
    expect(decryptBrokerSecret([key], { ciphertext: stored.access_token_ciphertext, nonce: stored.access_token_nonce, keyId: stored.access_token_key_id }))
      .toBe('KiteAccessTokenGoodTok1');
    expect(stored.access_token_key_id).toBe(key.id);
    expect(stored.broker_user_id).toBe('AB1234');
    expect(stored.expires_at.toISOString()).toBe(EXPIRES);

    const audit = await auditRows(accounts.ab);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      actor_user_id: users.owner, entity: 'public.broker_sessions',
      after: { broker: 'zerodha', client_id: 'AB1234', broker_user_id: 'AB1234', key_id: key.id },
    });
  });

  it('replaces the session on the next login', async () => {
    const response = await get('/api/broker_login/zerodha/AB1234?request_token=NextDay2&action=login&status=success');
    expect(redirectQuery(response.headers.location)).toEqual({ tab: 'brokers', broker_login: 'ok', broker: 'zerodha', client_id: 'AB1234' });
    const stored = await sessionOf(accounts.ab);
    if (stored === undefined) throw new Error('no session stored');
    expect(decryptBrokerSecret([key], { ciphertext: stored.access_token_ciphertext, nonce: stored.access_token_nonce, keyId: stored.access_token_key_id }))
      .toBe('KiteAccessTokenNextDay2');
    expect((await db.pool.query('SELECT count(*)::int AS n FROM broker_sessions WHERE user_broker_id = $1', [accounts.ab])).rows[0]).toEqual({ n: 1 });
    expect(await auditRows(accounts.ab)).toHaveLength(2);
  });

  it('returns api-secret-wrong and stores nothing when Kite refuses the checksum', async () => {
    const response = await get('/api/broker_login/zerodha/EF3456?request_token=GoodTok3&action=login&status=success');
    expect(response.statusCode).toBe(302);
    expect(redirectQuery(response.headers.location)).toEqual(failure('api-secret-wrong', 'zerodha', 'EF3456'));
    expect(kiteRequests).toHaveLength(1);
    expect(await sessionOf(accounts.ef)).toBeUndefined();
    expect(await auditRows(accounts.ef)).toEqual([]);
  });

  it('refuses a session of another Kite user than the account', async () => {
    const response = await get('/api/broker_login/zerodha/GH7890?request_token=GoodTok4&action=login&status=success');
    expect(redirectQuery(response.headers.location)).toEqual({ ...failure('wrong-user', 'zerodha', 'GH7890'), signed_in_as: 'AB1234' });
    expect(await sessionOf(accounts.wrongUser)).toBeUndefined();
  });

  it('returns with an error when Kite did not say success, without calling it', async () => {
    const response = await get('/api/broker_login/zerodha/AB1234?request_token=GoodTok5&action=login&status=cancelled');
    expect(redirectQuery(response.headers.location)).toEqual(failure('callback-invalid', 'zerodha', 'AB1234'));
    expect(kiteRequests).toEqual([]);
  });

  it('returns api-secret-missing when none is stored (the raw JSON 400 before)', async () => {
    const response = await get('/api/broker_login/zerodha/CD5678?request_token=GoodTok6&action=login&status=success');
    expect(response.statusCode).toBe(302);
    expect(redirectQuery(response.headers.location)).toEqual(failure('api-secret-missing', 'zerodha', 'CD5678'));
    expect(kiteRequests).toEqual([]);
    expect(await sessionOf(accounts.noSecret)).toBeUndefined();
  });

  it('returns request-token-expired when Kite says the token was used or expired', async () => {
    const response = await get('/api/broker_login/zerodha/AB1234?request_token=UsedTok1&action=login&status=success');
    expect(redirectQuery(response.headers.location)).toEqual(failure('request-token-expired', 'zerodha', 'AB1234'));
  });

  it('returns secret-key-missing without a broker secret key, and secret-unreadable under another key', async () => {
    for (const [serverKey, code] of [[undefined, 'secret-key-missing'], [generateBrokerSecretKey(), 'secret-unreadable']] as const) {
      const other = await routesApp({ kiteApiUrl: kiteUrl, key: serverKey });
      try {
        const response = await other.inject({ url: '/api/broker_login/zerodha/AB1234?request_token=KeyTok1&action=login&status=success', headers: { cookie: cookieFor(users.owner) } });
        expect(redirectQuery(response.headers.location)).toEqual(failure(code, 'zerodha', 'AB1234'));
      } finally {
        await other.close();
      }
    }
    expect(kiteRequests).toEqual([]);
  });

  it('returns with an error when Kite cannot be reached', async () => {
    const unreachable = await routesApp({ kiteApiUrl: 'http://127.0.0.1:1' });
    try {
      const response = await unreachable.inject({ url: '/api/broker_login/zerodha/EF3456?request_token=GoodTok7&action=login&status=success', headers: { cookie: cookieFor(users.owner) } });
      expect(redirectQuery(response.headers.location)).toEqual(failure('broker-unreachable', 'zerodha', 'EF3456'));
    } finally {
      await unreachable.close();
    }
  });

  it('never writes an access token, request token or API secret to the log or the audit trail', async () => {
    await get('/api/broker_login/zerodha/AB1234?request_token=LogTok8&action=login&status=success');
    await get('/api/broker_login/zerodha/EF3456?request_token=LogTok9&action=login&status=success');
    expect(await sessionOf(accounts.ab)).toBeDefined();
    const logs = logLines.join('\n');
    expect(logs).toContain('broker login: session stored');
    expect(logs).toContain('broker login failed');
    const audit = (await db.pool.query<{ row: string }>(`SELECT to_jsonb(a)::text AS row FROM audit_log a WHERE action = 'broker.login'`)).rows.map((r) => r.row).join('\n');
    for (const secret of ['KiteAccessToken', 'GoodTok', 'NextDay2', 'LogTok', 'apisecret789', 'a-stale-secret', 'pUbLiCtOkEn', 'eNcToKeN']) {
      expect(logs).not.toContain(secret);
      expect(audit).not.toContain(secret);
    }
  });
});

describe('the wiring in buildApp', () => {
  it('mounts the route with auth and brokerLogin', async () => {
    const built = await buildApp({ pool: db.pool, version: '0.0.0+test', webDistDir: '/nonexistent', logLevel: 'silent', auth: { config: AUTH_CONFIG }, brokerLogin: { key } });
    try {
      expect((await built.inject('/api/broker_login/zerodha/AB1234')).headers.location).toBe('/authenticate/signin');
      const start = await built.inject({ url: '/api/broker_login/zerodha/AB1234', headers: { cookie: cookieFor(users.owner) } });
      expect(start.headers.location).toBe('https://kite.zerodha.com/connect/login?v=3&api_key=kitekey123');
      const upstox = await built.inject({ url: '/api/broker_login/upstox/UP1111', headers: { cookie: cookieFor(users.owner) } });
      expect(redirectQuery(upstox.headers.location)).toEqual(failure('not-supported', 'upstox', 'UP1111'));
    } finally {
      await built.close();
    }
  });

  it('leaves the route out without brokerLogin', async () => {
    const built = await buildApp({ pool: db.pool, version: '0.0.0+test', webDistDir: '/nonexistent', logLevel: 'silent', auth: { config: AUTH_CONFIG } });
    try {
      const response = await built.inject({ url: '/api/broker_login/zerodha/AB1234', headers: { cookie: cookieFor(users.owner) } });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ error: 'not-found' });
    } finally {
      await built.close();
    }
  });
});
