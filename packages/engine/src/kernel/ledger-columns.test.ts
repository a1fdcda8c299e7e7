import { describe, expect, it } from 'vitest';
import { column, FillTable, OrderTable, StringTable, TradeTable } from './ledger-columns';

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

  it('after clear, reads 0 wherever the next use wrote nothing, though the array still holds the last use\'s values', () => {
    for (const type of ['f64', 'i32', 'u8'] as const) {
      const values = column(type);
      for (let row = 0; row < 3_000; row += 1) values.set(row, 1 + (row % 200));
      values.clear();
      // The next use: a few rows, sparse (as charge components are written for charged fills only), then past the old rows.
      values.set(0, 7);
      values.set(5, 9);
      values.set(2_500, 11);
      values.set(4_000, 13);
      const read = [0, 1, 4, 5, 6, 1_000, 2_499, 2_500, 2_501, 3_999, 4_000, 4_001].map((row) => values.get(row));
      expect(read, type).toEqual([7, 0, 0, 9, 0, 0, 0, 11, 0, 0, 13, 0]);
      // Growing copies the rows this use reached, not the last use's.
      values.clear();
      values.set(2, 5);
      values.set(9_000, 6);
      expect([0, 2, 3, 2_999, 8_999, 9_000].map((row) => values.get(row)), type).toEqual([0, 5, 0, 0, 0, 6]);
    }
  });
});

describe('the ledger\'s tables', () => {
  it('keep every row written through each doubling, in every column, and count the rows', () => {
    const orders = new OrderTable();
    // 3,000 rows: past the first array (256 rows) and four doublings after it.
    for (let k = 0; k < 3_000; k += 1) {
      const row = orders.add();
      expect(row).toBe(k);
      orders.instrument[row] = k % 5;
      orders.side[row] = k % 2;
      orders.quantity[row] = k * 0.5;
      orders.reason[row] = k % 10;
      orders.placedIndex[row] = k * 3;
      orders.placedTime[row] = k * 60_000.5;
      orders.status[row] = k % 3;
    }
    expect(orders.count).toBe(3_000);
    for (const k of [0, 1, 255, 256, 511, 512, 1_023, 1_024, 2_047, 2_048, 2_999]) {
      expect([orders.instrument[k], orders.side[k], orders.quantity[k], orders.reason[k], orders.placedIndex[k], orders.placedTime[k], orders.status[k]], `row ${k}`)
        .toEqual([k % 5, k % 2, k * 0.5, k % 10, k * 3, k * 60_000.5, k % 3]);
    }
  });

  it('start again at row 0 when cleared, and grow again from what the next use wrote', () => {
    const fills = new FillTable();
    const trades = new TradeTable();
    for (let k = 0; k < 600; k += 1) {
      fills.price[fills.add()] = 1 + k;
      trades.gross[trades.add()] = -k;
    }
    fills.clear();
    trades.clear();
    expect([fills.count, trades.count]).toEqual([0, 0]);
    for (let k = 0; k < 1_500; k += 1) {
      const row = fills.add();
      fills.price[row] = 10_000 + k;
      fills.order[row] = k + 1;
      trades.entry[trades.add()] = k;
    }
    expect(fills.count).toBe(1_500);
    expect([0, 599, 600, 1_023, 1_024, 1_499].map((row) => fills.price[row])).toEqual([10_000, 10_599, 10_600, 11_023, 11_024, 11_499]);
    expect([0, 1_499].map((row) => fills.order[row])).toEqual([1, 1_500]);
    expect(trades.entry[1_499]).toBe(1_499);
  });
});

describe('StringTable', () => {
  it('gives each distinct string one code, first seen first', () => {
    const table = new StringTable();
    expect([table.code('NIFTY'), table.code('BANKNIFTY'), table.code('NIFTY'), table.code('NIFTY')]).toEqual([0, 1, 0, 0]);
    expect(table.value(1)).toBe('BANKNIFTY');
    expect(table.values).toEqual(['NIFTY', 'BANKNIFTY']);
  });

  it('codes the empty string too, first or after another', () => {
    const table = new StringTable();
    expect([table.code(''), table.code(''), table.code('NIFTY'), table.code('')]).toEqual([0, 0, 1, 0]);
    expect(table.value(0)).toBe('');
  });
});
