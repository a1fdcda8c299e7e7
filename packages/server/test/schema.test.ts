import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase } from './helpers/db';
import type { TestDatabase } from './helpers/db';

// Each test builds the few rows it needs in one migrated (unseeded) database, with unique
// values so the tests do not depend on each other's order.
let db: TestDatabase;

beforeAll(async () => {
  db = await freshDatabase();
});

afterAll(async () => {
  await db.close();
});

async function one<T>(sql: string, params: unknown[] = []): Promise<T> {
  const result = await db.pool.query(sql, params);
  const row = result.rows[0] as T | undefined;
  if (row === undefined) throw new Error(`no row from: ${sql}`);
  return row;
}

/** An auth user plus app profile, as sign-up would create them. */
async function createUser(tier = 'advanced'): Promise<string> {
  const { id } = await one<{ id: string }>(
    'INSERT INTO auth.users (email, default_role) VALUES ($1, $2) RETURNING id',
    [`${randomUUID()}@example.test`, tier]);
  await db.pool.query('INSERT INTO users (user_id, name, tier) VALUES ($1, $2, $3)', [id, 'Test Trader', tier]);
  return id;
}

async function createIndex(): Promise<number> {
  const symbol = `IDX${randomUUID().slice(0, 8).toUpperCase()}`;
  const row = await one<{ instrument_id: number }>(
    `INSERT INTO instruments (exchange, segment, kind, trading_symbol, name)
     VALUES ('NSE', 'INDICES', 'index', $1, $1) RETURNING instrument_id`, [symbol]);
  return row.instrument_id;
}

async function createRun(userId: string): Promise<string> {
  const row = await one<{ run_id: string }>(
    `INSERT INTO strategy_runs (user_id, kind) VALUES ($1, 'PAPER') RETURNING run_id`, [userId]);
  return row.run_id;
}

async function createOrder(options: { userId: string; quantity: number; status?: string }): Promise<string> {
  const runId = await createRun(options.userId);
  const instrumentId = await createIndex();
  const row = await one<{ order_id: string }>(
    `INSERT INTO orders (client_order_id, run_id, user_id, instrument_id, side, quantity, order_type, product, status)
     VALUES ($1, $2, $3, $4, 'BUY', $5, 'MARKET', 'NRML', $6) RETURNING order_id`,
    [`co-${randomUUID()}`, runId, options.userId, instrumentId, options.quantity, options.status ?? 'PENDING_SUBMIT']);
  return row.order_id;
}

describe('tables and reference rows', () => {
  it('creates every table the GraphQL API exposes by name, and the auth schema', async () => {
    const { rows } = await db.pool.query<{ name: string }>(
      `SELECT table_schema || '.' || table_name AS name FROM information_schema.tables
       WHERE table_schema IN ('public', 'auth')`);
    const names = rows.map((r) => r.name);
    const expected = [
      'users', 'user_permissions', 'managers', 'user_app_configs', 'brokers', 'user_brokers', 'exchanges', 'holidays',
      'special_sessions', 'instruments', 'index_configs', 'ltps', 'fno_expiries', 'index_monthly_closes',
      'index_key_points', 'candles', 'algorithms', 'algorithm_versions', 'indicator_configs', 'strategies',
      'subscriptions', 'pending_signals', 'strategy_runs', 'orders', 'fills', 'positions', 'daily_pnl',
      'user_credits', 'deployed_strategies', 'licences', 'audit_log', 'app_meta',
    ].map((t) => `public.${t}`);
    const auth = ['users', 'roles', 'user_roles', 'refresh_tokens', 'providers', 'user_providers',
      'provider_requests', 'user_security_keys', 'outbox'].map((t) => `auth.${t}`);
    expect(names).toEqual(expect.arrayContaining([...expected, ...auth]));
  });

  it('ships the NSE exchange row of docs/PRODUCT.md section 9 as the default exchange', async () => {
    const nse = await one<Record<string, unknown>>(
      `SELECT currency, symbol, locale, tz, zone, market_open::text, market_close::text, is_default
       FROM exchanges WHERE exchange = 'NSE'`);
    expect(nse).toEqual({ currency: 'INR', symbol: '₹', locale: 'en-IN', tz: 'Asia/Kolkata', zone: 'IN',
      market_open: '09:15:00', market_close: '15:30:00', is_default: true });
    const codes = await db.pool.query<{ exchange: string }>('SELECT exchange FROM exchanges ORDER BY exchange');
    expect(codes.rows.map((r) => r.exchange)).toEqual(['BCD', 'BFO', 'BSE', 'CDS', 'NFO', 'NSE', 'XCBO']);
  });

  it('allows only one default exchange', async () => {
    await expect(db.pool.query(`UPDATE exchanges SET is_default = true WHERE exchange = 'BSE'`))
      .rejects.toMatchObject({ code: '23505' });
  });
});

