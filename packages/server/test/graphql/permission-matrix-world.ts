/**
 * The world the permission matrix runs in: the seeded demo world plus a second user of every
 * tier ("twins"), one row of every user-owned table for every user, and reference rows the seed
 * does not have (candles either side of each tier's 1-minute date, expiries, end-of-day prices).
 *
 * Persons are named by label: the demo user of a tier by the tier (`advanced`), its twin by
 * `<tier>-2`. Published rows belong to `advanced` and `demo-2`. `manager` manages trial, basic
 * and advanced (seed); `manager-2` manages backtest.
 */
import type pg from 'pg';
import { TIER_ROLES, type TierRole } from '../../src/graphql/metadata/roles';
import { ROLE_PERMISSIONS } from '../../src/db/seed/demo-users';

export interface WorldUser {
  readonly label: string;
  readonly id: string;
  readonly tier: TierRole;
  readonly permissions: readonly string[];
}

export interface PermissionWorld {
  readonly users: ReadonlyMap<string, WorldUser>;
  /** Primary key columns of every declared table (views: from the declaration). */
  readonly primaryKeys: ReadonlyMap<string, readonly string[]>;
  /** Row ids created per user label, for probes: algorithm, strategy (with version 1). */
  readonly rows: ReadonlyMap<string, { readonly algorithmId: string; readonly strategyId: string }>;
  readonly instrumentId: number;
}

/** Labels whose algorithm and strategy are published. */
export const PUBLISHING_LABELS: readonly string[] = ['advanced', 'demo-2'];

const TWIN_NAMES: Readonly<Record<TierRole, string>> = {
  trial: 'Tanvi Kulkarni', basic: 'Bhavesh Joshi', advanced: 'Anika Varma', demo: 'Dev Chatterjee',
  backtest: 'Bina Pillai', manager: 'Manish Rao', administrator: 'Aditi Saxena', superadmin: 'Suresh Menon',
  support: 'Sneha Gupta',
};

/** Candles either side of every tier's 1-minute date (IST session times). */
const CANDLE_TIMES = [
  '2020-06-01 09:15', '2020-12-31 15:29', '2021-01-01 09:15', '2023-12-29 15:29', '2024-01-01 09:15',
  '2024-12-31 15:29', '2025-01-01 09:15', '2025-01-01 18:15',
];

async function one<T>(pool: pg.Pool, sql: string, params: readonly unknown[]): Promise<T> {
  const result = await pool.query(sql, params as unknown[]);
  const row = result.rows[0] as T | undefined;
  if (!row) throw new Error(`no row from: ${sql}`);
  return row;
}

async function createTwin(pool: pg.Pool, tier: TierRole): Promise<string> {
  const { id } = await one<{ id: string }>(pool,
    `INSERT INTO auth.users (email, display_name, email_verified, default_role) VALUES ($1, $2, true, $3) RETURNING id`,
    [`${tier}-2@matrix.test`, TWIN_NAMES[tier], tier]);
  await pool.query(`INSERT INTO users (user_id, name, tier) VALUES ($1, $2, $3)`, [id, TWIN_NAMES[tier], tier]);
  await pool.query(`INSERT INTO auth.user_roles (user_id, role) SELECT $1, unnest($2::text[])`, [id, [tier, 'user', 'me']]);
  await pool.query(`INSERT INTO user_permissions (user_id, permission) SELECT $1, unnest($2::text[])`, [id, ROLE_PERMISSIONS[tier]]);
  await pool.query(`INSERT INTO user_app_configs (user_id, category, subcategory, meta_data) VALUES ($1, 'application', 'global', '{}')`, [id]);
  return id;
}

