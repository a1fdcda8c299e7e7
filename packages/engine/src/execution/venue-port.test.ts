// The OMS's conversation with a venue through the asynchronous port, as the server's OMS will hold
// it: write, mark the send, place, and on a timeout ask by tag instead of placing again.
import { describe, expect, it } from 'vitest';
import { brokerTagFor, clientOrderIdFor } from './client-order-id';
import { applyOrderEvent } from './order-events';
import type { OrderEvent } from './order-events';
import { createOrder } from './order-state';
import type { OmsOrder } from './order-state';
import { ScriptedVenue } from './scripted-venue.test-support';
import { orderEventOf, orderForVenueEvent } from './venue-event-routing';
import type { OrderIntent, PlaceOutcome, VenueEvent } from './venue-port';

const RUN = '9b8a7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';

function step(order: OmsOrder, event: OrderEvent): OmsOrder {
  const result = applyOrderEvent(order, event);
  if (!result.ok) throw new Error(result.error.message);
  return result.value.order;
}

function newOrder(sequence: number): { order: OmsOrder; intent: OrderIntent } {
  const id = clientOrderIdFor({ runId: RUN, sequence });
  const tag = brokerTagFor({ runId: RUN, sequence });
  if (!id.ok || !tag.ok) throw new Error('bad id');
  const created = createOrder({ clientOrderId: id.value, tag: tag.value, instrumentKey: 'NIFTY26FEBFUT', side: 'BUY', quantity: 65, orderType: 'MARKET' });
  if (!created.ok) throw new Error(created.error.message);
  const intent: OrderIntent = {
    clientOrderId: id.value, tag: tag.value, instrumentKey: 'NIFTY26FEBFUT', exchange: 'NFO', tradingSymbol: 'NIFTY26FEBFUT', side: 'BUY', quantity: 65, orderType: 'MARKET', product: 'NRML',
  };
  return { order: created.value, intent };
}

function afterPlace(order: OmsOrder, outcome: PlaceOutcome): OmsOrder {
  switch (outcome.kind) {
    case 'accepted':
      return step(order, { type: 'accepted', brokerOrderId: outcome.brokerOrderId, status: outcome.status });
    case 'rejected':
      return step(order, { type: 'rejected', reason: outcome.reason });
    case 'timeout':
      return step(order, { type: 'send-timeout' });
    case 'unknown':
      return step(order, { type: 'send-failed-unknown', reason: outcome.reason });
  }
}

describe('the venue port', () => {
  it('resolves a timed-out place by asking for the tag, and the venue holds one order', async () => {
    const venue = new ScriptedVenue();
    venue.answerNext('timeout-received');
    const { order, intent } = newOrder(0);
    let current = afterPlace(step(order, { type: 'send-started', atMs: 1_000 }), await venue.place(intent));
    expect(current.status).toBe('UNKNOWN');
    const found = await venue.orderByTag(intent.tag);
    expect(found).toBeDefined();
    if (found !== undefined) current = step(current, { type: 'venue-report', report: found });
    expect(current).toMatchObject({ status: 'OPEN', brokerOrderId: 'B1' });
    expect(venue.truth.receivedWithTag(intent.tag)).toBe(1);
  });

  it('says nothing exists for a place lost on the way', async () => {
    const venue = new ScriptedVenue();
    venue.answerNext('timeout-lost');
    const { intent } = newOrder(1);
    expect(await venue.place(intent)).toEqual({ kind: 'timeout' });
    expect(await venue.orderByTag(intent.tag)).toBeUndefined();
    expect(await venue.orderBook()).toEqual([]);
  });

  it('streams fills and cancels that route to their order and move it', async () => {
    const venue = new ScriptedVenue();
    const events: VenueEvent[] = [];
    const stop = venue.subscribe((event) => events.push(event));
    const { order, intent } = newOrder(2);
    let current = afterPlace(step(order, { type: 'send-started', atMs: 1_000 }), await venue.place(intent));
    venue.fill({ brokerOrderId: 'B1', quantity: 30, pricePaise: 2_400_000, atMs: 2_000 });
    expect(await venue.cancel({ brokerOrderId: 'B1' })).toEqual({ kind: 'requested' });
    stop();
    venue.fill({ brokerOrderId: 'B1', quantity: 5, pricePaise: 2_400_000, atMs: 3_000 });
    expect(events.map((event) => event.kind)).toEqual(['fill', 'cancelled']);
    for (const event of events) {
      expect(orderForVenueEvent([current], event)).toBe(current);
      current = step(current, orderEventOf(event));
    }
    expect(current).toMatchObject({ status: 'CANCELLED', filledQuantity: 30 });
    expect(await venue.positions()).toEqual([{ instrumentKey: 'NIFTY26FEBFUT', netQuantity: 30 }]);
    expect(await venue.cancel({ brokerOrderId: 'B1' })).toMatchObject({ kind: 'refused' });
  });
});
