// The manual clock's two ways of advancing (feeds/scheduler.ts): `always` lets pending work run
// (turns of the event loop) before the time moves, `when-waking` (a live run's market clock) only
// sets the time when nobody sleeps until then, and wakes sleepers in time order like `always` does.
import { describe, expect, it } from 'vitest';
import { ManualScheduler } from '../../src/trading/feeds/scheduler';

describe('ManualScheduler', () => {
  it('always: an advance lets work queued for the next turn of the event loop run first', async () => {
    const clock = new ManualScheduler(1_000);
    let ran = false;
    setImmediate(() => { ran = true; });
    await clock.advanceTo(2_000);
    expect(ran).toBe(true);
    expect(clock.now()).toBe(2_000);
  });

  it('when-waking: an advance with no sleeper due only sets the time, without a turn of the event loop', async () => {
    const clock = new ManualScheduler(1_000, { settle: 'when-waking' });
    let ran = false;
    setImmediate(() => { ran = true; });
    await clock.advanceTo(2_000);
    expect(ran).toBe(false);
    expect(clock.now()).toBe(2_000);
    await new Promise((resolve) => setImmediate(resolve));
    expect(ran).toBe(true);
  });

  it('when-waking: sleepers due wake in time order, each at its own time, and one asked for a passed time wakes at once', async () => {
    const clock = new ManualScheduler(1_000, { settle: 'when-waking' });
    const woken: Array<[string, number]> = [];
    void clock.sleepUntil(3_000).then(() => woken.push(['late', clock.now()]));
    void clock.sleepUntil(2_000).then(() => woken.push(['early', clock.now()]));
    void clock.sleepUntil(9_000).then(() => woken.push(['after', clock.now()]));
    await clock.advanceTo(5_000);
    expect(woken).toEqual([['early', 2_000], ['late', 3_000]]);
    expect(clock.now()).toBe(5_000);
    await clock.sleepUntil(4_000);
    expect(clock.waiting).toBe(1);
  });

  it('advanceIfIdle moves a when-waking clock at once only when nobody sleeps until then; an always clock never', async () => {
    const live = new ManualScheduler(1_000, { settle: 'when-waking' });
    expect(live.advanceIfIdle(2_000)).toBe(true);
    expect(live.now()).toBe(2_000);
    void live.sleepUntil(2_500);
    expect(live.advanceIfIdle(3_000)).toBe(false);
    expect(live.now()).toBe(2_000);
    expect(live.advanceIfIdle(1_500)).toBe(false);
    const replay = new ManualScheduler(1_000);
    expect(replay.advanceIfIdle(2_000)).toBe(false);
    expect(replay.now()).toBe(1_000);
  });
});