/** One row of every user-owned table for one user. */
async function createOwnedRows(pool: pg.Pool, user: WorldUser, instrumentId: number): Promise<{ algorithmId: string; strategyId: string }> {
  const published = PUBLISHING_LABELS.includes(user.label);
  const clientId = `MX${user.label.replace(/[^a-z0-9]/g, '').toUpperCase()}`;
  await pool.query(
    `INSERT INTO user_brokers (user_id, broker, client_id, api_secret_ciphertext, api_secret_nonce, api_secret_key_id)
     VALUES ($1, 'shoonya', $2, '\\x0102'::bytea, '\\x0304'::bytea, 'key-1')`, [user.id, clientId]);
  // The account's risk settings and one day of it (migration 0026): read by its owner, its user's manager and superadmins.
  await pool.query(`INSERT INTO account_risk (user_broker_id, enable_sl, sl, default_sl) SELECT user_broker_id, true, 500000, 500000 FROM user_brokers WHERE client_id = $1`, [clientId]);
  await pool.query(`INSERT INTO account_risk_days (user_broker_id, trading_day, pnl_paise, session_state) SELECT user_broker_id, '2025-01-02', -1500, 'NONE' FROM user_brokers WHERE client_id = $1`, [clientId]);
  const { algorithm_id: algorithmId } = await one<{ algorithm_id: string }>(pool,
    `INSERT INTO algorithms (user_id, name, published, latest_version) VALUES ($1, $2, $3, 1) RETURNING algorithm_id`,
    [user.id, `algo ${user.label}`, published]);
  await pool.query(
    `INSERT INTO algorithm_versions (algorithm_id, version, graph, schema_version, created_by) VALUES ($1, 1, '{}', 1, $2)`,
    [algorithmId, user.id]);
  const { indicator_config_id: indicatorConfigId } = await one<{ indicator_config_id: string }>(pool,
    `INSERT INTO indicator_configs (user_id, name) VALUES ($1, 'mine') RETURNING indicator_config_id`, [user.id]);
  const { strategy_id: strategyId } = await one<{ strategy_id: string }>(pool,
    `INSERT INTO strategies (user_id, name, algorithm_id, algorithm_version, instrument_id, indicator_config_id, published)
     VALUES ($1, $2, $3, 1, $4, $5, $6) RETURNING strategy_id`,
    [user.id, `strategy ${user.label}`, algorithmId, instrumentId, indicatorConfigId, published]);
  await pool.query(`INSERT INTO subscriptions (user_id, strategy_id, quantity) VALUES ($1, $2, 1)`, [user.id, strategyId]);
  await pool.query(`INSERT INTO pending_signals (user_id, strategy_id, payload) VALUES ($1, $2, '{}')`, [user.id, strategyId]);
  const { run_id: runId } = await one<{ run_id: string }>(pool,
    `INSERT INTO strategy_runs (user_id, strategy_id, kind, status, finished_at) VALUES ($1, $2, 'PAPER', 'COMPLETE', now())
     RETURNING run_id`, [user.id, strategyId]);
  const { order_id: orderId } = await one<{ order_id: string }>(pool,
    `INSERT INTO orders (client_order_id, run_id, strategy_id, user_id, instrument_id, side, quantity, filled_quantity,
                         order_type, product, status)
     VALUES ($1, $2, $3, $4, $5, 'BUY', 50, 50, 'MARKET', 'MIS', 'FILLED') RETURNING order_id`,
    [`mx-${user.id}`, runId, strategyId, user.id, instrumentId]);
  await pool.query(`INSERT INTO fills (order_id, trade_id, quantity, price_paise, ts) VALUES ($1, 't1', 50, 2000000, now())`, [orderId]);
  await pool.query(
    `INSERT INTO positions (run_id, instrument_id, net_quantity, average_price_paise) VALUES ($1, $2, 50, 2000000)`,
    [runId, instrumentId]);
  await pool.query(`INSERT INTO daily_pnl (run_id, date, pnl_paise, orders_count) VALUES ($1, '2025-01-02', 1500, 1)`, [runId]);
  // A sweep and one of its rows (migration 0031): read as strategy_runs are.
  const { sweep_id: sweepId } = await one<{ sweep_id: string }>(pool,
    `INSERT INTO sweeps (user_id, actor_id, algorithm_id, algorithm_version, instrument_id, kind, request, metric, combinations, chunks, estimated_candles, candles)
     VALUES ($1, $1, $2, 1, $3, 'sweep', '{}', 'sharpe', 1, 1, 0, 0) RETURNING sweep_id`, [user.id, algorithmId, instrumentId]);
  await pool.query(`INSERT INTO sweep_results (sweep_id, position, bindings, metrics, candles) VALUES ($1, 0, '{"fast":5}', '{"sharpe":1}', 0)`, [sweepId]);
  await pool.query(`INSERT INTO kill_switches (user_id, is_on, changed_by) VALUES ($1, false, $1)`, [user.id]);
  await pool.query(
    `INSERT INTO broker_requests (user_id, order_id, broker, method, path, request, http_status, outcome, response, started_at, duration_ms)
     VALUES ($1, $2, 'zerodha', 'POST', '/orders/regular', '{"tag":"mx"}', 200, 'ok', '{"order_id":"1"}', now(), 12)`, [user.id, orderId]);
  await pool.query(
    `INSERT INTO trading_alerts (user_id, strategy_id, kind, message) VALUES ($1, $2, 'broker-session-missing', 'log in to Zerodha for today')`,
    [user.id, strategyId]);
  await pool.query(
    `INSERT INTO user_credits (user_id, credits, expiry, category, subcategory) VALUES ($1, 1000, '2099-01-01', 'BACKTEST', 'CANDLES')`,
    [user.id]);
  await pool.query(`INSERT INTO deployed_strategies (user_id, available, utilized, expiry) VALUES ($1, 2, 1, '2099-01-01')`, [user.id]);
  return { algorithmId, strategyId };
}

