import { isoDate } from '@vyuha/core';
import { buildTradingSymbol } from '@vyuha/market';
import { describe, expect, it } from 'vitest';
import { expiryChoices, legsOfRows, newLegRow, rowOfLeg, symbolOfRow } from './basket-form';

const today = isoDate('2026-12-01');

describe('the basket editor model', () => {
  it('names a new row after the next monthly future and sends it as one lot at market', () => {
    const row = newLegRow(today);
    const monthly = expiryChoices('NIFTY', 'FUT', today)[0]!;
    expect(symbolOfRow(row)).toBe(buildTradingSymbol({ kind: 'future', underlying: 'NIFTY', expiry: monthly as never }));
    expect(legsOfRows([row])).toEqual({ legs: [{ symbol: symbolOfRow(row), side: 'BUY', order_type: 'MARKET', lots: 1 }], issues: [] });
  });

  it('offers weekly expiries for options but only monthly ones for futures', () => {
    expect(expiryChoices('NIFTY', 'CE', today).length).toBeGreaterThan(expiryChoices('NIFTY', 'FUT', today).length);
  });

  it('names each wrong field of each row and sends nothing', () => {
    const row = newLegRow(today);
    const result = legsOfRows([row, { ...row, instrument: 'CE', strike: '', size: '0', orderType: 'SL', price: '', trigger: '10' }]);
    expect(result.legs).toEqual([]);
    expect(result.issues.map((issue) => issue.field)).toEqual(['legs[1].strike', 'legs[1].size', 'legs[1].price']);
  });

  it('converts rupees to paise and back for a saved option leg', () => {
    const row = { ...newLegRow(today), instrument: 'PE' as const, strike: '23500', side: 'SELL' as const, size: '2', orderType: 'LIMIT' as const, price: '101.55' };
    const [leg] = legsOfRows([row]).legs;
    expect(leg).toMatchObject({ side: 'SELL', lots: 2, order_type: 'LIMIT', price_paise: 10_155 });
    expect(rowOfLeg(leg!, today)).toMatchObject({ instrument: 'PE', strike: '23500', expiry: row.expiry, price: '101.55', size: '2' });
  });

  it('keeps an equity as units', () => {
    const row = { ...newLegRow(today), instrument: 'EQ' as const, equity: 'infy', size: '10' };
    expect(legsOfRows([row]).legs).toEqual([{ symbol: 'INFY', side: 'BUY', order_type: 'MARKET', quantity: 10 }]);
    expect(rowOfLeg({ symbol: 'INFY', side: 'BUY', order_type: 'MARKET', quantity: 10 }, today)).toMatchObject({ instrument: 'EQ', equity: 'INFY', size: '10' });
  });
});
