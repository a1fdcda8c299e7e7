// A saved basket for the demo trader, so /baskets shows one at once: a NIFTY short strangle of the
// next monthly expiry (sell the call 200 points above the index, the put 200 below, one lot each),
// priced from the demo world's last NIFTY 50 and INDIA VIX prices. Saved, not placed: placing is
// the user's to try (it opens positions on paper). Once per user (a marker in app_meta, so one the
// user deletes does not come back); a refusal (no last price yet, say) is logged and tried again at
// the next start.
import { buildTradingSymbol, nextOpenExpiry } from '@vyuha/market';
import type pg from 'pg';
import { BasketRefusal } from '../../trading/baskets/basket-legs';
import { saveBasket } from '../../trading/baskets/basket-store';
import { demoEmail } from './demo-users';
import type { DemoRole } from './demo-users';

const DEMO_BASKET_ROLE: DemoRole = 'advanced';
const MARKER_KEY = 'demo_basket';
/** NIFTY's strike step, and how far from the index the strangle's strikes are (points). */
const STRIKE_STEP = 50;
const STRANGLE_WIDTH = 200;

export const DEMO_BASKET_NAME = 'Demo (synthetic data): NIFTY short strangle, next monthly expiry';

/**
 * Saves the demo basket unless it was saved before; returns true when it saved one now.
 * @example await saveDemoBasket({ pool, nowMs: Date.now(), log }) // true
 */
export async function saveDemoBasket(options: { readonly pool: pg.Pool; readonly nowMs: number; readonly log: (message: string) => void }): Promise<boolean> {
  const { pool, nowMs, log } = options;
  const { rows: users } = await pool.query<{ user_id: string; marked: boolean }>(
    `SELECT u.id AS user_id, EXISTS (SELECT 1 FROM app_meta m WHERE m.key = $2 AND m.value ? u.id::text) AS marked FROM auth.users u WHERE u.email = $1`,
    [demoEmail(DEMO_BASKET_ROLE), MARKER_KEY]);
  const user = users[0];
  if (user === undefined || user.marked) return false;
  const { rows: prices } = await pool.query<{ price_paise: string }>(
    `SELECT p.price_paise::text AS price_paise FROM instrument_last_prices p JOIN instruments i ON i.instrument_id = p.instrument_id
     WHERE i.kind = 'index' AND i.name = 'NIFTY 50'`);
  // An expiry day after its close: the next month's, not the contract that just expired.
  const expiry = nextOpenExpiry('NIFTY', nowMs, 'monthly');
  if (prices[0] === undefined || expiry === undefined) {
    log('demo basket: no NIFTY 50 price or monthly expiry yet (the next start tries again)');
    return false;
  }
  const atm = Math.round(Number(prices[0].price_paise) / 100 / STRIKE_STEP) * STRIKE_STEP;
  const option = (strike: number, optionType: 'CE' | 'PE'): string => buildTradingSymbol({ kind: 'option', underlying: 'NIFTY', expiry: expiry.date, strike, optionType });
  const legs = [
    { symbol: option(atm + STRANGLE_WIDTH, 'CE'), side: 'SELL', lots: 1, order_type: 'MARKET' },
    { symbol: option(atm - STRANGLE_WIDTH, 'PE'), side: 'SELL', lots: 1, order_type: 'MARKET' },
  ];
  try {
    const { strategyId } = await saveBasket(pool, { userId: user.user_id, name: DEMO_BASKET_NAME, product: 'MIS', legs, nowMs });
    await pool.query(
      `INSERT INTO app_meta (key, value) VALUES ($1, jsonb_build_object($2::text, $3::text))
       ON CONFLICT (key) DO UPDATE SET value = app_meta.value || EXCLUDED.value`, [MARKER_KEY, user.user_id, strategyId]);
    log(`demo basket: saved "${DEMO_BASKET_NAME}" for ${DEMO_BASKET_ROLE}`);
    return true;
  } catch (error) {
    if (!(error instanceof BasketRefusal)) throw error;
    log(`demo basket: not saved: ${error.message} (the next start tries again)`);
    return false;
  }
}
