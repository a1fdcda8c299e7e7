// The basket actions as GraphQL calls them: the role check, the argument's field as the error's
// path (with every issue in extensions.issues), LIVE refused with the reason on a server without
// the strategy runners' job queue (LIVE placement itself: live-basket.test.ts), and a preview
// whose charges are the engine's.
import { chargeModelOf } from '@vyuha/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basketActions, LIVE_BASKET_UNAVAILABLE } from '../../src/graphql/actions/basket-actions';
import type { GraphqlSession } from '../../src/graphql/types';
import { GraphqlFailure } from '../../src/graphql/types';
import { freshDatabase, type TestDatabase } from '../helpers/db';
import { addUser, countRows, FUTURE, LOT, NOW, setLastPrices, TODAY } from './basket-support';

let db: TestDatabase;
let userId: string;

beforeAll(async () => {
  db = await freshDatabase({ seeded: true });
  await setLastPrices(db.pool);
  userId = await addUser(db.pool);
});

afterAll(async () => {
  await db.close();
});

function session(role: string): GraphqlSession {
  return { role, admin: false, variables: { 'x-hasura-user-id': userId, 'x-hasura-role': role } };
}

async function call(name: string, request: { role: string; args: Record<string, unknown> }): Promise<unknown> {
  const action = basketActions({ pool: db.pool, now: () => NOW }).find((candidate) => candidate.name === name);
  if (action === undefined) throw new Error(`no action ${name}`);
  return action.handler({ session: session(request.role), args: request.args });
}

async function failureOf(work: Promise<unknown>): Promise<ReturnType<GraphqlFailure['toGraphqlError']>> {
  try {
    await work;
  } catch (error) {
    if (error instanceof GraphqlFailure) return error.toGraphqlError();
    throw error;
  }
  throw new Error('expected a refusal');
}

const leg = { symbol: FUTURE, side: 'BUY', lots: 1, order_type: 'MARKET' };

describe('the basket actions', () => {
  it('refuses a role that may not trade', async () => {
    const failure = await failureOf(call('save_basket', { role: 'trial', args: { name: 'X', legs: [leg] } }));
    expect(failure.extensions.code).toBe('permission-error');
  });

  it('names the leg\'s field in the path and lists every issue', async () => {
    const before = await countRows(db.pool, 'strategies');
    const failure = await failureOf(call('save_basket', { role: 'advanced', args: { name: 'X', legs: [leg, { ...leg, lots: 0, order_type: 'LIMIT' }] } }));
    expect(failure.extensions.path).toBe('$.selectionSet.save_basket.args.legs[1].lots');
    expect((failure.extensions as unknown as { issues: Array<{ field: string }> }).issues.map((issue) => issue.field))
      .toEqual(['legs[1].lots', 'legs[1].price_paise']);
    expect(await countRows(db.pool, 'strategies')).toBe(before);
  });

  it('previews the engine\'s charges, and refuses LIVE with the reason when no runner can place it', async () => {
    const preview = await call('preview_basket', { role: 'advanced', args: { legs: [leg] } }) as { charges_paise: number; legs: Array<{ price_paise: number }> };
    const price = preview.legs[0]!.price_paise;
    expect(preview.charges_paise).toBe(chargeModelOf({ kind: 'schedule', exchange: 'NSE', instrument: 'future' })({ date: TODAY, side: 'buy', price: price as never, quantity: LOT }).total);
    const saved = await call('save_basket', { role: 'advanced', args: { name: 'Live?', legs: [leg] } }) as { strategy_id: string };
    const runs = await countRows(db.pool, 'strategy_runs');
    const failure = await failureOf(call('place_basket', { role: 'advanced', args: { strategy_id: saved.strategy_id, mode: 'LIVE', user_broker_id: saved.strategy_id } }));
    expect(failure.message).toBe(LIVE_BASKET_UNAVAILABLE);
    expect(failure.extensions.path).toBe('$.selectionSet.place_basket.args.mode');
    expect(await countRows(db.pool, 'strategy_runs')).toBe(runs);
    const placed = await call('place_basket', { role: 'advanced', args: { strategy_id: saved.strategy_id, mode: 'PAPER' } }) as { complete: boolean; legs: Array<{ status: string }> };
    expect(placed).toMatchObject({ complete: true, needs_choice: false, legs: [{ status: 'FILLED' }] });
  });
});
