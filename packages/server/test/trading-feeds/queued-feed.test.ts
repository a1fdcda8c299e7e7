// A consumer's queued feed (the simulated market's, later the broker ticker's): the source pushes
// without waiting; the consumer gets its subscribed ticks in order, one at a time, each handler
// awaited; a consumer that falls MAX_QUEUED ticks behind is ended as failed; stop ends it.
import type { FeedTick } from '@vyuha/engine';
import { describe, expect, it } from 'vitest';
import { MAX_QUEUED, QueuedFeed } from '../../src/trading/feeds/queued-feed';

const tick = (instrumentId: number, time: number): FeedTick => ({ instrumentId, time, price: 100 + time, volume: 0, synthetic: true });
const known = () => new Set([1, 2]);

describe('QueuedFeed', () => {
  it('delivers subscribed ticks in order, one handler at a time, while the source keeps pushing', async () => {
    const feed = new QueuedFeed('simulated', known);
    expect(feed.subscribe([1])).toEqual({ ok: true, value: undefined });
    const seen: number[] = [];
    let busy = false;
    let overlapped = false;
    const running = feed.run({
      async onTick(received) {
        if (busy) overlapped = true;
        busy = true;
        await new Promise((resolve) => setTimeout(resolve, 1));
        seen.push(received.time);
        busy = false;
      },
    });
    for (let time = 0; time < 20; time += 1) feed.push(tick(time % 2 === 0 ? 1 : 2, time));
    while (seen.length < 10) await new Promise((resolve) => setTimeout(resolve, 2));
    feed.stop();
    expect(await running).toEqual({ reason: 'stopped' });
    expect(seen).toEqual([0, 2, 4, 6, 8, 10, 12, 14, 16, 18]);
    expect(overlapped).toBe(false);
  });

  it(`ends as failed when its consumer is ${MAX_QUEUED} ticks behind, and refuses an unknown instrument`, async () => {
    const feed = new QueuedFeed('simulated', known);
    expect(feed.subscribe([3])).toEqual({ ok: false, error: [{ field: 'instrumentIds[0]', message: 'instrument 3 is not served by this feed' }] });
    feed.subscribe([2]);
    for (let time = 0; time <= MAX_QUEUED; time += 1) feed.push(tick(2, time));
    expect(await feed.run({ onTick: () => undefined })).toEqual({ reason: 'failed', message: `the consumer fell ${MAX_QUEUED} ticks behind` });
  });
});
