/**
 * Trading: algorithms and their versions, indicator groups, strategies, subscriptions, signals,
 * and the server-written results (runs, orders, fills, positions, daily P&L, kill switches).
 */
import type { PermissionFilter, TableDeclaration } from './types';
import { OWNS_DIRECTLY, USER_ID, ACTOR_ID, and, or, ownedTable, type Owner } from './permissions-rules';
import { BUILDER_ROLES, MARKETPLACE_ROLES, OWN_ROW_WRITER_ROLES, PAPER_ONLY_ROLES, SIGNED_IN_ROLES, roleIn } from './roles';

const BY_USER_ID = { user_id: 'user_id' } as const;
const BY_STRATEGY = { strategy_id: 'strategy_id' } as const;
const BY_RUN = { run_id: 'run_id' } as const;
const USER = { table: 'users', columns: BY_USER_ID } as const;
const INSTRUMENT = { table: 'instruments', columns: { instrument_id: 'instrument_id' } } as const;
const STRATEGY = { table: 'strategies', columns: BY_STRATEGY } as const;
const RUN = { table: 'strategy_runs', columns: BY_RUN } as const;

/** Most orders or fills one select returns (a long intraday backtest has thousands; page through the rest). */
export const ORDER_ROW_LIMIT = 5_000;

const PUBLISHED: PermissionFilter = { published: { _eq: true } };
const MINE_OR_PUBLISHED: PermissionFilter = or({ user_id: { _eq: USER_ID } }, PUBLISHED);

const algorithms: TableDeclaration = {
  name: 'algorithms',
  description: "A user's algorithm; published ones are on the marketplace.",
  objectRelationships: { user: USER },
  arrayRelationships: { versions: { table: 'algorithm_versions', columns: { algorithm_id: 'algorithm_id' } } },
  permissions: ownedTable({
    owner: OWNS_DIRECTLY,
    shared: { roles: MARKETPLACE_ROLES, filter: PUBLISHED },
    insert: { roles: BUILDER_ROLES, columns: ['name', 'description', 'published', 'latest_version'] },
    update: { roles: BUILDER_ROLES, columns: ['name', 'description', 'published', 'latest_version'] },
    delete: { roles: BUILDER_ROLES },
  }),
};

const VERSION_OWNER: Owner = { through: ['algorithm'] };

const algorithmVersions: TableDeclaration = {
  name: 'algorithm_versions',
  description: 'Immutable rule-graph snapshots: inserted, never updated (a trigger also refuses UPDATE).',
  objectRelationships: { algorithm: { table: 'algorithms', columns: { algorithm_id: 'algorithm_id' } } },
  permissions: ownedTable({
    owner: VERSION_OWNER,
    // Publishing an algorithm shares its rule graph: subscribers and the in-browser backtest read it.
    shared: { roles: MARKETPLACE_ROLES, filter: { algorithm: PUBLISHED } },
    insert: {
      roles: BUILDER_ROLES,
      columns: ['algorithm_id', 'version', 'graph', 'schema_version'],
      // Who saved it: the signed-in user, also when a manager saves for a managed user.
      presets: { created_by: ACTOR_ID },
    },
  }),
};

const indicatorConfigs: TableDeclaration = {
  name: 'indicator_configs',
  description: 'Saved indicator groups; user_id NULL = built-in, readable by every signed-in role.',
  objectRelationships: { user: USER },
  permissions: ownedTable({
    owner: OWNS_DIRECTLY,
    shared: { roles: SIGNED_IN_ROLES, filter: { user_id: { _is_null: true } } },
    insert: { roles: BUILDER_ROLES, columns: ['name', 'indicators', 'pnl_indicators'] },
    update: { roles: BUILDER_ROLES, columns: ['name', 'indicators', 'pnl_indicators'] },
    delete: { roles: BUILDER_ROLES },
  }),
};

const STRATEGY_COLUMNS = [
  'name', 'strategy_type', 'mode', 'status', 'kind', 'algorithm_id', 'algorithm_version', 'instrument_id',
  'indicator_config_id', 'interval_minutes', 'config', 'published',
];

