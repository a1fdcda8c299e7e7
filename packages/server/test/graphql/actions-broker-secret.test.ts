import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile, chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAuthConfig } from '../../src/auth/config';
import { createSigningKeys } from '../../src/auth/signing-keys';
import { BROKER_SECRET_KEY_FILE, loadBrokerSecretKey } from '../../src/brokers/broker-secret-key';
import { BrokerSecretError, decryptBrokerSecret, generateBrokerSecretKey } from '../../src/brokers/broker-secrets';
import type { BrokerSecretKey, EncryptedBrokerSecret } from '../../src/brokers/broker-secrets';
import { ConfigError } from '../../src/config';
import { BROKER_SECRET_ROLES, brokerActions } from '../../src/graphql/actions/broker-secret-action';
import { createGraphqlEngine } from '../../src/graphql/engine';
import type { VyuhaGraphqlEngine } from '../../src/graphql/engine';
import { vyuhaMetadata } from '../../src/graphql/metadata';
import { resolveSession } from '../../src/graphql/session';
import type { SessionInput } from '../../src/graphql/session';
import { GraphqlFailure } from '../../src/graphql/types';
import type { GraphqlSession } from '../../src/graphql/types';
import { freshDatabase } from '../helpers/db';
import type { TestDatabase } from '../helpers/db';
import { graphqlSession } from './actions-support';
import { TEST_JWT_KEY, testToken } from './live-test-engine';

// set_broker_secret end to end on a real database: sessions from real tokens (and the managed-user
// header) through resolveSession, the engine built from vyuhaMetadata with the action, and the
// row, the answer and the audit trail read back.

const SET_SECRET = `mutation ($id: uuid!, $secret: String!) {
  set_broker_secret(user_broker_id: $id, api_secret: $secret) { user_broker_id key_id updated_at }
}`;

let db: TestDatabase;
let key: BrokerSecretKey;
let engine: VyuhaGraphqlEngine;
let verifyToken: SessionInput['verifyToken'];
const users = { owner: randomUUID(), other: randomUUID(), manager: randomUUID(), managed: randomUUID(), unmanaged: randomUUID() };
const accounts: Record<keyof typeof users, string> = { owner: '', other: '', manager: '', managed: '', unmanaged: '' };

interface Answer {
  readonly body: string;
  readonly data?: { set_broker_secret: { user_broker_id: string; key_id: string; updated_at: string } | null } | null;
  readonly errors?: ReadonlyArray<{ message: string; extensions: { code: string; path: string } }>;
}

async function addUser(id: string, tier: string): Promise<void> {
  await db.pool.query('INSERT INTO auth.users (id, email, default_role) VALUES ($1, $2, $3)', [id, `${id}@example.com`, tier]);
  await db.pool.query('INSERT INTO users (user_id, name, tier) VALUES ($1, $2, $3)', [id, `User ${id.slice(0, 4)}`, tier]);
}

async function addAccount(userId: string, clientId: string): Promise<string> {
  const { rows } = await db.pool.query<{ user_broker_id: string }>(
    `INSERT INTO user_brokers (user_id, broker, client_id) VALUES ($1, 'zerodha', $2) RETURNING user_broker_id`, [userId, clientId]);
  return (rows[0] as { user_broker_id: string }).user_broker_id;
}

/** A session as the HTTP layer resolves it from a bearer token (and the managed-user header). */
function sessionFor(request: { userId: string; tier: string; actingFor?: string }): Promise<GraphqlSession> {
  const token = testToken({ userId: request.userId, roles: [request.tier, 'user', 'me'], defaultRole: request.tier });
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (request.actingFor !== undefined) headers['x-hasura-managed-user-id'] = request.actingFor;
  return resolveSession({ headers, verifyToken, pool: db.pool });
}

async function setSecret(session: GraphqlSession, variables: { id: string; secret: string }, on: VyuhaGraphqlEngine = engine): Promise<Answer> {
  const outcome = await on.execute({ query: SET_SECRET, variables }, session);
  return { body: outcome.body, ...(JSON.parse(outcome.body) as Omit<Answer, 'body'>) };
}

