// The day's broker session as the runtime reads it (src/brokers/broker-sessions.ts) and the alerts
// it raises (src/trading/trading-alerts.ts), against a real database: every way a session can be
// unusable says so with the login path, a usable one gives the decrypted token, a session the
// broker refused stays refused until the next login, and the same alert found twice is one alert.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveBrokerSession, invalidateBrokerSession, brokerLoginPath } from '../../src/brokers/broker-sessions';
import { storeVerifiedSession } from '../../src/brokers/broker-ownership';
import { encryptBrokerSecret, generateBrokerSecretKey } from '../../src/brokers/broker-secrets';
import { openTradingAlerts, raiseTradingAlert } from '../../src/trading/trading-alerts';
import { freshDatabase, type TestDatabase } from '../helpers/db';

let db: TestDatabase;
const key = generateBrokerSecretKey();
const userId = randomUUID();
const NOW = Date.parse('2026-11-27T05:00:00Z');

async function account(options: { broker?: string; apiKey?: string | null; active?: boolean } = {}): Promise<{ id: string; clientId: string }> {
  const clientId = `AB${Math.floor(Math.random() * 1e6)}`;
  const { rows } = await db.pool.query<{ user_broker_id: string }>(
    `INSERT INTO user_brokers (user_id, broker, client_id, api_key, active) VALUES ($1, $2, $3, $4, $5) RETURNING user_broker_id`,
    [userId, options.broker ?? 'zerodha', clientId, options.apiKey === undefined ? 'kitekey' : options.apiKey, options.active ?? true]);
  return { id: (rows[0] as { user_broker_id: string }).user_broker_id, clientId };
}

async function login({ id: userBrokerId, clientId }: { id: string; clientId: string }, token: string, expiresAt: Date): Promise<void> {
  await storeVerifiedSession(db.pool, {
    userBrokerId, broker: 'zerodha', clientId, brokerUserId: clientId, token: encryptBrokerSecret(key, token), expiresAt, actorUserId: userId, ip: null,
  });
}

beforeAll(async () => {
  db = await freshDatabase();
  await db.pool.query(`INSERT INTO auth.users (id, email, default_role) VALUES ($1, $2, 'basic')`, [userId, `${userId}@example.com`]);
  await db.pool.query(`INSERT INTO users (user_id, name, tier) VALUES ($1, 'Trader', 'basic')`, [userId]);
});

afterAll(async () => {
  await db?.close();
});

