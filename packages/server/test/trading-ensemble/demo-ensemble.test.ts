// The demo administrator's ensemble (db/seed/demo-ensemble.ts): not made while the advanced demo
// user's market strategy has no PAPER run in progress; then made once, with that member and the
// two demo Zerodha accounts on PAPER at their investments; a second call makes nothing.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEMO_ENSEMBLE_NAME, saveDemoEnsemble } from '../../src/db/seed/demo-ensemble';
import { DEMO_MARKET_STRATEGIES } from '../../src/db/seed/demo-paper';
import { demoEmail } from '../../src/db/seed/demo-users';
import { freshDatabase, type TestDatabase } from '../helpers/db';
import { indexId } from '../trading-feeds/feed-test-support';
import { algorithm, deployable, strategyOf } from '../trading-runner/runner-test-support';

let db: TestDatabase;
const logged: string[] = [];
const save = (): Promise<boolean> => saveDemoEnsemble({ pool: db.pool, nowMs: Date.now(), log: (message) => logged.push(message) });

beforeAll(async () => {
  db = await freshDatabase({ seeded: true });
}, 120_000);

afterAll(async () => {
  await db?.close();
});

it('is made once the member runs, with the two demo accounts on PAPER, and only once', async () => {
  const { rows: users } = await db.pool.query<{ id: string }>('SELECT id FROM auth.users WHERE email = $1', [demoEmail('advanced')]);
  const advanced = users[0]!.id;
  const algo = await algorithm(db.pool, advanced, { buy: 'crossover(ema(close, 9), ema(close, 21))', sell: 'crossunder(ema(close, 9), ema(close, 21))' });
  const strategyId = await strategyOf(db.pool, { userId: advanced, instrumentId: await indexId(db.pool, 'NIFTY 50'), config: deployable(algo) });
  const name = DEMO_MARKET_STRATEGIES.find((plan) => plan.role === 'advanced')!.name;
  await db.pool.query('UPDATE strategies SET name = $2 WHERE strategy_id = $1', [strategyId, name]);

  expect(await save()).toBe(false);
  expect(logged.at(-1)).toBe('demo ensemble: no administrator, member run in progress or demo account yet (the next start tries again)');

  await db.pool.query(`INSERT INTO strategy_runs (strategy_id, user_id, kind, status, params) VALUES ($1, $2, 'PAPER', 'IN PROGRESS', '{}')`, [strategyId, advanced]);
  expect(await save()).toBe(true);
  expect(await save()).toBe(false);
  const { rows } = await db.pool.query<{ name: string; owner: string; members: string[]; accounts: string[] }>(
    `SELECT s.name, u.email AS owner,
            (SELECT array_agg(member_strategy_id::text) FROM ensemble_members m WHERE m.ensemble_id = s.strategy_id) AS members,
            (SELECT array_agg(b.client_id || ':' || a.mode || ':' || a.investment_paise ORDER BY b.client_id) FROM ensemble_accounts a
               JOIN user_brokers b USING (user_broker_id) WHERE a.ensemble_id = s.strategy_id) AS accounts
       FROM strategies s JOIN auth.users u ON u.id = s.user_id WHERE s.kind = 'ensemble'`);
  expect(rows).toEqual([{ name: DEMO_ENSEMBLE_NAME, owner: demoEmail('administrator'), members: [strategyId], accounts: ['ZB2046:PAPER:15000000', 'ZR7314:PAPER:50000000'] }]);
});
