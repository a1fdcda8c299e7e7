// The basket tests' world: an 'advanced' user, NIFTY and INDIA VIX with a last price at the test's
// clock (1-Dec-2026 10:00 IST, a Tuesday session), and the December contracts named by the market
// package's calendar, so the legs price as they would that morning.
import { randomUUID } from 'node:crypto';
import { istEpochMs, isoDate } from '@vyuha/core';
import { buildTradingSymbol, lotSize, nextExpiry } from '@vyuha/market';
import type pg from 'pg';

export const NOW = istEpochMs(isoDate('2026-12-01'), '10:00:00');
export const TODAY = isoDate('2026-12-01');
/** NIFTY at Rs 24,000.00, INDIA VIX at 14.00. */
export const NIFTY_PAISE = 2_400_000;
export const VIX_PAISE = 1_400;

const monthly = nextExpiry('NIFTY', TODAY, 'monthly');
if (monthly === undefined) throw new Error('no NIFTY monthly expiry after 1-Dec-2026 in the calendar');
export const EXPIRY = monthly.date;
export const FUTURE = buildTradingSymbol({ kind: 'future', underlying: 'NIFTY', expiry: EXPIRY });
export const CALL = buildTradingSymbol({ kind: 'option', underlying: 'NIFTY', expiry: EXPIRY, strike: 24_000, optionType: 'CE' });
export const LOT = lotSize({ symbol: 'NIFTY', tradeDate: TODAY, expiry: EXPIRY });

/** A new 'advanced' user. */
export async function addUser(pool: pg.Pool): Promise<string> {
  const userId = randomUUID();
  await pool.query(`INSERT INTO auth.users (id, email, default_role) VALUES ($1, $2, 'advanced')`, [userId, `${userId}@example.com`]);
  await pool.query(`INSERT INTO users (user_id, name, tier) VALUES ($1, 'Basket trader', 'advanced')`, [userId]);
  return userId;
}

/** NIFTY's and INDIA VIX's last prices, recorded at NOW. */
export async function setLastPrices(pool: pg.Pool): Promise<void> {
  await pool.query(
    `INSERT INTO ltps (instrument_id, price_paise, updated_at)
     SELECT instrument_id, CASE trading_symbol WHEN 'NIFTY' THEN $1::bigint ELSE $2::bigint END, to_timestamp($3::float8 / 1000)
     FROM instruments WHERE kind = 'index' AND trading_symbol IN ('NIFTY', 'INDIA VIX')
     ON CONFLICT (instrument_id) DO UPDATE SET price_paise = EXCLUDED.price_paise, updated_at = EXCLUDED.updated_at`,
    [NIFTY_PAISE, VIX_PAISE, NOW]);
}

/** How many rows a table holds (for "changes nothing"). */
export async function countRows(pool: pg.Pool, table: 'strategies' | 'strategy_runs' | 'orders' | 'fills' | 'positions'): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
  return rows[0]!.n;
}
