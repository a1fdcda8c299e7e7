import { describe, expect, it } from 'vitest';
import { column, StringTable } from './ledger-columns';

describe('Column', () => {
  it('reads back every row written, across many chunks, and 0 for rows never written', () => {
    const money = column('f64');
    const rows = column('i32');
    // 10,000 rows span several chunks whatever their size; every third row is left unwritten.
    for (let row = 0; row < 10_000; row += 1) {
      if (row % 3 === 2) continue;
      money.set(row, row * 1.25 - 0.5);
      rows.set(row, row * 7);
    }
    for (let row = 0; row < 10_000; row += 1) {
      expect(money.get(row)).toBe(row % 3 === 2 ? 0 : row * 1.25 - 0.5);
      expect(rows.get(row)).toBe(row % 3 === 2 ? 0 : row * 7);
    }
    expect(money.get(50_000)).toBe(0);
  });

  it('writes far ahead (rows between read 0), and keeps each type narrow', () => {
    const codes = column('u8');
    const numbers = column('i32');
    codes.set(70_000, 7);
    numbers.set(70_001, 2.9);
    expect(codes.get(70_000)).toBe(7);
    expect(codes.get(0)).toBe(0);
    expect(codes.get(69_999)).toBe(0);
    expect(numbers.get(70_001)).toBe(2);
    codes.set(1, 300);
    expect(codes.get(1)).toBe(300 % 256);
  });

  it('reads early rows between writes as it grows, and clears every row to 0', () => {
    const money = column('f64');
    // Across the sizes the array grows through (256, 512, 1,024, 2,048 rows), each write followed by a read of an early row.
    for (let row = 0; row < 2_000; row += 1) {
      money.set(row, row + 0.5);
      expect(money.get(row >> 3)).toBe((row >> 3) + 0.5);
    }
    expect([255, 256, 767, 768, 1_791, 1_792, 1_999].map((row) => money.get(row))).toEqual([255.5, 256.5, 767.5, 768.5, 1_791.5, 1_792.5, 1_999.5]);
    money.clear();
    expect([0, 300, 1_999, 5_000].map((row) => money.get(row))).toEqual([0, 0, 0, 0]);
    money.set(10, 1);
    expect([money.get(9), money.get(10), money.get(11)]).toEqual([0, 1, 0]);
  });
});

describe('StringTable', () => {
  it('gives each distinct string one code, first seen first', () => {
    const table = new StringTable();
    expect([table.code('NIFTY'), table.code('BANKNIFTY'), table.code('NIFTY'), table.code('NIFTY')]).toEqual([0, 1, 0, 0]);
    expect(table.value(1)).toBe('BANKNIFTY');
    expect(table.values).toEqual(['NIFTY', 'BANKNIFTY']);
  });
});
