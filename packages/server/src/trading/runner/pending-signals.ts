// A MANUAL strategy's signals as rows of `pending_signals`: the gate (engine
// kernel/confirmed-signals.ts) between its program and its trader, kept in PostgreSQL so the user
// confirms from any screen and a restarted run acts at the same bars.
//
// - Raised. A signal that would change the position, at a bar's close, becomes a PENDING row of
//   the run: its action (BUY, SELL or EXIT), the instrument, the bar and its close, and when it
//   expires (the close of the bar's session). A newer signal replaces a pending one of another
//   action (that one EXPIRED); the same action still pending is not raised again. A row is keyed
//   by its bar, so a run played again after a restart raises nothing twice.
// - Confirmed. `confirm_signal` (trading/deployments.ts) makes it ACCEPTED or REJECTED. Before
//   each bar's close the run reads its ACCEPTED rows not yet taken: the bar takes them (the last
//   one's action) and says so on the row (`payload.takenAt`, the bar's start); the kernel acts at
//   that close, so with next-open fills the order goes out at the next bar's first tick. A row
//   taken before a restart is taken again at the same bar.
// - Expired. At the end of the run's session what is still PENDING becomes EXPIRED.
// - On a replay (`replayWaitMs`), market time is the replay's: a signal waits for the person
//   watching. It expires `replayWaitMs` of wall time after it was raised, and the replay holds
//   still (its feed paused) until every pending signal is decided or expired, then goes on from
//   the same market time.
import { rupeesToPaise } from '@vyuha/core';
import { ConfirmedSignals, SIGNAL_BUY, SIGNAL_EXIT, SIGNAL_NONE, SIGNAL_SELL } from '@vyuha/engine';
import type { BarSeries, GrowingBarSeries, Signal, SignalGate, SteppedProgramSource } from '@vyuha/engine';
import type pg from 'pg';

type Action = 'BUY' | 'SELL' | 'EXIT';

const ACTIONS = new Map<Signal, Action>([[SIGNAL_BUY, 'BUY'], [SIGNAL_SELL, 'SELL'], [SIGNAL_EXIT, 'EXIT']]);
const SIGNALS = new Map<Action, Signal>([['BUY', SIGNAL_BUY], ['SELL', SIGNAL_SELL], ['EXIT', SIGNAL_EXIT]]);

/** What a pending signal's payload holds (the screens show it; the run reads `action` and `takenAt`). */
export interface PendingSignalPayload {
  readonly action: Action;
  /** The traded instrument's name as the strategy names it (an index trades its near-month future). */
  readonly instrument: string;
  /** The bar whose close raised it: epoch ms of its start, and ISO text. */
  readonly bar: number;
  readonly barTime: string;
  /** The signal instrument's close at that bar, paise. */
  readonly closePaise: number;
  /** The bar (its start) whose close took it, once accepted and acted on. */
  readonly takenAt?: number;
}

export interface PendingSignalGateOptions {
  readonly pool: pg.Pool;
  readonly runId: string;
  readonly strategyId: string;
  readonly userId: string;
  readonly instrument: string;
  /** The kernel's series (rupees): the bar's start and close. */
  readonly series: BarSeries;
  /** Epoch ms the session of the run closes: when its pending signals expire. */
  readonly expiresAt: number;
  readonly signalsFrom: number;
  /** A replay: each signal expires this long (wall ms) after it is raised, and the replay waits for it. */
  readonly replayWaitMs?: number;
  /** Ends a replay's wait (the run stopped or handed over). */
  readonly abort?: AbortSignal;
}

/** What a replay's gate holds still while a person decides: the replay feed. */
export interface ReplayHold {
  pause(): void;
  resume(): void;
}

/** How often a waiting replay looks for the person's decision. */
const DECISION_POLL_MS = 200;

export class PendingSignalGate implements SignalGate {
  readonly signalsFrom: number;
  direction: SignalGate['direction'] = 'both';
  private raised: Array<{ index: number; signal: Signal }> = [];
  private readonly confirmed = new Map<number, Signal>();
  private hold: ReplayHold | undefined;

  constructor(private readonly options: PendingSignalGateOptions) {
    this.signalsFrom = options.signalsFrom;
  }

  raise(index: number, signal: Signal): void {
    this.raised.push({ index, signal });
  }

  confirmedAt(index: number): Signal {
    return this.confirmed.get(index) ?? SIGNAL_NONE;
  }

  /** Before bar `index` (starting `barStart`) closes: the accepted signals it takes. */
  async beforeClose(index: number, barStart: number): Promise<void> {
    const { pool, runId } = this.options;
    const { rows } = await pool.query<{ pending_signal_id: string; payload: PendingSignalPayload }>(
      `SELECT pending_signal_id, payload FROM pending_signals WHERE run_id = $1 AND outcome = 'ACCEPTED'
         AND (NOT payload ? 'takenAt' OR (payload->>'takenAt')::bigint = $2) ORDER BY processed_at, created_at`, [runId, barStart]);
    const last = rows.at(-1);
    if (last === undefined) return;
    this.confirmed.set(index, SIGNALS.get(last.payload.action) ?? SIGNAL_NONE);
    const untaken = rows.filter((row) => row.payload.takenAt === undefined).map((row) => row.pending_signal_id);
    if (untaken.length > 0) {
      await pool.query(`UPDATE pending_signals SET payload = payload || jsonb_build_object('takenAt', $2::bigint) WHERE pending_signal_id = ANY($1::uuid[])`,
        [untaken, barStart]);
    }
  }

