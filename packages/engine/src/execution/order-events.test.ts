import { paise } from '@vyuha/core';
import { describe, expect, it } from 'vitest';
import { clientOrderIdFor } from './client-order-id';
import { ABSENCE_GRACE_MS, applyOrderEvent, NOT_RECEIVED_MESSAGE } from './order-events';
import type { OrderEvent, OrderTransition } from './order-events';
import { averageFillPricePaise, createOrder, isLegalTransition } from './order-state';
import type { OmsOrder, OmsOrderStatus } from './order-state';
import type { VenueOrderReport } from './venue-port';

const RUN = '6f1c2b8e-3d4a-4b5c-8d9e-0a1b2c3d4e5f';
const SENT_AT = 1_735_700_000_000;

function newOrder(quantity = 130): OmsOrder {
  const id = clientOrderIdFor({ runId: RUN, sequence: 1 });
  if (!id.ok) throw new Error(id.error);
  const order = createOrder({ clientOrderId: id.value, instrumentKey: 'NIFTY25JAN24000CE', side: 'BUY', quantity, orderType: 'MARKET' });
  if (!order.ok) throw new Error(order.error.message);
  return order.value;
}

function step(order: OmsOrder, event: OrderEvent): OrderTransition {
  const result = applyOrderEvent(order, event);
  if (!result.ok) throw new Error(result.error.message);
  expect(isLegalTransition(order.status, result.value.order.status)).toBe(true);
  return result.value;
}

function run(order: OmsOrder, ...events: OrderEvent[]): OmsOrder {
  return events.reduce((current, event) => step(current, event).order, order);
}

const fill = (tradeId: string, quantity: number, pricePaise = 10_000): OrderEvent => ({ type: 'fill', fill: { tradeId, quantity, pricePaise: paise(pricePaise), atMs: SENT_AT + 1 } });
const sent: OrderEvent = { type: 'send-started', atMs: SENT_AT };
const ack: OrderEvent = { type: 'accepted', brokerOrderId: 'B1', status: 'OPEN' };

function errorCode(order: OmsOrder, event: OrderEvent): string {
  const result = applyOrderEvent(order, event);
  if (result.ok) throw new Error(`expected an error, got ${result.value.order.status}`);
  return result.error.code;
}