async function storedSecret(userBrokerId: string): Promise<EncryptedBrokerSecret | undefined> {
  const { rows } = await db.pool.query<{ api_secret_ciphertext: Buffer | null; api_secret_nonce: Buffer | null; api_secret_key_id: string | null }>(
    'SELECT api_secret_ciphertext, api_secret_nonce, api_secret_key_id FROM user_brokers WHERE user_broker_id = $1', [userBrokerId]);
  const row = rows[0];
  if (row?.api_secret_ciphertext == null || row.api_secret_nonce == null || row.api_secret_key_id == null) return undefined;
  return { ciphertext: row.api_secret_ciphertext, nonce: row.api_secret_nonce, keyId: row.api_secret_key_id };
}

/** Everything a refused call must leave as it was: every account's secret columns and the audit trail. */
async function snapshot(): Promise<string> {
  const { rows } = await db.pool.query(
    `SELECT (SELECT json_agg(json_build_object('id', user_broker_id, 'c', encode(api_secret_ciphertext, 'hex'), 'n', encode(api_secret_nonce, 'hex'),
                                                'k', api_secret_key_id, 'u', updated_at) ORDER BY user_broker_id) FROM user_brokers) AS accounts,
            (SELECT count(*) FROM audit_log) AS audit`);
  return JSON.stringify(rows);
}

async function auditText(): Promise<string> {
  const { rows } = await db.pool.query('SELECT * FROM audit_log ORDER BY id');
  return JSON.stringify(rows);
}

beforeAll(async () => {
  db = await freshDatabase();
  await addUser(users.owner, 'basic');
  await addUser(users.other, 'advanced');
  await addUser(users.manager, 'manager');
  await addUser(users.managed, 'advanced');
  await addUser(users.unmanaged, 'basic');
  await db.pool.query('INSERT INTO managers (manager_id, user_id) VALUES ($1, $2)', [users.manager, users.managed]);
  for (const [name, userId] of Object.entries(users) as [keyof typeof users, string][]) accounts[name] = await addAccount(userId, `CL-${name}`);
  key = generateBrokerSecretKey();
  engine = await createGraphqlEngine({ pool: db.pool, metadata: vyuhaMetadata(brokerActions({ pool: db.pool, key })) });
  const config = readAuthConfig({ HASURA_GRAPHQL_JWT_SECRET: JSON.stringify({ type: 'HS256', key: TEST_JWT_KEY }) });
  verifyToken = createSigningKeys({ pool: db.pool, config }).verify;
});

afterAll(async () => {
  await db?.close();
});

