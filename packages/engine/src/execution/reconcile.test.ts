import { paise } from '@vyuha/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clientOrderIdFor } from './client-order-id';
import { ABSENCE_GRACE_MS, applyOrderEvent, NOT_RECEIVED_MESSAGE } from './order-events';
import type { OrderEvent } from './order-events';
import { createOrder } from './order-state';
import type { OmsOrder } from './order-state';
import { modelOperation, runModel } from './oms-model.test-support';
import { reconcile } from './reconcile';
import type { VenueOrderReport } from './venue-port';

const SENT_AT = 1_767_000_000_000;
const LATER = SENT_AT + ABSENCE_GRACE_MS;

function order(sequence: number, ...events: OrderEvent[]): OmsOrder {
  const id = clientOrderIdFor({ runId: '5e0c7a52-9d3b-4f1e-a6c8-2b7d9e0f1a3c', sequence });
  if (!id.ok) throw new Error(id.error);
  const created = createOrder({ clientOrderId: id.value, instrumentKey: 'BANKNIFTY26FEBFUT', side: 'BUY', quantity: 60, orderType: 'MARKET' });
  if (!created.ok) throw new Error(created.error.message);
  return events.reduce((current, event) => {
    const next = applyOrderEvent(current, event);
    if (!next.ok) throw new Error(next.error.message);
    return next.value.order;
  }, created.value);
}

const sent: OrderEvent = { type: 'send-started', atMs: SENT_AT };
const report = (overrides: Partial<VenueOrderReport>): VenueOrderReport => ({
  brokerOrderId: 'B1', instrumentKey: 'BANKNIFTY26FEBFUT', side: 'BUY', quantity: 60, status: 'OPEN', filledQuantity: 0, trades: [], ...overrides,
});
const trade = (tradeId: string, quantity: number) => ({ tradeId, quantity, pricePaise: paise(5_000_000), atMs: SENT_AT + 1 });