async function createReferenceRows(pool: pg.Pool, instrumentId: number): Promise<void> {
  await pool.query(`INSERT INTO indicator_configs (user_id, name) VALUES (NULL, 'built-in trend')`);
  // The administrators' global switch: staff read it, nobody else.
  await pool.query(`INSERT INTO kill_switches (user_id, is_on) VALUES (NULL, false)`);
  for (const time of CANDLE_TIMES) {
    await pool.query(
      `INSERT INTO candles (ts, instrument_id, open_paise, high_paise, low_paise, close_paise, source)
       VALUES (($1::timestamp AT TIME ZONE 'Asia/Kolkata'), $2, 2000000, 2000500, 1999500, 2000100, 'import')
       ON CONFLICT DO NOTHING`, [time, instrumentId]);
  }
  await pool.query(`INSERT INTO fno_expiries (instrument_id, segment, expiry, mode) VALUES ($1, 'OPT', '2025-01-30', 'monthly')
                    ON CONFLICT DO NOTHING`, [instrumentId]);
  await pool.query(`INSERT INTO eod_prices (instrument_id, trade_date, close_paise, source) VALUES ($1, '2025-01-02', 2000000, 'import')
                    ON CONFLICT DO NOTHING`, [instrumentId]);
}

async function readPrimaryKeys(pool: pg.Pool): Promise<Map<string, string[]>> {
  const result = await pool.query<{ table_name: string; columns: string[] }>(
    `SELECT c.relname AS table_name, array_agg(a.attname::text ORDER BY k.ordinality) AS columns
     FROM pg_index i
     JOIN pg_class c ON c.oid = i.indrelid
     JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = 'public'
     CROSS JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, ordinality)
     JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum
     WHERE i.indisprimary
     GROUP BY c.relname`);
  const keys = new Map(result.rows.map((row) => [row.table_name, row.columns]));
  keys.set('licences', ['user_id', 'licence_type']);
  return keys;
}

/** Builds the world in a seeded database (superuser SQL, outside GraphQL). */
export async function buildPermissionWorld(pool: pg.Pool): Promise<PermissionWorld> {
  const users = new Map<string, WorldUser>();
  const seeded = await pool.query<{ user_id: string; tier: TierRole }>(
    `SELECT p.user_id, p.tier FROM users p JOIN auth.users a ON a.id = p.user_id WHERE a.email LIKE '%@demo.vyuha.in'`);
  for (const row of seeded.rows) {
    users.set(row.tier, { label: row.tier, id: row.user_id, tier: row.tier, permissions: ROLE_PERMISSIONS[row.tier] });
  }
  for (const tier of TIER_ROLES) {
    if (!users.has(tier)) throw new Error(`the seeded world lacks the ${tier} demo user`);
    const id = await createTwin(pool, tier);
    users.set(`${tier}-2`, { label: `${tier}-2`, id, tier, permissions: ROLE_PERMISSIONS[tier] });
  }
  const idOf = (label: string): string => {
    const user = users.get(label);
    if (!user) throw new Error(`no world user ${label}`);
    return user.id;
  };
  await pool.query(`INSERT INTO managers (manager_id, user_id) VALUES ($1, $2)`, [idOf('manager-2'), idOf('backtest')]);
  // Acting for users (migration 0030): each side of a row reads it, a superadmin every row, nobody else.
  for (const [actor, subject] of [['manager-2', 'backtest'], ['manager', 'basic'], ['superadmin-2', 'trial']] as const) {
    await pool.query(`INSERT INTO acting_audit (actor_id, actor_name, subject_id, root_fields, outcome) VALUES ($1, $3, $2, '{set_kill_switch}', 'ok')`,
      [idOf(actor), idOf(subject), actor]);
  }
  const { instrument_id: instrumentId } = await one<{ instrument_id: number }>(pool,
    `SELECT instrument_id FROM instruments WHERE trading_symbol = 'NIFTY'`, []);
  const rows = new Map<string, { algorithmId: string; strategyId: string }>();
  for (const user of users.values()) rows.set(user.label, await createOwnedRows(pool, user, instrumentId));
  await createReferenceRows(pool, instrumentId);
  return { users, primaryKeys: await readPrimaryKeys(pool), rows, instrumentId };
}
