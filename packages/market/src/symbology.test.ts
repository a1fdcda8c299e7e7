import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { addDays, isoDate } from '@vyuha/core';
import { expiriesBetween } from './expiries/expiry-calendar';
import { OPTION_UNDERLYINGS } from './index-configs';
import { buildTradingSymbol, parseTradingSymbol, TradingSymbolError } from './symbology';
import type { DerivativeContract } from './symbology';

const d = isoDate;

describe('buildTradingSymbol', () => {
  it('writes monthly, weekly and future symbols the Kite way', () => {
    expect(buildTradingSymbol({ kind: 'option', underlying: 'NIFTY', expiry: d('2024-12-26'), strike: 24_000, optionType: 'CE' })).toBe('NIFTY24DEC24000CE');
    expect(buildTradingSymbol({ kind: 'option', underlying: 'NIFTY', expiry: d('2024-04-10'), strike: 24_500, optionType: 'CE' })).toBe('NIFTY2441024500CE');
    expect(buildTradingSymbol({ kind: 'option', underlying: 'NIFTY', expiry: d('2024-10-03'), strike: 25_000, optionType: 'PE' })).toBe('NIFTY24O0325000PE');
    expect(buildTradingSymbol({ kind: 'option', underlying: 'SENSEX', expiry: d('2025-09-04'), strike: 80_000, optionType: 'PE' })).toBe('SENSEX2590480000PE');
    expect(buildTradingSymbol({ kind: 'future', underlying: 'NIFTY', expiry: d('2024-12-26') })).toBe('NIFTY24DECFUT');
    expect(buildTradingSymbol({ kind: 'option', underlying: 'IDEA', expiry: d('2024-12-26'), strike: 7.5, optionType: 'CE' })).toBe('IDEA24DEC7.5CE');
  });

  it('refuses contracts that cannot exist', () => {
    expect(() => buildTradingSymbol({ kind: 'option', underlying: 'NIFTY', expiry: d('2024-04-11'), strike: 22_000, optionType: 'CE' }))
      .toThrow('2024-04-11 is not an expiry of NIFTY');
    expect(() => buildTradingSymbol({ kind: 'option', underlying: 'NIFTY', expiry: d('2024-12-26'), strike: 24_000.5, optionType: 'CE' }))
      .toThrow('whole rupees');
    expect(() => buildTradingSymbol({ kind: 'option', underlying: 'IDEA', expiry: d('2024-12-26'), strike: 0.125, optionType: 'CE' }))
      .toThrow('at most 2 decimals');
    expect(() => buildTradingSymbol({ kind: 'future', underlying: 'NIFTY', expiry: d('2024-12-19') })).toThrow(TradingSymbolError);
    expect(() => buildTradingSymbol({ kind: 'future', underlying: 'nifty', expiry: d('2024-12-26') })).toThrow('underlying "nifty"');
  });
});

describe('parseTradingSymbol', () => {
  it('reads the three shapes, taking monthly dates from the calendar', () => {
    expect(parseTradingSymbol('NIFTY24DEC24000CE')).toEqual({ kind: 'option', underlying: 'NIFTY', expiry: '2024-12-26', strike: 24_000, optionType: 'CE' });
    expect(parseTradingSymbol('BANKNIFTY24DEC51000PE')).toEqual({ kind: 'option', underlying: 'BANKNIFTY', expiry: '2024-12-24', strike: 51_000, optionType: 'PE' });
    expect(parseTradingSymbol('NIFTY2441024500CE')).toEqual({ kind: 'option', underlying: 'NIFTY', expiry: '2024-04-10', strike: 24_500, optionType: 'CE' });
    expect(parseTradingSymbol('NIFTY24DECFUT')).toEqual({ kind: 'future', underlying: 'NIFTY', expiry: '2024-12-26' });
    expect(parseTradingSymbol('NIFTYNXT5024DEC70000CE')).toMatchObject({ underlying: 'NIFTYNXT50', strike: 70_000 });
    expect(parseTradingSymbol('IDEA25SEP7.5PE')).toEqual({ kind: 'option', underlying: 'IDEA', expiry: '2025-09-30', strike: 7.5, optionType: 'PE' });
  });

  it.each([
    ['NIFTY24DEC24000XE', 'is not a trading symbol'],
    ['nifty24DEC24000CE', 'is not a trading symbol'],
    ['NIFTY2443224500CE', 'is not a calendar date'],
    ['NIFTY24DEC0CE', 'strike must be positive'],
    ['MIDCPNIFTY21JUN9000CE', 'had no monthly expiry in JUN 2021'],
    ['NIFTY35DECFUT', 'outside the expiry calendar'],
  ])('refuses %s with a clear error', (text, message) => {
    expect(() => parseTradingSymbol(text)).toThrow(TradingSymbolError);
    expect(() => parseTradingSymbol(text)).toThrow(message);
  });
});

describe('round trips', () => {
  const contracts: fc.Arbitrary<DerivativeContract> = fc.tuple(
    fc.constantFrom(...OPTION_UNDERLYINGS),
    fc.integer({ min: 0, max: 2_800 }),
    fc.integer({ min: 1, max: 4_000 }),
    fc.constantFrom('CE' as const, 'PE' as const),
    fc.boolean(),
  ).map(([underlying, offset, strikeSteps, optionType, future]): DerivativeContract | undefined => {
    const from = addDays(isoDate('2020-01-01'), offset);
    const expiry = expiriesBetween(underlying, from, addDays(from, 60)).find((e) => !future || e.kind === 'monthly');
    if (expiry === undefined) return undefined;
    return future
      ? { kind: 'future' as const, underlying, expiry: expiry.date }
      : { kind: 'option' as const, underlying, expiry: expiry.date, strike: strikeSteps * 50, optionType };
  }).filter((contract): contract is DerivativeContract => contract !== undefined);

  it('parse(build(contract)) is the contract', () => {
    fc.assert(fc.property(contracts, (contract) => {
      expect(parseTradingSymbol(buildTradingSymbol(contract))).toEqual(contract);
    }), { numRuns: 300 });
  });

  it('build(parse(symbol)) is the symbol, fractional stock strikes included', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 999_999 }), fc.constantFrom('RELIANCE', 'M&M', 'BAJAJ-AUTO', 'IDEA'), fc.integer({ min: 0, max: 70 }), (cents, stock, monthIndex) => {
      const year = 2020 + Math.floor(monthIndex / 12);
      const month = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'][monthIndex % 12];
      const symbol = `${stock}${String(year - 2000)}${month}${String(cents / 100)}CE`;
      expect(buildTradingSymbol(parseTradingSymbol(symbol))).toBe(symbol);
    }));
  });
});
