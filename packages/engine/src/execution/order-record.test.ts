import { paise } from '@vyuha/core';
import { describe, expect, it } from 'vitest';
import { clientOrderIdFor } from './client-order-id';
import { applyOrderEvent } from './order-events';
import type { OrderEvent } from './order-events';
import { orderRowOf, restoreOrder } from './order-record';
import { createOrder } from './order-state';
import type { OmsOrder } from './order-state';

function openOrder(): OmsOrder {
  const id = clientOrderIdFor({ runId: '6f1c2b8e-3d4a-4b5c-8d9e-0a1b2c3d4e5f', sequence: 3 });
  if (!id.ok) throw new Error(id.error);
  const created = createOrder({ clientOrderId: id.value, tag: 'vtag', instrumentKey: '256265', side: 'SELL', quantity: 75, orderType: 'LIMIT', pricePaise: 12_345 });
  if (!created.ok) throw new Error(created.error.message);
  const events: OrderEvent[] = [
    { type: 'send-started', atMs: 1_000 },
    { type: 'accepted', brokerOrderId: 'B7', status: 'OPEN' },
    { type: 'fill', fill: { tradeId: 'T1', quantity: 25, pricePaise: paise(12_345), atMs: 2_000 } },
    { type: 'fill', fill: { tradeId: 'T2', quantity: 25, pricePaise: paise(12_350), atMs: 3_000 } },
  ];
  return events.reduce((order, event) => {
    const next = applyOrderEvent(order, event);
    if (!next.ok) throw new Error(next.error.message);
    return next.value.order;
  }, created.value);
}

describe('an order as rows and back', () => {
  it('writes the rounded average price and rebuilds the same order from the row and its fills', () => {
    const order = openOrder();
    const row = orderRowOf(order);
    // (25 x 12,345 + 25 x 12,350) / 50 = 12,347.5 -> 12,348
    expect(row).toMatchObject({ status: 'PARTIALLY_FILLED', filledQuantity: 50, averagePricePaise: 12_348, brokerOrderId: 'B7', tag: 'vtag' });
    expect(restoreOrder({ row, fills: order.fills })).toEqual({ ok: true, value: order });
  });

  it('refuses a row whose filled quantity its fills do not explain', () => {
    const order = openOrder();
    const restored = restoreOrder({ row: orderRowOf(order), fills: order.fills.slice(0, 1) });
    expect(restored.ok ? '' : restored.error.field).toBe('filledQuantity');
  });

  it('refuses a status that contradicts the filled quantity, and a duplicated trade', () => {
    const order = openOrder();
    const filled = restoreOrder({ row: { ...orderRowOf(order), status: 'FILLED' }, fills: order.fills });
    expect(filled.ok ? '' : filled.error.field).toBe('status');
    const twice = restoreOrder({ row: { ...orderRowOf(order), filledQuantity: 50 }, fills: [order.fills[0]!, order.fills[0]!] });
    expect(twice.ok ? '' : twice.error.field).toBe('fills[1].tradeId');
  });
});