/**
 * What a written strategy must satisfy: it runs the user's own or a published algorithm, uses an
 * own or built-in indicator group, becomes ACTIVE only for a user holding `strategy:deploy`,
 * and is PAPER for the paper-only tiers (docs/PRODUCT.md section 4). `status` stays writable
 * (pausing, archiving), but migration 0019's trigger refuses ACTIVE outside deploy_strategy and
 * any move the strategy life (DRAFT -> ACTIVE <-> PAUSED -> STOPPED) does not allow.
 */
function strategyCheck(role: string): PermissionFilter {
  return and(
    or({ algorithm_id: { _is_null: true } }, { algorithm: MINE_OR_PUBLISHED }),
    or({ indicator_config_id: { _is_null: true } },
      { indicator_config: or({ user_id: { _eq: USER_ID } }, { user_id: { _is_null: true } }) }),
    or({ status: { _neq: 'ACTIVE' } }, { user: { user_permissions: { permission: { _eq: 'strategy:deploy' } } } }),
    roleIn(role, PAPER_ONLY_ROLES) ? { mode: { _eq: 'PAPER' } } : undefined,
  );
}

const strategies: TableDeclaration = {
  name: 'strategies',
  description: 'Strategies (docs/PRODUCT.md section 3); published ones are on the marketplace.',
  objectRelationships: {
    user: USER,
    algorithm: { table: 'algorithms', columns: { algorithm_id: 'algorithm_id' } },
    /** The algorithm version the strategy runs. */
    snapshot: { table: 'algorithm_versions', columns: { algorithm_id: 'algorithm_id', algorithm_version: 'version' } },
    instrument: INSTRUMENT,
    indicator_config: { table: 'indicator_configs', columns: { indicator_config_id: 'indicator_config_id' } },
  },
  arrayRelationships: {
    strategy_runs: { table: 'strategy_runs', columns: BY_STRATEGY },
    subscriptions: { table: 'subscriptions', columns: BY_STRATEGY },
    pending_signals: { table: 'pending_signals', columns: BY_STRATEGY },
  },
  permissions: ownedTable({
    owner: OWNS_DIRECTLY,
    shared: { roles: MARKETPLACE_ROLES, filter: PUBLISHED },
    insert: { roles: BUILDER_ROLES, columns: STRATEGY_COLUMNS, check: strategyCheck },
    update: { roles: BUILDER_ROLES, columns: STRATEGY_COLUMNS, check: strategyCheck },
    // A running strategy is stopped first (its orders and positions are live).
    delete: { roles: BUILDER_ROLES, filter: { status: { _neq: 'ACTIVE' } } },
  }),
};

const SUBSCRIPTION_COLUMNS = [
  'instrument_id', 'quantity', 'investment_amt_paise', 'investment_history', 'mask_mode', 'mask_qty', 'active',
];

const subscriptions: TableDeclaration = {
  name: 'subscriptions',
  description: 'A user following a strategy with their own quantity and capital.',
  objectRelationships: { user: USER, strategy: STRATEGY, instrument: INSTRUMENT },
  permissions: ownedTable({
    owner: OWNS_DIRECTLY,
    // One follows a published strategy or one's own; expires_at is set by billing, not the user.
    insert: {
      roles: OWN_ROW_WRITER_ROLES,
      columns: ['strategy_id', ...SUBSCRIPTION_COLUMNS],
      check: () => ({ strategy: MINE_OR_PUBLISHED }),
    },
    update: { roles: OWN_ROW_WRITER_ROLES, columns: SUBSCRIPTION_COLUMNS },
    delete: { roles: OWN_ROW_WRITER_ROLES },
  }),
};

const pendingSignals: TableDeclaration = {
  name: 'pending_signals',
  description: 'Signals awaiting confirmation; the user only moves them from PENDING to PROCESSED (a plain update dismisses: '
    + 'outcome REJECTED; confirm_signal accepts or rejects).',
  objectRelationships: { user: USER, strategy: STRATEGY },
  permissions: ownedTable({
    owner: OWNS_DIRECTLY,
    update: {
      roles: OWN_ROW_WRITER_ROLES,
      columns: ['state', 'processed_at'],
      filter: { state: { _eq: 'PENDING' } },
      check: () => ({ state: { _eq: 'PROCESSED' } }),
    },
  }),
};