describe('liveBrokerSession', () => {
  it('gives the decrypted token of a session that has not expired', async () => {
    const { id, clientId } = await account();
    await login({ id, clientId }, 'token-of-today', new Date(NOW + 3_600_000));
    const session = await liveBrokerSession(db.pool, { userBrokerId: id, keys: [key], nowMs: NOW });
    expect(session).toMatchObject({ ok: true, value: { accessToken: 'token-of-today', apiKey: 'kitekey', clientId, broker: 'zerodha' } });
  });

  it('says to log in for today, with the login path, when there is no session or it expired', async () => {
    const { id, clientId } = await account();
    const none = await liveBrokerSession(db.pool, { userBrokerId: id, keys: [key], nowMs: NOW });
    expect(none).toMatchObject({ ok: false, error: { code: 'no-session', loginPath: brokerLoginPath('zerodha', clientId) } });
    expect(!none.ok && none.error.message).toMatch(/^Log in to Zerodha for today: /);
    await login({ id, clientId }, 'token-of-yesterday', new Date(NOW - 1));
    const expired = await liveBrokerSession(db.pool, { userBrokerId: id, keys: [key], nowMs: NOW });
    expect(expired).toMatchObject({ ok: false, error: { code: 'session-expired', loginPath: `/api/broker_login/zerodha/${clientId}` } });
  });

  it('keeps a session the broker refused unusable until the next login replaces it', async () => {
    const { id, clientId } = await account();
    await login({ id, clientId }, 'token-a', new Date(NOW + 3_600_000));
    expect(await invalidateBrokerSession(db.pool, id, 'Kite refused the token (logged in elsewhere)')).toBe(true);
    expect(await invalidateBrokerSession(db.pool, id, 'again')).toBe(false);
    const refused = await liveBrokerSession(db.pool, { userBrokerId: id, keys: [key], nowMs: NOW });
    expect(refused).toMatchObject({ ok: false, error: { code: 'session-invalidated' } });
    expect(!refused.ok && refused.error.message).toContain('logged in elsewhere');
    await login({ id, clientId }, 'token-b', new Date(NOW + 3_600_000));
    expect(await liveBrokerSession(db.pool, { userBrokerId: id, keys: [key], nowMs: NOW })).toMatchObject({ ok: true, value: { accessToken: 'token-b' } });
  });

  it('names what is missing on an account that cannot trade live at all', async () => {
    const inactive = await account({ active: false });
    expect(await liveBrokerSession(db.pool, { userBrokerId: inactive.id, keys: [key], nowMs: NOW })).toMatchObject({ ok: false, error: { code: 'account-inactive' } });
    const keyless = await account({ apiKey: null });
    expect(await liveBrokerSession(db.pool, { userBrokerId: keyless.id, keys: [key], nowMs: NOW })).toMatchObject({ ok: false, error: { code: 'api-key-missing' } });
    const upstox = await account({ broker: 'upstox' });
    expect(await liveBrokerSession(db.pool, { userBrokerId: upstox.id, keys: [key], nowMs: NOW })).toMatchObject({ ok: false, error: { code: 'broker-not-supported' } });
    const { id, clientId } = await account();
    await login({ id, clientId }, 'token-c', new Date(NOW + 3_600_000));
    const otherKey = generateBrokerSecretKey();
    const unreadable = await liveBrokerSession(db.pool, { userBrokerId: id, keys: [otherKey], nowMs: NOW });
    expect(unreadable).toMatchObject({ ok: false, error: { code: 'session-unreadable' } });
    expect(JSON.stringify(unreadable)).not.toContain('token-c');
  });
});

describe('raiseTradingAlert', () => {
  it('keeps one open alert per account, strategy and kind, and a new one after it is acknowledged', async () => {
    const { id } = await account();
    const first = await raiseTradingAlert(db.pool, { userId, userBrokerId: id, kind: 'broker-session-lost', message: 'first', actionPath: '/x' });
    const again = await raiseTradingAlert(db.pool, { userId, userBrokerId: id, kind: 'broker-session-lost', message: 'second' });
    expect(first.created).toBe(true);
    expect(again).toEqual({ alertId: first.alertId, created: false });
    const open = await openTradingAlerts(db.pool, userId);
    expect(open.filter((alert) => alert.userBrokerId === id)).toMatchObject([{ kind: 'broker-session-lost', message: 'second', actionPath: null }]);
    await db.pool.query(`UPDATE trading_alerts SET acknowledged_at = now() WHERE trading_alert_id = $1`, [first.alertId]);
    const after = await raiseTradingAlert(db.pool, { userId, userBrokerId: id, kind: 'broker-session-lost', message: 'third' });
    expect(after.created).toBe(true);
    expect(after.alertId).not.toBe(first.alertId);
    const audited = await db.pool.query(`SELECT count(*)::int AS n FROM audit_log WHERE action = 'trading.alert' AND entity_id = ANY($1)`, [[first.alertId, after.alertId]]);
    expect(audited.rows[0]).toEqual({ n: 2 });
  });

  it('raises one alert when the same condition is found by two callers at once', async () => {
    const { id } = await account();
    const both = await Promise.all([1, 2, 3].map((n) => raiseTradingAlert(db.pool, { userId, userBrokerId: id, kind: 'margin-short', message: `short ${n}` })));
    expect(new Set(both.map((answer) => answer.alertId)).size).toBe(1);
    expect(both.filter((answer) => answer.created)).toHaveLength(1);
  });
});