  /** A replay's feed, held still while its signals wait for a decision. */
  holdWith(hold: ReplayHold): void {
    this.hold = hold;
  }

  /** After a bar's close: what it raised, written (once per bar, whoever plays it again); a replay waits for the decision. */
  async afterClose(): Promise<void> {
    const raised = this.raised;
    this.raised = [];
    let wrote = false;
    for (const { index, signal } of raised) wrote = await this.write(index, signal) || wrote;
    if (wrote && this.options.replayWaitMs !== undefined) await this.awaitDecisions();
  }

  /** A replay holds still until no signal of the run is PENDING; one past its expiry expires. */
  private async awaitDecisions(): Promise<void> {
    const { pool, runId, abort } = this.options;
    this.hold?.pause();
    try {
      while (abort?.aborted !== true) {
        const { rows } = await pool.query<{ pending: number; live: number }>(
          `SELECT count(*)::int AS pending, count(*) FILTER (WHERE expires_at > now())::int AS live
           FROM pending_signals WHERE run_id = $1 AND state = 'PENDING'`, [runId]);
        const counts = rows[0] ?? { pending: 0, live: 0 };
        if (counts.pending === 0) return;
        if (counts.live === 0) {
          await this.expire();
          return;
        }
        await new Promise((done) => setTimeout(done, DECISION_POLL_MS));
      }
    } finally {
      this.hold?.resume();
    }
  }

  /** The run's session is over: its PENDING signals expire. Returns how many. */
  async expire(): Promise<number> {
    const { rowCount } = await this.options.pool.query(
      `UPDATE pending_signals SET state = 'PROCESSED', outcome = 'EXPIRED', processed_at = greatest(now(), created_at)
       WHERE run_id = $1 AND state = 'PENDING'`, [this.options.runId]);
    return rowCount ?? 0;
  }

  /** Writes the signal raised at bar `index`; true when a new PENDING row was written. */
  private async write(index: number, signal: Signal): Promise<boolean> {
    const action = ACTIONS.get(signal);
    if (action === undefined) return false;
    const { pool, runId, series } = this.options;
    const bar = series.time[index] as number;
    const payload: PendingSignalPayload = {
      action, instrument: this.options.instrument, bar, barTime: new Date(bar).toISOString(), closePaise: rupeesToPaise(series.close[index] as number),
    };
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      // One writer per run (its lease); the lock orders this run's writes with confirm_signal's.
      const { rows } = await client.query<{ pending_signal_id: string; action: Action; state: string; bar: string }>(
        `SELECT pending_signal_id, payload->>'action' AS action, state, payload->>'bar' AS bar FROM pending_signals WHERE run_id = $1 FOR UPDATE`, [runId]);
      if (rows.some((row) => Number(row.bar) === bar)) {
        await client.query('COMMIT');
        return false;
      }
      const pending = rows.filter((row) => row.state === 'PENDING');
      if (pending.some((row) => row.action === action)) {
        await client.query('COMMIT');
        return false;
      }
      if (pending.length > 0) {
        await client.query(`UPDATE pending_signals SET state = 'PROCESSED', outcome = 'EXPIRED', processed_at = greatest(now(), created_at)
                            WHERE pending_signal_id = ANY($1::uuid[])`, [pending.map((row) => row.pending_signal_id)]);
      }
      // A replay's signal expires in wall time (its market time is the replay's); a market's at the session's close.
      await client.query(
        `INSERT INTO pending_signals (strategy_id, user_id, run_id, payload, expires_at)
         VALUES ($1, $2, $3, $4, CASE WHEN $6::bigint IS NULL THEN timestamptz 'epoch' + $5 * interval '1 millisecond'
                                      ELSE now() + $6::bigint * interval '1 millisecond' END)`,
        [this.options.strategyId, this.options.userId, runId, JSON.stringify(payload), this.options.expiresAt, this.options.replayWaitMs ?? null]);
      await client.query('COMMIT');
      return true;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }
}

/** A program source the stepped kernel builds its program from (a compiled algorithm). */
type ProgramFactory = Extract<SteppedProgramSource, { createProgram: unknown }>;

/**
 * A market run's program, MANUAL or not: with `manual` (and a strategy to raise signals for) its
 * signals go through a PendingSignalGate (engine ConfirmedSignals), else the program as it is.
 * Set the gate's `direction` from the stepped run's config once it is built.
 */
export function gatedProgram(program: ProgramFactory, request: Omit<PendingSignalGateOptions, 'strategyId'> & {
  readonly manual: boolean; readonly strategyId: string | null;
}): { readonly gate: PendingSignalGate | undefined; readonly source: SteppedProgramSource } {
  const { manual, strategyId, ...options } = request;
  if (!manual || strategyId === null) return { gate: undefined, source: program };
  const gate = new PendingSignalGate({ ...options, strategyId });
  return {
    gate,
    source: {
      ...(program.exits === undefined ? {} : { exits: program.exits }),
      createProgram: (grown: GrowingBarSeries, created: { intervalMinutes: number }) => new ConfirmedSignals(program.createProgram(grown, created), gate),
    },
  };
}