describe('the order state machine', () => {
  it('stays PENDING_SUBMIT while the send is under way, then opens on the ack', () => {
    const sending = step(newOrder(), sent);
    expect(sending.order.status).toBe('PENDING_SUBMIT');
    expect(sending.order.submittedAtMs).toBe(SENT_AT);
    expect(sending.effects).toEqual([{ kind: 'persist-order' }]);
    const open = step(sending.order, ack);
    expect(open.order).toMatchObject({ status: 'OPEN', brokerOrderId: 'B1' });
  });

  it('refuses a second send of the same order', () => {
    expect(errorCode(run(newOrder(), sent), sent)).toBe('already-sent');
  });

  it('makes a timed-out send UNKNOWN and asks the venue instead of resending', () => {
    const unknown = step(run(newOrder(), sent), { type: 'send-timeout' });
    expect(unknown.order.status).toBe('UNKNOWN');
    expect(unknown.effects).toEqual([{ kind: 'resolve-with-venue' }, { kind: 'persist-order' }]);
    expect(errorCode(unknown.order, sent)).toBe('already-sent');
    expect(errorCode(unknown.order, { type: 'cancel-requested' })).toBe('not-cancellable');
  });

  it('resolves UNKNOWN by a late ack', () => {
    const order = run(newOrder(), sent, { type: 'send-failed-unknown', reason: 'connection reset' }, ack);
    expect(order).toMatchObject({ status: 'OPEN', brokerOrderId: 'B1' });
  });

  it('ignores a timeout that arrives after the venue already answered', () => {
    const open = run(newOrder(), sent, ack);
    const late = step(open, { type: 'send-timeout' });
    expect(late.changed).toBe(false);
    expect(late.order).toBe(open);
  });

  it('fills partially then fully, keeping the exact value and the rounded average', () => {
    const partly = step(run(newOrder(), sent, ack), fill('T1', 65, 10_005));
    expect(partly.order).toMatchObject({ status: 'PARTIALLY_FILLED', filledQuantity: 65 });
    expect(partly.effects[0]).toEqual({ kind: 'record-fill', fill: partly.order.fills[0], positionChange: 65 });
    const full = step(partly.order, fill('T2', 65, 10_010)).order;
    // 65 x 100.05 + 65 x 100.10 = 6,503.25 + 6,506.50 = 13,009.75 rupees = 1,300,975 paise;
    // / 130 = 10,007.5 paise, rounded half up to 10,008.
    expect(full).toMatchObject({ status: 'FILLED', filledQuantity: 130, filledValuePaise: 1_300_975 });
    expect(averageFillPricePaise(full)).toBe(10_008);
  });

  it('reports a duplicate fill as such and applies nothing', () => {
    const once = run(newOrder(), sent, ack, fill('T1', 65));
    const twice = step(once, fill('T1', 65));
    expect(twice.changed).toBe(false);
    expect(twice.order).toBe(once);
    expect(twice.effects).toEqual([{ kind: 'duplicate-fill', tradeId: 'T1' }]);
  });

  it('refuses a fill beyond the order quantity and changes nothing', () => {
    const order = run(newOrder(), sent, ack, fill('T1', 65));
    expect(errorCode(order, fill('T2', 66))).toBe('fill-exceeds-quantity');
    expect(order.filledQuantity).toBe(65);
  });

  it('takes a fill that overtakes its ack, and the ack after it keeps the fill', () => {
    const order = run(newOrder(), sent, { ...fill('T1', 65), brokerOrderId: 'B1' } as OrderEvent, ack);
    expect(order).toMatchObject({ status: 'PARTIALLY_FILLED', filledQuantity: 65, brokerOrderId: 'B1' });
  });

  it('refuses events that name another broker order', () => {
    const order = run(newOrder(), sent, ack);
    expect(errorCode(order, { type: 'accepted', brokerOrderId: 'B2', status: 'OPEN' })).toBe('broker-order-id-mismatch');
  });

  it('cancels the rest of a partly filled order and keeps its fills', () => {
    const pending = step(run(newOrder(), sent, ack, fill('T1', 65)), { type: 'cancel-requested' });
    expect(pending.order.status).toBe('PENDING_CANCEL');
    expect(pending.effects).toContainEqual({ kind: 'cancel-at-venue', brokerOrderId: 'B1' });
    const done = run(pending.order, { type: 'cancelled', reason: 'cancelled by the user' });
    expect(done).toMatchObject({ status: 'CANCELLED', filledQuantity: 65, statusMessage: 'cancelled by the user' });
  });

  it('returns to working when the venue refuses a cancel', () => {
    const order = run(newOrder(), sent, ack, fill('T1', 65), { type: 'cancel-requested' }, { type: 'cancel-rejected', reason: 'too late' });
    expect(order.status).toBe('PARTIALLY_FILLED');
  });

  it('withdraws an order that was never sent without asking the venue', () => {
    const withdrawn = step(newOrder(), { type: 'cancel-requested' });
    expect(withdrawn.order.status).toBe('CANCELLED');
    expect(withdrawn.effects).toEqual([{ kind: 'persist-order' }]);
  });

  it('keeps final statuses final', () => {
    const done = run(newOrder(), sent, ack, fill('T1', 130));
    expect(errorCode(done, { type: 'cancelled' })).toBe('final-state');
    expect(errorCode(done, { type: 'rejected', reason: 'x' })).toBe('final-state');
    const refused = run(newOrder(), sent, { type: 'rejected', reason: 'Insufficient funds' });
    expect(refused).toMatchObject({ status: 'REJECTED', statusMessage: 'Insufficient funds' });
    expect(errorCode(refused, ack)).toBe('final-state');
    expect(errorCode(refused, fill('T1', 1))).toBe('final-state');
  });

  it('records a late fill of a cancelled order without reopening it', () => {
    const order = run(newOrder(), sent, ack, { type: 'cancelled' }, fill('T1', 65));
    expect(order).toMatchObject({ status: 'CANCELLED', filledQuantity: 65 });
  });

  it('refuses events of an order never sent, and bad fields by name', () => {
    expect(errorCode(newOrder(), ack)).toBe('not-sent');
    expect(errorCode(newOrder(), fill('T1', 1))).toBe('not-sent');
    const open = run(newOrder(), sent, ack);
    const bad = applyOrderEvent(open, fill('T1', 1.5));
    expect(bad.ok ? '' : bad.error.message).toContain('fill.quantity');
  });
});

