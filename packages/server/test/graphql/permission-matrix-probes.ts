/**
 * Probe rows for every table someone may write: what an insert sends, which row an update or
 * delete aims at, and how to tell with SQL whether it happened. Each case has a unique tag and
 * number so its rows never collide with another case's.
 */
import { rowsOf, sql, type ProbeContext, type WriteProbe } from './permission-matrix-intent';

const FAR_EXPIRY = '2099-12-31';

/** A number unique to the case and the row owner (several owners per case). */
function unique(context: ProbeContext, base: number): number {
  const ownerIndex = [...context.world.users.keys()].indexOf(context.owner.label);
  return base + context.number * 100 + ownerIndex;
}

export const WRITE_PROBES: Readonly<Record<string, WriteProbe>> = {
  users: {
    row: (context) => ({
      create: [],
      where: { user_id: { _eq: context.owner.id } },
      set: { name: `Probe ${context.tag}` },
      exists: sql('SELECT count(*)::int AS n FROM users WHERE user_id = $1', context.owner.id),
      changed: sql('SELECT count(*)::int AS n FROM users WHERE user_id = $1 AND name = $2', context.owner.id, `Probe ${context.tag}`),
    }),
    cleanup: () => [],
  },
  user_permissions: {
    insert: (context) => ({
      prepare: [sql(`DELETE FROM user_permissions WHERE user_id = $1 AND permission = 'strategy:manual'`, context.owner.id)],
      object: { user_id: context.owner.id, permission: 'strategy:manual' },
      count: sql(`SELECT count(*)::int AS n FROM user_permissions WHERE user_id = $1 AND permission = 'strategy:manual'`, context.owner.id),
    }),
    row: (context) => ({
      create: [sql(`INSERT INTO user_permissions (user_id, permission) VALUES ($1, 'strategy:manual') ON CONFLICT DO NOTHING`, context.owner.id)],
      where: { user_id: { _eq: context.owner.id }, permission: { _eq: 'strategy:manual' } },
      set: {},
      exists: sql(`SELECT count(*)::int AS n FROM user_permissions WHERE user_id = $1 AND permission = 'strategy:manual'`, context.owner.id),
      changed: sql('SELECT 0 AS n'),
    }),
    // Put every permission back as the world had it (the demo tiers' lists).
    cleanup: (context) => [
      sql(`DELETE FROM user_permissions WHERE user_id = $1 AND permission = 'strategy:manual'`, context.owner.id),
      sql(`INSERT INTO user_permissions (user_id, permission) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING`,
        context.owner.id, [...context.owner.permissions]),
    ],
  },
  managers: {
    insert: (context) => ({
      object: { manager_id: context.world.users.get('manager-2')?.id, user_id: context.owner.id },
      count: sql('SELECT count(*)::int AS n FROM managers WHERE manager_id = $1 AND user_id = $2',
        context.world.users.get('manager-2')?.id, context.owner.id),
    }),
    row: (context) => {
      const managerId = context.world.users.get('manager-2')?.id;
      return {
        create: [sql('INSERT INTO managers (manager_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', managerId, context.owner.id)],
        where: { manager_id: { _eq: managerId }, user_id: { _eq: context.owner.id } },
        set: {},
        exists: sql('SELECT count(*)::int AS n FROM managers WHERE manager_id = $1 AND user_id = $2', managerId, context.owner.id),
        changed: sql('SELECT 0 AS n'),
      };
    },
    // manager-2 manages only backtest in the world.
    cleanup: (context) => [sql('DELETE FROM managers WHERE manager_id = $1 AND user_id = $2',
      context.world.users.get('manager-2')?.id, context.owner.id)],
  },
  user_app_configs: {
    insert: (context) => ({
      object: { category: 'probe', subcategory: context.tag, meta_data: { tag: context.tag } },
      count: sql(`SELECT count(*)::int AS n FROM user_app_configs WHERE user_id = $1 AND category = 'probe' AND subcategory = $2`,
        context.owner.id, context.tag),
    }),
    row: (context) => ({
      create: [sql(`INSERT INTO user_app_configs (user_id, category, subcategory) VALUES ($1, 'probe', $2)`, context.owner.id, context.tag)],
      where: { user_id: { _eq: context.owner.id }, category: { _eq: 'probe' }, subcategory: { _eq: context.tag } },
      set: { meta_data: { probed: true } },
      exists: sql(`SELECT count(*)::int AS n FROM user_app_configs WHERE user_id = $1 AND category = 'probe' AND subcategory = $2`,
        context.owner.id, context.tag),
      changed: sql(`SELECT count(*)::int AS n FROM user_app_configs WHERE user_id = $1 AND subcategory = $2 AND meta_data = '{"probed": true}'`,
        context.owner.id, context.tag),
    }),
    cleanup: (context) => [sql(`DELETE FROM user_app_configs WHERE category = 'probe' AND subcategory = $1`, context.tag)],
  },
  user_brokers: {
    insert: (context) => ({
      object: { broker: 'fivepaisa', client_id: `I${unique(context, 0)}`, active: true },
      count: sql('SELECT count(*)::int AS n FROM user_brokers WHERE user_id = $1 AND client_id = $2', context.owner.id, `I${unique(context, 0)}`),
    }),
    row: (context) => ({
      create: [sql(`INSERT INTO user_brokers (user_id, broker, client_id) VALUES ($1, 'fivepaisa', $2)`, context.owner.id, `R${unique(context, 0)}`)],
      where: { client_id: { _eq: `R${unique(context, 0)}` } },
      set: { investment_amt_paise: 4242 },
      exists: sql('SELECT count(*)::int AS n FROM user_brokers WHERE client_id = $1', `R${unique(context, 0)}`),
      changed: sql('SELECT count(*)::int AS n FROM user_brokers WHERE client_id = $1 AND investment_amt_paise = 4242', `R${unique(context, 0)}`),
    }),
    cleanup: (context) => [sql(`DELETE FROM user_brokers WHERE broker = 'fivepaisa' AND client_id ~ $1`, `^[IR]${context.number}[0-9]{2}$`)],
  },
  algorithms: {
    insert: (context) => ({
      object: { name: `probe ${context.tag}` },
      count: sql('SELECT count(*)::int AS n FROM algorithms WHERE user_id = $1 AND name = $2', context.owner.id, `probe ${context.tag}`),
    }),
    row: (context) => ({
      create: [sql('INSERT INTO algorithms (user_id, name) VALUES ($1, $2)', context.owner.id, `row ${context.tag}`)],
      where: { user_id: { _eq: context.owner.id }, name: { _eq: `row ${context.tag}` } },
      set: { description: 'probed' },
      exists: sql('SELECT count(*)::int AS n FROM algorithms WHERE user_id = $1 AND name = $2', context.owner.id, `row ${context.tag}`),
      changed: sql(`SELECT count(*)::int AS n FROM algorithms WHERE user_id = $1 AND name = $2 AND description = 'probed'`,
        context.owner.id, `row ${context.tag}`),
    }),
    cleanup: (context) => [sql('DELETE FROM algorithms WHERE name IN ($1, $2)', `probe ${context.tag}`, `row ${context.tag}`)],
  },
  algorithm_versions: {
    insert: (context) => {
      const algorithmId = rowsOf(context, context.owner.label).algorithmId;
      return {
        object: { algorithm_id: algorithmId, version: 1000 + context.number, graph: {}, schema_version: 1 },
        // The preset records the signed-in user (the actor) as the author.
        count: sql('SELECT count(*)::int AS n FROM algorithm_versions WHERE algorithm_id = $1 AND version = $2 AND created_by IS NOT NULL',
          algorithmId, 1000 + context.number),
      };
    },
    cleanup: (context) => [sql('DELETE FROM algorithm_versions WHERE version = $1', 1000 + context.number)],
  },
  indicator_configs: {
    insert: (context) => ({
      object: { name: `probe ${context.tag}` },
      count: sql('SELECT count(*)::int AS n FROM indicator_configs WHERE user_id = $1 AND name = $2', context.owner.id, `probe ${context.tag}`),
    }),
    row: (context) => ({
      create: [sql('INSERT INTO indicator_configs (user_id, name) VALUES ($1, $2)', context.owner.id, `row ${context.tag}`)],
      where: { user_id: { _eq: context.owner.id }, name: { _eq: `row ${context.tag}` } },
      set: { pnl_indicators: ['probed'] },
      exists: sql('SELECT count(*)::int AS n FROM indicator_configs WHERE user_id = $1 AND name = $2', context.owner.id, `row ${context.tag}`),
      changed: sql(`SELECT count(*)::int AS n FROM indicator_configs WHERE user_id = $1 AND name = $2 AND pnl_indicators = '["probed"]'`,
        context.owner.id, `row ${context.tag}`),
    }),
    cleanup: (context) => [sql('DELETE FROM indicator_configs WHERE name IN ($1, $2)', `probe ${context.tag}`, `row ${context.tag}`)],
  },
  strategies: {
    insert: (context) => ({
      object: { name: `probe ${context.tag}`, kind: 'basket', mode: 'PAPER' },
      count: sql('SELECT count(*)::int AS n FROM strategies WHERE user_id = $1 AND name = $2', context.owner.id, `probe ${context.tag}`),
    }),
    row: (context) => ({
      create: [sql(`INSERT INTO strategies (user_id, name, kind) VALUES ($1, $2, 'basket')`, context.owner.id, `row ${context.tag}`)],
      where: { user_id: { _eq: context.owner.id }, name: { _eq: `row ${context.tag}` } },
      set: { interval_minutes: 15 },
      exists: sql('SELECT count(*)::int AS n FROM strategies WHERE user_id = $1 AND name = $2', context.owner.id, `row ${context.tag}`),
      changed: sql('SELECT count(*)::int AS n FROM strategies WHERE user_id = $1 AND name = $2 AND interval_minutes = 15',
        context.owner.id, `row ${context.tag}`),
    }),
    cleanup: (context) => [sql('DELETE FROM strategies WHERE name IN ($1, $2)', `probe ${context.tag}`, `row ${context.tag}`)],
  },
  subscriptions: {
    insert: (context) => ({
      object: { strategy_id: rowsOf(context, 'advanced').strategyId, quantity: unique(context, 100_000) },
      count: sql('SELECT count(*)::int AS n FROM subscriptions WHERE user_id = $1 AND quantity = $2', context.owner.id, unique(context, 100_000)),
    }),
    row: (context) => ({
      create: [sql('INSERT INTO subscriptions (user_id, strategy_id, quantity) VALUES ($1, $2, $3)',
        context.owner.id, rowsOf(context, 'advanced').strategyId, unique(context, 200_000))],
      where: { quantity: { _eq: unique(context, 200_000) } },
      set: { active: false },
      exists: sql('SELECT count(*)::int AS n FROM subscriptions WHERE quantity = $1', unique(context, 200_000)),
      changed: sql('SELECT count(*)::int AS n FROM subscriptions WHERE quantity = $1 AND NOT active', unique(context, 200_000)),
    }),
    cleanup: (context) => [sql('DELETE FROM subscriptions WHERE quantity IN ($1, $2)', unique(context, 100_000), unique(context, 200_000))],
  },
  pending_signals: {
    row: (context) => ({
      create: [sql(`INSERT INTO pending_signals (user_id, strategy_id, payload) VALUES ($1, $2, jsonb_build_object('tag', $3::text))`,
        context.owner.id, rowsOf(context, context.owner.label).strategyId, context.tag)],
      where: { payload: { _contains: { tag: context.tag } }, user_id: { _eq: context.owner.id } },
      set: { state: 'PROCESSED' },
      exists: sql(`SELECT count(*)::int AS n FROM pending_signals WHERE user_id = $1 AND payload->>'tag' = $2`, context.owner.id, context.tag),
      changed: sql(`SELECT count(*)::int AS n FROM pending_signals WHERE user_id = $1 AND payload->>'tag' = $2 AND state = 'PROCESSED'`,
        context.owner.id, context.tag),
    }),
    cleanup: (context) => [sql(`DELETE FROM pending_signals WHERE payload->>'tag' = $1`, context.tag)],
  },
  user_credits: {
    insert: (context) => ({
      object: { user_id: context.owner.id, credits: unique(context, 1_000_000), expiry: FAR_EXPIRY, category: 'BACKTEST', subcategory: 'CANDLES' },
      count: sql('SELECT count(*)::int AS n FROM user_credits WHERE user_id = $1 AND credits = $2', context.owner.id, unique(context, 1_000_000)),
    }),
    row: (context) => ({
      create: [sql(`INSERT INTO user_credits (user_id, credits, expiry, category, subcategory) VALUES ($1, $2, $3, 'BACKTEST', 'CANDLES')`,
        context.owner.id, unique(context, 2_000_000), FAR_EXPIRY)],
      where: { credits: { _eq: unique(context, 2_000_000) } },
      set: { expiry: '2098-01-01' },
      exists: sql('SELECT count(*)::int AS n FROM user_credits WHERE credits = $1', unique(context, 2_000_000)),
      changed: sql(`SELECT count(*)::int AS n FROM user_credits WHERE credits = $1 AND expiry = '2098-01-01'`, unique(context, 2_000_000)),
    }),
    cleanup: (context) => [sql('DELETE FROM user_credits WHERE credits IN ($1, $2)', unique(context, 1_000_000), unique(context, 2_000_000))],
  },
  deployed_strategies: {
    insert: (context) => ({
      object: { user_id: context.owner.id, available: unique(context, 1_000_000), utilized: 0, expiry: FAR_EXPIRY },
      count: sql('SELECT count(*)::int AS n FROM deployed_strategies WHERE user_id = $1 AND available = $2', context.owner.id, unique(context, 1_000_000)),
    }),
    row: (context) => ({
      create: [sql('INSERT INTO deployed_strategies (user_id, available, utilized, expiry) VALUES ($1, $2, 0, $3)',
        context.owner.id, unique(context, 2_000_000), FAR_EXPIRY)],
      where: { available: { _eq: unique(context, 2_000_000) } },
      set: { utilized: 1 },
      exists: sql('SELECT count(*)::int AS n FROM deployed_strategies WHERE available = $1', unique(context, 2_000_000)),
      changed: sql('SELECT count(*)::int AS n FROM deployed_strategies WHERE available = $1 AND utilized = 1', unique(context, 2_000_000)),
    }),
    cleanup: (context) => [sql('DELETE FROM deployed_strategies WHERE available IN ($1, $2)', unique(context, 1_000_000), unique(context, 2_000_000))],
  },
};
