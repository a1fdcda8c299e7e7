import { describe, expect, it } from 'vitest';
import { createInsertOf, EMPTY_CREATE_DRAFT } from './create-form';

const FILLED = { ...EMPTY_CREATE_DRAFT, name: '  EMA on NIFTY ', algorithmId: 'algo-1', algorithmVersion: 3, instrument: { instrumentId: 7, name: 'NIFTY 50' } };

describe('createInsertOf', () => {
  it('makes a DRAFT algo strategy on PAPER with a deployable config', () => {
    expect(createInsertOf(FILLED)).toEqual({
      ok: true,
      insert: {
        name: 'EMA on NIFTY', kind: 'algo', mode: 'PAPER', status: 'DRAFT', strategy_type: 'intraday', algorithm_id: 'algo-1', algorithm_version: 3,
        instrument_id: 7, interval_minutes: 15, config: { investment: 1_000_000_00, sizing: { kind: 'all-in' }, manual: false },
      },
    });
  });

  it('names every missing field', () => {
    const checked = createInsertOf({ ...EMPTY_CREATE_DRAFT, investmentRupees: '' });
    expect(checked.ok ? [] : Object.keys(checked.errors).sort()).toEqual(['algorithm', 'instrument', 'investment', 'name']);
  });

  it('refuses an interval the engine does not know', () => {
    const checked = createInsertOf({ ...FILLED, interval: 7 });
    expect(checked.ok ? undefined : checked.errors.interval).toMatch(/^interval must be one of/);
  });
});
