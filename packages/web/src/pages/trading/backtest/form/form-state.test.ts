// The backtest form's state: its defaults (docs/PRODUCT.md sections 3 and 9), its mapping to the run_backtest
// input, and its validation with every issue at its field path.
import { isoDate } from '@vyuha/core';
import { parseBacktestRequest } from '@vyuha/engine';
import { describe, expect, it } from 'vitest';
import { defaultFormState, earliestDate, rangeBefore, toRunBacktestInput, validateForm } from './form-state';
import type { BacktestFormState } from './form-state';
import { newLeg } from './legs-draft';

const TODAY = isoDate('2026-11-24');
const NIFTY = { instrumentId: 1, exchange: 'NSE', tradingSymbol: 'NIFTY', name: 'NIFTY 50', kind: 'index' } as const;
const ALGORITHM = '3f1c2b9e-7a4d-4c1e-9b2a-5d6e7f801234';
const CONTEXT = { today: TODAY, windowStarts: { 1: '2021-01-01', 5: '2020-01-01' } };

function filled(overrides: Partial<BacktestFormState> = {}): BacktestFormState {
  return {
    ...defaultFormState(TODAY), algos: [ALGORITHM], selectedInstrument: NIFTY,
    dateRanges: [{ from: '2026-09-01', to: '2026-09-30' }], ...overrides,
  };
}

const paths = (form: BacktestFormState): string[] => validateForm(form, CONTEXT).map((issue) => issue.path);

describe('the default form', () => {
  it('is intraday, window 5, one 5-minute pair, trading the instrument itself', () => {
    const form = defaultFormState(TODAY);
    expect(form.strategyType).toBe('intraday');
    expect(form.window).toBe(5);
    expect(form.frequenciesAndInvestments).toEqual([{ interval: 5, investmentRupees: 100_000 }]);
    expect(form.tradeInstrumentsConfig.mode).toBe('instrument');
    expect(form.algos).toEqual([]);
    expect(form.selectedInstrument).toBeNull();
  });

  it('has one range of 90 days ending yesterday (IST)', () => {
    expect(defaultFormState(TODAY).dateRanges).toEqual([{ from: '2026-08-26', to: '2026-11-23' }]);
    // Across a year end: yesterday of 1 January is 31 December.
    expect(defaultFormState(isoDate('2027-01-01')).dateRanges).toEqual([{ from: '2026-10-03', to: '2026-12-31' }]);
  });
});

describe('toRunBacktestInput', () => {
  it('maps the form to the run_backtest input: EXCHANGE:SYMBOL, rupees, no legs', () => {
    const form = filled({ name: '  Crossover September  ', frequenciesAndInvestments: [{ interval: 5, investmentRupees: 250_000.5 }, { interval: 15, investmentRupees: 50_000 }] });
    expect(toRunBacktestInput(form)).toEqual({
      name: 'Crossover September', strategyType: 'intraday', algorithms: [ALGORITHM], instrument: 'NSE:NIFTY',
      dateRanges: [{ from: '2026-09-01', to: '2026-09-30' }], window: 5,
      frequenciesAndInvestments: [{ interval: 5, investment: 250_000.5 }, { interval: 15, investment: 50_000 }],
      tradeInstrumentsConfig: null,
    });
  });

  it('leaves out an empty name and an empty investment, and reads half-typed numbers', () => {
    const input = toRunBacktestInput(filled({ name: ' ', frequenciesAndInvestments: [{ interval: 5, investmentRupees: '' }, { interval: 10, investmentRupees: '1,500.' }] }));
    expect('name' in input).toBe(false);
    expect(input.frequenciesAndInvestments).toEqual([{ interval: 5 }, { interval: 10, investment: 1500 }]);
  });

  it('gives the engine the request the server will run (investment in paise after parsing)', () => {
    const parsed = parseBacktestRequest(toRunBacktestInput(filled({ strategyType: 'swing' })));
    expect(parsed.ok && parsed.value.frequenciesAndInvestments).toEqual([{ interval: 5, investment: 10_000_000 }]);
    expect(parsed.ok && parsed.value.strategyType).toBe('swing');
  });

  it('sends option legs on the instrument\'s trading symbol', () => {
    const trade = { ...filled().tradeInstrumentsConfig, mode: 'options' as const, onBuy: [newLeg({ side: 'sell', lots: 2 })], onSell: [] };
    expect(toRunBacktestInput(filled({ tradeInstrumentsConfig: trade })).tradeInstrumentsConfig).toEqual({
      underlying: 'NIFTY', weeklyFallback: 'none', maxEntriesPerDay: 1, onSell: [],
      onBuy: [{ option: 'CE', side: 'sell', strike: { by: 'atm-offset', steps: 0 }, expiry: 'current-weekly', lots: 2 }],
    });
  });
});

