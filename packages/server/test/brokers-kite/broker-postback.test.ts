// POST /api/broker_postback/zerodha over HTTP (buildApp on a real database): a postback is believed
// only when its checksum matches the API secret of an account with its client id, reaches the
// workers' listener of exactly that account with its text untouched (19-digit ids intact), and
// every refusal is a 4xx that publishes nothing.
import { createHash, randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrokerOrderUpdates } from '../../src/brokers/broker-order-updates';
import { encryptBrokerSecret, generateBrokerSecretKey } from '../../src/brokers/broker-secrets';
import { buildApp } from '../../src/http/app';
import { freshDatabase, type TestDatabase } from '../helpers/db';

const key = generateBrokerSecretKey();
const SECRETS = { mine: 'secret-of-the-real-app', squatter: 'secret-of-someone-else' };
let db: TestDatabase;
let app: FastifyInstance;
let updates: BrokerOrderUpdates;
const received: Record<'mine' | 'squatter', string[]> = { mine: [], squatter: [] };

async function account(secret: string, ownership: 'verified' | 'unverified'): Promise<string> {
  const userId = randomUUID();
  await db.pool.query(`INSERT INTO auth.users (id, email, default_role) VALUES ($1, $2, 'basic')`, [userId, `${userId}@example.com`]);
  await db.pool.query(`INSERT INTO users (user_id, name, tier) VALUES ($1, 'Trader', 'basic')`, [userId]);
  const encrypted = encryptBrokerSecret(key, secret);
  const { rows } = await db.pool.query<{ user_broker_id: string }>(
    `INSERT INTO user_brokers (user_id, broker, client_id, api_key, api_secret_ciphertext, api_secret_nonce, api_secret_key_id, ownership)
     VALUES ($1, 'zerodha', 'ZP1234', 'kitekey', $2, $3, $4, $5) RETURNING user_broker_id`,
    [userId, encrypted.ciphertext, encrypted.nonce, encrypted.keyId, ownership]);
  return (rows[0] as { user_broker_id: string }).user_broker_id;
}

/** A postback as Kite sends it, its checksum made with `secret`. */
function postback(secret: string, orderId = '1953367517686685697'): string {
  const orderTimestamp = '2026-11-27 10:15:02';
  const checksum = createHash('sha256').update(`${orderId}${orderTimestamp}${secret}`).digest('hex');
  // The order id written as Kite writes it, a string; the text is kept byte for byte.
  return `{"user_id":"ZP1234","unfilled_quantity":0,"app_id":1234,"checksum":"${checksum}","placed_by":"ZP1234","order_id":"${orderId}",`
    + `"exchange_order_id":"1300000001887410","parent_order_id":null,"status":"COMPLETE","status_message":null,"status_message_raw":null,`
    + `"order_timestamp":"${orderTimestamp}","exchange_update_timestamp":"2026-11-27 10:15:02","exchange_timestamp":"2026-11-27 10:15:02",`
    + `"variety":"regular","exchange":"NFO","tradingsymbol":"NIFTY26DECFUT","instrument_token":12517890,"order_type":"MARKET",`
    + `"transaction_type":"BUY","validity":"DAY","product":"MIS","quantity":75,"disclosed_quantity":0,"price":0,"trigger_price":0,`
    + `"average_price":24012.5,"filled_quantity":75,"pending_quantity":0,"cancelled_quantity":0,"market_protection":-1,"meta":{},"tag":"r1a2b3c4d5e6f7g8h9i0","guid":"x"}`;
}

async function post(body: string, broker = 'zerodha'): Promise<{ statusCode: number; json: Record<string, unknown> }> {
  const response = await app.inject({ method: 'POST', url: `/api/broker_postback/${broker}`, headers: { 'content-type': 'application/json' }, payload: body });
  return { statusCode: response.statusCode, json: response.json() };
}

/** Waits long enough for a NOTIFY to have arrived (a few ms on loopback). */
async function settle(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 150));
}

beforeAll(async () => {
  db = await freshDatabase();
  const mine = await account(SECRETS.mine, 'verified');
  const squatter = await account(SECRETS.squatter, 'unverified');
  updates = await BrokerOrderUpdates.open({ pool: db.pool });
  updates.register(mine, (text) => received.mine.push(text));
  updates.register(squatter, (text) => received.squatter.push(text));
  app = await buildApp({ pool: db.pool, version: 'test', webDistDir: '/nonexistent', logLevel: 'silent', brokerLogin: { key } });
});

afterAll(async () => {
  await app?.close();
  await updates?.close();
  await db?.close();
});

describe('POST /api/broker_postback/zerodha', () => {
  it("hands a verified postback, text intact, to the listener of the account whose secret signed it", async () => {
    const body = postback(SECRETS.mine);
    const answer = await post(body);
    expect(answer).toEqual({ statusCode: 200, json: { status: 'ok', delivered: true } });
    await settle();
    expect(received.mine).toEqual([body]);
    expect(received.squatter).toEqual([]);
    expect(received.mine[0]).toContain('"order_id":"1953367517686685697"');
  });

  it('also finds the account when another with the same client id does not match', async () => {
    const body = postback(SECRETS.squatter, '1953367517686685698');
    expect((await post(body)).statusCode).toBe(200);
    await settle();
    expect(received.squatter).toEqual([body]);
  });

  it('refuses a checksum no secret matches, a body that is not an order and an unbuilt broker, publishing nothing', async () => {
    const before = { mine: received.mine.length, squatter: received.squatter.length };
    const forged = await post(postback('a-guessed-secret'));
    expect(forged.statusCode).toBe(403);
    expect(String(forged.json.message)).toContain('checksum');
    expect((await post('not json')).statusCode).toBe(400);
    expect((await post('{"order_id":"1"}')).json).toMatchObject({ error: 'invalid-postback', message: 'postback.user_id must be a Kite client id' });
    expect((await post(postback(SECRETS.mine), 'upstox')).statusCode).toBe(501);
    expect((await post(`{"user_id":"ZP1234","pad":"${'x'.repeat(20_000)}"}`)).statusCode).toBe(413);
    await settle();
    expect({ mine: received.mine.length, squatter: received.squatter.length }).toEqual(before);
  });
});
