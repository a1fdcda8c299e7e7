// What the form says "trade the instrument" does, and what it refuses before anything is sent.
import { isoDate } from '@vyuha/core';
import { describe, expect, it } from 'vitest';
import { defaultFormState, validateForm } from './form-state';
import type { BacktestFormState } from './form-state';
import { tradedDescription, tradedIssues } from './traded-instrument';

const TODAY = isoDate('2026-11-24');
const NIFTY = { instrumentId: 1, exchange: 'NSE', tradingSymbol: 'NIFTY', name: 'NIFTY 50', kind: 'index' };
const VIX = { instrumentId: 6, exchange: 'NSE', tradingSymbol: 'INDIA VIX', name: 'INDIA VIX', kind: 'index' };
const ACME = { instrumentId: 9, exchange: 'NSE', tradingSymbol: 'ACME', name: 'ACME LTD', kind: 'equity' };
const RANGES = [{ from: '2026-09-01', to: '2026-10-30' }];

describe('what the form trades without option legs', () => {
  it('names the index\'s near-month future and its lot, and says how it is rolled, sized, charged and priced', () => {
    const swing = tradedDescription({ instrument: NIFTY, strategyType: 'swing', dateRanges: RANGES, today: TODAY });
    expect(swing).toEqual({
      ok: true, label: 'Near-month future',
      text: "Trades NIFTY's near-month future (NIFTY26NOVFUT on 2026-10-30: lot 65), rolled to the next month at 15:15 on expiry day, in whole lots sized by the "
        + "estimated margin (9% of the contract's value), with futures charges. Prices come from imported futures candles where stored, else from a cost-of-carry model "
        + '(shown as "Model prices" in the results).',
    });
    const intraday = tradedDescription({ instrument: NIFTY, strategyType: 'intraday', dateRanges: RANGES, today: TODAY });
    expect(intraday?.ok === true && intraday.text).toContain('squared off each day (an intraday position never reaches the expiry)');
  });

  it('trades a stock\'s shares with its equity charges', () => {
    expect(tradedDescription({ instrument: ACME, strategyType: 'swing', dateRanges: RANGES, today: TODAY })).toEqual({
      ok: true, label: 'Shares', text: 'Trades ACME shares, all in, with NSE delivery (CNC) equity charges.',
    });
  });

  it('refuses INDIA VIX at the instrument field, with the reason, before anything is sent', () => {
    expect(tradedDescription({ instrument: VIX, strategyType: 'intraday', dateRanges: RANGES, today: TODAY })).toMatchObject({ ok: false, error: expect.stringMatching(/^INDIA VIX cannot be traded/) });
    const form: BacktestFormState = { ...defaultFormState(TODAY), algos: ['3f1c2b9e-7a4d-4c1e-9b2a-5d6e7f801234'], selectedInstrument: VIX, dateRanges: RANGES };
    expect(validateForm(form, { today: TODAY, windowStarts: {} })).toEqual([{ path: 'instrument', message: expect.stringMatching(/^INDIA VIX cannot be traded: an index is traded through its futures or options/) }]);
  });

  it('refuses a range before the index\'s futures at that range, and says nothing with option legs', () => {
    const finnifty = { ...NIFTY, tradingSymbol: 'FINNIFTY', name: 'NIFTY FIN SERVICE' };
    const ranges = [{ from: '2021-02-01', to: '2021-02-26' }, { from: '2020-06-01', to: '2020-06-30' }];
    expect(tradedIssues({ instrument: finnifty, strategyType: 'swing', dateRanges: ranges, optionLegs: false })).toEqual([
      { path: 'dateRanges[1]', message: "FINNIFTY futures are known from 2021-01-11 (the first contract in Vyuha's market data); this range starts 2020-06-01" },
    ]);
    expect(tradedIssues({ instrument: VIX, strategyType: 'swing', dateRanges: ranges, optionLegs: true })).toEqual([]);
  });
});
