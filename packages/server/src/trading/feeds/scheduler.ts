// The feeds' clock: what time it is and "wake me at T". The replay feed and the simulated market
// take it as a port, so production runs on the wall clock with timers and tests run on a manual
// clock that moves only when the test says, instantly, with the same code.
//
// ManualScheduler's contract for tests: `advanceTo(T)` wakes every sleeper due at or before T in
// time order, setting `now()` to each one's time before waking it, and lets the woken code run
// (its promise callbacks and one turn of the event loop) before the next; then `now()` is T.
// Work that awaits real I/O (a database write) is not waited for: await it yourself (the
// simulated market's `flushed()`).
import { setImmediate as nextTurn } from 'node:timers/promises';

/** Time for the feeds. */
export interface Scheduler {
  /** Epoch ms. */
  now(): number;
  /** Resolves at `time` (epoch ms), at once when it has passed; early (resolves) when `signal` aborts. */
  sleepUntil(time: number, signal?: AbortSignal): Promise<void>;
}

/** Node's timers are 32-bit: a longer wait is taken in steps. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/** The wall clock. */
export class WallScheduler implements Scheduler {
  now(): number {
    return Date.now();
  }

  async sleepUntil(time: number, signal?: AbortSignal): Promise<void> {
    while (!signal?.aborted) {
      const wait = time - Date.now();
      if (wait <= 0) return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, Math.min(wait, LONGEST_TIMER_MS));
        function done(): void {
          clearTimeout(timer);
          signal?.removeEventListener('abort', done);
          resolve();
        }
        signal?.addEventListener('abort', done, { once: true });
      });
    }
  }
}

interface Sleeper {
  readonly time: number;
  readonly order: number;
  readonly wake: () => void;
}

export interface ManualSchedulerOptions {
  /**
   * `always` (the contract above): every advance first lets pending work run, a turn of the event
   * loop or more. `when-waking`: an advance with no sleeper due only sets the time; a live run's
   * market clock, moved at every tick of a hundred runs at once, where those turns queue each
   * run's database answers behind every other run's work. A sleeper registered for a time already
   * passed wakes at once either way.
   */
  readonly settle?: 'always' | 'when-waking';
}

/** A clock that moves only when told; for tests, for replays driven by hand, and as a run's market clock. */
export class ManualScheduler implements Scheduler {
  private time: number;
  private sleepers: Sleeper[] = [];
  private order = 0;
  private readonly settleAlways: boolean;

  constructor(startEpochMs: number, options: ManualSchedulerOptions = {}) {
    this.time = startEpochMs;
    this.settleAlways = (options.settle ?? 'always') === 'always';
  }

  now(): number {
    return this.time;
  }

  sleepUntil(time: number, signal?: AbortSignal): Promise<void> {
    if (time <= this.time || signal?.aborted) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const sleeper: Sleeper = {
        time, order: this.order++,
        wake: () => {
          signal?.removeEventListener('abort', abort);
          resolve();
        },
      };
      const abort = (): void => {
        this.sleepers = this.sleepers.filter((other) => other !== sleeper);
        resolve();
      };
      signal?.addEventListener('abort', abort, { once: true });
      this.sleepers.push(sleeper);
    });
  }

  /** Sleepers waiting now. */
  get waiting(): number {
    return this.sleepers.length;
  }

  /** The earliest time a sleeper waits for. */
  nextWake(): number | undefined {
    return this.sleepers.reduce<number | undefined>((earliest, sleeper) => (earliest === undefined || sleeper.time < earliest ? sleeper.time : earliest), undefined);
  }

  /**
   * `when-waking`: moves the clock to `time` at once and returns true when no sleeper is due by
   * then (what `advanceTo` would do, without a wait); false otherwise, and always with `always`:
   * then `advanceTo`.
   */
  advanceIfIdle(time: number): boolean {
    if (this.settleAlways || time < this.time || this.earliestDue(time) !== undefined) return false;
    this.time = time;
    return true;
  }

  /** Moves the clock to `time`, waking sleepers in time order on the way. */
  async advanceTo(time: number): Promise<void> {
    if (time < this.time) throw new RangeError(`a manual clock only moves forward: now ${this.time}, asked for ${time}`);
    if (!this.settleAlways && this.earliestDue(time) === undefined) {
      this.time = time;
      return;
    }
    await settle();
    for (;;) {
      const next = this.earliestDue(time);
      if (next === undefined) break;
      this.sleepers = this.sleepers.filter((sleeper) => sleeper !== next);
      this.time = next.time;
      next.wake();
      await settle();
    }
    this.time = time;
    await settle();
  }

  /** `advanceTo(now + ms)`. */
  advanceBy(ms: number): Promise<void> {
    return this.advanceTo(this.time + ms);
  }

  private earliestDue(limit: number): Sleeper | undefined {
    let best: Sleeper | undefined;
    for (const sleeper of this.sleepers) {
      if (sleeper.time > limit) continue;
      if (best === undefined || sleeper.time < best.time || (sleeper.time === best.time && sleeper.order < best.order)) best = sleeper;
    }
    return best;
  }
}

/** Lets woken code run: its promise callbacks, then a turn of the event loop. */
async function settle(): Promise<void> {
  await nextTurn();
  await nextTurn();
}
