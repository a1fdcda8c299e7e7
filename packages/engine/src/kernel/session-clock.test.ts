// scanBarTimes keeps its answer per time column and length: a second run over the same column
// reads it back, and a longer view of the column (bars appended) is scanned again. sessionDate
// keeps each day's date text: whatever days come in whatever order, it is dateOfEpochDay's.
import { describe, expect, it } from 'vitest';
import type { BarSeries } from '../algorithm/program';
import { dateOfEpochDay } from '@vyuha/core';
import { scanBarTimes, sessionDate } from './session-clock';

const MINUTE = 60_000;
/** 2024-01-03 09:15 IST. */
const OPEN = Date.UTC(2024, 0, 3, 3, 45);

/** `length` bars of the column `time` (only the times matter to the scan). */
function view(time: Float64Array, length: number): BarSeries {
  const empty = new Float64Array(time.length);
  return { length, time, open: empty, high: empty, low: empty, close: empty, volume: empty, oi: empty };
}

describe('scanBarTimes', () => {
  it('gives the same bar length for a column scanned before', () => {
    const time = Float64Array.from({ length: 10 }, (_, index) => OPEN + index * 5 * MINUTE);
    expect(scanBarTimes(view(time, 10))).toBe(5 * MINUTE);
    expect(scanBarTimes(view(time, 10))).toBe(5 * MINUTE);
  });

  it('scans again when the same column holds more bars: a bar out of order after the first scan is refused', () => {
    // Bars 0-5 increase; bar 6 repeats bar 5's time.
    const time = Float64Array.from([0, 1, 2, 3, 4, 5, 5], (step) => OPEN + step * MINUTE);
    expect(scanBarTimes(view(time, 6))).toBe(MINUTE);
    expect(() => scanBarTimes(view(time, 7))).toThrow('series.time[6]: times must increase strictly');
  });

  it('keeps no failed scan: the same bad column is refused every time', () => {
    const time = Float64Array.from([0, 2, 1], (step) => OPEN + step * MINUTE);
    expect(() => scanBarTimes(view(time, 3))).toThrow(RangeError);
    expect(() => scanBarTimes(view(time, 3))).toThrow(RangeError);
  });
});

describe('sessionDate', () => {
  it("is dateOfEpochDay's date for days that share a place in the cache, read in turn and again", () => {
    // 19723 is 2024-01-01; 4096 days later shares its place, and so do 4096 days before.
    const days = [19723, 19723 + 4096, 19723, 19723 - 4096, 19724, 19723 + 4096, -1, 4095, -1];
    expect(days.map(sessionDate)).toEqual(days.map(dateOfEpochDay));
    expect(sessionDate(19723)).toBe('2024-01-01');
    expect(sessionDate(-1)).toBe('1969-12-31');
  });

  it('gives every day of 30 years its own date, twice over', () => {
    const days = Array.from({ length: 11_000 }, (_, k) => 10_000 + k);
    const expected = days.map(dateOfEpochDay);
    expect(days.map(sessionDate)).toEqual(expected);
    expect(days.map(sessionDate)).toEqual(expected);
  });
});
