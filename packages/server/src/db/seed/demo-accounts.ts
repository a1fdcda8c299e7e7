import type pg from 'pg';
import { demoUuid } from './demo-ids';
import { execute } from './execute';
import { DEMO_ROLES } from './demo-users';
import type { DemoRole, DemoUserIds } from './demo-users';

/** The manager manages these three (docs/PRODUCT.md section 6: a manager acts for managed users). */
export const MANAGED_ROLES: readonly DemoRole[] = ['trial', 'basic', 'advanced'];

interface InvestmentEntry {
  readonly date: string;
  readonly amount_paise: number;
}

interface BrokerAccount {
  readonly role: DemoRole;
  readonly broker: string;
  readonly clientId: string;
  readonly active: boolean;
  readonly investmentPaise: number;
  readonly history: readonly InvestmentEntry[];
}

const RUPEE = 100;
const LAKH = 100_000 * RUPEE;

/**
 * Broker accounts exercising the investment-total rules of docs/PRODUCT.md section 5: history present
 * (latest entry wins), history absent (investment_amt), and one inactive account that must not
 * count. Secrets stay NULL: encryption keys arrive with the broker-credential work.
 */
export const BROKER_ACCOUNTS: readonly BrokerAccount[] = [
  { role: 'advanced', broker: 'zerodha', clientId: 'ZR7314', active: true, investmentPaise: 5 * LAKH,
    history: [{ date: '2025-04-01', amount_paise: 4 * LAKH }, { date: '2025-10-01', amount_paise: 6 * LAKH }] },
  { role: 'advanced', broker: 'upstox', clientId: '3KX9QW', active: false, investmentPaise: 2 * LAKH, history: [] },
  { role: 'basic', broker: 'zerodha', clientId: 'ZB2046', active: true, investmentPaise: 1.5 * LAKH, history: [] },
  { role: 'trial', broker: 'fyers', clientId: 'FT1188', active: true, investmentPaise: 0.5 * LAKH, history: [] },
  { role: 'manager', broker: 'angelone', clientId: 'A5512093', active: true, investmentPaise: 10 * LAKH,
    history: [{ date: '2025-07-15', amount_paise: 12 * LAKH }] },
  { role: 'demo', broker: 'dhan', clientId: '1100456789', active: true, investmentPaise: 3 * LAKH, history: [] },
];

interface CreditPlan {
  readonly role: DemoRole;
  /** BACKTEST/CANDLES grant and the days until it expires. */
  readonly backtestCredits: number;
  readonly backtestDays: number;
  /**
   * BACKTEST credits used before the demo world's history begins, one COMPLETE run row each with
   * no strategy, orders or results (the /backtest list shows runs by strategy, so these only count
   * towards the credits). The demo users' real example backtests (demo-research-backtests.ts) come
   * on top, once the synthetic history is stored.
   */
  readonly runCandles: readonly number[];
  /** Strategy licence: deployable strategies, deployed ones, days until expiry. */
  readonly strategies?: { readonly available: number; readonly utilized: number; readonly days: number };
  /** An already expired grant that must not count (docs/PRODUCT.md section 5). */
  readonly expiredCredits?: number;
}

/**
 * Credit situations for the alerts of docs/PRODUCT.md section 4 (warning: 75% to <90% used or 8 to 15 days
 * left; critical: 90% or more used or 7 days or fewer left).
 */
export const CREDIT_PLANS: readonly CreditPlan[] = [
  // 80% used: warning.
  { role: 'advanced', backtestCredits: 100_000, backtestDays: 180, runCandles: [45_000, 35_000],
    strategies: { available: 5, utilized: 2, days: 180 }, expiredCredits: 50_000 },
  // 92% used: critical.
  { role: 'backtest', backtestCredits: 50_000, backtestDays: 90, runCandles: [30_000, 16_000] },
  // 5 days left: critical.
  { role: 'demo', backtestCredits: 100_000, backtestDays: 5, runCandles: [10_000],
    strategies: { available: 3, utilized: 1, days: 5 } },
  // 12 days left: warning.
  { role: 'manager', backtestCredits: 200_000, backtestDays: 12, runCandles: [40_000],
    strategies: { available: 10, utilized: 3, days: 12 } },
  // Healthy: 5% used, a year left.
  { role: 'superadmin', backtestCredits: 1_000_000, backtestDays: 365, runCandles: [50_000],
    strategies: { available: 20, utilized: 1, days: 365 } },
  { role: 'administrator', backtestCredits: 500_000, backtestDays: 365, runCandles: [25_000],
    strategies: { available: 10, utilized: 0, days: 365 } },
];

