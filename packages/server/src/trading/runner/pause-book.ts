// When a strategy was paused, in market time: what its paper run (paper-run.ts, legs-paper-run.ts)
// keeps so that entries stop from the next bar's open, and so that a run resumed or taken over
// elsewhere pauses at the same bars (the runner stores the intervals on the run: strategy-runners.ts).

/** A stretch of market time in which the strategy took no entries. */
export interface PauseInterval {
  readonly fromMs: number;
  readonly toMs: number | null;
}

export class PauseBook {
  private readonly pauses: PauseInterval[];

  constructor(pauses: readonly PauseInterval[] = []) {
    this.pauses = [...pauses];
  }

  /**
   * Pauses (true) or resumes (false) at market time `at`. Returns `at` when that changed
   * something (to record), or undefined.
   * @example book.set(true, 1_700_000_000_000) // 1700000000000; book.set(true, later) // undefined
   */
  set(paused: boolean, at: number): number | undefined {
    const last = this.pauses.at(-1);
    const open = last !== undefined && last.toMs === null;
    if (paused === open) return undefined;
    if (paused) this.pauses.push({ fromMs: at, toMs: null });
    else this.pauses[this.pauses.length - 1] = { fromMs: (last as PauseInterval).fromMs, toMs: at };
    return at;
  }

  /** The intervals so far, as the constructor takes them. */
  get intervals(): readonly PauseInterval[] {
    return this.pauses;
  }

  /** True when a bar starting at `barStart` falls in a pause. */
  pausedAt(barStart: number): boolean {
    return this.pauses.some((pause) => barStart >= pause.fromMs && (pause.toMs === null || barStart < pause.toMs));
  }
}