describe('set_broker_secret', () => {
  it('is open to the roles that write user_brokers, not to me or anonymous', async () => {
    expect(BROKER_SECRET_ROLES).toEqual(expect.arrayContaining(['trial', 'basic', 'advanced', 'manager', 'administrator', 'superadmin', 'user']));
    expect(BROKER_SECRET_ROLES).not.toContain('me');
    expect(BROKER_SECRET_ROLES).not.toContain('anonymous');
    const me = graphqlSession({ tier: 'basic', userId: users.owner, role: 'me' });
    const answer = await setSecret(me, { id: accounts.owner, secret: 'abc' });
    expect(answer.errors?.[0]?.extensions.code).toBe('validation-failed');
    expect(answer.errors?.[0]?.message).toContain("field 'set_broker_secret' not found");
    expect(await storedSecret(accounts.owner)).toBeUndefined();
  });

  it("stores the owner's secret encrypted: ciphertext, nonce and key id that decrypt back to it", async () => {
    const secret = 'kite-Secret_9f8e7d6c5b4a3210';
    const answer = await setSecret(await sessionFor({ userId: users.owner, tier: 'basic' }), { id: accounts.owner, secret });
    expect(answer.errors).toBeUndefined();
    expect(answer.data?.set_broker_secret).toEqual({ user_broker_id: accounts.owner, key_id: key.id, updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00$/) });
    const stored = await storedSecret(accounts.owner);
    if (stored === undefined) throw new Error('no secret stored');
    expect(stored.keyId).toBe(key.id);
    expect(stored.nonce).toHaveLength(12);
    expect(stored.ciphertext).toHaveLength(Buffer.byteLength(secret) + 16);
    expect(stored.ciphertext.includes(Buffer.from(secret))).toBe(false);
    expect(decryptBrokerSecret([key], stored)).toBe(secret);
    // Nowhere in clear: not in the answer, not in the audit trail.
    expect(answer.body).not.toContain(secret);
    const audit = await db.pool.query<{ actor_user_id: string; entity: string; entity_id: string; before: unknown; after: Record<string, unknown> }>(
      `SELECT actor_user_id, entity, entity_id, before, after FROM audit_log WHERE action = 'broker.secret.set' AND entity_id = $1`, [accounts.owner]);
    expect(audit.rows).toEqual([{
      actor_user_id: users.owner, entity: 'public.user_brokers', entity_id: accounts.owner, before: null,
      after: { user_id: users.owner, broker: 'zerodha', client_id: 'CL-owner', key_id: key.id },
    }]);
    expect(await auditText()).not.toContain(secret);
  });

  it('replaces a secret with a fresh nonce and records the previous key id', async () => {
    const session = await sessionFor({ userId: users.owner, tier: 'basic' });
    await setSecret(session, { id: accounts.owner, secret: 'first secret' });
    const first = await storedSecret(accounts.owner);
    const answer = await setSecret(session, { id: accounts.owner, secret: 'second secret' });
    expect(answer.errors).toBeUndefined();
    const second = await storedSecret(accounts.owner);
    expect(second?.nonce.equals(first?.nonce ?? Buffer.alloc(0))).toBe(false);
    expect(decryptBrokerSecret([key], second as EncryptedBrokerSecret)).toBe('second secret');
    const { rows } = await db.pool.query(`SELECT before FROM audit_log WHERE action = 'broker.secret.set' AND entity_id = $1 ORDER BY id DESC LIMIT 1`, [accounts.owner]);
    expect(rows[0]).toEqual({ before: { key_id: key.id } });
  });

  it("answers not-found for another user's account and changes nothing", async () => {
    const before = await snapshot();
    const answer = await setSecret(await sessionFor({ userId: users.owner, tier: 'basic' }), { id: accounts.other, secret: 'not yours' });
    expect(answer.errors).toEqual([{
      message: `no broker account ${accounts.other} of yours`,
      extensions: { code: 'not-found', path: '$.selectionSet.set_broker_secret.args.user_broker_id' },
    }]);
    // The same answer as an id that does not exist: the account's owner is not revealed.
    const missing = randomUUID();
    const unknown = await setSecret(await sessionFor({ userId: users.owner, tier: 'basic' }), { id: missing, secret: 'not yours' });
    expect(unknown.errors?.[0]?.message).toBe(`no broker account ${missing} of yours`);
    expect(await snapshot()).toBe(before);
  });

  it('lets a manager acting for a managed user set that user\'s secret, audited as the manager', async () => {
    const session = await sessionFor({ userId: users.manager, tier: 'manager', actingFor: users.managed });
    const answer = await setSecret(session, { id: accounts.managed, secret: 'managed-secret' });
    expect(answer.errors).toBeUndefined();
    expect(decryptBrokerSecret([key], await storedSecret(accounts.managed) as EncryptedBrokerSecret)).toBe('managed-secret');
    const { rows } = await db.pool.query(`SELECT actor_user_id, after->>'user_id' AS owner FROM audit_log WHERE action = 'broker.secret.set' AND entity_id = $1`, [accounts.managed]);
    expect(rows).toEqual([{ actor_user_id: users.manager, owner: users.managed }]);
    // Acting for the managed user reaches only their accounts, not the manager's own.
    const own = await setSecret(session, { id: accounts.manager, secret: 'x' });
    expect(own.errors?.[0]?.extensions.code).toBe('not-found');
  });

  it('refuses a manager acting for a user they do not manage, and changes nothing', async () => {
    const before = await snapshot();
    const refused = await sessionFor({ userId: users.manager, tier: 'manager', actingFor: users.unmanaged }).then(() => undefined, (error: unknown) => error);
    expect(refused).toBeInstanceOf(GraphqlFailure);
    expect((refused as GraphqlFailure).code).toBe('access-denied');
    // A session naming the unmanaged user anyway (e.g. a link removed after it was cached) still fails in the action.
    const forged = graphqlSession({ tier: 'manager', userId: users.manager, actingFor: users.unmanaged });
    const answer = await setSecret(forged, { id: accounts.unmanaged, secret: 'not managed' });
    expect(answer.errors?.[0]?.extensions.code).toBe('not-found');
    expect(await snapshot()).toBe(before);
  });

  it('refuses bad arguments with validation-failed naming the argument, never quoting the secret, and changes nothing', async () => {
    const session = await sessionFor({ userId: users.owner, tier: 'basic' });
    const before = await snapshot();
    const cases: { id?: string; secret: string; argument: string; message: RegExp }[] = [
      { secret: '', argument: 'api_secret', message: /^api_secret must not be empty$/ },
      { secret: '    ', argument: 'api_secret', message: /^api_secret must not be empty$/ },
      { secret: 'x'.repeat(257), argument: 'api_secret', message: /^api_secret must be at most 256 characters, got 257$/ },
      { secret: 'line one\nline two', argument: 'api_secret', message: /^api_secret must hold printable characters only/ },
      { secret: 'tab\there', argument: 'api_secret', message: /^api_secret must hold printable characters only/ },
      { secret: ' padded ', argument: 'api_secret', message: /^api_secret must not start or end with a space$/ },
      { id: 'not-a-uuid', secret: 'good-secret', argument: 'user_broker_id', message: /^user_broker_id must be a uuid$/ },
    ];
    for (const entry of cases) {
      const answer = await setSecret(session, { id: entry.id ?? accounts.owner, secret: entry.secret });
      expect(answer.errors?.[0]?.extensions).toEqual({ code: 'validation-failed', path: `$.selectionSet.set_broker_secret.args.${entry.argument}` });
      expect(answer.errors?.[0]?.message).toMatch(entry.message);
      if (entry.secret.trim() !== '') expect(answer.body).not.toContain(entry.secret);
    }
    expect(await snapshot()).toBe(before);
    // The limit itself is allowed, and so are spaces inside and non-ASCII letters.
    for (const secret of ['y'.repeat(256), 'pass phrase with spaces', 'clé-secrète']) {
      const answer = await setSecret(session, { id: accounts.owner, secret });
      expect(answer.errors).toBeUndefined();
      expect(decryptBrokerSecret([key], await storedSecret(accounts.owner) as EncryptedBrokerSecret)).toBe(secret);
    }
  });

  it('refuses without a key, saying to set VYUHA_BROKER_SECRET_KEY, and changes nothing', async () => {
    const keyless = await createGraphqlEngine({ pool: db.pool, metadata: vyuhaMetadata(brokerActions({ pool: db.pool, key: undefined })) });
    const before = await snapshot();
    const answer = await setSecret(await sessionFor({ userId: users.other, tier: 'advanced' }), { id: accounts.other, secret: 'no key here' }, keyless);
    expect(answer.errors?.[0]?.extensions).toEqual({ code: 'not-supported', path: '$.selectionSet.set_broker_secret' });
    expect(answer.errors?.[0]?.message).toContain('Set VYUHA_BROKER_SECRET_KEY');
    expect(answer.body).not.toContain('no key here');
    expect(await snapshot()).toBe(before);
  });

  it('fails to decrypt a tampered ciphertext, a wrong key under the same id, and an unknown key id', async () => {
    await setSecret(await sessionFor({ userId: users.other, tier: 'advanced' }), { id: accounts.other, secret: 'tamper-me' });
    // Flip one bit of the stored ciphertext, as someone with database access might.
    await db.pool.query(`UPDATE user_brokers SET api_secret_ciphertext = overlay(api_secret_ciphertext PLACING
      set_byte(substring(api_secret_ciphertext FROM 1 FOR 1), 0, get_byte(api_secret_ciphertext, 0) # 1) FROM 1 FOR 1) WHERE user_broker_id = $1`, [accounts.other]);
    const tampered = await storedSecret(accounts.other) as EncryptedBrokerSecret;
    expect(() => decryptBrokerSecret([key], tampered)).toThrow(BrokerSecretError);
    expect(() => decryptBrokerSecret([key], tampered)).toThrow(/wrong key or tampered ciphertext/);
    await setSecret(await sessionFor({ userId: users.other, tier: 'advanced' }), { id: accounts.other, secret: 'intact' });
    const intact = await storedSecret(accounts.other) as EncryptedBrokerSecret;
    const impostor = { id: key.id, key: generateBrokerSecretKey().key };
    expect(() => decryptBrokerSecret([impostor], intact)).toThrow(/wrong key or tampered ciphertext/);
    expect(() => decryptBrokerSecret([generateBrokerSecretKey()], intact)).toThrow(new RegExp(`no broker secret key with id ${key.id}`));
    expect(decryptBrokerSecret([generateBrokerSecretKey(), key], intact)).toBe('intact');
  });
});