export interface AccountSeedCounts {
  readonly managerLinks: number;
  readonly userBrokers: number;
  readonly appConfigs: number;
  readonly userCredits: number;
  readonly deployedStrategies: number;
  readonly strategyRuns: number;
}

/** Manager links, broker accounts, preferences, credits and runs for the demo users. */
export async function seedDemoAccounts(client: pg.PoolClient, ids: DemoUserIds): Promise<{ counts: AccountSeedCounts; inserted: number }> {
  const userId = (role: DemoRole): string => {
    const id = ids.get(role);
    if (!id) throw new Error(`demo user ${role} is missing`);
    return id;
  };
  const managers = await seedManagerLinks(client, userId);
  const brokers = await seedBrokerAccounts(client, userId);
  const configs = await seedAppConfigs(client, userId);
  const credits = await seedCredits(client, userId);
  return {
    inserted: managers.inserted + brokers.inserted + configs.inserted + credits.inserted,
    counts: {
      managerLinks: managers.count,
      userBrokers: brokers.count,
      appConfigs: configs.count,
      userCredits: credits.userCredits,
      deployedStrategies: credits.deployedStrategies,
      strategyRuns: credits.strategyRuns,
    },
  };
}

type UserIdOf = (role: DemoRole) => string;

async function seedManagerLinks(client: pg.PoolClient, userId: UserIdOf): Promise<{ count: number; inserted: number }> {
  const inserted = await execute(client,
    `INSERT INTO managers (manager_id, user_id) SELECT $1, unnest($2::uuid[])
     ON CONFLICT (manager_id, user_id) DO NOTHING`,
    [userId('manager'), MANAGED_ROLES.map(userId)]);
  return { count: MANAGED_ROLES.length, inserted };
}

async function seedBrokerAccounts(client: pg.PoolClient, userId: UserIdOf): Promise<{ count: number; inserted: number }> {
  let inserted = 0;
  for (const account of BROKER_ACCOUNTS) {
    inserted += await execute(client,
      `INSERT INTO user_brokers (user_id, broker, client_id, active, investment_amt_paise, investment_history)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (user_id, broker, client_id) DO NOTHING`,
      [userId(account.role), account.broker, account.clientId, account.active, account.investmentPaise,
        JSON.stringify(account.history)]);
  }
  return { count: BROKER_ACCOUNTS.length, inserted };
}

/** Demo and backtest tiers are locked to PAPER (docs/PRODUCT.md section 4); everyone else starts on LIVE. */
function dashboardMode(role: DemoRole): 'LIVE' | 'PAPER' {
  return role === 'demo' || role === 'backtest' ? 'PAPER' : 'LIVE';
}

function globalPreferences(role: DemoRole): Record<string, unknown> {
  return {
    drawer: true,
    theme: 'dark',
    showAllUsers: false,
    timezone: { exchange: 'NSE', tz: 'Asia/Kolkata' },
    density: 'cozy',
    dashboardMode: dashboardMode(role),
  };
}

async function seedAppConfigs(client: pg.PoolClient, userId: UserIdOf): Promise<{ count: number; inserted: number }> {
  let inserted = 0;
  for (const role of DEMO_ROLES) {
    inserted += await execute(client,
      `INSERT INTO user_app_configs (user_id, category, subcategory, meta_data)
       VALUES ($1, 'application', 'global', $2), ($1, 'application', 'marketplace', $3)
       ON CONFLICT (user_id, category, subcategory) DO NOTHING`,
      [userId(role), JSON.stringify(globalPreferences(role)), JSON.stringify({ marketplaceLayout: 'grid' })]);
  }
  return { count: DEMO_ROLES.length * 2, inserted };
}