describe('reconciling with the venue', () => {
  it('adopts the venue order of an UNKNOWN found by its tag, with the fills it missed', () => {
    const unknown = order(1, sent, { type: 'send-timeout' });
    const venueOrder = report({ tag: unknown.clientOrderId, status: 'FILLED', filledQuantity: 60, trades: [trade('T1', 30), trade('T2', 30)] });
    const outcome = reconcile({ orders: [unknown], positions: [], venue: { orders: [venueOrder], positions: [{ instrumentKey: 'BANKNIFTY26FEBFUT', netQuantity: 60 }] }, checkedAtMs: LATER });
    expect(outcome.actions).toHaveLength(1);
    const [update] = outcome.actions;
    expect(update).toMatchObject({ kind: 'update-order', order: { status: 'FILLED', brokerOrderId: 'B1', filledQuantity: 60 } });
    expect(update?.kind === 'update-order' && update.newFills.map(({ fill, positionChange }) => [fill.tradeId, positionChange])).toEqual([['T1', 30], ['T2', 30]]);
  });

  it('rejects an order the venue never received, and only once the grace period has passed', () => {
    const unknown = order(2, sent, { type: 'send-timeout' });
    const early = reconcile({ orders: [unknown], positions: [], venue: { orders: [], positions: [] }, checkedAtMs: SENT_AT + 1_000 });
    expect(early.actions).toEqual([{ kind: 'check-again', clientOrderId: unknown.clientOrderId, atMs: LATER }]);
    const late = reconcile({ orders: [unknown], positions: [], venue: { orders: [], positions: [] }, checkedAtMs: LATER });
    expect(late.orders[0]).toMatchObject({ status: 'REJECTED', statusMessage: NOT_RECEIVED_MESSAGE });
  });

  it('pauses the account over a position the recorded fills do not explain, with the numbers', () => {
    const outcome = reconcile({
      orders: [], positions: [{ instrumentKey: 'BANKNIFTY26FEBFUT', netQuantity: 30 }],
      venue: { orders: [], positions: [{ instrumentKey: 'BANKNIFTY26FEBFUT', netQuantity: 90 }, { instrumentKey: 'INFY', netQuantity: -10 }] },
      checkedAtMs: LATER,
    });
    expect(outcome.actions).toEqual([
      expect.objectContaining({ kind: 'alert', code: 'unexplained-position', instrumentKey: 'BANKNIFTY26FEBFUT', localQuantity: 30, venueQuantity: 90 }),
      expect.objectContaining({ kind: 'alert', code: 'unexplained-position', instrumentKey: 'INFY', localQuantity: 0, venueQuantity: -10 }),
      { kind: 'pause-account', reasons: [
        'The venue holds 90 of BANKNIFTY26FEBFUT; the recorded fills explain 30 (a difference of 60).',
        'The venue holds -10 of INFY; the recorded fills explain 0 (a difference of -10).',
      ] },
    ]);
  });

  it('counts the fills it records when it compares positions', () => {
    const open = order(3, sent, { type: 'accepted', brokerOrderId: 'B1', status: 'OPEN' });
    const outcome = reconcile({
      orders: [open], positions: [],
      venue: { orders: [report({ filledQuantity: 30, trades: [trade('T1', 30)] })], positions: [{ instrumentKey: 'BANKNIFTY26FEBFUT', netQuantity: 30 }] },
      checkedAtMs: LATER,
    });
    expect(outcome.actions.map((action) => action.kind)).toEqual(['update-order']);
  });

  it('raises an alert for an acknowledged order missing from the venue\'s book, and asks again for a pending cancel', () => {
    const open = order(4, sent, { type: 'accepted', brokerOrderId: 'B1', status: 'OPEN' });
    const missing = reconcile({ orders: [open], positions: [], venue: { orders: [], positions: [] }, checkedAtMs: LATER });
    expect(missing.actions.map((action) => action.kind)).toEqual(['alert', 'pause-account']);
    const cancelling = order(5, sent, { type: 'accepted', brokerOrderId: 'B1', status: 'OPEN' }, { type: 'cancel-requested' });
    const again = reconcile({ orders: [cancelling], positions: [], venue: { orders: [report({})], positions: [] }, checkedAtMs: LATER });
    expect(again.actions).toEqual([{ kind: 'cancel-at-venue', clientOrderId: cancelling.clientOrderId, brokerOrderId: 'B1' }]);
  });

  it('changes nothing the second time against the same venue snapshot, whatever the books looked like', () => {
    fc.assert(fc.property(fc.array(modelOperation, { minLength: 5, maxLength: 60, size: 'max' }), (operations) => {
      const harness = runModel(operations);
      const venue = harness.venue.snapshot();
      const positions = [...harness.positions].map(([instrumentKey, position]) => ({ instrumentKey, netQuantity: position.netQuantity }));
      const first = reconcile({ orders: harness.live, positions, venue, checkedAtMs: harness.now });
      // Carry out the first pass's order updates locally: the orders it returns, the positions moved by its fills.
      const moved = new Map(positions.map((position) => [position.instrumentKey, position.netQuantity]));
      for (const action of first.actions) {
        if (action.kind !== 'update-order') continue;
        for (const { positionChange } of action.newFills) moved.set(action.order.instrumentKey, (moved.get(action.order.instrumentKey) ?? 0) + positionChange);
      }
      const second = reconcile({ orders: first.orders, positions: [...moved].map(([instrumentKey, netQuantity]) => ({ instrumentKey, netQuantity })), venue, checkedAtMs: harness.now });
      expect(second.actions.filter((action) => action.kind === 'update-order')).toEqual([]);
      expect(second.orders).toEqual(first.orders);
      // Requests and alerts stand until the venue changes (a cancel is idempotent there): the same ones again.
      const standing = (actions: typeof first.actions) => actions.filter((action) => action.kind !== 'update-order');
      expect(standing(second.actions)).toEqual(standing(first.actions));
    }), { numRuns: 300 });
  }, 30_000);
});
