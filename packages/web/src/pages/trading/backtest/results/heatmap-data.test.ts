import { describe, expect, it } from 'vitest';
import { heatmapCsvText, heatmapValues } from './heatmap-data';

const days = [
  { date: '2026-08-04', pnl_paise: '-12345', orders_count: 4 },
  { date: '2026-08-03', pnl_paise: 150_050, orders_count: 2 },
  { date: '2026-08-05', pnl_paise: 0, orders_count: 0 },
];

describe('heatmap CSV', () => {
  it('writes date,pnl,orders in date order, rupees from paise, one row per day', () => {
    expect(heatmapCsvText(days)).toBe('date,pnl,orders\n2026-08-03,1500.50,2\n2026-08-04,-123.45,4\n2026-08-05,0.00,0\n');
  });

  it('has only the header for a run without days', () => {
    expect(heatmapCsvText([])).toBe('date,pnl,orders\n');
  });

  it('gives each heatmap cell its P&L and orders', () => {
    expect(heatmapValues(days).get('2026-08-04')).toEqual({ pnlPaise: -12345, orders: 4 });
  });
});
