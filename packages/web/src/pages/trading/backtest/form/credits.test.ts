// The credits a backtest will use: the server's own estimate (run-backtest.ts expands the request
// and estimates each run on the instrument's trading symbol), and whether it fits what is left.
import { isoDate } from '@vyuha/core';
import { estimateCandles, expandBacktestRequest, parseBacktestRequest } from '@vyuha/engine';
import { describe, expect, it } from 'vitest';
import { availableCredits, creditFit, creditsText, estimateFormCredits } from './credits';
import { defaultFormState, toRunBacktestInput } from './form-state';
import type { BacktestFormState } from './form-state';

const NIFTY = { instrumentId: 1, exchange: 'NSE', tradingSymbol: 'NIFTY', name: 'NIFTY 50', kind: 'index' } as const;
const ALGORITHMS = ['3f1c2b9e-7a4d-4c1e-9b2a-5d6e7f801234', '8a1c2b9e-7a4d-4c1e-9b2a-5d6e7f801234'];

function form(overrides: Partial<BacktestFormState>): BacktestFormState {
  return { ...defaultFormState(isoDate('2026-11-24')), algos: ALGORITHMS.slice(0, 1), selectedInstrument: NIFTY, ...overrides };
}

/** What the server reserves for the same form: parse, expand, estimate each run on the trading symbol. */
function serverEstimate(state: BacktestFormState): number {
  const parsed = parseBacktestRequest(toRunBacktestInput(state));
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.error));
  return expandBacktestRequest(parsed.value)
    .reduce((sum, run) => sum + estimateCandles({ dateRange: run.dateRange, interval: run.interval, instrument: NIFTY.tradingSymbol }), 0);
}

describe('estimateFormCredits', () => {
  it('counts the sessions of the range at the interval (2024-04-11 was a holiday: 4 sessions x 75)', () => {
    expect(estimateFormCredits(form({ dateRanges: [{ from: '2024-04-08', to: '2024-04-12' }] }))).toBe(300);
  });

  it('multiplies out algorithms x ranges x pairs as the server does', () => {
    const state = form({
      algos: ALGORITHMS,
      dateRanges: [{ from: '2026-08-03', to: '2026-08-31' }, { from: '2026-09-01', to: '2026-09-30' }],
      frequenciesAndInvestments: [{ interval: 5, investmentRupees: 100_000 }, { interval: 15, investmentRupees: 100_000 }, { interval: 1440, investmentRupees: 50_000 }],
    });
    expect(estimateFormCredits(state)).toBe(serverEstimate(state));
    expect(estimateFormCredits(state)).toBeGreaterThan(0);
  });

  it('counts nothing before an algorithm and an instrument are chosen, and skips ranges that are not dates yet', () => {
    expect(estimateFormCredits(form({ algos: [] }))).toBe(0);
    expect(estimateFormCredits(form({ selectedInstrument: null }))).toBe(0);
    expect(estimateFormCredits(form({ dateRanges: [{ from: '2024-04-08', to: '2024-04-12' }, { from: '', to: '2024-05-01' }] }))).toBe(300);
  });
});

describe('the credit fit', () => {
  it('is what is granted and unexpired minus what the runs used, never below 0', () => {
    expect(availableCredits({ granted: 100_000, used: 80_000 })).toBe(20_000);
    expect(availableCredits({ granted: 10, used: 25 })).toBe(0);
  });

  it('fits up to and including every credit left', () => {
    expect(creditFit({ needed: 20_000, available: 20_000 }).fits).toBe(true);
    expect(creditFit({ needed: 20_001, available: 20_000 }).fits).toBe(false);
  });

  it('says what it uses of what is available, and when it does not fit', () => {
    expect(creditsText(creditFit({ needed: 1500, available: 20_000 }))).toBe('Uses 1,500 of 20,000 available credits');
    expect(creditsText(creditFit({ needed: 150_000, available: 20_000 }))).toBe('Uses 1,50,000 of 20,000 available credits: not enough credits for this backtest; remove runs or shorten the ranges');
  });
});
