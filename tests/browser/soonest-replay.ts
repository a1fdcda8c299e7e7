// Where a fresh paper replay of the demo EMA strategy reaches its first fill soonest, for the
// browser tests that watch one at 600x (the wait is mostly the replay's market time, 37.5 s a
// session). A replay starts its indicators cold at the first session of its range, so when its
// first signal comes depends on where the range starts; it is found here, not guessed: each
// candidate range is backtested with the server's own preparation and engine on the demo run's
// stored deployment (its config, instrument and exits), which a paper replay of the same range
// equals fill for fill (packages/server/test/trading-runner/paper-replay-parity.test.ts).
// Invariants: the candidates are two sessions in a row that the store holds candles of, the
// range answered is one that was backtested exactly as answered, and one without a fill never is.
import { isoDate } from '@vyuha/core';
import { runBacktest } from '@vyuha/engine';
import type pg from 'pg';
import { compiledAlgorithmOf, paperConfigOf, preparePaperReplay, readPaperRunParams } from '../../packages/server/src/trading/runner/replay-run';
import { demoPaperStrategy } from './trading-support';

/** A replay range of two sessions in a row (IST dates) and what the backtest of it says of its first fill. */
export interface SoonestReplay {
  readonly from: string;
  readonly to: string;
  /** Bars of the range played before the bar of the first fill (at 600x, a 15-minute bar takes 1.5 s). */
  readonly barsBeforeFirstFill: number;
}

/**
 * Of the ranges of two sessions in a row that the store holds candles of for the demo strategy's
 * instrument from `within.from` to `within.to` (IST dates, both included), the one whose first
 * fill comes after the fewest played bars (ties: the later range). Throws when none fills at all.
 * @example await soonestDemoReplay(pool, { from: '2026-09-24', to: '2026-10-30' }) // { from: '2026-10-09', to: '2026-10-12', barsBeforeFirstFill: 26 }
 */
export async function soonestDemoReplay(pool: pg.Pool, within: { readonly from: string; readonly to: string }): Promise<SoonestReplay> {
  const { strategyId } = await demoPaperStrategy(pool);
  const { rows } = await pool.query<{ params: unknown }>(
    `SELECT params FROM strategy_runs WHERE strategy_id = $1 AND kind = 'PAPER' AND jsonb_typeof(params -> 'replay') = 'object' ORDER BY started_at LIMIT 1`,
    [strategyId]);
  const params = readPaperRunParams(rows[0]?.params);
  if (!params.ok) throw new Error(`the demo paper run's params: ${params.error}`);
  const { rows: sessionRows } = await pool.query<{ day: string }>(
    `SELECT DISTINCT to_char(ts AT TIME ZONE 'Asia/Kolkata', 'YYYY-MM-DD') AS day FROM candles
     WHERE instrument_id = $1 AND ts >= ($2::date)::timestamp AT TIME ZONE 'Asia/Kolkata' AND ts < ($3::date + 1)::timestamp AT TIME ZONE 'Asia/Kolkata'
     ORDER BY 1`, [params.value.instrumentId, within.from, within.to]);
  const sessions = sessionRows.map((row) => row.day);
  const program = await compiledAlgorithmOf(pool, params.value.config);
  let soonest: SoonestReplay | undefined;
  for (let index = 0; index + 1 < sessions.length; index += 1) {
    const from = sessions[index] as string;
    const to = sessions[index + 1] as string;
    const prepared = await preparePaperReplay(pool, { ...params.value, replay: { from: isoDate(from), to: isoDate(to), speed: 600 } });
    const { fills } = runBacktest({
      series: prepared.series, program, config: paperConfigOf(prepared, params.value.config),
      ...(prepared.contracts === undefined ? {} : { contracts: prepared.contracts }),
    });
    const first = fills[0];
    if (first !== undefined && (soonest === undefined || first.index <= soonest.barsBeforeFirstFill)) {
      soonest = { from, to, barsBeforeFirstFill: first.index };
    }
  }
  if (soonest === undefined) throw new Error(`no two sessions in a row of ${sessions.join(', ')} fill in a backtest of the demo paper strategy`);
  return soonest;
}