async function seedCredits(client: pg.PoolClient, userId: UserIdOf): Promise<{
  userCredits: number; deployedStrategies: number; strategyRuns: number; inserted: number;
}> {
  let inserted = 0;
  let userCredits = 0;
  let deployedStrategies = 0;
  let strategyRuns = 0;
  for (const plan of CREDIT_PLANS) {
    const id = userId(plan.role);
    inserted += await insertCredit(client, { id: demoUuid(`credit:${plan.role}:backtest`), userId: id,
      credits: plan.backtestCredits, days: plan.backtestDays, category: 'BACKTEST' });
    userCredits += 1;
    if (plan.expiredCredits !== undefined) {
      inserted += await insertCredit(client, { id: demoUuid(`credit:${plan.role}:expired`), userId: id,
        credits: plan.expiredCredits, days: -10, category: 'BACKTEST' });
      userCredits += 1;
    }
    if (plan.strategies) {
      inserted += await insertCredit(client, { id: demoUuid(`credit:${plan.role}:strategies`), userId: id,
        credits: plan.strategies.available, days: plan.strategies.days, category: 'STRATEGIES' });
      inserted += await insertDeployed(client, { id: demoUuid(`deployed:${plan.role}`), userId: id, ...plan.strategies });
      userCredits += 1;
      deployedStrategies += 1;
    }
    for (const [index, candles] of plan.runCandles.entries()) {
      inserted += await insertBacktestRun(client, { id: demoUuid(`run:${plan.role}:${index + 1}`), userId: id,
        candles, daysAgo: (index + 1) * 3 });
      strategyRuns += 1;
    }
  }
  return { userCredits, deployedStrategies, strategyRuns, inserted };
}

interface CreditRow {
  readonly id: string;
  readonly userId: string;
  readonly credits: number;
  readonly days: number;
  readonly category: 'BACKTEST' | 'STRATEGIES';
}

// Expiry dates count from the IST date the seed runs; later runs keep the first run's dates.
async function insertCredit(client: pg.PoolClient, row: CreditRow): Promise<number> {
  return execute(client,
    `INSERT INTO user_credits (id, user_id, credits, expiry, category, subcategory)
     VALUES ($1, $2, $3, (now() AT TIME ZONE 'Asia/Kolkata')::date + $4::integer, $5,
             CASE $5 WHEN 'BACKTEST' THEN 'CANDLES' ELSE 'DEPLOYED' END)
     ON CONFLICT (id) DO NOTHING`,
    [row.id, row.userId, row.credits, row.days, row.category]);
}

async function insertDeployed(client: pg.PoolClient, row: {
  id: string; userId: string; available: number; utilized: number; days: number;
}): Promise<number> {
  return execute(client,
    `INSERT INTO deployed_strategies (id, user_id, available, utilized, expiry)
     VALUES ($1, $2, $3, $4, (now() AT TIME ZONE 'Asia/Kolkata')::date + $5::integer)
     ON CONFLICT (id) DO NOTHING`,
    [row.id, row.userId, row.available, row.utilized, row.days]);
}

/** What a credits-only run row says about itself (older installs stored a NIFTY 50 look-alike). */
const CREDITS_ONLY_PARAMS = { demo: true, creditsOnly: true, note: 'BACKTEST credits used before the demo world began; no results are kept' };

async function insertBacktestRun(client: pg.PoolClient, row: {
  id: string; userId: string; candles: number; daysAgo: number;
}): Promise<number> {
  return execute(client,
    `INSERT INTO strategy_runs (run_id, user_id, kind, status, progress, candles, params, started_at, finished_at)
     VALUES ($1, $2, 'BACKTEST', 'COMPLETE', 100, $3, $4,
             now() - make_interval(days => $5::integer),
             now() - make_interval(days => $5::integer) + interval '90 seconds')
     ON CONFLICT (run_id) DO UPDATE SET params = EXCLUDED.params
       WHERE strategy_runs.strategy_id IS NULL AND strategy_runs.params IS DISTINCT FROM EXCLUDED.params`,
    [row.id, row.userId, row.candles, JSON.stringify(CREDITS_ONLY_PARAMS), row.daysAgo]);
}