// Written by the server only (backtest workers, the OMS): users read.
const strategyRuns: TableDeclaration = {
  name: 'strategy_runs',
  description: 'One kernel execution (backtest, paper, live...); written by the server.',
  objectRelationships: { user: USER, strategy: STRATEGY },
  arrayRelationships: {
    orders: { table: 'orders', columns: BY_RUN },
    positions: { table: 'positions', columns: BY_RUN },
    daily_pnl: { table: 'daily_pnl', columns: BY_RUN },
  },
  permissions: ownedTable({ owner: OWNS_DIRECTLY }),
};

const orders: TableDeclaration = {
  name: 'orders',
  description: 'Orders of a run; written by the OMS.',
  objectRelationships: { user: USER, run: RUN, strategy: STRATEGY, instrument: INSTRUMENT },
  arrayRelationships: { fills: { table: 'fills', columns: { order_id: 'order_id' } } },
  permissions: ownedTable({ owner: OWNS_DIRECTLY, select: { limit: ORDER_ROW_LIMIT } }),
};

const fills: TableDeclaration = {
  name: 'fills',
  description: 'Executions of an order; written by the OMS, never updated.',
  objectRelationships: { order: { table: 'orders', columns: { order_id: 'order_id' } } },
  permissions: ownedTable({ owner: { through: ['order'] }, select: { limit: ORDER_ROW_LIMIT } }),
};

const positions: TableDeclaration = {
  name: 'positions',
  description: 'Net position per run and instrument.',
  objectRelationships: { run: RUN, instrument: INSTRUMENT },
  permissions: ownedTable({ owner: { through: ['run'] } }),
};

const dailyPnl: TableDeclaration = {
  name: 'daily_pnl',
  description: 'P&L and order count per run and day (dashboard heatmaps).',
  objectRelationships: { run: RUN },
  permissions: ownedTable({ owner: { through: ['run'] } }),
};

// Written by the server only (the set_kill_switch action, the OMS): owners read their own switch,
// staff read every one, the global switch (user_id null) included.
const killSwitches: TableDeclaration = {
  name: 'kill_switches',
  description: "A user's kill switch, and the administrators' global one (user_id null); written by the server.",
  objectRelationships: { user: USER },
  permissions: ownedTable({ owner: OWNS_DIRECTLY }),
};

// Written by the broker adapters only: every request sent to a broker and its answer, secrets
// redacted before the row is written (migration 0023). The owner reads their own trail.
const brokerRequests: TableDeclaration = {
  name: 'broker_requests',
  description: "Every request sent to a user's broker and its answer (secrets redacted), per order; written by the server.",
  objectRelationships: { user: USER, order: { table: 'orders', columns: { order_id: 'order_id' } } },
  permissions: ownedTable({ owner: OWNS_DIRECTLY, select: { limit: ORDER_ROW_LIMIT } }),
};

// Written by the runtime; the user only acknowledges an alert (sets acknowledged_at, once).
const tradingAlerts: TableDeclaration = {
  name: 'trading_alerts',
  description: 'What the trading runtime tells a user about their account (a broker session to renew, a paused strategy); '
    + 'written by the server, acknowledged by the user.',
  objectRelationships: { user: USER, strategy: STRATEGY },
  permissions: ownedTable({
    owner: OWNS_DIRECTLY,
    update: {
      roles: OWN_ROW_WRITER_ROLES,
      columns: ['acknowledged_at'],
      filter: { acknowledged_at: { _is_null: true } },
      check: () => ({ acknowledged_at: { _is_null: false } }),
    },
  }),
};

/** The trading tables in declaration order. */
export const TRADING_TABLES: readonly TableDeclaration[] = [
  algorithms, algorithmVersions, indicatorConfigs, strategies, subscriptions, pendingSignals, strategyRuns,
  orders, fills, positions, dailyPnl, killSwitches, brokerRequests, tradingAlerts,
];
