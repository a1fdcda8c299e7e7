// What a sweep pool's threads are sent of an option-legs candle store and what they keep: each
// store's stored contracts once, then only the contracts loaded since its last job, added to the
// thread's copy (a thread keeps every store's copy for its life); a task's candle source answers
// from the copy as the store would and records the stored contracts it asked for and lacked.
import { describe, expect, it } from 'vitest';
import { candlesByTimeOf, LegCandlesCopy } from '../../src/backtest/leg-candles';
import type { LegCandleColumns } from '../../src/backtest/leg-candles';
import { LegCandleCopies, legsSnapshot, LegsSent } from '../../src/sweep/sweep-legs';
import type { LegCandleStore } from '../../src/sweep/sweep-legs';
import { parseOptionsLegsConfig } from '@vyuha/engine';

const MINUTE = 60_000;
const T0 = Date.UTC(2024, 4, 2, 3, 45);

function columns(premium: number): LegCandleColumns {
  const time = Float64Array.from({ length: 3 }, (_, row) => T0 + row * MINUTE);
  const prices = Int32Array.from({ length: 3 }, (_, row) => premium + row * 10);
  return { length: 3, time, open: prices, high: prices.map((value) => value + 5), low: prices.map((value) => value - 5), close: prices };
}

/** A store as StoredLegCandles is: every stored contract, and those loaded so far (in load order). */
function store(stored: readonly string[]): LegCandleStore & { load(symbol: string, premium: number): void } {
  const loaded = new Map<string, LegCandleColumns>();
  return { storedSymbols: () => [...stored], loadedColumns: () => loaded, load: (symbol, premium) => loaded.set(symbol, columns(premium)) };
}

const trader = { config: parseOptionsLegsConfig({ underlying: 'NIFTY', onBuy: [{ option: 'CE', side: 'buy', strike: { by: 'atm-offset', steps: 0 }, expiry: 'current-weekly', lots: 1 }] }), vix: new Float64Array(3).fill(14), fill: 'next-open' as const };

describe('option-legs candles for the threads', () => {
  it('sends a store\'s stored contracts once and then only what was loaded since; the thread\'s copy keeps all of it', () => {
    const first = store(['A', 'B', 'C']);
    first.load('A', 4_000);
    const sent = new LegsSent();
    const copies = new LegCandleCopies();
    const one = sent.message({ ...trader, candles: first });
    expect(one.stored).toEqual(['A', 'B', 'C']);
    expect(one.added.map(([symbol]) => symbol)).toEqual(['A']);
    const copy = copies.receive(one);
    first.load('B', 5_000);
    const two = sent.message({ ...trader, candles: first });
    expect(two.source).toBe(one.source);
    expect(two.stored).toBeUndefined();
    expect(two.added.map(([symbol]) => symbol)).toEqual(['B']);
    expect(copies.receive(two)).toBe(copy);
    // Nothing new: nothing sent, and the copy still has both.
    expect(sent.message({ ...trader, candles: first }).added).toEqual([]);
    expect(copy.candlesOf('A')).toEqual(candlesByTimeOf(columns(4_000)));
    expect(copy.candlesOf('B')).toEqual(candlesByTimeOf(columns(5_000)));
    expect(copy.candlesOf('C')).toBeUndefined();
    // Another store is another copy, sent whole.
    const second = store(['D']);
    second.load('D', 6_000);
    const other = sent.message({ ...trader, candles: second });
    expect(other.source).not.toBe(one.source);
    expect(other.stored).toEqual(['D']);
    const otherCopy = copies.receive(other);
    expect(otherCopy).not.toBe(copy);
    expect(otherCopy.hasContract('A')).toBe(false);
    expect(copy.hasContract('D')).toBe(false);
  });

  it('answers a task\'s runs as the store would, recording each stored contract asked for and not loaded', () => {
    const whole = store(['A', 'B']);
    whole.load('A', 4_000);
    const copies = new LegCandleCopies();
    const source = new LegCandlesCopy(copies.receive(new LegsSent().message({ ...trader, candles: whole })));
    expect(source.hasContract('A')).toBe(true);
    expect(source.hasContract('Z')).toBe(false);
    expect(source.candleAt('A', 0, T0 + MINUTE)).toEqual({ open: 4_010, high: 4_015, low: 4_005, close: 4_010 });
    expect(source.candleAt('A', 0, T0 + 7 * MINUTE)).toBeUndefined();
    expect(source.candleAt('B', 0, T0)).toBeUndefined();
    expect(source.candleAt('Z', 0, T0)).toBeUndefined();
    expect(source.takeWanted()).toEqual(['B']);
    expect(source.takeWanted()).toEqual([]);
    // A backtest task is sent the whole store at once.
    const snapshot = legsSnapshot(trader, whole);
    expect(snapshot.stored).toEqual(['A', 'B']);
    expect(snapshot.added.map(([symbol]) => symbol)).toEqual(['A']);
  });
});
