import { parseOptionsLegsConfig } from '@vyuha/engine';
import { describe, expect, it } from 'vitest';
import { tradePlanOf } from './trade-plan';

const index = (tradingSymbol: string, exchange: 'NSE' | 'BSE') => ({ instrumentId: 1, exchange, tradingSymbol, name: tradingSymbol, kind: 'index' });
const legs = (underlying: string) => parseOptionsLegsConfig({ underlying, onBuy: [{ option: 'CE', side: 'sell', strike: { by: 'atm-offset', steps: 0 }, expiry: 'monthly', lots: 1 }] });

describe('what a stored run trades', () => {
  it('charges option legs by the options schedule of the index\'s derivatives exchange (BSE for SENSEX)', () => {
    expect(tradePlanOf(index('SENSEX', 'BSE'), { strategyType: 'intraday', legs: legs('SENSEX') })).toMatchObject({ ok: true, value: { kind: 'option-legs', charges: { kind: 'schedule', exchange: 'BSE', instrument: 'option' } } });
    expect(tradePlanOf(index('NIFTY', 'NSE'), { strategyType: 'intraday', legs: legs('NIFTY') })).toMatchObject({ ok: true, value: { charges: { exchange: 'NSE', instrument: 'option' } } });
  });

  it('trades the index itself as its futures, and refuses one without', () => {
    expect(tradePlanOf(index('SENSEX', 'BSE'), { strategyType: 'swing' })).toEqual({ ok: true, value: { kind: 'index-futures', underlying: 'SENSEX', charges: { kind: 'schedule', exchange: 'BSE', instrument: 'future' } } });
    expect(tradePlanOf(index('INDIA VIX', 'NSE'), { strategyType: 'swing' })).toMatchObject({ ok: false, error: expect.stringMatching(/^INDIA VIX cannot be traded/) });
  });
});
