// Builders for the examples and property tests: bars from readable rows, and scripted programs.
import { parseIstDateTime } from '@vyuha/core';
import { SIGNAL_NONE } from '../algorithm/program';
import type { BarSeries, PositionContext, Signal, SignalProgram } from '../algorithm/program';

/** One bar as a trader writes it: IST `YYYY-MM-DD HH:mm`, then open, high, low, close in rupees. */
export type BarRow = readonly [time: string, open: number, high: number, low: number, close: number];

/** A BarSeries from rows (volume 0, oi unknown). */
export function barsFromRows(rows: readonly BarRow[]): BarSeries {
  const column = (pick: (row: BarRow) => number): Float64Array => Float64Array.from(rows, pick);
  return {
    length: rows.length,
    time: column((row) => parseIstDateTime(`${row[0]}:00`)),
    open: column((row) => row[1]),
    high: column((row) => row[2]),
    low: column((row) => row[3]),
    close: column((row) => row[4]),
    volume: new Float64Array(rows.length),
    oi: new Float64Array(rows.length).fill(Number.NaN),
  };
}

/** A program that emits the given signals at the given bar indices and records what it saw. */
export function scriptedProgram(signals: ReadonlyMap<number, Signal>): SignalProgram & { readonly seen: PositionContext[] } {
  const seen: PositionContext[] = [];
  return {
    warmup: 0,
    seen,
    onBar(index: number, position: PositionContext): Signal {
      seen.push({ ...position });
      return signals.get(index) ?? SIGNAL_NONE;
    },
  };
}

/** `HH:mm` of minute `offset` after `start` (`09:15` + 3 -> `09:18`). */
export function minuteAfter(start: string, offset: number): string {
  const [hours, minutes] = start.split(':').map(Number) as [number, number];
  const total = hours * 60 + minutes + offset;
  return `${String(Math.floor(total / 60)).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}`;
}
