// The matching core: worked examples of the path rule, and the property that the bar form is the
// streaming form fed the bar's tick path one tick at a time (what the paper venue will do with a
// replay of the same candles).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ProtectiveLevels } from '../kernel/protective-levels';
import type { ProtectiveConfig } from '../kernel/protective-levels';
import type { SlippageModel } from '../kernel/slippage';
import { emptyOutcome, MatchingCore } from './matching-core';
import type { MatchOutcome, OrderType, ProtectiveFillKind, ProtectivePair, WorkingOrder } from './matching-core';
import { candleTickPath, tickIsJump, TICKS_PER_CANDLE } from './tick-path';
import type { CandlePrices } from './tick-path';

const TICK = 5;
const BAR = { start: 60_000, end: 120_000 };
const NONE: SlippageModel = { kind: 'none' };

function pairOf(config: Omit<ProtectiveConfig, 'tickSize'>, entry: { direction: number; price: number }): ProtectivePair {
  const levels = new ProtectiveLevels({ ...config, tickSize: TICK });
  levels.open(entry.direction, entry.price);
  return { levels, last: Number.NaN };
}

function protectiveBar(request: { slippage?: SlippageModel; pair: ProtectivePair; candle: CandlePrices; fromTick?: number }): MatchOutcome<ProtectiveFillKind> {
  const out = emptyOutcome<ProtectiveFillKind>();
  new MatchingCore({ slippage: request.slippage ?? NONE, tickSize: TICK }).protectiveBar(request.pair, { candle: request.candle, fromTick: request.fromTick ?? 0, ...BAR }, out);
  return out;
}

const STOP_AND_TARGET = { stopLoss: { kind: 'percent', percent: 2 }, target: { kind: 'percent', percent: 3 } } as const;
const LONG_AT_100 = { direction: 1, price: 10_000 };

describe('a protective pair on a bar: the path decides', () => {
  it('a bar that closed up goes to its low first: the stop fills at its level', () => {
    // Long at 100.00: stop 98.00, target 103.00. Path 100 -> 97 -> 104 -> 101: 97 crosses 98 first.
    const out = protectiveBar({ pair: pairOf(STOP_AND_TARGET, LONG_AT_100), candle: { open: 10_000, high: 10_400, low: 9_700, close: 10_100 } });
    expect(out).toEqual({ kind: 'stop', price: 9_800, tick: 1, time: 75_000 });
  });

  it('a bar that closed down goes to its high first: the target fills at its level', () => {
    // Same range, close 99: path 100 -> 104 -> 97 -> 99, the target 103 is crossed first.
    const out = protectiveBar({ pair: pairOf(STOP_AND_TARGET, LONG_AT_100), candle: { open: 10_000, high: 10_400, low: 9_700, close: 9_900 } });
    expect(out).toEqual({ kind: 'target', price: 10_300, tick: 1, time: 75_000 });
  });

  it('a gap fills at the open: a stop at the worse price (slipped), a target at the better one (not slipped)', () => {
    const slippage: SlippageModel = { kind: 'ticks', ticks: 1 };
    const stop = protectiveBar({ slippage, pair: pairOf(STOP_AND_TARGET, LONG_AT_100), candle: { open: 9_600, high: 9_700, low: 9_500, close: 9_650 } });
    expect(stop).toEqual({ kind: 'stop', price: 9_595, tick: 0, time: 60_000 });
    const target = protectiveBar({ slippage, pair: pairOf(STOP_AND_TARGET, LONG_AT_100), candle: { open: 10_400, high: 10_500, low: 10_350, close: 10_400 } });
    expect(target).toEqual({ kind: 'target', price: 10_400, tick: 0, time: 60_000 });
  });

  it('a trailing stop moved by one tick is hit by a later tick of the same bar', () => {
    // Long at 100, trail 2 points: 98. Path 100 -> 99.50 -> 105 -> 102.50 (closed up): the high
    // moves the trail to 103, and the close 102.50 crosses it: filled at 103.
    const pair = pairOf({ trailingStop: { kind: 'points', points: 2 } }, LONG_AT_100);
    const out = protectiveBar({ pair, candle: { open: 10_000, high: 10_500, low: 9_950, close: 10_250 } });
    expect(out).toEqual({ kind: 'trailing', price: 10_300, tick: 3, time: 105_000 });
  });

  it('a short is stopped above and its target is below', () => {
    // Short at 100: stop 102, target 97. Closed down: path 100 -> 102.50 -> 96 -> 99: the stop first.
    const out = protectiveBar({ pair: pairOf(STOP_AND_TARGET, { direction: -1, price: 10_000 }), candle: { open: 10_000, high: 10_250, low: 9_600, close: 9_900 } });
    expect(out).toMatchObject({ kind: 'stop', price: 10_200, tick: 1 });
  });

  it('watches only the ticks after an entry at the open (fromTick 1): the segment from the open still counts', () => {
    // Armed at the open 100 (tick 0); closed up, so the low 97 is tick 1 and crosses the stop 98 on the way down.
    const out = protectiveBar({ pair: pairOf(STOP_AND_TARGET, LONG_AT_100), candle: { open: 10_000, high: 10_050, low: 9_700, close: 10_010 }, fromTick: 1 });
    expect(out).toMatchObject({ kind: 'stop', price: 9_800, tick: 1 });
  });

  it('answers at once when nothing is set, and leaves the outcome cleared', () => {
    const pair = pairOf({}, LONG_AT_100);
    expect(pair.levels.active).toBe(false);
    expect(protectiveBar({ pair, candle: { open: 1, high: 1, low: 1, close: 1 } })).toEqual({ kind: 'none', price: Number.NaN, tick: -1, time: Number.NaN });
  });
});

