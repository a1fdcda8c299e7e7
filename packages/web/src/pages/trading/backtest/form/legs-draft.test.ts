// The option legs of the backtest form: drafts to the engine's OptionsLegsConfig, validated by the
// engine with the problem at its form path.
import { parseOptionsLegsConfig } from '@vyuha/engine';
import { describe, expect, it } from 'vitest';
import { defaultTradeDraft, legsIssues, newLeg, numberOrAbsent, tradeInstrumentsConfigOf } from './legs-draft';
import type { TradeDraft } from './legs-draft';

const straddle: TradeDraft = {
  ...defaultTradeDraft(), mode: 'options', onSell: [],
  onBuy: [
    newLeg({ option: 'CE', side: 'sell', stopLoss: { unit: 'percent', value: 30 }, reEntry: 'asap', reEntryTimes: 2 }),
    newLeg({ option: 'PE', side: 'sell', strikeBy: 'premium', strikeValue: 120.5, expiry: 'next-weekly', target: { unit: 'points', value: 40 } }),
  ],
  dailyMaxLossRupees: 5000,
};

describe('tradeInstrumentsConfigOf', () => {
  it('is null while trading the instrument itself', () => {
    expect(tradeInstrumentsConfigOf(defaultTradeDraft(), 'NIFTY')).toBeNull();
  });

  it('builds a config the engine accepts, with stops, targets and re-entries as set', () => {
    const config = parseOptionsLegsConfig(tradeInstrumentsConfigOf(straddle, 'NIFTY'));
    expect(config.onBuy).toEqual([
      { option: 'CE', side: 'sell', strike: { by: 'atm-offset', steps: 0 }, expiry: 'current-weekly', lots: 1, stopLoss: { percent: 30 }, reEntry: { mode: 'asap', maxTimes: 2 } },
      { option: 'PE', side: 'sell', strike: { by: 'premium', rupees: 120.5 }, expiry: 'next-weekly', lots: 1, target: { points: 40 } },
    ]);
    expect(config.dailyMaxLossRupees).toBe(5000);
    expect(config.dailyMaxProfitRupees).toBeUndefined();
  });
});

describe('legsIssues', () => {
  it('has none for a valid config, or while trading the instrument', () => {
    expect(legsIssues(straddle, 'NIFTY')).toEqual([]);
    expect(legsIssues({ ...straddle, mode: 'instrument', onBuy: [] }, 'INDIA VIX')).toEqual([]);
  });

  it('names the leg field the engine refuses', () => {
    const noStop = { ...straddle, onBuy: [newLeg({ reEntry: 'at-cost' })] };
    expect(legsIssues(noStop, 'NIFTY')).toEqual([
      { path: 'tradeInstrumentsConfig.onBuy[0].reEntry', message: 'needs a stopLoss or trailingStop: a leg re-enters only after its stop is hit' },
    ]);
    const badDelta = { ...straddle, onSell: [newLeg({ strikeBy: 'delta', strikeValue: 1.5 })] };
    expect(legsIssues(badDelta, 'NIFTY')[0]?.path).toBe('tradeInstrumentsConfig.onSell[0].strike.delta');
    const emptyLots = { ...straddle, onBuy: [newLeg({ lots: '' })] };
    expect(legsIssues(emptyLots, 'NIFTY')).toEqual([{ path: 'tradeInstrumentsConfig.onBuy[0].lots', message: 'must be a whole number between 1 and 500, got nothing' }]);
  });

  it('needs at least one leg', () => {
    expect(legsIssues({ ...straddle, onBuy: [], onSell: [] }, 'NIFTY')).toEqual([
      { path: 'tradeInstrumentsConfig.onBuy', message: 'at least one leg is needed in onBuy or onSell' },
    ]);
  });

  it('refuses option legs on an instrument without listed options', () => {
    expect(legsIssues(straddle, 'INDIA VIX')[0]?.path).toBe('tradeInstrumentsConfig');
  });
});

describe('numberOrAbsent', () => {
  it('reads what a number input holds', () => {
    expect(numberOrAbsent(12)).toBe(12);
    expect(numberOrAbsent('')).toBeUndefined();
    expect(numberOrAbsent('1,500.')).toBe(1500);
    expect(numberOrAbsent('-')).toBe('-');
  });
});
