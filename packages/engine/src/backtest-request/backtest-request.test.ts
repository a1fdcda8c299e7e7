import { isoDate } from '@vyuha/core';
import type { TradingSession } from '@vyuha/market';
import { describe, expect, it } from 'vitest';
import { formatRequestIssues, MAX_RUNS_PER_REQUEST, overlappingRanges, parseBacktestRequest } from './backtest-request';
import type { BacktestRequest } from './backtest-request';
import { candlesInSession, estimateCandles, estimateRequestCandles } from './estimate-candles';
import { expandBacktestRequest } from './expand-request';
import { canonicalJson, fingerprint } from './fingerprint';

const form = {
  algorithms: ['a1', { id: 'a2' }, { document: { rules: [{ b: 1, a: 2 }] }, name: 'draft' }],
  instrument: 'NIFTY 50',
  dateRanges: [{ from: '2024-04-01', to: '2024-06-30' }, { from: '2024-01-01', to: '2024-03-31' }],
  frequenciesAndInvestments: [{ interval: 5, investment: 100_000 }, { interval: 15, investment: 100_000 }, { investment: 250_000.5 }],
};

function parsed(input: unknown): BacktestRequest {
  const result = parseBacktestRequest(input);
  if (!result.ok) throw new Error(formatRequestIssues(result.error));
  return result.value;
}

function issuesOf(input: unknown): string[] {
  const result = parseBacktestRequest(input);
  return result.ok ? [] : result.error.map((issue) => `${issue.path}: ${issue.message}`);
}

describe('backtest request (docs/PRODUCT.md section 3 form)', () => {
  it('fills the defaults: intraday, window 5, interval = window, no options legs', () => {
    const request = parsed(form);
    expect(request.strategyType).toBe('intraday');
    expect(request.window).toBe(5);
    expect(request.frequenciesAndInvestments).toEqual([
      { interval: 5, investment: 10_000_000 },
      { interval: 15, investment: 10_000_000 },
      { interval: 5, investment: 25_000_050 },
    ]);
    expect(request.tradeInstrumentsConfig).toBeNull();
    expect(request.algorithms.map((algorithm) => algorithm.key)).toEqual(['id:a1', 'id:a2', `doc:${fingerprint('{"rules":[{"a":2,"b":1}]}')}`]);
  });

  it('expands to algorithms x date ranges x frequency pairs, each with a distinct stable key', () => {
    const runs = expandBacktestRequest(parsed(form));
    expect(runs).toHaveLength(3 * 2 * 3);
    expect(new Set(runs.map((run) => run.key)).size).toBe(runs.length);
    expect(runs[0]?.key).toBe('id:a1|2024-04-01..2024-06-30|5m|10000000');
    const reordered = parsed({ ...form, algorithms: [{ document: { rules: [{ a: 2, b: 1 }] } }] });
    expect(expandBacktestRequest(reordered)[0]?.key).toBe(runs[12]?.key);
  });

  it('rejects overlapping date ranges, naming the later one', () => {
    const overlapping = { ...form, dateRanges: [{ from: '2024-03-01', to: '2024-03-31' }, { from: '2024-01-01', to: '2024-12-31' }, { from: '2024-06-01', to: '2024-06-30' }] };
    expect(issuesOf(overlapping)).toEqual([
      'dateRanges[0]: overlaps dateRanges[1] (2024-01-01 to 2024-12-31): a date range must start after the previous one ends',
      'dateRanges[2]: overlaps dateRanges[1] (2024-01-01 to 2024-12-31): a date range must start after the previous one ends',
    ]);
  });

  it('treats sharing the last day as an overlap, the next day as none', () => {
    const range = (from: string, to: string) => ({ from: isoDate(from), to: isoDate(to) });
    expect(overlappingRanges([range('2024-01-01', '2024-01-31'), range('2024-01-31', '2024-02-29')])).toHaveLength(1);
    expect(overlappingRanges([range('2024-02-01', '2024-02-29'), range('2024-01-01', '2024-01-31')])).toEqual([]);
    expect(overlappingRanges([range('2024-01-05', '2024-01-05'), range('2024-01-05', '2024-01-09')])).toHaveLength(1);
  });

  it('reports every bad field with its path', () => {
    const bad = {
      strategyType: 'scalping',
      algorithms: ['a1', '', 'a1'],
      instrument: ' ',
      dateRanges: [{ from: '2024-01-01', to: '2024-02-30' }, { from: '2024-03-10', to: '2024-03-01' }, 'x'],
      window: 7,
      frequenciesAndInvestments: [{ interval: 4, investment: 1 }, { investment: 0 }, { interval: 5, investment: 1 }, { interval: 5, investment: 1 }],
      tradeInstrumentsConfig: 'legs',
    };
    expect(issuesOf(bad)).toEqual([
      'strategyType: must be intraday or swing, got "scalping"',
      'algorithms[1]: must be an algorithm id (a non-empty string or { id }) or { document: {...} }',
      'algorithms[2]: repeats algorithms[0]',
      'instrument: must be a non-empty instrument name, got " "',
      'dateRanges[0].to: must be a date as YYYY-MM-DD, got "2024-02-30"',
      'dateRanges[1].to: must not be before from (2024-03-10), got 2024-03-01',
      'dateRanges[2]: must be { from, to } with dates as YYYY-MM-DD',
      'window: must be one of 1, 2, 3, 5, 10, 15, 30, 60, 120, 180, 1440 minutes, got 7',
      'frequenciesAndInvestments[0].interval: must be one of 1, 2, 3, 5, 10, 15, 30, 60, 120, 180, 1440 minutes, got 4',
      'frequenciesAndInvestments[1].investment: must be rupees above 0 (at most 1e13), got 0',
      'frequenciesAndInvestments[3]: repeats frequenciesAndInvestments[2]',
      'tradeInstrumentsConfig: must be an object, a list or null',
    ]);
    expect(issuesOf(null)).toEqual([': must be an object with the backtest form fields']);
    expect(issuesOf({ ...form, dateRanges: [] })).toEqual(['dateRanges: must not be empty']);
  });

  it(`refuses a grid above ${MAX_RUNS_PER_REQUEST} runs`, () => {
    const algorithms = Array.from({ length: 101 }, (_, index) => `a${index}`);
    const dateRanges = Array.from({ length: 10 }, (_, index) => ({ from: `20${10 + index}-01-01`, to: `20${10 + index}-12-31` }));
    expect(issuesOf({ ...form, algorithms, dateRanges, frequenciesAndInvestments: [{ investment: 1 }] })).toEqual([
      ': expands to 1010 runs (algorithms x dateRanges x frequenciesAndInvestments); at most 1000',
    ]);
  });
});

