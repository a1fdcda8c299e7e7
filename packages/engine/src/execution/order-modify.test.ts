import { paise } from '@vyuha/core';
import { describe, expect, it } from 'vitest';
import { clientOrderIdFor } from './client-order-id';
import { applyOrderEvent } from './order-events';
import type { OrderEvent } from './order-events';
import { createOrder, isLegalTransition } from './order-state';
import type { NewOrderInput, OmsOrder } from './order-state';
import { modifiedLevelRefusals, priceBandAround } from './risk-checks';

const RUN = '6f1c2b8e-3d4a-4b5c-8d9e-0a1b2c3d4e5f';
const SENT_AT = 1_735_700_000_000;

function order(shape: Pick<NewOrderInput, 'orderType' | 'pricePaise' | 'triggerPricePaise'>): OmsOrder {
  const id = clientOrderIdFor({ runId: RUN, sequence: 3 });
  if (!id.ok) throw new Error(id.error);
  const created = createOrder({ clientOrderId: id.value, instrumentKey: 'NIFTY26JANFUT', side: 'SELL', quantity: 65, ...shape });
  if (!created.ok) throw new Error(created.error.message);
  return created.value;
}

function run(start: OmsOrder, ...events: OrderEvent[]): OmsOrder {
  return events.reduce((current, event) => {
    const result = applyOrderEvent(current, event);
    if (!result.ok) throw new Error(result.error.message);
    expect(isLegalTransition(current.status, result.value.order.status)).toBe(true);
    return result.value.order;
  }, start);
}

const sent: OrderEvent = { type: 'send-started', atMs: SENT_AT };
const ack: OrderEvent = { type: 'accepted', brokerOrderId: 'PAPER-7', status: 'OPEN' };
const stop = (): OmsOrder => run(order({ orderType: 'SL-M', triggerPricePaise: 9_900 }), sent, ack);

function errorOf(target: OmsOrder, event: OrderEvent): { code: string; message: string } {
  const result = applyOrderEvent(target, event);
  if (result.ok) throw new Error(`expected a refusal, got ${JSON.stringify(result.value)}`);
  return { code: result.error.code, message: result.error.message };
}