describe('auth', () => {
  it('treats e-mail addresses case-insensitively', async () => {
    const email = `${randomUUID()}@example.test`;
    await db.pool.query('INSERT INTO auth.users (email) VALUES ($1)', [email]);
    await expect(db.pool.query('INSERT INTO auth.users (email) VALUES ($1)', [email.toUpperCase()]))
      .rejects.toMatchObject({ code: '23505', constraint: 'users_email_key' });
  });

  it('refuses a non-anonymous user without any identity', async () => {
    await expect(db.pool.query('INSERT INTO auth.users (display_name) VALUES ($1)', ['Nobody']))
      .rejects.toMatchObject({ code: '23514', constraint: 'users_identity_present' });
    await db.pool.query('INSERT INTO auth.users (is_anonymous, default_role) VALUES (true, $1)', ['anonymous']);
  });

  it('stores refresh tokens as 32-byte hashes only', async () => {
    const userId = await createUser();
    const insert = (hash: Buffer): Promise<unknown> => db.pool.query(
      `INSERT INTO auth.refresh_tokens (user_id, refresh_token_hash, family_id, expires_at)
       VALUES ($1, $2, gen_random_uuid(), now() + interval '30 days')`, [userId, hash]);
    await insert(Buffer.alloc(32, 7));
    await expect(insert(Buffer.from('a-plain-uuid-token'))).rejects.toMatchObject({
      code: '23514', constraint: 'refresh_tokens_refresh_token_hash_check' });
    await expect(insert(Buffer.alloc(32, 7))).rejects.toMatchObject({ code: '23505' });
  });

  it('only knows the nine product roles as tiers', async () => {
    const { id } = await one<{ id: string }>(
      'INSERT INTO auth.users (email) VALUES ($1) RETURNING id', [`${randomUUID()}@example.test`]);
    await expect(db.pool.query(`INSERT INTO users (user_id, name, tier) VALUES ($1, 'X', 'user')`, [id]))
      .rejects.toMatchObject({ code: '23514', constraint: 'users_tier_check' });
    await expect(db.pool.query(`INSERT INTO users (user_id, name, tier) VALUES ($1, 'X', 'gold')`, [id]))
      .rejects.toMatchObject({ code: '23514', constraint: 'users_tier_check' });
    await expect(db.pool.query(`INSERT INTO users (user_id, name, tier) VALUES ($1, 'X', 'trial')`, [randomUUID()]))
      .rejects.toMatchObject({ code: '23503', constraint: 'users_user_id_fkey' });
  });
});