describe('estimated candles (credits) of a run', () => {
  it('counts the 5-minute candles of the trading days: Eid on 11-Apr-2024 is skipped', () => {
    const run = { dateRange: { from: isoDate('2024-04-08'), to: isoDate('2024-04-14') }, interval: 5, instrument: 'NIFTY 50' };
    expect(estimateCandles(run)).toBe(4 * 75);
    expect(estimateCandles({ ...run, interval: 60 })).toBe(4 * 7);
    expect(estimateCandles({ ...run, interval: 1440 })).toBe(4);
    expect(estimateCandles({ ...run, interval: 1 })).toBe(4 * 375);
  });

  it('counts a muhurat session (one hour) as its own short day', () => {
    const run = { dateRange: { from: isoDate('2024-11-01'), to: isoDate('2024-11-01') }, interval: 5, instrument: 'NIFTY 50' };
    expect(estimateCandles(run)).toBe(12);
  });

  it('uses a calendar passed in, and sums a request', () => {
    const session: TradingSession = { open: 600, close: 630, kind: 'normal' };
    expect(candlesInSession(session, 7)).toBe(5);
    const calendar = { sessionOf: () => session };
    const runs = expandBacktestRequest(parsed({ ...form, algorithms: ['a1'], dateRanges: [{ from: '2024-01-01', to: '2024-01-02' }] }));
    // Two days of 30 minutes at 5, 15 and 5 minutes: 2 x (6 + 2 + 6).
    expect(estimateRequestCandles(runs, calendar)).toBe(28);
  });
});

describe('fingerprint', () => {
  it('ignores key order and tells documents apart', () => {
    expect(canonicalJson({ b: 1, a: [{ d: 1, c: 2 }] })).toBe('{"a":[{"c":2,"d":1}],"b":1}');
    expect(fingerprint('')).toBe('cbf29ce484222325');
    expect(fingerprint('a')).toBe('af63dc4c8601ec8c');
    expect(fingerprint('{"x":1}')).not.toBe(fingerprint('{"x":2}'));
  });
});