describe('modifying a working order', () => {
  it('asks the venue for new levels without changing the order yet', () => {
    const open = stop();
    const result = applyOrderEvent(open, { type: 'modify-requested', triggerPricePaise: 9_950 });
    expect(result.ok && result.value).toEqual({
      order: open, changed: false, effects: [{ kind: 'modify-at-venue', brokerOrderId: 'PAPER-7', triggerPricePaise: 9_950 }],
    });
  });

  it('moves the trigger when the venue took the modification, status and fills kept', () => {
    const result = applyOrderEvent(stop(), { type: 'modified', triggerPricePaise: 9_950 });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.changed).toBe(true);
    expect(result.value.effects).toEqual([{ kind: 'persist-order' }]);
    expect(result.value.order).toMatchObject({ status: 'OPEN', triggerPricePaise: 9_950, filledQuantity: 0, brokerOrderId: 'PAPER-7' });
    expect(result.value.order.pricePaise).toBeUndefined();
  });

  it('moves an SL order\'s price alone and keeps its trigger', () => {
    const sl = run(order({ orderType: 'SL', pricePaise: 9_850, triggerPricePaise: 9_900 }), sent, ack);
    const moved = run(sl, { type: 'modified', pricePaise: 9_800 });
    expect([moved.pricePaise, moved.triggerPricePaise]).toEqual([9_800, 9_900]);
  });

  it('modifies a partly filled order', () => {
    const partly = run(order({ orderType: 'LIMIT', pricePaise: 10_100 }), sent, ack,
      { type: 'fill', fill: { tradeId: 'T1', quantity: 15, pricePaise: paise(10_100), atMs: SENT_AT + 5 } });
    expect(partly.status).toBe('PARTIALLY_FILLED');
    expect(run(partly, { type: 'modified', pricePaise: 10_200 })).toMatchObject({ status: 'PARTIALLY_FILLED', pricePaise: 10_200, filledQuantity: 15 });
  });

  it('refuses to modify a FILLED order, and a late confirmation changes nothing', () => {
    const filled = run(stop(), { type: 'fill', fill: { tradeId: 'T1', quantity: 65, pricePaise: paise(9_880), atMs: SENT_AT + 9 } });
    expect(errorOf(filled, { type: 'modify-requested', triggerPricePaise: 9_950 }).code).toBe('final-state');
    const late = applyOrderEvent(filled, { type: 'modified', triggerPricePaise: 9_950 });
    expect(late.ok && late.value).toEqual({ order: filled, effects: [], changed: false });
  });

  it('refuses orders the venue has not answered, orders being cancelled and MARKET orders', () => {
    const unsent = order({ orderType: 'SL-M', triggerPricePaise: 9_900 });
    expect(errorOf(unsent, { type: 'modify-requested', triggerPricePaise: 9_950 }).code).toBe('not-modifiable');
    expect(errorOf(run(unsent, sent, { type: 'send-timeout' }), { type: 'modify-requested', triggerPricePaise: 9_950 }).code).toBe('not-modifiable');
    expect(errorOf(run(stop(), { type: 'cancel-requested' }), { type: 'modify-requested', triggerPricePaise: 9_950 }).code).toBe('not-modifiable');
    const market = run(order({ orderType: 'MARKET' }), sent, ack);
    expect(errorOf(market, { type: 'modify-requested', pricePaise: 9_950 }).message).toContain('MARKET');
  });

  it('refuses levels that do not fit the order type, naming the field', () => {
    expect(errorOf(stop(), { type: 'modify-requested', pricePaise: 9_950 }).message).toContain('SL-M order takes no pricePaise');
    const limit = run(order({ orderType: 'LIMIT', pricePaise: 10_100 }), sent, ack);
    expect(errorOf(limit, { type: 'modify-requested', triggerPricePaise: 10_000 }).message).toContain('LIMIT order takes no triggerPricePaise');
    expect(errorOf(stop(), { type: 'modify-requested' }).message).toContain('neither was given');
    expect(errorOf(stop(), { type: 'modify-requested', triggerPricePaise: 99.5 }).message).toContain('triggerPricePaise must be a whole number');
    expect(errorOf(stop(), { type: 'modified', triggerPricePaise: -1 }).code).toBe('invalid-event');
  });

  it('asks nothing for the levels the order already has, and a refusal leaves the order as it was', () => {
    const open = stop();
    const same = applyOrderEvent(open, { type: 'modify-requested', triggerPricePaise: 9_900 });
    expect(same.ok && same.value).toEqual({ order: open, effects: [], changed: false });
    const refused = applyOrderEvent(open, { type: 'modify-rejected', reason: 'the order is being filled' });
    expect(refused.ok && refused.value).toEqual({ order: open, effects: [], changed: false });
  });
});

describe('the price band on a modification', () => {
  // Band around Rs 100.00: 20% is Rs 20, so Rs 80.00 to Rs 120.00.
  const band = priceBandAround({ referencePricePaise: 10_000 });

  it('checks only the levels the modification sets', () => {
    expect(modifiedLevelRefusals({ triggerPricePaise: 8_000 }, band)).toEqual([]);
    expect(modifiedLevelRefusals({ triggerPricePaise: 7_999 }, band).map((refusal) => refusal.code)).toEqual(['trigger-outside-band']);
    expect(modifiedLevelRefusals({ pricePaise: 12_001, triggerPricePaise: 12_000 }, band).map((refusal) => refusal.code)).toEqual(['price-outside-band']);
    expect(modifiedLevelRefusals({ pricePaise: 10_000 }, undefined).map((refusal) => refusal.code)).toEqual(['no-price-band']);
  });
});
