import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { orderRateKey, OrderRateQueue } from './order-rate';
import type { Departure } from './order-rate';

const T0 = 1_767_000_000_000;
const NFO = orderRateKey({ userId: 'u1', segment: 'NFO' });
const NSE = orderRateKey({ userId: 'u1', segment: 'NSE' });

function queueOf(count: number, key: string, queue = new OrderRateQueue<number>()): OrderRateQueue<number> {
  for (let item = 0; item < count; item += 1) queue.enqueue({ key, item, atMs: T0 });
  return queue;
}

describe('the order-rate queue', () => {
  it('lets 10 orders leave at once and holds the 11th for a second, visibly', () => {
    const queue = queueOf(12, NFO);
    expect(queue.releaseDue(T0).map((departure) => departure.item)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(queue.waiting(NFO).map(({ item, position, expectedDepartureMs }) => ({ item, position, expectedDepartureMs }))).toEqual([
      { item: 10, position: 0, expectedDepartureMs: T0 + 1_000 },
      { item: 11, position: 1, expectedDepartureMs: T0 + 1_000 },
    ]);
    expect(queue.nextDueMs()).toBe(T0 + 1_000);
    expect(queue.releaseDue(T0 + 999)).toEqual([]);
    expect(queue.releaseDue(T0 + 1_000).map((departure) => departure.item)).toEqual([10, 11]);
    expect(queue.size).toBe(0);
  });

  it('counts each user and segment on its own', () => {
    const queue = queueOf(10, NFO);
    queueOf(3, NSE, queue);
    expect(queue.releaseDue(T0)).toHaveLength(13);
  });

  it('takes withdrawn orders out of the queue and keeps the rest in order', () => {
    const queue = queueOf(15, NFO);
    queue.releaseDue(T0);
    expect(queue.withdraw(NFO, (item) => item % 2 === 0)).toEqual([10, 12, 14]);
    expect(queue.waiting(NFO).map(({ item }) => item)).toEqual([11, 13]);
  });

  it('never lets a clock that steps back release orders early', () => {
    const queue = queueOf(11, NFO);
    queue.releaseDue(T0 + 500);
    expect(queue.releaseDue(T0 + 100)).toEqual([]);
    expect(queue.releaseDue(T0 + 1_499)).toEqual([]);
    expect(queue.releaseDue(T0 + 1_500)).toHaveLength(1);
  });

  it('never names a due time before the latest time it has seen (found by the property below, seed 735192562)', () => {
    const queue = queueOf(1, NFO);
    queue.releaseDue(T0);
    queueOf(10, NFO, queue);
    expect(queue.releaseDue(T0 + 1)).toHaveLength(9);
    queue.enqueue({ key: NFO, item: 99, atMs: T0 + 1_001 });
    // The oldest departure (T0) aged out at T0 + 1000, but the queue has already seen T0 + 1001.
    expect(queue.nextDueMs()).toBe(T0 + 1_001);
  });

  it('refuses a bad key or time by name and queues nothing', () => {
    const queue = new OrderRateQueue<number>();
    expect(queue.enqueue({ key: '', item: 1, atMs: T0 })).toMatchObject({ ok: false });
    const badTime = queue.enqueue({ key: NFO, item: 1, atMs: Number.NaN });
    expect(badTime.ok ? '' : badTime.error).toContain('atMs');
    expect(queue.size).toBe(0);
  });

  it('in any schedule: at most 10 per second per key, first in first out, nothing lost, no needless wait', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('enqueue' as const), key: fc.constantFrom(NFO, NSE), count: fc.integer({ min: 1, max: 15 }) }),
      fc.record({ kind: fc.constant('release' as const) }),
      fc.record({ kind: fc.constant('wait' as const), ms: fc.integer({ min: 0, max: 1_500 }) }),
    );
    fc.assert(fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
      const queue = new OrderRateQueue<{ key: string; serial: number }>();
      const departures: Departure<{ key: string; serial: number }>[] = [];
      const queued = new Map<string, number>();
      let now = T0;
      const release = (): void => {
        departures.push(...queue.releaseDue(now));
        // Work-conserving: a key still waiting has a full window behind it.
        for (const key of [NFO, NSE]) {
          if (queue.waiting(key).length === 0) continue;
          const recent = departures.filter((departure) => departure.key === key && departure.departedAtMs > now - 1_000);
          expect(recent).toHaveLength(10);
        }
      };
      for (const step of ops) {
        if (step.kind === 'wait') now += step.ms;
        else if (step.kind === 'release') release();
        else {
          for (let index = 0; index < step.count; index += 1) {
            const serial = queued.get(step.key) ?? 0;
            queued.set(step.key, serial + 1);
            queue.enqueue({ key: step.key, item: { key: step.key, serial }, atMs: now });
          }
        }
      }
      // Drained on time with nothing new queued, each waiting order leaves when it was expected to.
      const expected = new Map([NFO, NSE].flatMap((key) => queue.waiting(key).map((entry) => [entry.item, entry.expectedDepartureMs] as const)));
      while (queue.size > 0) {
        now = queue.nextDueMs() ?? now;
        const before = departures.length;
        release();
        for (const departure of departures.slice(before)) expect(departure.departedAtMs).toBe(expected.get(departure.item));
      }
      for (const key of [NFO, NSE]) {
        const mine = departures.filter((departure) => departure.key === key);
        expect(mine.map((departure) => departure.item.serial)).toEqual(Array.from({ length: queued.get(key) ?? 0 }, (_, serial) => serial));
        for (let index = 10; index < mine.length; index += 1) {
          expect(mine[index]!.departedAtMs - mine[index - 10]!.departedAtMs).toBeGreaterThanOrEqual(1_000);
        }
        for (const departure of mine) expect(departure.departedAtMs).toBeGreaterThanOrEqual(departure.queuedAtMs);
      }
    }), { numRuns: 300 });
  }, 30_000);
});