describe('accounts', () => {
  it('refuses a manager managing themselves, duplicates and unknown users', async () => {
    const manager = await createUser('manager');
    const trader = await createUser('basic');
    await db.pool.query('INSERT INTO managers (manager_id, user_id) VALUES ($1, $2)', [manager, trader]);
    await expect(db.pool.query('INSERT INTO managers (manager_id, user_id) VALUES ($1, $1)', [manager]))
      .rejects.toMatchObject({ code: '23514', constraint: 'managers_not_self' });
    await expect(db.pool.query('INSERT INTO managers (manager_id, user_id) VALUES ($1, $2)', [manager, trader]))
      .rejects.toMatchObject({ code: '23505', constraint: 'managers_pkey' });
    await expect(db.pool.query('INSERT INTO managers (manager_id, user_id) VALUES ($1, $2)', [manager, randomUUID()]))
      .rejects.toMatchObject({ code: '23503', constraint: 'managers_user_id_fkey' });
  });

  it('keys user_app_configs by (category, subcategory, user_id) with an object default', async () => {
    const userId = await createUser();
    const row = await one<{ meta_data: unknown }>(
      `INSERT INTO user_app_configs (user_id, category, subcategory) VALUES ($1, 'application', 'global')
       RETURNING meta_data`, [userId]);
    expect(row.meta_data).toEqual({});
    await expect(db.pool.query(
      `INSERT INTO user_app_configs (user_id, category, subcategory) VALUES ($1, 'application', 'global')`, [userId]))
      .rejects.toMatchObject({ code: '23505', constraint: 'user_app_configs_pkey' });
    await expect(db.pool.query(
      `INSERT INTO user_app_configs (user_id, category, subcategory, meta_data) VALUES ($1, 'application', 'other', NULL)`,
      [userId])).rejects.toMatchObject({ code: '23502', column: 'meta_data' });
    await expect(db.pool.query(
      `INSERT INTO user_app_configs (user_id, category, subcategory, meta_data) VALUES ($1, 'application', 'list', '[1]')`,
      [userId])).rejects.toMatchObject({ code: '23514', constraint: 'user_app_configs_meta_data_check' });
  });

  it('validates broker accounts: known broker, history shape, complete encrypted secret', async () => {
    const userId = await createUser();
    const insert = (values: { broker?: string; clientId: string; history?: string; nonce?: Buffer | null }): Promise<unknown> =>
      db.pool.query(
        `INSERT INTO user_brokers (user_id, broker, client_id, investment_history, api_secret_ciphertext, api_secret_nonce, api_secret_key_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [userId, values.broker ?? 'zerodha', values.clientId, values.history ?? '[]',
          values.nonce === undefined ? null : Buffer.from('ciphertext'), values.nonce ?? null,
          values.nonce === undefined ? null : 'k1']);
    await insert({ clientId: 'OK1001', history: '[{"date": "2025-01-01", "amount_paise": 10000000}]' });
    await insert({ clientId: 'OK1002', nonce: Buffer.alloc(12, 1) });
    await expect(insert({ clientId: 'BAD1', history: '[{"date": "2025-01-01", "amount": 100}]' }))
      .rejects.toMatchObject({ code: '23514', constraint: 'user_brokers_investment_history_check' });
    await expect(insert({ clientId: 'BAD2', history: '[{"date": "2025-01-01", "amount_paise": 10.5}]' }))
      .rejects.toMatchObject({ code: '23514', constraint: 'user_brokers_investment_history_check' });
    await expect(insert({ clientId: 'BAD3', nonce: null }))
      .rejects.toMatchObject({ code: '23514', constraint: 'user_brokers_secret_complete' });
    await expect(insert({ broker: 'robinhood', clientId: 'BAD4' }))
      .rejects.toMatchObject({ code: '23503', constraint: 'user_brokers_broker_fkey' });
    // Unique per user (migration 0014): the same user cannot record a client id twice.
    await expect(insert({ clientId: 'OK1001' }))
      .rejects.toMatchObject({ code: '23505', constraint: 'user_brokers_user_broker_client_key' });
  });

  it('pairs credit categories with their subcategories', async () => {
    const userId = await createUser();
    const insert = (category: string, subcategory: string): Promise<unknown> => db.pool.query(
      `INSERT INTO user_credits (user_id, credits, expiry, category, subcategory) VALUES ($1, 1000, current_date, $2, $3)`,
      [userId, category, subcategory]);
    await insert('BACKTEST', 'CANDLES');
    await insert('STRATEGIES', 'DEPLOYED');
    await expect(insert('BACKTEST', 'DEPLOYED')).rejects.toMatchObject({ code: '23514', constraint: 'user_credits_category_pair' });
    await expect(insert('BONUS', 'CANDLES')).rejects.toMatchObject({ code: '23514', constraint: 'user_credits_category_check' });
  });
});

describe('instruments and candles', () => {
  it('requires the contract fields on options and forbids them on indices', async () => {
    const underlying = await createIndex();
    const option = (symbol: string, strike: number | null): Promise<unknown> => db.pool.query(
      `INSERT INTO instruments (exchange, segment, kind, trading_symbol, name, underlying_instrument_id, expiry,
         strike_paise, option_type, lot_size)
       VALUES ('NFO', 'OPT', 'option', $1, 'NIFTY', $2, '2026-12-29', $3, 'CE', 65)`, [symbol, underlying, strike]);
    await option(`N${randomUUID().slice(0, 8)}CE`, 2_600_000);
    await expect(option(`N${randomUUID().slice(0, 8)}CE`, null))
      .rejects.toMatchObject({ code: '23514', constraint: 'instruments_contract_fields' });
    // Same underlying, expiry, strike and type under another symbol is the same contract.
    await expect(option(`N${randomUUID().slice(0, 8)}CE`, 2_600_000)).rejects.toMatchObject({ code: '23505' });
    await expect(db.pool.query(
      `INSERT INTO instruments (exchange, segment, kind, trading_symbol, name, expiry)
       VALUES ('NSE', 'INDICES', 'index', 'BADIDX', 'BAD', '2026-12-29')`))
      .rejects.toMatchObject({ code: '23514', constraint: 'instruments_contract_fields' });
    await expect(db.pool.query(
      `INSERT INTO instruments (exchange, segment, kind, trading_symbol, name) VALUES ('NSE', 'OPT', 'index', 'MISMATCH', 'X')`))
      .rejects.toMatchObject({ code: '23514', constraint: 'instruments_kind_matches_segment' });
  });

  it('stores candles as whole-minute, consistent OHLC rows, one per instrument and minute', async () => {
    const instrumentId = await createIndex();
    const insert = (ts: string, ohlc: [number, number, number, number]): Promise<unknown> => db.pool.query(
      `INSERT INTO candles (instrument_id, ts, open_paise, high_paise, low_paise, close_paise, volume, source)
       VALUES ($1, $2, $3, $4, $5, $6, 0, 'synthetic')`, [instrumentId, ts, ...ohlc]);
    await insert('2026-01-05 09:15:00+05:30', [2_630_000, 2_631_500, 2_629_000, 2_630_500]);
    await expect(insert('2026-01-05 09:15:00+05:30', [2_630_000, 2_631_500, 2_629_000, 2_630_500]))
      .rejects.toMatchObject({ code: '23505', constraint: 'candles_pkey' });
    await expect(insert('2026-01-05 09:16:00+05:30', [2_630_000, 2_620_000, 2_619_000, 2_619_500]))
      .rejects.toMatchObject({ code: '23514', constraint: 'candles_range' });
    await expect(insert('2026-01-05 09:16:30+05:30', [2_630_000, 2_631_500, 2_629_000, 2_630_500]))
      .rejects.toMatchObject({ code: '23514', constraint: 'candles_whole_minute' });
    await expect(db.pool.query(
      `INSERT INTO candles (instrument_id, ts, open_paise, high_paise, low_paise, close_paise, source)
       VALUES ($1, '2026-01-05 09:17:00+05:30', 1, 1, 1, 1, 'guess')`, [instrumentId]))
      .rejects.toMatchObject({ code: '22P02' });
  });

  it('keys F&O expiries by instrument, segment and date', async () => {
    const instrumentId = await createIndex();
    const insert = (mode: string, segment = 'OPT'): Promise<unknown> => db.pool.query(
      `INSERT INTO fno_expiries (instrument_id, segment, expiry, mode) VALUES ($1, $2, '2026-12-29', $3)`,
      [instrumentId, segment, mode]);
    await insert('monthly');
    await expect(insert('weekly')).rejects.toMatchObject({ code: '23505', constraint: 'fno_expiries_pkey' });
    await expect(insert('daily', 'FUT')).rejects.toMatchObject({ code: '23514', constraint: 'fno_expiries_mode_check' });
  });
});

describe('strategies and runs', () => {
  it('accepts only intraday or swing strategies and needs an algorithm for algo strategies', async () => {
    const userId = await createUser();
    await db.pool.query(`INSERT INTO strategies (user_id, name, kind, strategy_type) VALUES ($1, 'Basket', 'basket', 'swing')`, [userId]);
    await expect(db.pool.query(`INSERT INTO strategies (user_id, name, kind, strategy_type) VALUES ($1, 'S', 'basket', 'scalping')`, [userId]))
      .rejects.toMatchObject({ code: '23514', constraint: 'strategies_strategy_type_check' });
    await expect(db.pool.query(`INSERT INTO strategies (user_id, name, kind) VALUES ($1, 'No algo', 'algo')`, [userId]))
      .rejects.toMatchObject({ code: '23514', constraint: 'strategies_algo_has_algorithm' });
    await expect(db.pool.query(`INSERT INTO strategies (user_id, name, kind, mode) VALUES ($1, 'M', 'basket', 'live')`, [userId]))
      .rejects.toMatchObject({ code: '23514', constraint: 'strategies_mode_check' });
  });

  it('keeps algorithm versions immutable', async () => {
    const userId = await createUser();
    const { algorithm_id: algorithmId } = await one<{ algorithm_id: string }>(
      `INSERT INTO algorithms (user_id, name) VALUES ($1, 'ORB') RETURNING algorithm_id`, [userId]);
    await db.pool.query(
      `INSERT INTO algorithm_versions (algorithm_id, version, graph, schema_version) VALUES ($1, 1, '{"nodes": []}', 1)`,
      [algorithmId]);
    await db.pool.query(
      `INSERT INTO strategies (user_id, name, algorithm_id, algorithm_version) VALUES ($1, 'ORB live', $2, 1)`,
      [userId, algorithmId]);
    await expect(db.pool.query(`UPDATE algorithm_versions SET graph = '{"nodes": [1]}' WHERE algorithm_id = $1`, [algorithmId]))
      .rejects.toMatchObject({ code: '42501', message: expect.stringContaining('immutable') });
    await expect(db.pool.query(
      `INSERT INTO strategies (user_id, name, algorithm_id, algorithm_version) VALUES ($1, 'Missing version', $2, 2)`,
      [userId, algorithmId])).rejects.toMatchObject({ code: '23503' });
  });

  it('accepts exactly the six run statuses of docs/PRODUCT.md section 4', async () => {
    const userId = await createUser();
    const insert = (status: string, finished: boolean): Promise<unknown> => db.pool.query(
      `INSERT INTO strategy_runs (user_id, kind, status, finished_at) VALUES ($1, 'BACKTEST', $2, $3)`,
      [userId, status, finished ? new Date(Date.now() + 60_000) : null]);
    for (const status of ['COMPLETE', 'SUCCESS', 'ERROR', 'ERROR: SQUARED OFF', 'COMPLETE: SQUARED OFF']) {
      await insert(status, true);
    }
    await insert('IN PROGRESS', false);
    await expect(insert('DONE', true)).rejects.toMatchObject({ code: '23514', constraint: 'strategy_runs_status_check' });
    await expect(insert('complete', true)).rejects.toMatchObject({ code: '23514', constraint: 'strategy_runs_status_check' });
    await expect(insert('IN PROGRESS', true))
      .rejects.toMatchObject({ code: '23514', constraint: 'strategy_runs_in_progress_unfinished' });
    await expect(db.pool.query(`INSERT INTO strategy_runs (user_id, kind, progress) VALUES ($1, 'BACKTEST', 101)`, [userId]))
      .rejects.toMatchObject({ code: '23514', constraint: 'strategy_runs_progress_check' });
    await expect(db.pool.query(`INSERT INTO strategy_runs (user_id, kind) VALUES ($1, 'REPLAY')`, [userId]))
      .rejects.toMatchObject({ code: '23514', constraint: 'strategy_runs_kind_check' });
  });

  it('refuses a pending signal in an unknown state and one without a payload', async () => {
    const userId = await createUser();
    const { strategy_id: strategyId } = await one<{ strategy_id: string }>(
      `INSERT INTO strategies (user_id, name, kind) VALUES ($1, 'Manual', 'basket') RETURNING strategy_id`, [userId]);
    await db.pool.query(`INSERT INTO pending_signals (strategy_id, user_id, payload) VALUES ($1, $2, '{"side": "BUY"}')`, [strategyId, userId]);
    await expect(db.pool.query(
      `INSERT INTO pending_signals (strategy_id, user_id, state, payload) VALUES ($1, $2, 'DONE', '{}')`, [strategyId, userId]))
      .rejects.toMatchObject({ code: '23514', constraint: 'pending_signals_state_check' });
    await expect(db.pool.query(`INSERT INTO pending_signals (strategy_id, user_id) VALUES ($1, $2)`, [strategyId, userId]))
      .rejects.toMatchObject({ code: '23502', column: 'payload' });
  });
});

describe('orders and fills', () => {
  it('refuses non-positive quantities, unknown products and limit orders without a price', async () => {
    const userId = await createUser();
    await expect(createOrder({ userId, quantity: 0 }))
      .rejects.toMatchObject({ code: '23514', constraint: 'orders_quantity_check' });
    // A negative quantity breaks more than one check; PostgreSQL names the first by name.
    await expect(createOrder({ userId, quantity: -65 })).rejects.toMatchObject({ code: '23514' });
    const runId = await createRun(userId);
    const instrumentId = await createIndex();
    const insert = (product: string, orderType: string): Promise<unknown> => db.pool.query(
      `INSERT INTO orders (client_order_id, run_id, user_id, instrument_id, side, quantity, order_type, product)
       VALUES ($1, $2, $3, $4, 'SELL', 65, $5, $6)`, [`co-${randomUUID()}`, runId, userId, instrumentId, orderType, product]);
    for (const product of ['MIS', 'I', 'Intraday', 'CNC', 'NRML', 'Margin', 'Delivery', 'Carryforward', 'D', 'M']) {
      await insert(product, 'MARKET');
    }
    await expect(insert('BO', 'MARKET')).rejects.toMatchObject({ code: '23514', constraint: 'orders_product_check' });
    await expect(insert('MIS', 'LIMIT')).rejects.toMatchObject({ code: '23514', constraint: 'orders_limit_needs_price' });
  });

  it('keeps client order ids unique', async () => {
    const userId = await createUser();
    const orderId = await createOrder({ userId, quantity: 65 });
    await expect(db.pool.query(
      `INSERT INTO orders (client_order_id, run_id, user_id, instrument_id, side, quantity, order_type, product)
       SELECT client_order_id, run_id, user_id, instrument_id, side, quantity, order_type, product FROM orders WHERE order_id = $1`,
      [orderId])).rejects.toMatchObject({ code: '23505', constraint: 'orders_client_order_id_key' });
  });

  it('never lets a final order change state or an order return to PENDING_SUBMIT', async () => {
    const userId = await createUser();
    const orderId = await createOrder({ userId, quantity: 65 });
    await db.pool.query(`UPDATE orders SET status = 'SUBMITTED' WHERE order_id = $1`, [orderId]);
    await expect(db.pool.query(`UPDATE orders SET status = 'PENDING_SUBMIT' WHERE order_id = $1`, [orderId]))
      .rejects.toMatchObject({ code: '23514', constraint: 'orders_final_status' });
    await db.pool.query(`UPDATE orders SET status = 'CANCELLED' WHERE order_id = $1`, [orderId]);
    await expect(db.pool.query(`UPDATE orders SET status = 'OPEN' WHERE order_id = $1`, [orderId]))
      .rejects.toMatchObject({ code: '23514', constraint: 'orders_final_status' });
    await expect(db.pool.query(`UPDATE orders SET status = 'FILLED' WHERE order_id = $1`, [orderId]))
      .rejects.toMatchObject({ code: '23514' });
  });

  it('refuses fills beyond the order quantity and replays of the same trade', async () => {
    const userId = await createUser();
    const orderId = await createOrder({ userId, quantity: 130, status: 'OPEN' });
    const fill = (tradeId: string, quantity: number): Promise<unknown> => db.pool.query(
      `INSERT INTO fills (order_id, trade_id, quantity, price_paise, charges_paise, ts)
       VALUES ($1, $2, $3, 12345, '{"brokerage": 2000, "stt": 12}', now())`, [orderId, tradeId, quantity]);
    await expect(db.pool.query(
      `INSERT INTO fills (order_id, trade_id, quantity, price_paise, charges_paise, ts)
       VALUES ($1, 'T0', 1, 100, '{"stt": -1}', now())`, [orderId]))
      .rejects.toMatchObject({ code: '23514', constraint: 'fills_charges_paise_check' });
    await fill('T1', 65);
    await fill('T2', 60);
    await expect(fill('T3', 10)).rejects.toMatchObject({ code: '23514', constraint: 'fills_within_order_quantity' });
    await expect(fill('T1', 5)).rejects.toMatchObject({ code: '23505', constraint: 'fills_order_id_trade_id_key' });
    await fill('T3', 5);
    const total = await one<{ filled: number }>('SELECT sum(quantity)::int AS filled FROM fills WHERE order_id = $1', [orderId]);
    expect(total.filled).toBe(130);
  });

  it('keeps positions flat-consistent and one row per run and instrument', async () => {
    const userId = await createUser();
    const runId = await createRun(userId);
    const instrumentId = await createIndex();
    await expect(db.pool.query(
      `INSERT INTO positions (run_id, instrument_id, net_quantity, average_price_paise) VALUES ($1, $2, 0, 100)`,
      [runId, instrumentId])).rejects.toMatchObject({ code: '23514', constraint: 'positions_check' });
    await db.pool.query(
      `INSERT INTO positions (run_id, instrument_id, net_quantity, average_price_paise) VALUES ($1, $2, -65, 12000)`,
      [runId, instrumentId]);
    await expect(db.pool.query(`INSERT INTO positions (run_id, instrument_id) VALUES ($1, $2)`, [runId, instrumentId]))
      .rejects.toMatchObject({ code: '23505', constraint: 'positions_pkey' });
  });
});

describe('licences view', () => {
  it('counts only unexpired grants and sums run candles as used backtest credits', async () => {
    const userId = await createUser();
    await db.pool.query(
      `INSERT INTO user_credits (user_id, credits, expiry, category, subcategory) VALUES
         ($1, 1000, (now() AT TIME ZONE 'Asia/Kolkata')::date, 'BACKTEST', 'CANDLES'),
         ($1, 500, (now() AT TIME ZONE 'Asia/Kolkata')::date + 30, 'BACKTEST', 'CANDLES'),
         ($1, 9999, (now() AT TIME ZONE 'Asia/Kolkata')::date - 1, 'BACKTEST', 'CANDLES')`, [userId]);
    await db.pool.query(
      `INSERT INTO strategy_runs (user_id, kind, candles) VALUES ($1, 'BACKTEST', 300), ($1, 'BACKTEST', 200)`, [userId]);
    const backtest = await one<{ total_credits: string; utilized_credits: string; days_left: number }>(
      `SELECT total_credits, utilized_credits, expire_on - (now() AT TIME ZONE 'Asia/Kolkata')::date AS days_left
       FROM licences WHERE user_id = $1 AND licence_type = 'backtest'`, [userId]);
    expect(backtest).toEqual({ total_credits: '1500', utilized_credits: '500', days_left: 30 });
    const strategy = await one<{ total_credits: string; expire_on: unknown }>(
      `SELECT total_credits, expire_on FROM licences WHERE user_id = $1 AND licence_type = 'strategy'`, [userId]);
    expect(strategy).toEqual({ total_credits: '0', expire_on: null });
  });
});
