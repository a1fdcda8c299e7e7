// The broker request trail (src/brokers/broker-request-trail.ts) on a real database: records of
// one account's requests are stored in one write per flush, each tied to its order by the tag it
// was placed with or the broker order id it names, account-wide reads to no order, and a write
// that fails keeps its records for the next flush instead of losing them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrokerRequestTrail } from '../../src/brokers/broker-request-trail';
import { freshDatabase, type TestDatabase } from '../helpers/db';
import { createWorld, type OmsWorld } from '../trading-oms/oms-test-support';

let db: TestDatabase;
let world: OmsWorld;
let orderId: string;

beforeAll(async () => {
  db = await freshDatabase({ seeded: true });
  world = await createWorld(db.pool);
  const { rows } = await db.pool.query<{ order_id: string }>(
    `INSERT INTO orders (client_order_id, run_id, strategy_id, user_id, user_broker_id, instrument_id, side, quantity, order_type, product, tag, broker_order_id, status)
     VALUES ($1, $2, $3, $4, $5, $6, 'BUY', 65, 'MARKET', 'MIS', 'r0a1b2c3d4e5f6g7h8i9', '1953367517686685697', 'OPEN') RETURNING order_id`,
    [`${world.runId}-0`, world.runId, world.strategyId, world.userId, world.userBrokerId, world.futureId]);
  orderId = rows[0]!.order_id;
});

afterAll(async () => {
  await db?.close();
});

describe('BrokerRequestTrail', () => {
  it('stores every record, tied to its order by tag or broker order id, in one write', async () => {
    const trail = new BrokerRequestTrail({ pool: db.pool, userId: world.userId, userBrokerId: world.userBrokerId, broker: 'zerodha', flushMs: 10_000 });
    const at = Date.parse('2026-11-27T04:45:00Z');
    trail.record({ method: 'POST', path: '/orders/regular', form: { tag: 'r0a1b2c3d4e5f6g7h8i9', quantity: '65' }, tag: 'r0a1b2c3d4e5f6g7h8i9', status: 200, outcome: 'ok', response: { order_id: '1953367517686685697' }, startedAtMs: at, durationMs: 41.6 });
    trail.record({ method: 'PUT', path: '/orders/regular/1953367517686685697', form: { trigger_price: '24010.00' }, brokerOrderId: '1953367517686685697', status: 429, outcome: 'rate-limited', response: { message: 'Too many requests' }, startedAtMs: at + 5, durationMs: 3 });
    trail.record({ method: 'GET', path: '/portfolio/positions', status: 200, outcome: 'ok', response: { net: [] }, startedAtMs: at + 9, durationMs: 12 });
    await trail.close();
    const { rows } = await db.pool.query(
      `SELECT order_id, method, path, request, http_status, outcome, response, duration_ms, (extract(epoch FROM started_at) * 1000)::bigint::text AS started_ms
       FROM broker_requests WHERE user_broker_id = $1 ORDER BY started_at`, [world.userBrokerId]);
    expect(rows).toEqual([
      { order_id: orderId, method: 'POST', path: '/orders/regular', request: { tag: 'r0a1b2c3d4e5f6g7h8i9', quantity: '65' }, http_status: 200, outcome: 'ok', response: { order_id: '1953367517686685697' }, duration_ms: 42, started_ms: String(at) },
      { order_id: orderId, method: 'PUT', path: '/orders/regular/1953367517686685697', request: { trigger_price: '24010.00' }, http_status: 429, outcome: 'rate-limited', response: { message: 'Too many requests' }, duration_ms: 3, started_ms: String(at + 5) },
      { order_id: null, method: 'GET', path: '/portfolio/positions', request: {}, http_status: 200, outcome: 'ok', response: { net: [] }, duration_ms: 12, started_ms: String(at + 9) },
    ]);
  });

  it('keeps the records of a failed write for the next flush', async () => {
    const logs: string[] = [];
    const trail = new BrokerRequestTrail({ pool: db.pool, userId: world.userId, userBrokerId: world.userBrokerId, broker: 'zerodha', flushMs: 10_000, log: (line) => logs.push(line) });
    // An outcome the table's CHECK refuses makes the write fail as a database error would.
    trail.record({ method: 'GET', path: '/orders', outcome: 'not-an-outcome', startedAtMs: 0, durationMs: 1 });
    await trail.flush();
    expect(logs.join('\n')).toContain('1 records not written yet');
    const before = await db.pool.query(`SELECT count(*)::int AS n FROM broker_requests WHERE path = '/orders'`);
    expect(before.rows[0]).toEqual({ n: 0 });
  });
});
