// A feed for one consumer of a source that runs on its own time (the simulated market, a broker's
// live ticker): the source pushes ticks whenever they happen and never waits; each consumer has
// its own queue, drained in order, the consumer's handler awaited before the next tick. A slow
// consumer therefore delays only itself; past MAX_QUEUED waiting ticks it has fallen too far
// behind to trade on them, and its feed ends as failed rather than hold memory without bound.
import { err, ok } from '@vyuha/core';
import type { Result } from '@vyuha/core';
import { subscriptionIssues } from '@vyuha/engine';
import type { FeedEnd, FeedIssue, FeedKind, FeedPort, FeedTick, TickSink } from '@vyuha/engine';

/** Ticks one consumer may have waiting: about four and a half hours of the simulated market's six indices at one a second. */
export const MAX_QUEUED = 100_000;

/**
 * One consumer's feed; the source calls `push` and `end`.
 * @example const feed = new QueuedFeed('simulated', new Set([1, 2])); feed.subscribe([1]); feed.push(tick)
 */
export class QueuedFeed implements FeedPort {
  private readonly subscribed = new Set<number>();
  private queue: FeedTick[] = [];
  private head = 0;
  private ending: FeedEnd | undefined;
  private wake: (() => void) | undefined;
  private running = false;

  constructor(readonly kind: FeedKind, private readonly known: () => ReadonlySet<number>, private readonly onClose?: () => void) {}

  subscribe(instrumentIds: readonly number[]): Result<void, FeedIssue[]> {
    const issues = subscriptionIssues(instrumentIds, this.known());
    if (issues.length > 0) return err(issues);
    for (const id of instrumentIds) this.subscribed.add(id);
    return ok(undefined);
  }

  unsubscribe(instrumentIds: readonly number[]): void {
    for (const id of instrumentIds) this.subscribed.delete(id);
  }

  /** True when this feed wants ticks of the instrument. */
  wants(instrumentId: number): boolean {
    return this.ending === undefined && this.subscribed.has(instrumentId);
  }

  /** The source's tick; ignored unless subscribed. */
  push(tick: FeedTick): void {
    if (!this.wants(tick.instrumentId)) return;
    if (this.queue.length - this.head >= MAX_QUEUED) {
      this.end({ reason: 'failed', message: `the consumer fell ${MAX_QUEUED} ticks behind` });
      return;
    }
    this.queue.push(tick);
    this.wake?.();
  }

  /** Ends the feed after the tick being delivered; queued ticks are dropped. */
  end(end: FeedEnd): void {
    if (this.ending !== undefined) return;
    this.ending = end;
    this.queue = [];
    this.head = 0;
    this.wake?.();
  }

  stop(): void {
    this.end({ reason: 'stopped' });
  }

  async run(sink: TickSink): Promise<FeedEnd> {
    if (this.running) return { reason: 'failed', message: 'a feed runs once' };
    this.running = true;
    try {
      for (;;) {
        if (this.ending !== undefined) return this.ending;
        if (this.head === this.queue.length) {
          await new Promise<void>((resolve) => { this.wake = resolve; });
          this.wake = undefined;
          continue;
        }
        const tick = this.queue[this.head] as FeedTick;
        this.head += 1;
        if (this.head > 4_096 && this.head * 2 > this.queue.length) {
          this.queue = this.queue.slice(this.head);
          this.head = 0;
        }
        if (!this.subscribed.has(tick.instrumentId)) continue;
        try {
          await sink.onTick(tick);
        } catch (error) {
          this.end({ reason: 'failed', message: `the consumer failed: ${(error as Error).message}` });
        }
      }
    } finally {
      this.onClose?.();
    }
  }
}
