// Reconciliation before a LIVE strategy trades: the user bought RELIANCE in Kite's own app before
// the session, so Kite holds a position no order of Vyuha's explains. Before its first bar the run
// reconciles the account with Kite, pauses the strategy (the runner takes no entries while it is
// PAUSED) and tells the user why; nothing is sent to Kite.
import { istEpochMs } from '@vyuha/core';
import { describe, expect, it } from 'vitest';
import { runLiveSession } from '../../src/trading/runner/live-run';
import { RELEASE } from '../../src/trading/runner/replay-run';
import { algorithm } from '../trading-runner/runner-test-support';
import { useLiveWorld, KITE_APP, marketRun, relianceConfig, RELIANCE_TOKEN, TODAY } from './live-test-support';

const suite = useLiveWorld();

describe('a LIVE account holding a position Vyuha did not place', () => {
  it('pauses the strategy before its first bar and tells the user why, sending nothing', async () => {
    const { db, world, killSwitches } = suite();
    const ref = await algorithm(db.pool, world.userId, { buy: 'close > 0', sell: 'close < 0' });
    const runId = await marketRun(world, relianceConfig(ref), 'LIVE');
    const { rows: [row] } = await db.pool.query<{ strategy_id: string }>('SELECT strategy_id FROM strategy_runs WHERE run_id = $1', [runId]);
    const strategyId = row!.strategy_id;
    // ACTIVE as deploy_strategy leaves it (only a deploying transaction may set it).
    const client = await db.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(`SET LOCAL vyuha.deploying = 'on'`);
      await client.query(`UPDATE strategies SET status = 'ACTIVE' WHERE strategy_id = $1`, [strategyId]);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    // The user's own order in Kite's app, before the session.
    await world.scheduler.advanceTo(istEpochMs(TODAY, '09:00'));
    world.standIn.tick(RELIANCE_TOKEN, 120_000, { atMs: world.scheduler.now() });
    const token = world.standIn.accessTokenOf(world.clientId);
    const placed = await fetch(`${world.standIn.apiUrl}/orders/regular`, {
      method: 'POST',
      headers: { 'x-kite-version': '3', authorization: `token ${KITE_APP.apiKey}:${token ?? ''}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ tradingsymbol: 'RELIANCE', exchange: 'NSE', transaction_type: 'BUY', order_type: 'MARKET', quantity: '10', product: 'CNC', market_protection: '-1' }),
    });
    expect(placed.status).toBe(200);
    const sentBefore = world.standIn.requests.filter((request) => request.method === 'POST' && request.path === '/orders/regular').length;

    const accounts = suite().accounts({ pollMs: 500,
    });
    const abort = new AbortController();
    const live = runLiveSession({ pool: db.pool, runId, accounts, scheduler: world.scheduler, killSwitches, signal: abort.signal });
    try {
      await world.scheduler.advanceTo(istEpochMs(TODAY, '09:14'));
      const deadline = Date.now() + 20_000;
      let alerts: Array<{ kind: string; message: string; strategy_id: string | null }> = [];
      while (Date.now() < deadline && alerts.length === 0) {
        ({ rows: alerts } = await db.pool.query('SELECT kind, message, strategy_id FROM trading_alerts WHERE user_id = $1', [world.userId]));
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(alerts).toHaveLength(1);
      expect(alerts[0]).toMatchObject({ kind: 'unexplained-position', strategy_id: strategyId });
      expect(alerts[0]!.message).toContain(`Zerodha ${world.clientId} holds positions Vyuha did not place`);
      expect(alerts[0]!.message).toContain('paused');
      const { rows: [strategy] } = await db.pool.query<{ status: string }>('SELECT status FROM strategies WHERE strategy_id = $1', [strategyId]);
      expect(strategy!.status).toBe('PAUSED');
      const { rows: audit } = await db.pool.query(`SELECT 1 FROM audit_log WHERE action = 'strategy.paused' AND entity_id = $1`, [strategyId]);
      expect(audit).toHaveLength(1);
    } finally {
      abort.abort(RELEASE);
      await world.scheduler.advanceTo(istEpochMs(TODAY, '09:16'));
      await live.catch(() => undefined);
      await accounts.closeAll();
    }
    expect(world.standIn.requests.filter((request) => request.method === 'POST' && request.path === '/orders/regular')).toHaveLength(sentBefore);
  }, 120_000);
});