describe('the broker secret key', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vyuha-broker-key-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('is created in DATA_DIR with mode 600 at first start (embedded database) and reused after', async () => {
    const dataDir = join(dir, 'data');
    const first = await loadBrokerSecretKey({ env: {}, dataDir, embedded: true });
    expect(first.source).toBe('new-key-file');
    const file = join(dataDir, BROKER_SECRET_KEY_FILE);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const second = await loadBrokerSecretKey({ env: {}, dataDir, embedded: true });
    expect(second.source).toBe('key-file');
    expect(second.key?.id).toBe(first.key?.id);
    expect(second.key?.key.equals(first.key?.key ?? Buffer.alloc(0))).toBe(true);
    // A copy that came back readable by others is tightened again.
    await chmod(file, 0o644);
    await loadBrokerSecretKey({ env: {}, dataDir, embedded: true });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it('refuses a damaged key file instead of replacing it', async () => {
    const dataDir = join(dir, 'damaged');
    await loadBrokerSecretKey({ env: {}, dataDir, embedded: true });
    const file = join(dataDir, BROKER_SECRET_KEY_FILE);
    await writeFile(file, 'not a key\n');
    const error = await loadBrokerSecretKey({ env: {}, dataDir, embedded: true }).then(() => undefined, (caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain(BROKER_SECRET_KEY_FILE);
    expect(await readFile(file, 'utf8')).toBe('not a key\n');
  });

  it('comes from VYUHA_BROKER_SECRET_KEY when set, with any database', async () => {
    const bytes = Buffer.alloc(32, 7);
    for (const embedded of [true, false]) {
      const loaded = await loadBrokerSecretKey({ env: { VYUHA_BROKER_SECRET_KEY: bytes.toString('base64') }, dataDir: join(dir, 'unused'), embedded });
      expect(loaded.source).toBe('environment');
      expect(loaded.key?.key.equals(bytes)).toBe(true);
    }
    await expect(stat(join(dir, 'unused'))).rejects.toThrow();
  });

  it('is a ConfigError naming the variable when the value is not the base64 of 32 bytes, without echoing it', async () => {
    for (const value of [Buffer.alloc(31).toString('base64'), Buffer.alloc(33).toString('base64'), 'definitely not base64!', `${Buffer.alloc(32, 1).toString('base64').slice(0, -2)}B=`]) {
      const error = await loadBrokerSecretKey({ env: { VYUHA_BROKER_SECRET_KEY: value }, dataDir: dir, embedded: false }).then(() => undefined, (caught: unknown) => caught);
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toMatch(/^VYUHA_BROKER_SECRET_KEY must be the base64 of exactly 32 bytes/);
      expect((error as Error).message).not.toContain(value);
    }
  });

  it('is absent with DATABASE_URL and no variable', async () => {
    expect(await loadBrokerSecretKey({ env: {}, dataDir: join(dir, 'external'), embedded: false })).toEqual({ key: undefined, source: 'none' });
  });
});
