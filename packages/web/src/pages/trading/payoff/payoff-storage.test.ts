import { OptionInputError, type PayoffPosition } from '@vyuha/engine';
import { describe, expect, it } from 'vitest';
import { handedOverSets, payoffConfigObject, payoffSubcategory, positionsFromConfigs, readPosition, type PayoffConfigRow } from './payoff-storage';

const leg = (indice: string, strike: number, timestamp: number): PayoffPosition => ({
  kind: 'option', optionType: 'CE', strike, expiry: '2026-12-01', quantity: -65, entryPrice: 120.5, indice, timestamp,
});
const rowOf = (indice: string, positions: readonly PayoffPosition[]): PayoffConfigRow => payoffConfigObject(indice, positions);

describe('payoff storage per index', () => {
  it('names each index row with a subcategory the table accepts', () => {
    expect(payoffSubcategory('NIFTY 50')).toBe('nifty_50');
    expect(payoffSubcategory('NIFTY BANK')).toBe('nifty_bank');
    expect(payoffSubcategory('50 INDEX')).toBe('index_50_index');
    for (const name of ['NIFTY 50', 'SENSEX', 'MIDCPNIFTY', '50 INDEX']) expect(payoffSubcategory(name)).toMatch(/^[a-z][A-Za-z0-9_]*$/);
  });

  it('replacing one index writes only that index row: the other index keeps its positions', () => {
    // Stored: NIFTY 50 with two legs, NIFTY BANK with one. Replacing NIFTY 50 is one row's upsert.
    const rows = new Map<string, PayoffConfigRow>();
    const upsert = (row: PayoffConfigRow): void => { rows.set(row.subcategory, row); };
    upsert(rowOf('NIFTY 50', [leg('NIFTY 50', 24000, 1), leg('NIFTY 50', 24100, 2)]));
    upsert(rowOf('NIFTY BANK', [leg('NIFTY BANK', 52000, 3)]));
    upsert(rowOf('NIFTY 50', [leg('NIFTY 50', 24500, 4)]));
    const positions = positionsFromConfigs([...rows.values()]);
    expect(positions.map((position) => [position.indice, position.strike])).toEqual([['NIFTY 50', 24500], ['NIFTY BANK', 52000]]);
  });

  it('refuses to store a position of another index under this one, naming the field', () => {
    expect(() => payoffConfigObject('NIFTY 50', [leg('NIFTY BANK', 52000, 1)])).toThrow(OptionInputError);
    expect(() => payoffConfigObject('NIFTY 50', [leg('NIFTY BANK', 52000, 1)])).toThrow(/replacement\[0\]\.indice/);
  });

  it('skips unreadable rows and positions rather than showing them wrong', () => {
    const good = rowOf('NIFTY 50', [leg('NIFTY 50', 24000, 1)]);
    const rows: PayoffConfigRow[] = [
      good,
      { category: 'application', subcategory: 'global', meta_data: { theme: 'dark' } },
      { category: 'payoff', subcategory: 'nifty_bank', meta_data: { version: 2, indice: 'NIFTY BANK', positions: [leg('NIFTY BANK', 1, 1)] } },
      { category: 'payoff', subcategory: 'sensex', meta_data: { version: 1, indice: 'SENSEX', positions: [{ ...leg('SENSEX', 80000, 1), strike: -5 }, leg('NIFTY 50', 1, 1)] } },
    ];
    expect(positionsFromConfigs(rows).map((position) => position.strike)).toEqual([24000]);
    expect(readPosition({ kind: 'future', expiry: '2026-12-01', quantity: 75, entryPrice: 24010, indice: 'NIFTY 50', timestamp: 1 })).toEqual({
      kind: 'future', expiry: '2026-12-01', quantity: 75, entryPrice: 24010, indice: 'NIFTY 50', timestamp: 1,
    });
    expect(readPosition({ ...leg('NIFTY 50', 24000, 1), quantity: 0 })).toBeUndefined();
    expect(readPosition({ ...leg('NIFTY 50', 24000, 1), expiry: 'soon' })).toBeUndefined();
  });

  it("takes the option chain's hand-over only for indices newer than what is stored", () => {
    const saved = [leg('NIFTY 50', 24000, 100), leg('NIFTY BANK', 52000, 300)];
    const handover = [leg('NIFTY 50', 24500, 200), leg('NIFTY 50', 24600, 200), leg('NIFTY BANK', 52500, 250), leg('SENSEX', 80000, 50)];
    expect(handedOverSets(handover, saved).map((set) => [set.indice, set.positions.length])).toEqual([['NIFTY 50', 2], ['SENSEX', 1]]);
    expect(handedOverSets([], saved)).toEqual([]);
  });
});