describe('resolving an UNKNOWN order from the venue', () => {
  const unknown = (): OmsOrder => run(newOrder(), sent, { type: 'send-timeout' });
  const report = (overrides: Partial<VenueOrderReport> = {}): VenueOrderReport => ({
    brokerOrderId: 'B9', tag: 'x', instrumentKey: 'NIFTY25JAN24000CE', side: 'BUY', quantity: 130, status: 'OPEN', filledQuantity: 0, trades: [], ...overrides,
  });
  const trade = (tradeId: string, quantity: number) => ({ tradeId, quantity, pricePaise: paise(10_000), atMs: SENT_AT + 5 });

  it('adopts the venue order and records its fills', () => {
    const result = step(unknown(), { type: 'venue-report', report: report({ filledQuantity: 65, trades: [trade('T1', 65)] }) });
    expect(result.order).toMatchObject({ status: 'PARTIALLY_FILLED', brokerOrderId: 'B9', filledQuantity: 65 });
    expect(result.effects.filter((effect) => effect.kind === 'record-fill')).toHaveLength(1);
  });

  it('changes nothing when the same report comes again', () => {
    const once = step(unknown(), { type: 'venue-report', report: report({ status: 'FILLED', filledQuantity: 130, trades: [trade('T1', 130)] }) });
    expect(once.order.status).toBe('FILLED');
    const again = step(once.order, { type: 'venue-report', report: report({ status: 'FILLED', filledQuantity: 130, trades: [trade('T1', 130)] }) });
    expect(again.changed).toBe(false);
  });

  it('rejects an order the venue never received, but only after the grace period', () => {
    expect(errorCode(unknown(), { type: 'venue-absent', checkedAtMs: SENT_AT + ABSENCE_GRACE_MS - 1 })).toBe('absence-too-early');
    const absent = run(unknown(), { type: 'venue-absent', checkedAtMs: SENT_AT + ABSENCE_GRACE_MS });
    expect(absent).toMatchObject({ status: 'REJECTED', statusMessage: NOT_RECEIVED_MESSAGE });
  });

  it('refuses absence for an order the venue acknowledged', () => {
    const open = run(newOrder(), sent, ack);
    expect(errorCode(open, { type: 'venue-absent', checkedAtMs: SENT_AT + ABSENCE_GRACE_MS })).toBe('acknowledged-order-absent');
  });

  it('refuses a report whose trades do not add up or that lacks a recorded fill', () => {
    expect(errorCode(unknown(), { type: 'venue-report', report: report({ filledQuantity: 10, trades: [] }) })).toBe('venue-report-inconsistent');
    const filled = run(newOrder(), sent, ack, fill('T1', 65));
    expect(errorCode(filled, { type: 'venue-report', report: report({ brokerOrderId: 'B1' }) })).toBe('venue-report-inconsistent');
  });

  it('keeps a pending cancel pending while the venue reports the order working', () => {
    const pending = run(newOrder(), sent, ack, { type: 'cancel-requested' });
    const after = step(pending, { type: 'venue-report', report: report({ brokerOrderId: 'B1' }) });
    expect(after.order.status).toBe('PENDING_CANCEL' satisfies OmsOrderStatus);
  });
});
