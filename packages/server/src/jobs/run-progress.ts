// Progress of one run, written to strategy_runs.progress for the subscription's progress bar.
// Writes are throttled (a step of a few percent AND a minimum interval), so a fast run costs a
// handful of UPDATEs and a slow one at most a few per second. Each write is also the run's
// cancellation check: the UPDATE only matches a run still IN PROGRESS, so a run that was
// cancelled (or finished elsewhere) stops at its next progress step.
import type pg from 'pg';

/** The run is no longer IN PROGRESS (cancelled, or ended by another worker): stop quietly. */
export class RunNoLongerInProgress extends Error {
  override readonly name = 'RunNoLongerInProgress';
}

export interface RunProgressOptions {
  readonly pool: pg.Pool;
  readonly runId: string;
  /** Wall clock in epoch ms (injected: tests pass their own). */
  readonly now: () => number;
  /** Smallest advance, in percent, worth a write. Default 2. */
  readonly minimumStep?: number;
  /** Smallest time between two writes, ms. Default 250 (at most 4 writes a second). */
  readonly minimumIntervalMs?: number;
  /** Called after each write with the percent written (observability, tests). */
  readonly onProgress?: (percent: number) => void;
}

export class RunProgress {
  private written = 0;
  private writtenAt = Number.NEGATIVE_INFINITY;
  private readonly minimumStep: number;
  private readonly minimumIntervalMs: number;

  constructor(private readonly options: RunProgressOptions) {
    this.minimumStep = options.minimumStep ?? 2;
    this.minimumIntervalMs = options.minimumIntervalMs ?? 250;
  }

  /** Starts the bar again at 0 (a retried run starts from scratch); throws RunNoLongerInProgress when the run ended. */
  async restart(): Promise<void> {
    await this.write(0);
  }

  /**
   * Reports `percent` (0-99; 100 is written with the results). Writes only when the step and the
   * interval allow; throws RunNoLongerInProgress when the write finds the run ended.
   */
  async report(percent: number): Promise<void> {
    const value = Math.max(0, Math.min(99, Math.floor(percent)));
    if (value - this.written < this.minimumStep) return;
    if (this.options.now() - this.writtenAt < this.minimumIntervalMs) return;
    await this.write(value);
  }

  /** Checks that the run is still IN PROGRESS without waiting for the throttle. */
  async checkpoint(): Promise<void> {
    await this.write(this.written);
  }

  private async write(value: number): Promise<void> {
    const { rowCount } = await this.options.pool.query(
      `UPDATE strategy_runs SET progress = $2 WHERE run_id = $1 AND status = 'IN PROGRESS'`, [this.options.runId, value]);
    if (rowCount === 0) throw new RunNoLongerInProgress(`run ${this.options.runId} is no longer IN PROGRESS`);
    if (value !== this.written || this.writtenAt === Number.NEGATIVE_INFINITY) this.options.onProgress?.(value);
    this.written = value;
    this.writtenAt = this.options.now();
  }
}
