import { isoDate, paise } from '@vyuha/core';
import { describe, expect, it } from 'vitest';
import { bandAt, bandOf, ORDER_BANDS, ORDER_BANDS_BY_ONE, orderBand, PNL_BANDS, PNL_BANDS_BY_2000, pnlBand, returnBand } from './heatmap-bands';
import { heatmapCsv, heatmapDays } from './heatmap-csv';

describe('heatmap bands (docs/PRODUCT.md section 9)', () => {
  it('profit/loss: an edge belongs to the band it closes', () => {
    expect(pnlBand(0).index).toBe(0);
    expect(pnlBand(1).label).toBe('0 to 500');
    expect(pnlBand(500_00).label).toBe('0 to 500');
    expect(pnlBand(500_01).label).toBe('500 to 1000');
    expect(pnlBand(132_000_00)).toMatchObject({ index: 9, lower: 64_000, upper: 132_000 });
    expect(pnlBand(132_000_01)).toMatchObject({ index: 10, lower: 132_000, upper: null, label: '> 132000' });
    expect(pnlBand(-500_00)).toMatchObject({ index: -1, lower: -500, upper: 0, label: '-500 to 0' });
    expect(pnlBand(-200_000_00)).toMatchObject({ index: -10, lower: null, upper: -132_000, label: '< -132000' });
  });

  it('profit/loss by 2000 up to 18000', () => {
    expect(pnlBand(18_000_00, PNL_BANDS_BY_2000).label).toBe('16000 to 18000');
    expect(pnlBand(18_000_01, PNL_BANDS_BY_2000).label).toBe('> 18000');
    expect(pnlBand(-2_000_00, PNL_BANDS_BY_2000).index).toBe(-1);
    expect(PNL_BANDS_BY_2000.edges).toHaveLength(9);
  });

  it('orders in bands of 2 up to above 18, or by 1', () => {
    expect(orderBand(0).label).toBe('0');
    expect([1, 2, 3, 18, 19].map((orders) => orderBand(orders).label)).toEqual(['0 to 2', '0 to 2', '2 to 4', '16 to 18', '> 18']);
    expect(orderBand(19, ORDER_BANDS_BY_ONE).index).toBe(19);
    expect(orderBand(18, ORDER_BANDS_BY_ONE).label).toBe('17 to 18');
    expect(() => orderBand(-1)).toThrow(RangeError);
    expect(() => bandOf(ORDER_BANDS, -1)).toThrow(/must be >= 0/);
  });

  it('returns in tenths of a percent up to 1, decided exactly', () => {
    const capital = 1_000_000_00; // Rs 10 lakh: 0.3% is Rs 3,000
    expect(returnBand(3_000_00, capital).label).toBe('0.2 to 0.3');
    expect(returnBand(3_000_01, capital).label).toBe('0.3 to 0.4');
    expect(returnBand(-10_000_00, capital).label).toBe('-1 to -0.9');
    expect(returnBand(10_000_01, capital)).toMatchObject({ index: 11, label: '> 1' });
    expect(returnBand(0, capital).index).toBe(0);
  });

  it('bandAt is the inverse of bandOf for every band', () => {
    for (let index = -10; index <= 10; index += 1) {
      const band = bandAt(PNL_BANDS, index);
      // The inclusive end of a band is its upper edge above 0 and its lower edge below 0.
      const inside = index === 0 ? 0 : index > 0 ? band.upper ?? (band.lower as number) * 2 : band.lower ?? (band.upper as number) * 2;
      expect(bandOf(PNL_BANDS, inside).index).toBe(index);
    }
    expect(() => bandAt(PNL_BANDS, 11)).toThrow(RangeError);
  });
});

describe('heatmap CSV', () => {
  it('writes date,pnl,orders with plain rupees and fills flat trading days', () => {
    const days = [{ date: isoDate('2024-01-02'), netPnl: paise(150_050), grossPnl: paise(151_050), charges: paise(1_000), orders: 4 }];
    const rows = heatmapDays(days, [isoDate('2024-01-01'), isoDate('2024-01-02')]);
    expect(heatmapCsv(rows)).toBe('date,pnl,orders\n2024-01-01,0.00,0\n2024-01-02,1500.50,4\n');
  });

  it('writes any safe whole number of paise without floating point, and refuses fractions', () => {
    const rows = [-5, 9_007_199_254_740_991].map((netPnl) => ({ date: isoDate('2024-01-01'), netPnl, orders: 0 }));
    expect(heatmapCsv(rows)).toBe('date,pnl,orders\n2024-01-01,-0.05,0\n2024-01-01,90071992547409.91,0\n');
    expect(() => heatmapCsv([{ date: isoDate('2024-01-01'), netPnl: 0.5, orders: 0 }])).toThrow(/days\[0\]\.netPnl/);
  });
});