describe('working orders on a bar', () => {
  const core = new MatchingCore({ slippage: { kind: 'ticks', ticks: 2 }, tickSize: TICK });
  const match = (order: Omit<WorkingOrder, 'last'>, candle: CandlePrices): MatchOutcome<OrderType> => {
    const out = emptyOutcome<OrderType>();
    core.orderBar({ ...order, last: Number.NaN }, { candle, fromTick: 0, ...BAR }, out);
    return out;
  };
  const UP_BAR = { open: 10_000, high: 10_400, low: 9_700, close: 10_100 };

  it('fills a market order at the first tick, slipped', () => {
    expect(match({ type: 'market', side: 'buy', level: Number.NaN }, UP_BAR)).toEqual({ kind: 'market', price: 10_010, tick: 0, time: 60_000 });
  });

  it('fills a limit at its level when the path crosses it, at the open when the open is already better', () => {
    expect(match({ type: 'limit', side: 'buy', level: 9_800 }, UP_BAR)).toMatchObject({ kind: 'limit', price: 9_800, tick: 1 });
    expect(match({ type: 'limit', side: 'sell', level: 9_800 }, UP_BAR)).toMatchObject({ kind: 'limit', price: 10_000, tick: 0 });
    expect(match({ type: 'limit', side: 'buy', level: 9_600 }, UP_BAR).kind).toBe('none');
  });

  it('fills a stop at its level (slipped) when crossed, at the open when it gapped through', () => {
    expect(match({ type: 'stop', side: 'buy', level: 10_200 }, UP_BAR)).toMatchObject({ kind: 'stop', price: 10_210, tick: 2 });
    expect(match({ type: 'stop', side: 'sell', level: 10_200 }, UP_BAR)).toMatchObject({ kind: 'stop', price: 9_990, tick: 0 });
  });
});

// ---- the bar form is the streaming form fed the path ----

const candles = fc.tuple(fc.integer({ min: 1_800, max: 2_200 }), fc.integer({ min: 1_800, max: 2_200 }), fc.nat(60), fc.nat(60))
  .map(([open, close, up, down]): CandlePrices => ({
    open: open * TICK, close: close * TICK, high: (Math.max(open, close) + up) * TICK, low: (Math.min(open, close) - down) * TICK,
  }));
const distances = fc.option(fc.oneof(
  fc.record({ kind: fc.constant('percent' as const), percent: fc.double({ min: 0.05, max: 5, noNaN: true }) }),
  fc.record({ kind: fc.constant('points' as const), points: fc.integer({ min: 1, max: 30 }) }),
), { nil: undefined });
const slippages = fc.oneof(
  fc.constant<SlippageModel>({ kind: 'none' }),
  fc.integer({ min: 1, max: 3 }).map((ticks): SlippageModel => ({ kind: 'ticks', ticks })),
  fc.double({ min: 0.01, max: 0.5, noNaN: true }).map((percent): SlippageModel => ({ kind: 'percent', percent })),
);

/** Feeds path[fromTick..3] one tick at a time through the streaming form; the first fill, or none. */
function streamPath<Kind extends string>(request: { candle: CandlePrices; fromTick: number; step: (tick: { price: number; time: number; jump: boolean; index: number }, out: MatchOutcome<Kind>) => boolean }): MatchOutcome<Kind> {
  const path = new Float64Array(TICKS_PER_CANDLE);
  candleTickPath(request.candle, path);
  const out = emptyOutcome<Kind>();
  const tick = { price: 0, time: 0, jump: false, index: 0 };
  for (let index = request.fromTick; index < TICKS_PER_CANDLE; index += 1) {
    tick.price = path[index] as number;
    tick.time = BAR.start + Math.floor((index * (BAR.end - BAR.start)) / TICKS_PER_CANDLE);
    tick.jump = tickIsJump(index);
    tick.index = index;
    if (request.step(tick, out)) break;
  }
  return out;
}

