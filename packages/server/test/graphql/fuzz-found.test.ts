/**
 * What the fuzz suite (fuzz-roles.test.ts) found, each fixed and pinned here: requests a client
 * may send that the engine answered with `unexpected` (a database error) instead of running or
 * refusing them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGraphqlEngine, type VyuhaGraphqlEngine } from '../../src/graphql/engine';
import { vyuhaMetadata } from '../../src/graphql/metadata/index';
import type { GraphqlSession } from '../../src/graphql/types';
import { freshDatabase, type TestDatabase } from '../helpers/db';
import { demoUserIds } from './engine-fixtures';

let db: TestDatabase;
let engine: VyuhaGraphqlEngine;
let basic: GraphqlSession;

beforeAll(async () => {
  db = await freshDatabase({ seeded: true });
  engine = await createGraphqlEngine({ pool: db.pool, metadata: vyuhaMetadata([]) });
  const id = (await demoUserIds(db.pool)).basic ?? '';
  basic = { role: 'basic', admin: false, variables: { 'x-hasura-role': 'basic', 'x-hasura-user-id': id, 'x-hasura-actor-id': id } };
});
afterAll(async () => db?.close());

describe('fuzz findings', () => {
  it('orders by a relationship given an empty object (it left a permission parameter unused: 42P18)', async () => {
    for (const orderBy of ['{run: {}}', '{run: {positions_aggregate: {}}, pnl_paise: desc}', '[{orders_count: desc, run: {}}]']) {
      const outcome = await engine.execute({ query: `{ daily_pnl(order_by: ${orderBy}) { orders_count } }` }, basic);
      expect(outcome.errors, orderBy).toEqual([]);
    }
  });

  it('upserts with a column named twice in update_columns (it assigned the column twice: 42601)', async () => {
    const query = `mutation ($client: String!) {
      insert_user_brokers_one(object: {broker: "zerodha", client_id: $client},
        on_conflict: {constraint: user_brokers_user_broker_client_key, update_columns: [active, active]}) { client_id active }
    }`;
    const first = await engine.execute({ query, variables: { client: 'FUZZ01' } }, basic);
    expect(first.errors).toEqual([]);
    const again = await engine.execute({ query, variables: { client: 'FUZZ01' } }, basic);
    expect(JSON.parse(again.body)).toEqual({ data: { insert_user_brokers_one: { client_id: 'FUZZ01', active: expect.any(Boolean) } } });
  });
});
