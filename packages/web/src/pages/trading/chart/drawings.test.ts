import { describe, expect, it } from 'vitest';
import { drawingFromClick, drawingLabel, drawingsFromMetaData, drawingsMetaData, drawingsSubcategory } from './drawings';

describe('drawings storage', () => {
  it('keys one row per instrument with a subcategory the table accepts', () => {
    expect(drawingsSubcategory(7)).toBe('drawings_7');
    expect(drawingsSubcategory(7)).toMatch(/^[a-z][A-Za-z0-9_]*$/);
  });

  it('round-trips drawings through meta_data', () => {
    const drawings = [drawingFromClick({ tool: 'horizontal', time: 1, price: 24_510.456, id: 'h-1' }), drawingFromClick({ tool: 'ray', time: 1_785_748_500_000, price: 24_480, id: 'r-2' })];
    expect(drawings).toEqual([{ id: 'h-1', kind: 'horizontal', price: 24_510.46 }, { id: 'r-2', kind: 'ray', time: 1_785_748_500_000, price: 24_480 }]);
    const saved = JSON.parse(JSON.stringify(drawingsMetaData(drawings))) as unknown;
    expect(saved).toEqual({ version: 1, drawings });
    expect(drawingsFromMetaData(saved)).toEqual(drawings);
  });

  it('drops entries it cannot read', () => {
    expect(drawingsFromMetaData({ drawings: [{ id: 'a', kind: 'horizontal', price: 'x' }, { id: 'b', kind: 'ray', price: 10 }, { id: 'c', kind: 'circle', price: 1 }, { id: 'd', kind: 'horizontal', price: 5 }] }))
      .toEqual([{ id: 'd', kind: 'horizontal', price: 5 }]);
    expect(drawingsFromMetaData(null)).toEqual([]);
    expect(drawingsFromMetaData({})).toEqual([]);
  });

  it('labels drawings for the list', () => {
    expect(drawingLabel({ id: 'h', kind: 'horizontal', price: 24_510.5 }, String)).toBe('Horizontal line at 24,510.50');
    expect(drawingLabel({ id: 'r', kind: 'ray', time: 5, price: 100 }, (time) => `t${time}`)).toBe('Ray at 100.00 from t5');
  });
});
