import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verify } from '@node-rs/argon2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoWorld } from '../src/db/seed';
import type { SeedSummary } from '../src/db/seed';
import { CsvError, parseCsv } from '../src/db/seed/csv';
import { DEMO_PASSWORD, DEMO_ROLES, ROLE_PERMISSIONS } from '../src/db/seed/demo-users';
import { marketDataDir } from '../src/paths';
import { freshDatabase } from './helpers/db';
import type { TestDatabase } from './helpers/db';

let db: TestDatabase;
let first: SeedSummary;

// Seeds a migrated-only database here rather than using the seeded template, so the first run
// itself is under test.
beforeAll(async () => {
  db = await freshDatabase();
  first = await seedDemoWorld(db.pool, { dataDir: marketDataDir });
});

afterAll(async () => {
  await db.close();
});

async function rows<T>(sql: string, params: unknown[] = []): Promise<T[]> {
  return (await db.pool.query(sql, params)).rows as T[];
}

/** Data rows of a CSV file, counted by lines (the shipped files have no line breaks in cells). */
async function csvDataRows(file: string): Promise<number> {
  const text = await readFile(join(marketDataDir, file), 'utf8');
  return text.split('\n').filter((line) => line.trim() !== '').length - 1;
}

describe('parseCsv', () => {
  it('reads quoted cells with commas, doubled quotes and line breaks, and CRLF rows', () => {
    expect(parseCsv('a,b,c\r\n1,"x, ""y""",\n"multi\nline",,z\n')).toEqual([
      ['a', 'b', 'c'], ['1', 'x, "y"', ''], ['multi\nline', '', 'z'],
    ]);
  });

  it('names the line of a malformed quote', () => {
    expect(() => parseCsv('a,b\n1,"open\n', 'f.csv')).toThrow(CsvError);
    expect(() => parseCsv('a,b\n1,"x"y\n', 'f.csv')).toThrow('f.csv:2');
  });
});

