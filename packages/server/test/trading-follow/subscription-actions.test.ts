// subscribe_strategy and update_subscription: who may call them, whose rows they write, and each
// bad argument refused by name with nothing changed; an investment edit appends a dated
// investment_history entry (the same day's edit replaces that day's) and keeps investment_amt.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUBSCRIBE_ROLES, subscriptionActions } from '../../src/graphql/actions/subscription-actions';
import type { ActionDeclaration } from '../../src/graphql/metadata/types';
import type { GraphqlSession } from '../../src/graphql/types';
import { GraphqlFailure } from '../../src/graphql/types';
import { freshDatabase, type TestDatabase } from '../helpers/db';
import { createTrader } from '../trading-runner/runner-test-support';

let db: TestDatabase;
let subscribe: ActionDeclaration;
let update: ActionDeclaration;
let publisher: string;
let published: string;
let unpublished: string;
let now = Date.UTC(2026, 10, 20, 6);

function sessionOf(userId: string, role = 'basic'): GraphqlSession {
  return { role, admin: false, variables: { 'x-hasura-user-id': userId, 'x-hasura-role': role } };
}

async function refused(promise: Promise<unknown>): Promise<GraphqlFailure> {
  const error = await promise.then(() => undefined, (caught: unknown) => caught);
  expect(error).toBeInstanceOf(GraphqlFailure);
  return error as GraphqlFailure;
}

async function strategy(userId: string, isPublished: boolean): Promise<string> {
  const { rows } = await db.pool.query<{ strategy_id: string }>(
    `INSERT INTO strategies (user_id, name, kind, published) VALUES ($1, $2, 'basket', $3) RETURNING strategy_id`, [userId, `s ${randomUUID()}`, isPublished]);
  return rows[0]!.strategy_id;
}

const rowOf = async (id: string) => (await db.pool.query<{
  user_id: string; sizing: string; quantity: number; investment_amt_paise: string; investment_history: unknown; paused: boolean; active: boolean;
}>('SELECT user_id, sizing, quantity, investment_amt_paise::text, investment_history, paused, active FROM subscriptions WHERE subscription_id = $1', [id])).rows[0];

beforeAll(async () => {
  db = await freshDatabase({ seeded: true });
  [subscribe, update] = subscriptionActions({ pool: db.pool, now: () => now }) as [ActionDeclaration, ActionDeclaration];
  publisher = await createTrader(db.pool);
  published = await strategy(publisher, true);
  unpublished = await strategy(publisher, false);
}, 120_000);

afterAll(async () => {
  await db.close();
});

describe('subscription actions', () => {
  it('are for the marketplace roles only', () => {
    expect(SUBSCRIBE_ROLES).toContain('basic');
    expect(SUBSCRIBE_ROLES).toContain('trial');
    expect(SUBSCRIBE_ROLES).not.toContain('support');
    expect(SUBSCRIBE_ROLES).not.toContain('me');
  });

  it('refuses a role that may not subscribe, bad arguments by name, and a strategy that is neither published nor own', async () => {
    const user = await createTrader(db.pool, { tier: 'basic' });
    const support = await refused(subscribe.handler({ session: sessionOf(user, 'support'), args: { strategy_id: published, sizing: 'quantity', quantity: 1 } } as never));
    expect(support.code).toBe('permission-error');
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ strategy_id: 'x', sizing: 'quantity', quantity: 1 }, 'strategy_id'],
      [{ strategy_id: published, sizing: 'lots', quantity: 1 }, 'sizing'],
      [{ strategy_id: published, sizing: 'quantity', quantity: 0 }, 'quantity'],
      [{ strategy_id: published, sizing: 'quantity' }, 'quantity'],
      [{ strategy_id: published, sizing: 'investment', investment_paise: 0 }, 'investment_paise'],
      [{ strategy_id: published, sizing: 'quantity', quantity: 1, user_broker_id: randomUUID() }, 'user_broker_id'],
      [{ strategy_id: unpublished, sizing: 'quantity', quantity: 1 }, 'strategy_id'],
    ];
    for (const [args, field] of cases) {
      const failure = await refused(subscribe.handler({ session: sessionOf(user), args } as never));
      expect(failure.path).toBe(`$.selectionSet.subscribe_strategy.args.${field}`);
    }
    const { rows } = await db.pool.query('SELECT 1 FROM subscriptions WHERE user_id = $1', [user]);
    expect(rows).toHaveLength(0);
  });

  it('subscribes once, edits the investment into a dated history, pauses and unsubscribes; another user cannot touch it', async () => {
    const user = await createTrader(db.pool, { tier: 'basic' });
    const made = await subscribe.handler({ session: sessionOf(user), args: { strategy_id: published, sizing: 'investment', investment_paise: '50000000' } } as never) as { subscription_id: string };
    expect(await rowOf(made.subscription_id)).toMatchObject({ user_id: user, sizing: 'investment', investment_amt_paise: '50000000', investment_history: [], paused: false, active: true });
    const twice = await refused(subscribe.handler({ session: sessionOf(user), args: { strategy_id: published, sizing: 'quantity', quantity: 1 } } as never));
    expect(twice.message).toContain('already follow');

    await update.handler({ session: sessionOf(user), args: { subscription_id: made.subscription_id, investment_paise: 60_000_000 } } as never);
    await update.handler({ session: sessionOf(user), args: { subscription_id: made.subscription_id, investment_paise: 65_000_000 } } as never);
    now += 2 * 86_400_000;
    await update.handler({ session: sessionOf(user), args: { subscription_id: made.subscription_id, investment_paise: 70_000_000, paused: true } } as never);
    expect(await rowOf(made.subscription_id)).toMatchObject({
      investment_amt_paise: '50000000', paused: true,
      investment_history: [{ date: '2026-11-20', amount_paise: 65_000_000 }, { date: '2026-11-22', amount_paise: 70_000_000 }],
    });

    const stranger = await createTrader(db.pool, { tier: 'basic' });
    const foreign = await refused(update.handler({ session: sessionOf(stranger), args: { subscription_id: made.subscription_id, active: false } } as never));
    expect(foreign.path).toBe('$.selectionSet.update_subscription.args.subscription_id');
    const badPause = await refused(update.handler({ session: sessionOf(user), args: { subscription_id: made.subscription_id, paused: 'yes' } } as never));
    expect(badPause.path).toBe('$.selectionSet.update_subscription.args.paused');
    expect((await rowOf(made.subscription_id))?.active).toBe(true);

    await update.handler({ session: sessionOf(user), args: { subscription_id: made.subscription_id, active: false } } as never);
    expect((await rowOf(made.subscription_id))?.active).toBe(false);
  });
});
