import type { IsoDate } from '@vyuha/core';
import { describe, expect, it } from 'vitest';
import { presetOf, presetRange, RANGE_PRESETS } from '../../../format/date-ranges';
import { checkRange, initialChartForm, INTERVAL_OPTIONS, intervalLabel } from './chart-form';

const TODAY = '2026-11-24' as IsoDate;

describe('chart form', () => {
  it('starts at 5 minutes over the 90 days ending yesterday', () => {
    expect(initialChartForm(TODAY)).toEqual({ selectedInstrument: undefined, dateRanges: { from: '2026-08-26', to: '2026-11-23' }, window: 5, selectedIndicatorGroup: undefined });
    expect(presetOf(initialChartForm(TODAY).dateRanges, TODAY)).toBe('90d');
  });

  it('offers the intervals of docs/PRODUCT.md section 9', () => {
    expect(INTERVAL_OPTIONS.map((option) => Number(option.value))).toEqual([1, 2, 3, 5, 10, 15, 30, 60, 120, 180, 1440]);
    expect([1, 60, 120, 1440].map(intervalLabel)).toEqual(['1 min', '1 hour', '2 hours', '1 day']);
  });

  it('ends every preset yesterday', () => {
    expect(presetRange('7d', TODAY)).toEqual({ from: '2026-11-17', to: '2026-11-23' });
    for (const preset of RANGE_PRESETS) expect(presetRange(preset.key, TODAY)?.to).toBe('2026-11-23');
    expect(presetRange('nope', TODAY)).toBeUndefined();
    expect(presetOf({ from: '2026-11-01' as IsoDate, to: '2026-11-23' as IsoDate }, TODAY)).toBeUndefined();
  });

  it('raises the start to the tier earliest date and refuses an inverted range', () => {
    expect(checkRange({ from: '2026-01-01', to: '2026-02-01' }, '2026-01-15')).toEqual({ ok: true, range: { from: '2026-01-15', to: '2026-02-01' }, raised: true });
    expect(checkRange({ from: '2026-01-20', to: '2026-02-01' }, '2026-01-15')).toEqual({ ok: true, range: { from: '2026-01-20', to: '2026-02-01' }, raised: false });
    expect(checkRange({ from: '2026-01-01', to: '2026-01-10' }, '2026-01-15')).toEqual({ ok: false, message: 'The range ends before it starts (2026-01-15).' });
    expect(checkRange({ from: '', to: '2026-01-10' }, undefined)).toEqual({ ok: false, message: 'Enter both dates.' });
  });
});
