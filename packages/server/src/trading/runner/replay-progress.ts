// How far a paper replay has got, written on its run row while it plays, so the strategy detail
// page (subscribed to the row) grows its chart with the replay instead of with its orders:
// - strategy_runs.progress: ticks delivered over the replay's ticks, percent (floor);
// - strategy_runs.params.replayedUntilMs: the market time of the last tick the paper run has
//   taken (epoch ms), the chart's end.
//
// Invariants:
// - Never in the decision path: a tick only notes where it is; the write is sent beside the run,
//   never awaited by it, so fills do not depend on it (the parity tests compare them to the paisa).
// - Cheap: at most one write per `everyMs` of wall time (default 1 s), one in flight at a time,
//   whatever the speed; a MANUAL replay held at a signal writes nothing.
// - Only forward: both figures keep the greater of the stored and the new value, so a run taken
//   over (replayed again from its first bar) does not shrink its chart; only a run IN PROGRESS is
//   written, so a late write never touches an ended run.
import type pg from 'pg';

/** The wall time between two writes, ms. */
export const REPLAY_PROGRESS_EVERY_MS = 1_000;

const WRITE = `UPDATE strategy_runs
  SET progress = greatest(progress, $2::smallint),
      params = jsonb_set(params, '{replayedUntilMs}', to_jsonb(greatest(coalesce((params ->> 'replayedUntilMs')::bigint, 0), $3::bigint)))
  WHERE run_id = $1 AND status = 'IN PROGRESS'`;

export interface ReplayProgressOptions {
  readonly pool: pg.Pool;
  readonly runId: string;
  readonly log?: ((message: string) => void) | undefined;
  /** Wall time between writes, ms (default REPLAY_PROGRESS_EVERY_MS). */
  readonly everyMs?: number;
  /** The wall clock (default Date.now). */
  readonly now?: () => number;
}

interface Reached {
  readonly marketMs: number;
  readonly percent: number;
}

/**
 * The percent of `delivered` over `total`, floor, within 0..100.
 * @example progressPercent(1, 3) // 33
 */
export function progressPercent(delivered: number, total: number): number {
  if (total <= 0) return 0;
  return Math.max(0, Math.min(100, Math.floor((delivered * 100) / total)));
}

/**
 * Writes a replay's progress at most once per `everyMs`.
 * @example const progress = new ReplayProgress({ pool, runId }); progress.note(tick.time, 40, 400); ... await progress.flush();
 */
export class ReplayProgress {
  private readonly everyMs: number;
  private readonly now: () => number;
  private lastWriteAt = Number.NEGATIVE_INFINITY;
  private pending: Reached | undefined;
  private writing: Promise<void> | undefined;
  private failed = false;

  constructor(private readonly options: ReplayProgressOptions) {
    this.everyMs = options.everyMs ?? REPLAY_PROGRESS_EVERY_MS;
    this.now = options.now ?? Date.now;
  }

  /** The paper run has taken the tick at `marketMs`, the `delivered`-th of `total`: written when a write is due. */
  note(marketMs: number, delivered: number, total: number): void {
    this.pending = { marketMs, percent: progressPercent(delivered, total) };
    if (this.writing !== undefined || this.now() - this.lastWriteAt < this.everyMs) return;
    this.send();
  }

  /** Waits for the write in flight, then writes what was noted since (the replay's last position). */
  async flush(): Promise<void> {
    await this.writing;
    if (this.pending !== undefined) this.send();
    await this.writing;
  }

  private send(): void {
    const reached = this.pending;
    if (reached === undefined) return;
    this.pending = undefined;
    this.lastWriteAt = this.now();
    this.writing = this.options.pool.query(WRITE, [this.options.runId, reached.percent, Math.round(reached.marketMs)])
      .then(() => undefined, (error: unknown) => {
        // Progress is for the screen: a failed write is told once and the replay goes on.
        if (!this.failed) this.options.log?.(`the replay's progress was not written: ${(error as Error).message}`);
        this.failed = true;
      })
      .finally(() => {
        this.writing = undefined;
      });
  }
}