describe('seedDemoWorld', () => {
  it('creates one verified user per role whose argon2id hash verifies the demo password', async () => {
    const users = await rows<{ email: string; password_hash: string; default_role: string; email_verified: boolean; tier: string; name: string }>(
      `SELECT a.email, a.password_hash, a.default_role, a.email_verified, u.tier, u.name
       FROM auth.users a JOIN users u ON u.user_id = a.id ORDER BY a.email`);
    expect(first.users).toBe(9);
    expect(users.map((u) => u.email)).toEqual(DEMO_ROLES.map((r) => `${r}@demo.vyuha.in`).sort());
    for (const user of users) {
      expect(user.password_hash.startsWith('$argon2id$')).toBe(true);
      expect(await verify(user.password_hash, DEMO_PASSWORD)).toBe(true);
      expect(user).toMatchObject({ email_verified: true, default_role: user.tier });
      expect(user.email.startsWith(`${user.tier}@`)).toBe(true);
      expect(user.name).toMatch(/^[A-Z][a-z]+ [A-Z][a-z]+$/);
    }
    expect(await verify(users[0]?.password_hash ?? '', 'not-the-password')).toBe(false);
  });

  it('gives every user its tier plus user and me as session roles, and the documented permissions', async () => {
    const roles = await rows<{ email: string; roles: string[]; permissions: string[] }>(
      `SELECT a.email,
              array(SELECT role FROM auth.user_roles r WHERE r.user_id = a.id ORDER BY role) AS roles,
              array(SELECT permission FROM user_permissions p WHERE p.user_id = a.id ORDER BY permission) AS permissions
       FROM auth.users a`);
    for (const row of roles) {
      const tier = row.email.split('@')[0] as (typeof DEMO_ROLES)[number];
      expect(row.roles).toEqual([tier, 'me', 'user'].sort());
      expect(row.permissions).toEqual([...ROLE_PERMISSIONS[tier]].sort());
    }
    expect(roles).toHaveLength(9);
  });

  it('links the manager to trial, basic and advanced, listed by name', async () => {
    const managed = await rows<{ tier: string; name: string }>(
      `SELECT u.tier, u.name FROM managers m
       JOIN users mu ON mu.user_id = m.manager_id AND mu.tier = 'manager'
       JOIN users u ON u.user_id = m.user_id ORDER BY u.name`);
    expect(managed.map((m) => m.tier).sort()).toEqual(['advanced', 'basic', 'trial']);
    expect(managed.map((m) => m.name)).toEqual([...managed.map((m) => m.name)].sort());
  });

  it('loads every CSV row: holidays, special sessions, monthly closes and key points', async () => {
    const counts = (await rows<Record<string, number>>(
      `SELECT (SELECT count(*)::int FROM holidays) AS holidays,
              (SELECT count(*)::int FROM special_sessions) AS special_sessions,
              (SELECT count(*)::int FROM index_monthly_closes) AS closes,
              (SELECT count(*)::int FROM index_monthly_closes WHERE close IS NULL) AS gaps,
              (SELECT count(*)::int FROM index_key_points) AS key_points`))[0];
    expect(counts).toEqual({
      holidays: await csvDataRows('holidays.csv'),
      special_sessions: await csvDataRows('special-sessions.csv'),
      closes: await csvDataRows('index-monthly-closes.csv'),
      gaps: 96, // sources.md: 366 filled, 96 empty
      key_points: await csvDataRows('index-key-points.csv'),
    });
    expect(first).toMatchObject({ holidays: counts?.['holidays'], specialSessions: counts?.['special_sessions'] });
  });

  it('keeps CSV details: market-wide events as NULL exchange, empty times, exact VIX decimals', async () => {
    const marketWide = await rows<{ n: number }>(
      `SELECT count(*)::int AS n FROM special_sessions WHERE exchange IS NULL`);
    expect(marketWide[0]?.n).toBe(16);
    const muhurat2026 = await rows<{ start_time: string | null; end_time: string | null }>(
      `SELECT start_time, end_time FROM special_sessions WHERE date = '2026-11-08' AND exchange = 'NSE'`);
    expect(muhurat2026).toEqual([{ start_time: null, end_time: null }]);
    const vix = await rows<{ close: string }>(
      `SELECT c.close FROM index_monthly_closes c JOIN instruments i USING (instrument_id)
       WHERE i.name = 'INDIA VIX' AND c.month = '2020-01-01'`);
    expect(vix).toEqual([{ close: '17.3675' }]);
    const quoted = await rows<{ source: string }>(
      `SELECT source FROM index_key_points WHERE kind = 'election_result_day_close' AND value = 21884.50`);
    expect(quoted[0]?.source).toBe('NSE index data; FPJ 4-Jun-2024 (-1,379.40, -5.93%)');
  });

  it('creates the five index configs of docs/PRODUCT.md section 3 and INDIA VIX as a plain index', async () => {
    const configs = await rows<Record<string, unknown>>(
      `SELECT c.name, c.value, c.signal_key, c.oc_step, c.ticker, c.oc_greeks, c.benchmark, c.exchange,
              c.entry_l_bracket, c.entry_u_bracket, i.kind
       FROM index_configs c JOIN instruments i USING (instrument_id) ORDER BY c.sort_order`);
    expect(configs).toEqual([
      { name: 'NIFTY 50', value: 'NIFTY', signal_key: 'n', oc_step: 50, ticker: true, oc_greeks: true, benchmark: true, exchange: 'NSE' },
      { name: 'NIFTY BANK', value: 'BANKNIFTY', signal_key: 'b', oc_step: 100, ticker: false, oc_greeks: true, benchmark: true, exchange: 'NSE' },
      { name: 'FINNIFTY', value: 'FINNIFTY', signal_key: 'f', oc_step: 50, ticker: false, oc_greeks: false, benchmark: false, exchange: 'NSE' },
      { name: 'MIDCPNIFTY', value: 'MIDCPNIFTY', signal_key: 'm', oc_step: 25, ticker: false, oc_greeks: false, benchmark: false, exchange: 'NSE' },
      { name: 'SENSEX', value: 'SENSEX', signal_key: 'x', oc_step: 100, ticker: true, oc_greeks: false, benchmark: false, exchange: 'BSE' },
    ].map((c) => ({ ...c, entry_l_bracket: 2, entry_u_bracket: 2, kind: 'index' })));
    const vix = await rows<{ kind: string; has_config: boolean }>(
      `SELECT kind, EXISTS (SELECT 1 FROM index_configs c WHERE c.instrument_id = i.instrument_id) AS has_config
       FROM instruments i WHERE name = 'INDIA VIX'`);
    expect(vix).toEqual([{ kind: 'index', has_config: false }]);
  });

  it('counts only active brokers and the latest history entry in the investment total', async () => {
    // docs/PRODUCT.md section 5, written as the query a report would run.
    const totals = await rows<{ tier: string; total_paise: string; brokers: number }>(
      `SELECT u.tier, sum(coalesce(
                (SELECT (h->>'amount_paise')::bigint FROM jsonb_array_elements(b.investment_history) h
                 ORDER BY h->>'date' DESC LIMIT 1),
                b.investment_amt_paise))::text AS total_paise,
              count(*)::int AS brokers
       FROM user_brokers b JOIN users u USING (user_id)
       WHERE b.active GROUP BY u.tier ORDER BY u.tier`);
    expect(totals.find((t) => t.tier === 'advanced')).toEqual({ tier: 'advanced', total_paise: '60000000', brokers: 1 });
    expect(totals.find((t) => t.tier === 'basic')).toEqual({ tier: 'basic', total_paise: '15000000', brokers: 1 });
    const inactive = await rows<{ n: number }>('SELECT count(*)::int AS n FROM user_brokers WHERE NOT active');
    expect(inactive[0]?.n).toBe(1);
    const secrets = await rows<{ n: number }>(
      'SELECT count(*)::int AS n FROM user_brokers WHERE api_secret_ciphertext IS NOT NULL OR api_secret_nonce IS NOT NULL');
    expect(secrets[0]?.n).toBe(0);
  });

  it('sets credits that trigger each alert level of docs/PRODUCT.md section 4', async () => {
    const licences = await rows<{ tier: string; percent: string; days_left: number }>(
      `SELECT u.tier, round(l.utilized_credits * 100.0 / nullif(l.total_credits, 0), 2)::text AS percent,
              l.expire_on - (now() AT TIME ZONE 'Asia/Kolkata')::date AS days_left
       FROM licences l JOIN users u USING (user_id) WHERE l.licence_type = 'backtest' AND l.total_credits > 0`);
    const alert = (percent: number, days: number): string =>
      percent >= 90 || days <= 7 ? 'critical' : percent >= 75 || (days > 7 && days <= 15) ? 'warning' : 'none';
    const byTier = Object.fromEntries(licences.map((l) => [l.tier, { percent: l.percent, days: l.days_left,
      alert: alert(Number(l.percent), l.days_left) }]));
    expect(byTier).toEqual({
      advanced: { percent: '80.00', days: 180, alert: 'warning' },
      backtest: { percent: '92.00', days: 90, alert: 'critical' },
      demo: { percent: '10.00', days: 5, alert: 'critical' },
      manager: { percent: '20.00', days: 12, alert: 'warning' },
      superadmin: { percent: '5.00', days: 365, alert: 'none' },
      administrator: { percent: '5.00', days: 365, alert: 'none' },
    });
    const strategy = await rows<{ total_credits: string; utilized_credits: string }>(
      `SELECT l.total_credits, l.utilized_credits FROM licences l JOIN users u USING (user_id)
       WHERE l.licence_type = 'strategy' AND u.tier = 'manager'`);
    expect(strategy).toEqual([{ total_credits: '10', utilized_credits: '3' }]);
  });

  it('stores default preferences, PAPER for demo and backtest tiers', async () => {
    const configs = await rows<{ tier: string; global: Record<string, unknown>; marketplace: Record<string, unknown> }>(
      `SELECT u.tier, g.meta_data AS global, m.meta_data AS marketplace FROM users u
       JOIN user_app_configs g ON g.user_id = u.user_id AND g.category = 'application' AND g.subcategory = 'global'
       JOIN user_app_configs m ON m.user_id = u.user_id AND m.category = 'application' AND m.subcategory = 'marketplace'`);
    expect(configs).toHaveLength(9);
    for (const config of configs) {
      expect(config.global).toEqual({
        drawer: true, theme: 'dark', showAllUsers: false, timezone: { exchange: 'NSE', tz: 'Asia/Kolkata' },
        density: 'cozy', dashboardMode: config.tier === 'demo' || config.tier === 'backtest' ? 'PAPER' : 'LIVE',
      });
      expect(config.marketplace).toEqual({ marketplaceLayout: 'grid' });
    }
  });

  it('changes nothing when run a second time', async () => {
    const snapshot = async (): Promise<Record<string, string>> => {
      const tables = ['auth.users', 'auth.user_roles', 'users', 'user_permissions', 'managers', 'user_brokers',
        'user_app_configs', 'instruments', 'index_configs', 'ltps', 'holidays', 'special_sessions',
        'index_monthly_closes', 'index_key_points', 'user_credits', 'deployed_strategies', 'strategy_runs', 'app_meta'];
      const result: Record<string, string> = {};
      for (const table of tables) {
        // Every column of every row, so a changed updated_at or hash shows up too.
        const row = await rows<{ digest: string }>(
          `SELECT count(*) || ':' || coalesce(md5(string_agg(t::text, '|' ORDER BY t::text)), '') AS digest FROM ${table} t`);
        result[table] = row[0]?.digest ?? '';
      }
      return result;
    };
    const before = await snapshot();
    const second = await seedDemoWorld(db.pool, { dataDir: marketDataDir });
    expect(second).toEqual({ ...first, inserted: 0 });
    expect(first.inserted).toBeGreaterThan(1000);
    expect(await snapshot()).toEqual(before);
  });
});

describe('seedDemoWorld with bad data', () => {
  it('names the bad CSV row and leaves the database untouched', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'vyuha-seed-'));
    const empty = await freshDatabase();
    try {
      await cp(marketDataDir, dataDir, { recursive: true });
      const holidays = (await readFile(join(dataDir, 'holidays.csv'), 'utf8')).split('\n');
      holidays[2] = '20-02-2020,NSE,Bad date';
      await writeFile(join(dataDir, 'holidays.csv'), holidays.join('\n'));
      await expect(seedDemoWorld(empty.pool, { dataDir })).rejects.toThrow('holidays.csv row 3: date "20-02-2020"');
      const counts = await empty.pool.query<{ users: number; instruments: number }>(
        'SELECT (SELECT count(*)::int FROM auth.users) AS users, (SELECT count(*)::int FROM instruments) AS instruments');
      expect(counts.rows[0]).toEqual({ users: 0, instruments: 0 });
    } finally {
      await empty.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
