// MANUAL mode in the kernel: a signal that would change the position is raised to the gate, never
// traded by itself; the trader acts on what the gate says was confirmed by a bar's close, and
// stops and the square-off still trade on their own.
import { describe, expect, it } from 'vitest';
import type { Paise } from '@vyuha/core';
import { SIGNAL_BUY, SIGNAL_EXIT, SIGNAL_NONE, SIGNAL_SELL } from '../algorithm/program';
import type { BarSeries, PositionContext, Signal, SignalProgram } from '../algorithm/program';
import { runBacktest } from '../backtest/run-backtest';
import { ConfirmedSignals, wouldAct } from './confirmed-signals';
import type { SignalGate } from './confirmed-signals';

const MINUTE = 60_000;
/** 2024-01-03 09:15 IST. */
const OPEN = Date.UTC(2024, 0, 3, 3, 45);

function bars(closes: readonly number[]): BarSeries {
  const length = closes.length;
  const time = Float64Array.from(closes, (_, index) => OPEN + index * 5 * MINUTE);
  const close = Float64Array.from(closes);
  const open = Float64Array.from(closes, (value, index) => (index === 0 ? value : closes[index - 1] as number));
  const high = Float64Array.from(closes, (value, index) => Math.max(value, open[index] as number) + 1);
  const low = Float64Array.from(closes, (value, index) => Math.min(value, open[index] as number) - 1);
  return { length, time, open, high, low, close, volume: new Float64Array(length).fill(1), oi: new Float64Array(length).fill(Number.NaN) };
}

/** Buys at bars 2 and 3, exits at bar 6, nothing else. */
const scripted: SignalProgram = {
  warmup: 0,
  onBar: (index: number, _position: PositionContext): Signal => (index === 2 || index === 3 ? SIGNAL_BUY : index === 6 ? SIGNAL_EXIT : SIGNAL_NONE),
};

class TestGate implements SignalGate {
  readonly raised: Array<[number, Signal]> = [];
  constructor(readonly signalsFrom: number, private readonly confirmations: ReadonlyMap<number, Signal>, readonly direction: SignalGate['direction'] = 'both') {}
  raise(index: number, signal: Signal): void {
    this.raised.push([index, signal]);
  }
  confirmedAt(index: number): Signal {
    return this.confirmations.get(index) ?? SIGNAL_NONE;
  }
}

const CONFIG = { type: 'intraday' as const, sizing: { kind: 'quantity' as const, quantity: 10 }, capital: 10_000_000 as Paise };

describe('a MANUAL strategy\'s kernel', () => {
  it('raises the signals that would trade, and trades only what was confirmed, at the next open', () => {
    const series = bars([100, 101, 102, 103, 104, 105, 106, 107, 108, 109]);
    const gate = new TestGate(1, new Map([[4, SIGNAL_BUY], [7, SIGNAL_EXIT]]));
    const result = runBacktest({ series, program: new ConfirmedSignals(scripted, gate), config: CONFIG });
    // Bars 2 and 3 would buy (flat); bar 6 would exit the long the confirmation at bar 4 opened at bar 5.
    expect(gate.raised).toEqual([[2, SIGNAL_BUY], [3, SIGNAL_BUY], [6, SIGNAL_EXIT]]);
    expect(result.fills.map((fill) => [fill.index, fill.side, fill.reason])).toEqual([[5, 'buy', 'entry'], [8, 'sell', 'signal']]);
  });

  it('never trades an unconfirmed signal, and closes a confirmed entry at the end of the data by itself', () => {
    const series = bars([100, 101, 102, 103, 104, 105, 106, 107, 108, 109]);
    const none = new TestGate(0, new Map());
    expect(runBacktest({ series, program: new ConfirmedSignals(scripted, none), config: CONFIG }).fills).toEqual([]);
    const held = new TestGate(0, new Map([[2, SIGNAL_BUY]]));
    const fills = runBacktest({ series, program: new ConfirmedSignals({ ...scripted, onBar: (index) => (index === 2 ? SIGNAL_BUY : SIGNAL_NONE) }, held), config: CONFIG }).fills;
    expect(fills.map((fill) => [fill.index, fill.reason])).toEqual([[3, 'entry'], [9, 'end-of-data']]);
  });

  it('raises only what the trader would act on', () => {
    expect(wouldAct(SIGNAL_BUY, 1, 'both')).toBe(false);
    expect(wouldAct(SIGNAL_BUY, -1, 'long-only')).toBe(true);
    expect(wouldAct(SIGNAL_SELL, 0, 'long-only')).toBe(false);
    expect(wouldAct(SIGNAL_SELL, 0, 'both')).toBe(true);
    expect(wouldAct(SIGNAL_EXIT, 0, 'both')).toBe(false);
    expect(wouldAct(SIGNAL_NONE, 1, 'both')).toBe(false);
  });
});
