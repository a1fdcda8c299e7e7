import { describe, expect, it } from 'vitest';
import { chargeTotals, reconcileCharges, tradeRows, type FillRecord, type OrderRecord } from './trade-list';

const instrument = { trading_symbol: 'NIFTY26AUG24500CE', kind: 'option', expiry: '2026-08-27', strike_paise: 2_450_000, option_type: 'CE' };

function order(sequence: number, fills: FillRecord[], side: 'BUY' | 'SELL' = 'SELL'): OrderRecord {
  return {
    order_id: `o${sequence}`, client_order_id: `btabc-${sequence}`, side, quantity: 75, filled_quantity: fills.length > 0 ? 75 : 0,
    status: fills.length > 0 ? 'FILLED' : 'CANCELLED', status_message: null, tag: 'entry', average_price_paise: null,
    created_at: `2026-08-03T04:0${sequence % 10}:00+00:00`, instrument, fills,
  };
}

function fill(id: string, charges: Record<string, number>, price: number | string = 10_000): FillRecord {
  return { fill_id: id, trade_id: `sim-${id}`, quantity: 75, price_paise: price, charges_paise: charges, ts: '2026-08-03T04:05:00+00:00' };
}

describe('trade list rows', () => {
  it('orders by the run sequence (numeric, not text) with one row per fill and one per unfilled order', () => {
    const rows = tradeRows([order(10, [fill('f10', { brokerage: 2000 })]), order(2, [fill('f2', { brokerage: 2000, stt: 469 })]), order(3, [])]);
    expect(rows.map((row) => row.sequence)).toEqual([2, 3, 10]);
    expect(rows[1]?.fill).toBeUndefined();
    expect(rows[0]?.chargesPaise).toBe(2469);
    expect(rows[0]?.fill?.valuePaise).toBe(750_000);
  });

  it('reads bigint paise sent as strings', () => {
    expect(tradeRows([order(1, [fill('f', {}, '12345')])])[0]?.fill?.pricePaise).toBe(12345);
  });
});

describe('charge totals', () => {
  const rows = tradeRows([
    order(1, [fill('a', { brokerage: 2000, stt: 469, exchange: 266, investor_protection: 4, sebi: 1, stamp: 0, gst: 408 })]),
    order(2, [fill('b', { brokerage: 2000, stt: 0, exchange: 266, investor_protection: 4, sebi: 1, stamp: 23, gst: 408 })], 'BUY'),
  ]);
  const totals = chargeTotals(rows);

  it('sums each component in contract-note order and in all', () => {
    expect(totals.components).toEqual([
      ['brokerage', 'Brokerage', 4000], ['stt', 'STT', 469], ['exchange', 'Exchange', 532], ['investor_protection', 'IPF', 8],
      ['sebi', 'SEBI', 2], ['stamp', 'Stamp', 23], ['gst', 'GST', 816],
    ]);
    expect(totals.totalPaise).toBe(4000 + 469 + 532 + 8 + 2 + 23 + 816);
    expect({ fills: totals.fills, orders: totals.orders, buy: totals.buyValuePaise, sell: totals.sellValuePaise }).toEqual({ fills: 2, orders: 2, buy: 750_000, sell: 750_000 });
  });

  it('the total equals the sum of the rows and reconciles with the run charges', () => {
    expect(rows.reduce((sum, row) => sum + row.chargesPaise, 0)).toBe(totals.totalPaise);
    expect(reconcileCharges(totals, totals.totalPaise).differencePaise).toBe(0);
    expect(reconcileCharges(totals, totals.totalPaise - 5).differencePaise).toBe(5);
    expect(reconcileCharges(totals, undefined).differencePaise).toBeUndefined();
  });

  it('keeps a component it does not know, after the known ones', () => {
    const extra = chargeTotals(tradeRows([order(1, [fill('x', { brokerage: 1, clearing: 7 })])]));
    expect(extra.components.map(([key]) => key)).toEqual(['brokerage', 'clearing']);
  });
});
