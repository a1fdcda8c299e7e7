import { describe, expect, it } from 'vitest';
import { dailyLimitsOf, OptionsLegsConfigError, parseOptionsLegsConfig } from './config';

const LEG = { option: 'CE', side: 'sell', strike: { by: 'atm-offset', steps: 0 }, expiry: 'current-weekly', lots: 1 };

function errorOf(input: unknown): string {
  try {
    parseOptionsLegsConfig(input);
  } catch (error) {
    if (error instanceof OptionsLegsConfigError) return error.message;
    throw error;
  }
  throw new Error('expected the config to be refused');
}

describe('parseOptionsLegsConfig', () => {
  it('accepts a straddle and fills the defaults', () => {
    const config = parseOptionsLegsConfig({ underlying: 'NIFTY', onBuy: [LEG, { ...LEG, option: 'PE', stopLoss: { percent: 25 }, reEntry: { mode: 'asap', maxTimes: 1 } }], dailyMaxLossRupees: 5_000 });
    expect(config.onSell).toEqual([]);
    expect(config.maxEntriesPerDay).toBe(1);
    expect(config.weeklyFallback).toBe('none');
    expect(config.onBuy[1]).toEqual({ ...LEG, option: 'PE', stopLoss: { percent: 25 }, reEntry: { mode: 'asap', maxTimes: 1 } });
    expect(dailyLimitsOf(config)).toEqual({ dailyMaxLoss: 500_000 });
  });

  it('names the field and the rule of a bad value', () => {
    expect(errorOf({ underlying: 'NIFTY', onBuy: [LEG, { ...LEG, strike: { by: 'atm-offset', steps: 25 } }] })).toBe('onBuy[1].strike.steps: must be a whole number between -20 and 20, got 25');
    expect(errorOf({ underlying: 'NIFTY', onBuy: [LEG, { ...LEG, strike: { by: 'atm-offset', steps: 1.5 } }] })).toBe('onBuy[1].strike.steps: must be a whole number between -20 and 20, got 1.5');
    expect(errorOf({ underlying: 'RELIANCE', onBuy: [LEG] })).toMatch(/^underlying: must be an index with listed options \(NIFTY, BANKNIFTY, FINNIFTY, MIDCPNIFTY, SENSEX\)/);
    expect(errorOf({ underlying: 'NIFTY', onSell: [{ ...LEG, lots: 0 }] })).toBe('onSell[0].lots: must be a whole number between 1 and 500, got 0');
    expect(errorOf({ underlying: 'NIFTY', onBuy: [{ ...LEG, expiry: 'weekly' }] })).toBe("onBuy[0].expiry: must be one of 'current-weekly', 'next-weekly', 'monthly', got \"weekly\"");
    expect(errorOf({ underlying: 'NIFTY', onBuy: [{ ...LEG, strike: { by: 'delta', delta: 30 } }] })).toMatch(/^onBuy\[0\]\.strike\.delta: must be an absolute delta between 0 and 1/);
    expect(errorOf({ underlying: 'NIFTY', onBuy: [{ ...LEG, strike: { by: 'premium', rupees: 10.555 } }] })).toBe('onBuy[0].strike.rupees: must have at most 2 decimals (whole paise), got 10.555');
  });

  it('refuses exits that cannot exist', () => {
    expect(errorOf({ underlying: 'NIFTY', onBuy: [{ ...LEG, stopLoss: { points: 10, percent: 5 } }] })).toMatch(/^onBuy\[0\]\.stopLoss: must be exactly one of/);
    // A short's target of 100% would be a premium of zero.
    expect(errorOf({ underlying: 'NIFTY', onBuy: [{ ...LEG, target: { percent: 100 } }] })).toBe('onBuy[0].target.percent: must be a number above 0 and at most 99.99, got 100');
    expect(parseOptionsLegsConfig({ underlying: 'NIFTY', onBuy: [{ ...LEG, side: 'buy', target: { percent: 100 } }] }).onBuy[0]?.target).toEqual({ percent: 100 });
    expect(errorOf({ underlying: 'NIFTY', onBuy: [{ ...LEG, reEntry: { mode: 'asap', maxTimes: 1 } }] })).toBe('onBuy[0].reEntry: needs a stopLoss or trailingStop: a leg re-enters only after its stop is hit');
    expect(errorOf({ underlying: 'NIFTY', onBuy: [{ ...LEG, stopLoss: { percent: 10 }, reEntry: { mode: 'later', maxTimes: 1 } }] })).toBe("onBuy[0].reEntry.mode: must be one of 'asap', 'at-cost', got \"later\"");
  });

  it('refuses unknown fields, empty configs and non-objects', () => {
    expect(errorOf({ underlying: 'NIFTY', onBuy: [{ ...LEG, strikes: 1 }] })).toMatch(/^onBuy\[0\]\.strikes: is not a known field/);
    expect(errorOf({ underlying: 'NIFTY', legs: [] })).toMatch(/^legs: is not a known field/);
    expect(errorOf({ underlying: 'NIFTY' })).toBe('onBuy: at least one leg is needed in onBuy or onSell');
    expect(errorOf([])).toBe('config: must be an object, got an array');
    expect(errorOf({ underlying: 'NIFTY', onBuy: [LEG], dailyMaxLossRupees: -5 })).toBe('dailyMaxLossRupees: must be a number above 0 and at most 1000000000, got -5');
  });
});