describe('validateForm', () => {
  it('passes a complete form', () => {
    expect(validateForm(filled(), CONTEXT)).toEqual([]);
  });

  it('asks for algorithms and an instrument in words of its own', () => {
    expect(validateForm(filled({ algos: [], selectedInstrument: null }), CONTEXT)).toEqual([
      { path: 'algorithms', message: 'choose at least one algorithm' },
      { path: 'instrument', message: 'choose an instrument' },
    ]);
  });

  it('puts an overlap at the range that starts before the previous one ends (docs/PRODUCT.md section 5)', () => {
    const issues = validateForm(filled({ dateRanges: [{ from: '2026-09-01', to: '2026-09-30' }, { from: '2026-09-15', to: '2026-10-15' }] }), CONTEXT);
    expect(issues).toEqual([{ path: 'dateRanges[1]', message: 'overlaps dateRanges[0] (2026-09-01 to 2026-09-30): a date range must start after the previous one ends' }]);
  });

  it('names the later range even when it is listed first', () => {
    expect(paths(filled({ dateRanges: [{ from: '2026-09-20', to: '2026-10-15' }, { from: '2026-09-01', to: '2026-09-20' }] }))).toEqual(['dateRanges[0]']);
  });

  it('refuses an investment of 0 at that investment', () => {
    const issues = validateForm(filled({ frequenciesAndInvestments: [{ interval: 5, investmentRupees: 0 }] }), CONTEXT);
    expect(issues).toEqual([{ path: 'frequenciesAndInvestments[0].investment', message: 'must be rupees above 0 (at most 1e13), got 0' }]);
  });

  it('names empty dates, a reversed range and a repeated pair at their fields', () => {
    expect(paths(filled({ dateRanges: [{ from: '', to: '2026-09-30' }] }))).toEqual(['dateRanges[0].from']);
    expect(paths(filled({ dateRanges: [{ from: '2026-09-30', to: '2026-09-01' }] }))).toEqual(['dateRanges[0].to']);
    expect(paths(filled({ frequenciesAndInvestments: [{ interval: 5, investmentRupees: 10 }, { interval: 5, investmentRupees: 10 }] }))).toEqual(['frequenciesAndInvestments[1]']);
  });

  it('refuses a range ending after today, as the server does', () => {
    expect(validateForm(filled({ dateRanges: [{ from: '2026-11-01', to: '2026-11-25' }] }), CONTEXT)).toEqual([
      { path: 'dateRanges[0].to', message: '2026-11-25 is after today (2026-11-24): there are no candles for it yet' },
    ]);
  });

  it("refuses a range before the tier's earliest date of any interval it runs at", () => {
    const form = filled({ dateRanges: [{ from: '2020-06-01', to: '2020-06-30' }], frequenciesAndInvestments: [{ interval: 5, investmentRupees: 10 }, { interval: 1, investmentRupees: 10 }] });
    expect(validateForm(form, CONTEXT)).toEqual([{
      path: 'dateRanges[0]',
      message: '2020-06-01 to 2020-06-30 starts before 2021-01-01, the earliest date your tier may backtest at 1-minute candles',
    }]);
  });

  it('puts an options-legs problem at the leg field the engine names', () => {
    const trade = { ...filled().tradeInstrumentsConfig, mode: 'options' as const, onBuy: [newLeg({ lots: 0 })] };
    expect(validateForm(filled({ tradeInstrumentsConfig: trade }), CONTEXT)).toEqual([
      { path: 'tradeInstrumentsConfig.onBuy[0].lots', message: 'must be a whole number between 1 and 500, got 0' },
    ]);
  });
});

describe('earliestDate', () => {
  it('is the latest minimum over the intervals of the pairs', () => {
    expect(earliestDate([{ interval: 5, investmentRupees: 1 }, { interval: 1, investmentRupees: 1 }], CONTEXT.windowStarts)).toEqual({ date: '2021-01-01', interval: 1 });
    expect(earliestDate([{ interval: 60, investmentRupees: 1 }], CONTEXT.windowStarts)).toBeUndefined();
  });
});

describe('rangeBefore (the range "Add range" adds)', () => {
  it('is the period of the same length just before the earliest range, so it overlaps none', () => {
    const ranges = [{ from: '2026-09-01', to: '2026-09-30' }, { from: '2026-10-01', to: '2026-10-09' }];
    expect(rangeBefore(ranges)).toEqual({ from: '2026-08-02', to: '2026-08-31' });
    const form = { ...defaultFormState(TODAY), algos: [ALGORITHM], selectedInstrument: NIFTY, dateRanges: [...ranges, rangeBefore(ranges)] };
    expect(validateForm(form, CONTEXT)).toEqual([]);
  });

  it('is empty when no range is complete yet', () => {
    expect(rangeBefore([{ from: '', to: '2026-09-30' }])).toEqual({ from: '', to: '' });
  });
});