describe('the bar form equals the tick stream (property)', () => {
  it('for a protective pair: same fill, price, tick and time, and the same trailing stop after', () => {
    const settings = fc.record({
      candle: candles, slippage: slippages, direction: fc.constantFrom(1, -1), entry: fc.integer({ min: 1_900, max: 2_100 }),
      stopLoss: distances, target: distances, trailingStop: distances, fromTick: fc.integer({ min: 0, max: 3 }), bars: fc.integer({ min: 1, max: 3 }),
    });
    fc.assert(fc.property(settings, fc.array(candles, { minLength: 2, maxLength: 2 }), (setting, more) => {
      const config = {
        ...(setting.stopLoss === undefined ? {} : { stopLoss: setting.stopLoss }),
        ...(setting.target === undefined ? {} : { target: setting.target }),
        ...(setting.trailingStop === undefined ? {} : { trailingStop: setting.trailingStop }),
      };
      const entry = { direction: setting.direction, price: setting.entry * TICK };
      const byBar = pairOf(config, entry);
      const byTick = pairOf(config, entry);
      const core = new MatchingCore({ slippage: setting.slippage, tickSize: TICK });
      const bars = [setting.candle, ...more].slice(0, setting.bars);
      for (const [at, candle] of bars.entries()) {
        const fromTick = at === 0 ? setting.fromTick : 0;
        const barOut = emptyOutcome<ProtectiveFillKind>();
        const filled = core.protectiveBar(byBar, { candle, fromTick, ...BAR }, barOut);
        // Armed after tick fromTick - 1: the stream knows the price it was armed at.
        const path = new Float64Array(TICKS_PER_CANDLE);
        candleTickPath(candle, path);
        if (fromTick > 0) byTick.last = path[fromTick - 1] as number;
        const tickOut = streamPath<ProtectiveFillKind>({ candle, fromTick, step: (tick, out) => core.protectiveTick(byTick, tick, out) });
        expect(tickOut).toEqual(barOut);
        expect(byTick.levels.snapshot()).toEqual(byBar.levels.snapshot());
        if (filled) break;
      }
    }));
  });

  it('for a working order: same fill, price, tick and time', () => {
    const orders = fc.record({
      type: fc.constantFrom<OrderType>('market', 'limit', 'stop'), side: fc.constantFrom('buy' as const, 'sell' as const), level: fc.integer({ min: 1_750, max: 2_250 }),
    });
    fc.assert(fc.property(fc.record({ order: orders, candle: candles, slippage: slippages, fromTick: fc.integer({ min: 0, max: 3 }) }), ({ order, candle, slippage, fromTick }) => {
      const core = new MatchingCore({ slippage, tickSize: TICK });
      const barOut = emptyOutcome<OrderType>();
      const path = new Float64Array(TICKS_PER_CANDLE);
      candleTickPath(candle, path);
      core.orderBar({ ...order, level: order.level * TICK, last: Number.NaN }, { candle, fromTick, ...BAR }, barOut);
      const streamed: WorkingOrder = { ...order, level: order.level * TICK, last: fromTick > 0 ? (path[fromTick - 1] as number) : Number.NaN };
      expect(streamPath<OrderType>({ candle, fromTick, step: (tick, out) => core.orderTick(streamed, tick, out) })).toEqual(barOut);
    }));
  });

  it('never fills a limit worse than its level, nor a stop (before slippage) better than its level', () => {
    fc.assert(fc.property(candles, fc.constantFrom('buy' as const, 'sell' as const), fc.integer({ min: 1_750, max: 2_250 }), (candle, side, level) => {
      const core = new MatchingCore({ slippage: NONE, tickSize: TICK });
      const sign = side === 'buy' ? 1 : -1;
      for (const type of ['limit', 'stop'] as const) {
        const out = emptyOutcome<OrderType>();
        if (!core.orderBar({ type, side, level: level * TICK, last: Number.NaN }, { candle, fromTick: 0, ...BAR }, out)) continue;
        const worseBy = sign * (out.price - level * TICK);
        if (type === 'limit') expect(worseBy).toBeLessThanOrEqual(0);
        else expect(worseBy).toBeGreaterThanOrEqual(0);
        expect(out.price).toBeGreaterThanOrEqual(candle.low);
        expect(out.price).toBeLessThanOrEqual(candle.high);
      }
    }));
  });
});
