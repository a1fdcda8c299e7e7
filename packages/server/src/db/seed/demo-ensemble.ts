// One ensemble for the demo administrator, so /ensembleSync is not empty: the advanced demo user's
// market strategy (EMA crossover on NIFTY 50, trading its futures on the simulated market) as the
// member, and the advanced and basic demo users' Zerodha accounts subscribed on PAPER with their
// investments. Made, not synced: previewing and applying is the administrator's to try. Once (a
// marker in app_meta, so an ensemble the administrator deletes does not come back); without the
// member's PAPER run in progress yet it is tried again at the next start.
import type pg from 'pg';
import { createEnsemble, setAccount, setMember } from '../../trading/ensembles/ensemble-store';
import { EnsembleRefusal } from '../../trading/ensembles/ensemble-sync';
import { DEMO_MARKET_STRATEGIES } from './demo-paper';
import { demoEmail } from './demo-users';

const MARKER_KEY = 'demo_ensemble';
/** The demo accounts subscribed (demo-accounts.ts BROKER_ACCOUNTS). */
const DEMO_ENSEMBLE_CLIENTS = ['ZR7314', 'ZB2046'];

export const DEMO_ENSEMBLE_NAME = 'Demo (synthetic data): NIFTY 50 EMA crossover across two accounts';

/**
 * Makes the demo ensemble unless it was made before; returns true when it made one now.
 * @example await saveDemoEnsemble({ pool, nowMs: Date.now(), log }) // true
 */
export async function saveDemoEnsemble(options: { readonly pool: pg.Pool; readonly nowMs: number; readonly log: (message: string) => void }): Promise<boolean> {
  const { pool, nowMs, log } = options;
  const { rows: marked } = await pool.query('SELECT 1 FROM app_meta WHERE key = $1', [MARKER_KEY]);
  if (marked.length > 0) return false;
  const { rows: admins } = await pool.query<{ id: string }>('SELECT id FROM auth.users WHERE email = $1', [demoEmail('administrator')]);
  const member = DEMO_MARKET_STRATEGIES.find((plan) => plan.role === 'advanced');
  const { rows: strategies } = await pool.query<{ strategy_id: string }>(
    `SELECT s.strategy_id FROM strategies s JOIN auth.users u ON u.id = s.user_id
      WHERE u.email = $1 AND s.name = $2 AND s.kind = 'algo'
        AND EXISTS (SELECT 1 FROM strategy_runs r WHERE r.strategy_id = s.strategy_id AND r.kind IN ('PAPER', 'LIVE') AND r.status = 'IN PROGRESS')`,
    [demoEmail('advanced'), member?.name ?? '']);
  const { rows: accounts } = await pool.query<{ user_broker_id: string; investment: number }>(
    `SELECT user_broker_id, investment_amt_paise::float8 AS investment FROM user_brokers WHERE broker = 'zerodha' AND client_id = ANY($1::text[]) ORDER BY client_id`,
    [DEMO_ENSEMBLE_CLIENTS]);
  const admin = admins[0];
  const strategy = strategies[0];
  if (admin === undefined || strategy === undefined || accounts.length === 0) {
    log('demo ensemble: no administrator, member run in progress or demo account yet (the next start tries again)');
    return false;
  }
  let ensembleId: string | undefined;
  try {
    ensembleId = await createEnsemble(pool, { actorId: admin.id, name: DEMO_ENSEMBLE_NAME });
    await setMember(pool, { actorId: admin.id, ensembleId, memberId: strategy.strategy_id, weight: 1 });
    for (const account of accounts) {
      await setAccount(pool, {
        actorId: admin.id, ensembleId, userBrokerId: account.user_broker_id, investmentPaise: account.investment > 0 ? account.investment : 100_000_000, mode: 'PAPER', nowMs,
      });
    }
    await pool.query(`INSERT INTO app_meta (key, value) VALUES ($1, to_jsonb($2::text)) ON CONFLICT (key) DO NOTHING`, [MARKER_KEY, ensembleId]);
    log(`demo ensemble: made "${DEMO_ENSEMBLE_NAME}" for the administrator`);
    return true;
  } catch (error) {
    if (ensembleId !== undefined) await pool.query('DELETE FROM strategies WHERE strategy_id = $1', [ensembleId]);
    if (!(error instanceof EnsembleRefusal)) throw error;
    log(`demo ensemble: not made: ${error.message} (the next start tries again)`);
    return false;
  }
}
