// Where PAPER and LIVE runs run: any number of worker processes (VYUHA_ROLE=worker, or the single process
// of `npm start`) against one PostgreSQL, each run in exactly one of them at a time.
//
// - The lease. A worker runs a run only while it holds the run's session-level advisory lock, on
//   a connection of its own kept for the run's whole life (as the backtest workers do): two
//   workers can never both hold it, and PostgreSQL frees it when the holder's connection ends,
//   also when its process was killed. While it runs, the worker writes `lease_owner` and
//   `heartbeat_at` every few seconds, so anyone can see who runs what.
// - Waking up. deploy_strategy enqueues a `strategy-run` job (jobs/strategy-run-jobs.ts) in its
//   transaction; a worker that takes it tries the lease at once. The job only wakes: it is done
//   as soon as it is taken, whoever gets the lease.
// - Taking over. Every `scanIntervalMs` each worker looks for PAPER runs IN PROGRESS whose
//   heartbeat is older than `staleAfterMs` (or missing) and tries their lease: a dead worker's
//   runs are taken over within staleAfterMs + scanIntervalMs (15 s + 5 s by default, inside the
//   issue's 30 s). The new holder resumes the run: the replay starts again from its first bar and
//   the OMS answers every decision already stored from its rows (nothing is sent twice; an order
//   written but never sent is sent now), so the run continues exactly where it stopped.
// - Pausing. The holder reads the strategy's status with its heartbeat: PAUSED takes no entries
//   from the next bar on (exits and stops go on), ACTIVE again resumes; each pause is kept on the
//   run in market time (params.pauses), so a run resumed elsewhere pauses at the same bars.
// - Stopping. stop_strategy writes `stop_requested_at`; the holder sees it within a second, stops
//   the feed, cancels the working stops and targets and, when the stop asked for it, squares the
//   position off at once (the last traded price), and ends the run.
// - Followers. A subscriber's follower run (params.follows: follow/follower-desk.ts) runs inside its
//   publisher's run, never on its own: the scan and the lease leave it alone.
// - Baskets. A PAPER basket placement's run (params.basket: baskets/basket-placement.ts) is placed
//   by its action and is never a runner's: the scan and the lease leave it alone. A LIVE one is a
//   runner's (its orders go through the account's one OMS): placed, or squared off once chosen, by
//   baskets/live-basket.ts, and taken over and resumed as any run.
// - Replay or market. A run with a replay range replays it (replay-run.ts); one without trades one
//   session of the market (PAPER: market-run.ts, on `options.market`'s feed; LIVE: live-run.ts,
//   through the broker account's LiveAccount of `options.live`) and, when the session closed
//   with its strategy still ACTIVE or PAUSED, ends COMPLETE with the next session's run opened
//   (`continueNextSession`: the licence slot handed over, the job queued).
// - Ending. A run that finished its range ends COMPLETE (COMPLETE: SQUARED OFF when a stop asked
//   for the square-off); one that failed for its own reasons ends ERROR with the reason in words
//   (`status_reason`, `error`). Either way the strategy is STOPPED and its licence slot is given back.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { STRATEGY_RUN_QUEUE } from '../../jobs/job-queue';
import { enqueueStrategyRun } from '../../jobs/strategy-run-jobs';
import type { JobLog, JobQueue } from '../../jobs/job-queue';
import { WallScheduler } from '../feeds/scheduler';
import type { Scheduler } from '../feeds/scheduler';
import { releaseLicenceSlot } from '../deployments';
import { KillSwitchWatch } from '../kill-switch-watch';
import { runLiveBasket } from '../baskets/live-basket';
import { inTransaction } from '../oms/order-rows';
import { startAccountRiskWatch } from '../account-risk';
import { PaperDivergence } from './paper-run';
import type { LiveAccounts } from '../live/live-accounts';
import { ReleaseRun, runLiveSession } from './live-run';
import { runMarketSession } from './market-run';
import type { MarketSource } from './market-run';
import { PaperRunFailure, RELEASE, replayPaperRun } from './replay-run';
import type { PaperReplaySummary, PausableRun } from './replay-run';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The advisory lock key of a PAPER run (a namespace of its own beside the backtests'). */
const LOCK_KEY = `hashtextextended('vyuha.strategy-run:' || $1, 0)`;

export interface StrategyRunnersOptions {
  readonly pool: pg.Pool;
  readonly queue: JobQueue;
  readonly log: JobLog;
  /** Written in `lease_owner`; default a random id per process. */
  readonly workerId?: string;
  /** How often to look for runs nobody runs, ms (default 5 s; 0: only at start). */
  readonly scanIntervalMs?: number;
  /** A heartbeat older than this means the holder is gone, ms (default 15 s). */
  readonly staleAfterMs?: number;
  /** How often the holder writes its heartbeat and reads stop requests, ms (default 1 s). */
  readonly heartbeatMs?: number;
  /** Paces replays at speeds above 0 (default the wall clock). */
  readonly pacing?: Scheduler;
  /**
   * The market runs without a replay range trade on (the simulated market: its `feed()`); without
   * it such runs end in ERROR saying so. `marketClock` is its clock (default the wall clock).
   */
  readonly market?: MarketSource;
  readonly marketClock?: Scheduler;
  /**
   * LIVE runs: the worker's broker accounts (opened as runs need them) and the platform's algo id
   * for strategies without their own; without it LIVE runs end in ERROR saying so.
   */
  readonly live?: { readonly accounts: LiveAccounts; readonly defaultAlgoId?: string };
  /** Called when a run this process ran has ended (tests, metrics). */
  readonly onRunEnded?: (runId: string, outcome: RunOutcome) => void;
  /** How often the account watch checks account-level stops and targets (../account-risk.ts), ms (default 1 s; 0: never). */
  readonly accountRiskMs?: number;
}

/** How a run this process held ended. */
export type RunOutcome =
  | { readonly status: 'COMPLETE' | 'COMPLETE: SQUARED OFF'; readonly summary: PaperReplaySummary; readonly nextRunId?: string }
  | { readonly status: 'ERROR' | 'ERROR: SQUARED OFF'; readonly reason: string }
  | { readonly status: 'released'; readonly reason: string };

export interface StrategyRunners {
  readonly workerId: string;
  /** Runs this process holds now. */
  readonly running: ReadonlySet<string>;
  /** Looks for runs nobody runs and takes them (also done every scanIntervalMs). */
  scan(): Promise<number>;
  /** Stops taking runs and releases the ones held (they are taken over elsewhere, or here after a restart). */
  stop(): Promise<void>;
}

/**
 * Starts this process's strategy runners: the job worker, the take-over scan, the shared kill switch watch and the account watch (account-level stops and targets, ../account-risk.ts).
 * @example const runners = await startStrategyRunners({ pool, queue, log }); ... await runners.stop();
 */
export async function startStrategyRunners(options: StrategyRunnersOptions): Promise<StrategyRunners> {
  const { pool, queue, log } = options;
  const workerId = options.workerId ?? `worker-${randomUUID().slice(0, 8)}`;
  const heartbeatMs = options.heartbeatMs ?? 1_000;
  const staleAfterMs = options.staleAfterMs ?? 15_000;
  const killSwitches = await KillSwitchWatch.open({ pool });
  const running = new Map<string, { abort: AbortController; done: Promise<void> }>();
  let stopping = false;

  // Claims between their first check and their run's start: stop() waits for them, so no run starts after it returned.
  const claiming = new Set<Promise<boolean>>();
  const claim = (runId: string): Promise<boolean> => {
    const attempt = claimRun(runId);
    claiming.add(attempt);
    return attempt.finally(() => claiming.delete(attempt));
  };

  const claimRun = async (runId: string): Promise<boolean> => {
    if (stopping || running.has(runId)) return false;
    const lease = new pg.Client(pool.options);
    lease.on('error', () => undefined);
    await lease.connect();
    const { rows } = await lease.query<{ locked: boolean }>(`SELECT pg_try_advisory_lock(${LOCK_KEY}) AS locked`, [runId]);
    if (rows[0]?.locked !== true) {
      await lease.end().catch(() => undefined);
      return false;
    }
    const taken = await pool.query(
      `UPDATE strategy_runs SET lease_owner = $2, heartbeat_at = now() WHERE run_id = $1 AND kind IN ('PAPER', 'LIVE') AND status = 'IN PROGRESS' AND NOT params ? 'follows'
         AND NOT (kind = 'PAPER' AND params ? 'basket')`, [runId, workerId]);
    if (taken.rowCount !== 1 || stopping) {
      // Stopping meanwhile: the run is left for another worker, as stop() leaves the running ones.
      if (taken.rowCount === 1) await pool.query(`UPDATE strategy_runs SET lease_owner = NULL, heartbeat_at = NULL WHERE run_id = $1 AND lease_owner = $2`, [runId, workerId]);
      await lease.end().catch(() => undefined);
      return false;
    }
    const abort = new AbortController();
    const done = hold({ runId, lease, abort }).finally(() => {
      running.delete(runId);
    });
    running.set(runId, { abort, done });
    return true;
  };

  const hold = async (request: { runId: string; lease: pg.Client; abort: AbortController }): Promise<void> => {
    const { runId, lease, abort } = request;
    let stopAsked: { squareOff: boolean } | undefined;
    let paper: PausableRun | undefined;
    const beat = setInterval(() => {
      void pool.query<{ stop_requested_at: Date | null; stop_square_off: boolean; status: string; strategy_status: string | null }>(
        `UPDATE strategy_runs r SET heartbeat_at = now() WHERE run_id = $1 AND lease_owner = $2
         RETURNING stop_requested_at, stop_square_off, status, (SELECT s.status FROM strategies s WHERE s.strategy_id = r.strategy_id) AS strategy_status`,
        [runId, workerId])
        .then(async ({ rows }) => {
          const row = rows[0];
          if (row === undefined || row.status !== 'IN PROGRESS') abort.abort(RELEASE);
          else if (row.stop_requested_at !== null && stopAsked === undefined) {
            stopAsked = { squareOff: row.stop_square_off };
            abort.abort(stopAsked);
          } else if (paper !== undefined && paper.setPaused(row.strategy_status === 'PAUSED') !== undefined) {
            // Kept in market time on the run, so a resumed or taken-over run pauses at the same place.
            await pool.query(`UPDATE strategy_runs SET params = jsonb_set(params, '{pauses}', $2::jsonb) WHERE run_id = $1`,
              [runId, JSON.stringify(paper.pauseIntervals)]);
          }
        })
        .catch((error: unknown) => log('strategy run heartbeat failed', { runId, error: (error as Error).message }));
    }, heartbeatMs);
    let outcome: RunOutcome;
    let sessionEnded = false;
    try {
      const control = {
        pool, runId, killSwitches, signal: abort.signal, log: (message: string) => log(message, { runId }),
        onPaperRun: (run: PausableRun) => {
          paper = run;
        },
      };
      let summary: PaperReplaySummary;
      const where = await placeOf(pool, runId);
      if (where.basket) {
        if (options.live === undefined) throw new PaperRunFailure('this server runs no LIVE trading (no broker secret key or Kite settings): place the basket on PAPER');
        summary = await runLiveBasket({
          ...control, accounts: options.live.accounts, scheduler: options.marketClock ?? new WallScheduler(),
          ...(options.live.defaultAlgoId === undefined ? {} : { defaultAlgoId: options.live.defaultAlgoId }),
        });
      } else if (where.kind === 'LIVE') {
        if (options.live === undefined) throw new PaperRunFailure('this server runs no LIVE trading (no broker secret key or Kite settings): stop the strategy and deploy it again once LIVE is set up');
        const live = {
          ...control, accounts: options.live.accounts, scheduler: options.marketClock ?? new WallScheduler(),
          ...(options.live.defaultAlgoId === undefined ? {} : { defaultAlgoId: options.live.defaultAlgoId }),
        };
        let session = await runLiveSession(live);
        while (session.continues && !abort.signal.aborted) session = await runLiveSession(live);
        sessionEnded = session.sessionEnded && !session.continues;
        summary = session;
      } else if (where.market) {
        if (options.market === undefined) throw new PaperRunFailure('no simulated market runs on this server (the demo world\'s history is off): deploy with a replay range');
        const market = options.market;
        let session = await runMarketSession({ ...control, market, scheduler: options.marketClock ?? new WallScheduler() });
        // A swing strategy's run goes on with the next session; its state is rebuilt from what it stored.
        while (session.continues && !abort.signal.aborted) session = await runMarketSession({ ...control, market, scheduler: options.marketClock ?? new WallScheduler() });
        sessionEnded = session.sessionEnded && !session.continues;
        summary = session;
      } else {
        summary = await replayPaperRun({ ...control, ...(options.pacing === undefined ? {} : { pacing: options.pacing }) });
      }
      if (summary.released) outcome = { status: 'released', reason: stopping ? 'the worker is stopping' : 'the run is no longer this worker\'s' };
      else outcome = { status: stopAsked?.squareOff === true || summary.squaredOff > 0 ? 'COMPLETE: SQUARED OFF' : 'COMPLETE', summary };
    } catch (error) {
      if (error instanceof ReleaseRun) {
        outcome = { status: 'released', reason: error.message };
      } else if (!(error instanceof PaperRunFailure || error instanceof PaperDivergence)) {
        // Infrastructure (the database went away): leave the run to be taken over and resumed.
        log('strategy run interrupted', { runId, error: (error as Error).message });
        outcome = { status: 'released', reason: (error as Error).message };
      } else {
        outcome = { status: error instanceof PaperRunFailure && error.squaredOff > 0 ? 'ERROR: SQUARED OFF' : 'ERROR', reason: error.message };
      }
    } finally {
      clearInterval(beat);
    }
    try {
      const ended = outcome;
      const complete = ended.status === 'COMPLETE' || ended.status === 'COMPLETE: SQUARED OFF' ? ended : undefined;
      const next = complete !== undefined && sessionEnded ? await continueNextSession(pool, { runId, status: complete.status, queue }) : undefined;
      if (next !== undefined && 'nextRunId' in next && complete !== undefined) outcome = { ...complete, nextRunId: next.nextRunId };
      else if (outcome.status !== 'released') {
        const reason = next !== undefined && 'stopReason' in next ? next.stopReason : 'reason' in outcome ? outcome.reason : null;
        await endRun(pool, { runId, status: outcome.status, reason });
      }
      else await pool.query(`UPDATE strategy_runs SET lease_owner = NULL, heartbeat_at = NULL WHERE run_id = $1 AND lease_owner = $2`, [runId, workerId]);
    } finally {
      await lease.end().catch(() => undefined);
    }
    log('strategy run ended', { runId, status: outcome.status, ...('reason' in outcome ? { reason: outcome.reason } : {}) });
    options.onRunEnded?.(runId, outcome);
  };

  const scan = async (): Promise<number> => {
    if (stopping) return 0;
    const { rows } = await pool.query<{ run_id: string }>(
      `SELECT run_id FROM strategy_runs
       WHERE kind IN ('PAPER', 'LIVE') AND status = 'IN PROGRESS' AND NOT params ? 'follows' AND NOT (kind = 'PAPER' AND params ? 'basket') AND (heartbeat_at IS NULL OR heartbeat_at < now() - $1 * interval '1 millisecond')
       ORDER BY started_at`, [staleAfterMs]);
    let taken = 0;
    for (const row of rows) if (await claim(row.run_id)) taken += 1;
    return taken;
  };

  await queue.boss.work<{ runId?: unknown }>(STRATEGY_RUN_QUEUE, { pollingIntervalSeconds: 1 }, async (jobs) => {
    for (const job of jobs) {
      const runId = job.data?.runId;
      if (typeof runId === 'string' && UUID.test(runId)) await claim(runId).catch((error: unknown) => log('strategy run claim failed', { runId, error: (error as Error).message }));
    }
  });
  const scanIntervalMs = options.scanIntervalMs ?? 5_000;
  const timer = scanIntervalMs > 0 ? setInterval(() => {
    void scan().catch((error: unknown) => log('strategy run scan failed', { error: (error as Error).message }));
  }, scanIntervalMs) : undefined;
  await scan();
  const accountRisk = options.accountRiskMs === 0 ? undefined
    : startAccountRiskWatch(pool, { intervalMs: options.accountRiskMs ?? 1_000, log: (message) => log(message), queue });

  return {
    workerId,
    get running() {
      return new Set(running.keys());
    },
    scan,
    async stop() {
      stopping = true;
      if (timer !== undefined) clearInterval(timer);
      await accountRisk?.stop();
      await queue.boss.offWork(STRATEGY_RUN_QUEUE).catch(() => undefined);
      await Promise.all([...claiming].map((attempt) => attempt.catch(() => false)));
      for (const { abort } of running.values()) abort.abort(RELEASE);
      await Promise.all([...running.values()].map(({ done }) => done.catch(() => undefined)));
      await killSwitches.close();
    },
  };
}

/** A run's kind, whether it trades on the market (deployed without a replay range), and whether it places a basket. */
async function placeOf(pool: pg.Pool, runId: string): Promise<{ kind: string; market: boolean; basket: boolean }> {
  const { rows } = await pool.query<{ kind: string; market: boolean; basket: boolean }>(
    `SELECT kind, coalesce(jsonb_typeof(params -> 'replay'), 'null') = 'null' AS market, params ? 'basket' AS basket FROM strategy_runs WHERE run_id = $1`, [runId]);
  return { kind: rows[0]?.kind ?? 'PAPER', market: rows[0]?.market === true, basket: rows[0]?.basket === true };
}

/**
 * A market run whose session closed while its strategy is still ACTIVE or PAUSED (and no stop was
 * asked for): the run ends COMPLETE and the strategy goes on in a new run for the next session,
 * which takes over the licence slot (not given back, not taken again) and is queued at once (it
 * waits, leased, for the session). Returns the new run's id; or why the strategy stops (its
 * licence has expired), or undefined when it is not to go on (stopped or paused by its user, or
 * the run ended already): then nothing changed and the caller ends the run as any other.
 */
export async function continueNextSession(
  pool: pg.Pool,
  request: { runId: string; queue: JobQueue; status?: 'COMPLETE' | 'COMPLETE: SQUARED OFF' },
): Promise<{ nextRunId: string } | { stopReason: string } | undefined> {
  return inTransaction(pool, async (client) => {
    const { rows } = await client.query<{
      strategy_id: string | null; user_id: string; kind: string; params: Record<string, unknown>; licence_id: string | null; strategy_status: string | null;
      stop_requested_at: Date | null; licence_expired: string | null;
    }>(
      `SELECT r.strategy_id, r.user_id, r.kind, r.params, r.licence_id, r.stop_requested_at, s.status AS strategy_status,
              (SELECT d.expiry::text FROM deployed_strategies d WHERE d.id = r.licence_id AND d.expiry < (now() AT TIME ZONE 'Asia/Kolkata')::date) AS licence_expired
       FROM strategy_runs r LEFT JOIN strategies s ON s.strategy_id = r.strategy_id WHERE r.run_id = $1 AND r.status = 'IN PROGRESS' FOR NO KEY UPDATE OF r`, [request.runId]);
    const ended = rows[0];
    if (ended?.strategy_id == null || ended.stop_requested_at !== null || !['ACTIVE', 'PAUSED'].includes(ended.strategy_status ?? '')) return undefined;
    if (ended.licence_expired !== null) {
      return { stopReason: `the STRATEGIES/DEPLOYED licence expired on ${ended.licence_expired}: the strategy stops after this session (renew it and deploy again)` };
    }
    // The slot moves to the next run: taken off this one, not given back.
    await client.query('UPDATE strategy_runs SET licence_id = NULL WHERE run_id = $1', [request.runId]);
    await finishRunRow(client, { runId: request.runId, status: request.status ?? 'COMPLETE', reason: null });
    // A paused strategy stays paused from the next session's first bar.
    const pauses = ended.strategy_status === 'PAUSED' ? [{ fromMs: 0, toMs: null }] : [];
    const { rows: created } = await client.query<{ run_id: string }>(
      `INSERT INTO strategy_runs (strategy_id, user_id, kind, status, params, licence_id) VALUES ($1, $2, $5, 'IN PROGRESS', $3, $4) RETURNING run_id`,
      [ended.strategy_id, ended.user_id, JSON.stringify({ ...ended.params, pauses }), ended.licence_id, ended.kind]);
    const next = (created[0] as { run_id: string }).run_id;
    await enqueueStrategyRun(request.queue, { client, runId: next });
    return { nextRunId: next };
  });
}

/**
 * Ends a run: its status (and the reason in words for an ERROR), finished, the lease cleared, the
 * licence slot given back once, the strategy STOPPED if it was still ACTIVE or PAUSED on this run.
 * Nothing when the run has ended already.
 */
export async function endRun(pool: pg.Pool, request: { runId: string; status: 'COMPLETE' | 'COMPLETE: SQUARED OFF' | 'ERROR' | 'ERROR: SQUARED OFF'; reason: string | null }): Promise<boolean> {
  return inTransaction(pool, async (client) => {
    const { rows } = await client.query<{ strategy_id: string | null }>(
      `SELECT strategy_id FROM strategy_runs WHERE run_id = $1 AND status = 'IN PROGRESS' FOR NO KEY UPDATE`, [request.runId]);
    const ended = rows[0];
    if (ended === undefined) return false;
    await releaseLicenceSlot(client, request.runId);
    await finishRunRow(client, request);
    if (ended.strategy_id !== null) {
      await client.query(`UPDATE strategies SET status = 'STOPPED' WHERE strategy_id = $1 AND status IN ('ACTIVE', 'PAUSED')`, [ended.strategy_id]);
    }
    return true;
  });
}

/** A run row ended: its status and reason in words, finished now, no longer leased (complete: 100%). */
async function finishRunRow(client: pg.PoolClient, request: { runId: string; status: string; reason: string | null }): Promise<void> {
  await client.query(
    `UPDATE strategy_runs SET status = $2, status_reason = $3, error = $3, progress = CASE WHEN $2 LIKE 'COMPLETE%' THEN 100 ELSE progress END,
       finished_at = greatest(now(), started_at), lease_owner = NULL, heartbeat_at = NULL
     WHERE run_id = $1`, [request.runId, request.status, request.reason]);
}
