// MANUAL on a replay: each signal waits for the user while the replay holds still. An accepted
// signal is acted on at the next bar's close (its order fills at the bar after), a rejected one
// trades nothing, and nothing is lost or done twice: the run's entries are exactly the accepted ones.
import { isoDate } from '@vyuha/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { confirmSignal } from '../../src/trading/deployments';
import { replayPaperRun } from '../../src/trading/runner/replay-run';
import { freshDatabase, type TestDatabase } from '../helpers/db';
import { indexId, storeSyntheticHistory } from '../trading-feeds/feed-test-support';
import { algorithm, createTrader, deployable, paperRunRow } from './runner-test-support';

let db: TestDatabase;
let nifty: number;
let userId: string;

const FROM = isoDate('2025-01-06');
const TO = isoDate('2025-01-08');

beforeAll(async () => {
  db = await freshDatabase({ seeded: true });
  await storeSyntheticHistory(db.pool, { from: FROM, to: TO, instruments: ['NIFTY 50'], seed: 'paper-manual' });
  nifty = await indexId(db.pool, 'NIFTY 50');
  userId = await createTrader(db.pool, { permissions: ['strategy:manual'] });
}, 120_000);

afterAll(async () => {
  await db.close();
});

interface Signal {
  readonly id: string;
  readonly action: string;
  readonly bar: number;
}

async function pendingOf(runId: string): Promise<Signal[]> {
  const { rows } = await db.pool.query<{ pending_signal_id: string; action: string; bar: string }>(
    `SELECT pending_signal_id, payload->>'action' AS action, payload->>'bar' AS bar FROM pending_signals WHERE run_id = $1 AND state = 'PENDING' ORDER BY created_at`, [runId]);
  return rows.map((row) => ({ id: row.pending_signal_id, action: row.action, bar: Number(row.bar) }));
}

describe('a MANUAL paper replay', () => {
  it('waits for each signal: the accepted entry trades at the bar after, the rejected ones trade nothing', async () => {
    const ref = await algorithm(db.pool, userId, { buy: 'crossover(ema(close, 5), ema(close, 13))', sell: 'crossunder(ema(close, 5), ema(close, 13))' });
    const runId = await paperRunRow(db.pool, { userId, instrumentId: nifty, config: deployable(ref, { manual: true }), range: { from: FROM, to: TO } });
    const decided: Array<Signal & { accepted: boolean }> = [];
    let running = true;
    const replay = replayPaperRun({ pool: db.pool, runId }).finally(() => {
      running = false;
    });
    // The person: accepts the first BUY, rejects every other signal, each as soon as it shows.
    while (running) {
      for (const signal of await pendingOf(runId)) {
        // The replay holds still while a signal is pending: no bar after it has been closed.
        const { rows } = await db.pool.query<{ later: number }>(
          `SELECT count(*)::int AS later FROM pending_signals WHERE run_id = $1 AND (payload->>'bar')::bigint > $2`, [runId, signal.bar]);
        expect(rows[0]!.later).toBe(0);
        const accept = signal.action === 'BUY' && !decided.some((earlier) => earlier.accepted);
        const answer = await confirmSignal(db.pool, { actorId: userId, userId, pendingSignalId: signal.id, accept });
        expect(answer.ok).toBe(true);
        decided.push({ ...signal, accepted: accept });
      }
      await new Promise((done) => setTimeout(done, 50));
    }
    await replay;
    const accepted = decided.filter((signal) => signal.accepted);
    expect(accepted).toHaveLength(1);
    expect(decided.length).toBeGreaterThan(2);
    const taken = await db.pool.query<{ taken: string | null }>(`SELECT payload->>'takenAt' AS taken FROM pending_signals WHERE pending_signal_id = $1`, [accepted[0]!.id]);
    expect(Number(taken.rows[0]!.taken)).toBeGreaterThan(accepted[0]!.bar);
    // One entry, a BUY, decided at the close of the bar that took the signal; everything else the run did closes it.
    const orders = await db.pool.query<{ side: string; square_off: boolean; ms: string }>(
      `SELECT o.side, o.square_off, (extract(epoch FROM min(f.ts)) * 1000)::bigint::text AS ms FROM orders o JOIN fills f ON f.order_id = o.order_id
       WHERE o.run_id = $1 GROUP BY o.order_id, o.side, o.square_off ORDER BY min(f.ts)`, [runId]);
    expect(orders.rows.length).toBeGreaterThanOrEqual(1);
    expect(orders.rows[0]!.side).toBe('BUY');
    expect(Number(orders.rows[0]!.ms)).toBeGreaterThan(Number(taken.rows[0]!.taken));
    expect(orders.rows.filter((row) => row.side === 'BUY')).toHaveLength(1);
    const outcomes = await db.pool.query<{ outcome: string; n: number }>(
      `SELECT outcome, count(*)::int AS n FROM pending_signals WHERE run_id = $1 GROUP BY outcome ORDER BY outcome`, [runId]);
    expect(outcomes.rows).toEqual([{ outcome: 'ACCEPTED', n: 1 }, { outcome: 'REJECTED', n: decided.length - 1 }]);
  }, 300_000);
});
