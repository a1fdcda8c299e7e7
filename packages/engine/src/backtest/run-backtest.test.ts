import fc from 'fast-check';
import { parseIstDateTime } from '@vyuha/core';
import { describe, expect, it } from 'vitest';
import { SIGNAL_BUY, SIGNAL_EXIT, SIGNAL_NONE, SIGNAL_SELL } from '../algorithm/program';
import type { BarSeries, Signal } from '../algorithm/program';
import type { BacktestConfigInput } from './config';
import { BacktestConfigError } from './config';
import { LedgerColumns } from '../kernel/ledger';
import { runBacktest, runBuffers } from './run-backtest';
import { algorithmFromExpressions } from '../algorithm/from-expressions';
import { compileAlgorithm } from '../algorithm/compile';
import { barsFromRows, minuteAfter, scriptedProgram } from './test-support';
import type { BarRow } from './test-support';

const SIGNALS: readonly Signal[] = [SIGNAL_NONE, SIGNAL_BUY, SIGNAL_SELL, SIGNAL_EXIT];

/** A random walk of 1-minute bars over `days` sessions from 14:30, so the intraday rules come into play. */
function walk(steps: readonly number[], days: number): BarSeries {
  const rows: BarRow[] = [];
  let price = 200;
  const perDay = Math.ceil(steps.length / days);
  steps.forEach((step, index) => {
    const open = price;
    price = Math.max(1, Math.round((price + step) * 20) / 20);
    const date = `2024-10-${String(14 + Math.floor(index / perDay)).padStart(2, '0')}`;
    rows.push([`${date} ${minuteAfter('14:30', index % perDay)}`, open, Math.max(open, price) + 0.35, Math.max(0.05, Math.min(open, price) - 0.4), price]);
  });
  return barsFromRows(rows);
}

const scenario = fc.record({
  steps: fc.array(fc.integer({ min: -60, max: 60 }).map((n) => n / 20), { minLength: 5, maxLength: 150 }),
  days: fc.integer({ min: 1, max: 3 }),
  signals: fc.array(fc.constantFrom(...SIGNALS), { minLength: 150, maxLength: 150 }),
  config: fc.record({
    type: fc.constantFrom('intraday' as const, 'swing' as const),
    fill: fc.constantFrom('next-open' as const, 'close' as const),
    direction: fc.constantFrom('long-only' as const, 'short-only' as const, 'both' as const),
    reverse: fc.boolean(),
    sizing: fc.constantFrom({ kind: 'all-in' } as const, { kind: 'percent', percent: 40 } as const, { kind: 'quantity', quantity: 7 } as const),
    slippage: fc.constantFrom({ kind: 'none' } as const, { kind: 'ticks', ticks: 1 } as const, { kind: 'percent', percent: 0.05 } as const),
    charges: fc.constantFrom({ kind: 'none' } as const, { kind: 'schedule', exchange: 'NSE', instrument: 'future' } as const, { kind: 'schedule', exchange: 'NSE', instrument: 'equity-intraday' } as const),
    stopLoss: fc.constantFrom(undefined, { kind: 'percent', percent: 1 } as const),
    trailingStop: fc.constantFrom(undefined, { kind: 'points', points: 1.5 } as const),
    target: fc.constantFrom(undefined, { kind: 'percent', percent: 2 } as const),
  }),
});

function runScenario(input: { steps: readonly number[]; days: number; signals: readonly Signal[]; config: BacktestConfigInput }) {
  const series = walk(input.steps, input.days);
  const program = scriptedProgram(new Map(input.signals.map((signal, index) => [index, signal] as const)));
  return runBacktest({ series, program, config: input.config });
}

