import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase } from './helpers/db';
import type { TestDatabase } from './helpers/db';

let db: TestDatabase;
let entryId: string;
const actor = randomUUID();

beforeAll(async () => {
  db = await freshDatabase();
  const result = await db.pool.query<{ id: string }>(
    `INSERT INTO audit_log (actor_user_id, action, entity, entity_id, before, after, ip)
     VALUES ($1, 'order.status', 'orders', 'co-1', '{"status": "OPEN"}', '{"status": "CANCELLED"}', '10.0.0.7')
     RETURNING id`, [actor]);
  entryId = result.rows[0]?.id ?? '';
});

afterAll(async () => {
  await db.close();
});

async function entries(): Promise<unknown[]> {
  const result = await db.pool.query('SELECT id, at, actor_user_id, action, entity, entity_id, before, after, ip FROM audit_log ORDER BY id');
  return result.rows;
}

describe('audit_log', () => {
  it('accepts new entries, stamping the time and numbering them', async () => {
    const rows = await db.pool.query<{ action: string; ip: string; at: Date; after: unknown }>(
      'SELECT action, host(ip) AS ip, at, after FROM audit_log WHERE id = $1', [entryId]);
    expect(rows.rows).toHaveLength(1);
    expect(rows.rows[0]).toMatchObject({ action: 'order.status', ip: '10.0.0.7', after: { status: 'CANCELLED' } });
    expect(rows.rows[0]?.at).toBeInstanceOf(Date);
    // The actor need not exist any more: the trail outlives deleted users.
    const second = await db.pool.query<{ id: string }>(
      `INSERT INTO audit_log (action, entity) VALUES ('seed.run', 'app_meta') RETURNING id`);
    expect(BigInt(second.rows[0]?.id ?? '0')).toBeGreaterThan(BigInt(entryId));
  });

  it('refuses UPDATE with a clear message', async () => {
    const before = await entries();
    await expect(db.pool.query(`UPDATE audit_log SET action = 'order.tampered' WHERE id = $1`, [entryId]))
      .rejects.toMatchObject({ code: '42501', message: 'audit_log is append-only: rows cannot be updated' });
    expect(await entries()).toEqual(before);
  });

  it('refuses DELETE', async () => {
    const before = await entries();
    await expect(db.pool.query('DELETE FROM audit_log WHERE id = $1', [entryId]))
      .rejects.toMatchObject({ code: '42501', message: 'audit_log is append-only: rows cannot be deleted' });
    expect(await entries()).toEqual(before);
  });

  it('refuses TRUNCATE', async () => {
    const before = await entries();
    await expect(db.pool.query('TRUNCATE audit_log'))
      .rejects.toMatchObject({ code: '42501', message: 'audit_log is append-only: it cannot be truncated' });
    expect(await entries()).toEqual(before);
    expect(before.length).toBeGreaterThan(0);
  });

  it('does not let a writer choose the id', async () => {
    await expect(db.pool.query(`INSERT INTO audit_log (id, action, entity) VALUES (1, 'x', 'y')`))
      .rejects.toMatchObject({ code: '428C9' });
  });

  it('rejects entries without an action or entity', async () => {
    await expect(db.pool.query(`INSERT INTO audit_log (entity) VALUES ('orders')`))
      .rejects.toMatchObject({ code: '23502', column: 'action' });
    await expect(db.pool.query(`INSERT INTO audit_log (action, entity) VALUES ('Not An Action!', 'orders')`))
      .rejects.toMatchObject({ code: '23514', constraint: 'audit_log_action_check' });
  });
});