describe('runBacktest', () => {
  it('is deterministic: the same inputs give deep-equal results', () => {
    fc.assert(fc.property(scenario, (input) => {
      expect(runScenario(input)).toEqual(runScenario(input));
    }), { numRuns: 60 });
  });

  it('writes the same equity into a reused buffer: every bar overwritten, a buffer too short refused', () => {
    const buffer = new Float64Array(200).fill(Number.NaN);
    fc.assert(fc.property(scenario, (input) => {
      const series = walk(input.steps, input.days);
      const program = (): ReturnType<typeof scriptedProgram> => scriptedProgram(new Map(input.signals.map((signal, index) => [index, signal] as const)));
      const fresh = runBacktest({ series, program: program(), config: input.config });
      // The buffer still holds the previous case's equity (or NaN): none of it may show.
      const reused = runBacktest({ series, program: program(), config: input.config, equityBuffer: buffer });
      expect(reused.equity).toEqual(fresh.equity);
      expect(reused.equity.buffer).toBe(buffer.buffer);
      expect(reused.summary).toEqual(fresh.summary);
      expect(reused.days).toEqual(fresh.days);
    }), { numRuns: 60 });
    const series = walk([1, -1, 2], 1);
    expect(() => runBacktest({ series, program: scriptedProgram(new Map()), equityBuffer: new Float64Array(2) })).toThrow('equity: the buffer holds 2 values, the series 3 bars');
  });

  it('writes into reused ledger columns what new ones hold: nothing of the run before shows, and that run refuses to read after', () => {
    const columns = new LedgerColumns();
    let previous: ReturnType<typeof runBacktest> | undefined;
    let stale = 0;
    fc.assert(fc.property(scenario, (input) => {
      const series = walk(input.steps, input.days);
      const program = (): ReturnType<typeof scriptedProgram> => scriptedProgram(new Map(input.signals.map((signal, index) => [index, signal] as const)));
      const fresh = runBacktest({ series, program: program(), config: input.config });
      // The columns still hold the previous case's rows (often more of them, with charges where this one has none).
      const reused = runBacktest({ series, program: program(), config: input.config, ledgerColumns: columns });
      expect(reused.orders).toEqual(fresh.orders);
      expect(reused.fills).toEqual(fresh.fills);
      expect(reused.trades).toEqual(fresh.trades);
      expect(reused.summary).toEqual(fresh.summary);
      if (previous !== undefined && previous.summary.trades > 0) {
        const earlier = previous;
        expect(() => earlier.trades).toThrow('columns were handed to a later run');
        stale += 1;
      }
      previous = reused;
    }), { numRuns: 80 });
    expect(stale).toBeGreaterThan(5);
  });

  it('writes into reused RunBuffers what new ones hold: ledger rows, equity and its deepest fall, run after run', () => {
    // Compiled rules skip ahead, so the run keeps its equity as runs of bars (the scripted program cannot).
    const compiled = compileAlgorithm(algorithmFromExpressions({ entry: 'crossover(sma(close, 2), sma(close, 5))', exit: 'close < open' }));
    if (!compiled.ok) throw new Error('compile');
    const rules = compiled.value;
    const buffers = runBuffers();
    let kept = 0;
    fc.assert(fc.property(scenario, (input) => {
      const series = walk(input.steps, input.days);
      const fresh = runBacktest({ series, program: rules, config: input.config });
      // The buffers still hold the previous case's rows and runs of bars.
      const reused = runBacktest({ series, program: rules, config: input.config, ...buffers });
      expect(reused.trades).toEqual(fresh.trades);
      expect(reused.fills).toEqual(fresh.fills);
      expect(reused.summary).toEqual(fresh.summary);
      expect(reused.deepestFallFrom(0)).toEqual(fresh.deepestFallFrom(0));
      expect(reused.equity).toEqual(fresh.equity);
      expect(reused.drawdown).toEqual(fresh.drawdown);
      if (buffers.equitySegments.bars === series.length) kept += 1;
    }), { numRuns: 80 });
    // Most cases (those without stops) were kept as runs of bars in the buffers.
    expect(kept).toBeGreaterThan(10);
  });

  it('adds up: trades, days, fills and equity agree to the paisa', () => {
    fc.assert(fc.property(scenario, (input) => {
      const result = runScenario(input);
      const { summary } = result;
      // Everything is closed at the end of the data, so closed trades explain the whole P&L.
      expect(result.trades.reduce((sum, trade) => sum + trade.net, 0)).toBe(summary.netPnl);
      expect(result.days.reduce((sum, day) => sum + day.net, 0)).toBe(summary.netPnl);
      expect(result.fills.reduce((sum, fill) => sum + fill.chargesTotal, 0)).toBe(summary.charges);
      for (const day of result.days) expect(day.gross - day.charges).toBe(day.net);
      expect(result.days.reduce((sum, day) => sum + day.orders, 0)).toBe(result.fills.length);
      for (const fill of result.fills) expect(fill.chargesTotal).toBeGreaterThanOrEqual(0);
      // Fills alternate entry and exit; a position is whole: the exit trades the entry's quantity.
      result.fills.forEach((fill, index) => {
        expect(fill.reason === 'entry').toBe(index % 2 === 0);
        if (index % 2 === 1) expect(fill.quantity).toBe(result.fills[index - 1]?.quantity);
      });
      if (input.config.type === 'intraday') {
        for (const trade of result.trades) expect(new Date(trade.entryTime + 19_800_000).getUTCDate()).toBe(new Date(trade.exitTime - 1 + 19_800_000).getUTCDate());
      }
      for (let index = 0; index < result.drawdown.length; index += 1) expect(result.drawdown[index]).toBeLessThanOrEqual(0);
    }), { numRuns: 80 });
  });

  it('never spends more than it has with all-in sizing and charges', () => {
    fc.assert(fc.property(scenario, (input) => {
      const result = runScenario({ ...input, config: { ...input.config, sizing: { kind: 'all-in' }, direction: 'long-only', slippage: { kind: 'none' } } });
      let cash = result.config.capital as number;
      for (const fill of result.fills) {
        cash += (fill.side === 'buy' ? -1 : 1) * fill.price * fill.quantity - fill.chargesTotal;
        if (fill.side === 'buy') expect(cash).toBeGreaterThanOrEqual(0);
      }
    }), { numRuns: 60 });
  });

  it('reverses only when asked, and keeps to the allowed direction', () => {
    const series = walk([1, 1, -1, -1, 1, 1, 1, -1], 1);
    const signals = new Map<number, Signal>([[0, SIGNAL_BUY], [3, SIGNAL_SELL], [5, SIGNAL_BUY]]);
    const base = { type: 'swing', sizing: { kind: 'quantity', quantity: 1 }, fill: 'close' } as const;
    const directions = (config: BacktestConfigInput) => runBacktest({ series, program: scriptedProgram(signals), config: { ...base, ...config } })
      .trades.map((trade) => [trade.direction, trade.entryIndex, trade.exitIndex]);
    // long-only: SELL just exits the long; the next BUY opens again.
    expect(directions({ direction: 'long-only' })).toEqual([['long', 0, 3], ['long', 5, 7]]);
    // both without reverse: SELL closes the long and waits; BUY from flat opens a long.
    expect(directions({ direction: 'both' })).toEqual([['long', 0, 3], ['long', 5, 7]]);
    // both with reverse: SELL closes and opens a short, BUY covers and opens a long.
    expect(directions({ direction: 'both', reverse: true })).toEqual([['long', 0, 3], ['short', 3, 5], ['long', 5, 7]]);
    // short-only: BUY opens nothing; SELL opens a short that BUY covers.
    expect(directions({ direction: 'short-only' })).toEqual([['short', 3, 5]]);
  });

  it('shows the program its position, entry price and bars since entry, and the day P&L in rupees', () => {
    const series = walk([1, 1, 1, 1], 1);
    const program = scriptedProgram(new Map([[0, SIGNAL_BUY]]));
    runBacktest({ series, program, config: { type: 'swing', sizing: { kind: 'quantity', quantity: 2 } } });
    // bar 1 opens at 201 (the first close): bought 2; closes at 202 -> day P&L 2 x (202 - 201) = Rs 2.
    expect(program.seen.map((p) => [p.position, p.entryPrice, p.barsSinceEntry, p.dayPnl])).toEqual([
      [0, Number.NaN, Number.NaN, 0], [1, 201, 0, 2], [1, 201, 1, 4], [1, 201, 2, 6],
    ]);
  });

  it('stops for the day at the daily max loss, at the bar close that reaches it', () => {
    const series = walk([-1, -1, -1, -1, -1, 1, 1], 1);
    // Long 10 from 199 (bar 1 open); closes 198, 197, 196: day P&L -10, -20, -30 -> limit Rs 25 hit at bar 3's close.
    const program = scriptedProgram(new Map([[0, SIGNAL_BUY], [4, SIGNAL_BUY]]));
    const result = runBacktest({ series, program, config: { type: 'intraday', sizing: { kind: 'quantity', quantity: 10 }, dailyMaxLoss: 2_500 as never } });
    expect(result.trades.map((t) => [t.exitIndex, t.exitPrice, t.exitReason])).toEqual([[3, 19_600, 'daily-limit']]);
  });

  it('times a fill at a close at the bar\'s end, never after 15:30: a bar that would end later closes at 15:30', () => {
    // 10-minute bars: 15:25 would end at 15:35.
    const series = barsFromRows([
      ['2024-10-14 15:15', 100, 101, 99, 100], ['2024-10-14 15:25', 100, 101, 99, 100.5],
      ['2024-10-15 09:15', 101, 102, 100, 101], ['2024-10-15 09:25', 101, 102, 100, 101.5],
    ]);
    const program = scriptedProgram(new Map([[1, SIGNAL_BUY], [2, SIGNAL_EXIT]]));
    const result = runBacktest({ series, program, config: { type: 'swing', fill: 'close', sizing: { kind: 'quantity', quantity: 1 } } });
    expect(result.fills.map((fill) => fill.time)).toEqual([parseIstDateTime('2024-10-14 15:30:00'), parseIstDateTime('2024-10-15 09:25:00')]);
    expect(result.orders.map((order) => order.placedTime)).toEqual([parseIstDateTime('2024-10-14 15:30:00'), parseIstDateTime('2024-10-15 09:25:00')]);
  });

  it('refuses an impossible config before reading a bar, naming every bad field', () => {
    const series = walk([1, 1], 1);
    const attempt = () => runBacktest({
      series, program: scriptedProgram(new Map()),
      config: { capital: -5 as never, sizing: { kind: 'lots', lots: 2 } as never, fill: 'tomorrow' as never, entryCutoff: '15:10', squareOff: '15:00' },
    });
    expect(attempt).toThrow(BacktestConfigError);
    try {
      attempt();
    } catch (error) {
      expect((error as BacktestConfigError).issues.map((issue) => issue.field)).toEqual(['capital', 'fill', 'sizing.lotSize', 'squareOff']);
      expect((error as Error).message).toContain('squareOff: 15:00 is before the entry cut-off 15:10');
    }
  });
});
