// The OMS model test: random sequences of places (accepted, rejected, timed out with the order
// received, lost, or landing at the venue seconds later, a crash after the row was written or
// after the send), venue fills, cancels and rejections, events delivered late, twice or never,
// cancel requests (some with a crash before the venue is asked), attempts to send again, UNKNOWN
// resolution, reconciliations and restarts (state rebuilt from the order and fill rows only),
// against the reference venue. After a final restart and reconciliation (and one more
// pass for the cancels the restart sent again):
// - no intent ever became two venue orders (nothing is resent);
// - every venue trade is recorded exactly once, on the right order, and nothing else is;
// - every status change written was legal, and no venue event or venue report was refused (the
//   only refusals allowed are of the OMS's own premature requests: a second send, a cancel of an
//   order whose fate is unknown, an absence checked inside the grace period);
// - each position equals the fold of its fills and the venue's position;
// - every order's status agrees with the venue's (an order the venue never had is REJECTED);
// - reconciling again changes nothing and raises no alert.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NOT_RECEIVED_MESSAGE } from './order-events';
import { venueTagOf } from './order-state';
import { positionFromFills } from './positions';
import { ABSENCE_SETTLE_MS, netFromFills } from './oms-harness.test-support';
import type { OmsHarness } from './oms-harness.test-support';
import { MODEL_INSTRUMENTS, modelOperation, runModel } from './oms-model.test-support';

function checkAgainstVenue(harness: OmsHarness): void {
  expect(harness.violations).toEqual([]);
  const venueBook = harness.venue.orderBook();
  // Never two venue orders for one intent.
  for (const order of harness.live) expect(harness.venue.receivedWithTag(venueTagOf(order))).toBeLessThanOrEqual(1);
  // Every venue trade exactly once locally, on its own order; no local fill the venue did not make.
  const byTag = new Map(venueBook.map((report) => [report.tag, report]));
  for (const order of harness.live) {
    const venueOrder = byTag.get(venueTagOf(order));
    const stored = harness.orders.get(order.clientOrderId);
    const localTrades = (stored?.fills ?? []).map((fill) => fill.tradeId).sort();
    expect(localTrades).toEqual((venueOrder?.trades ?? []).map((trade) => trade.tradeId).sort());
    if (venueOrder === undefined) {
      // Refused at the place, or never received (then found absent once the grace period passed).
      expect(order.status).toBe('REJECTED');
      continue;
    }
    expect(order.brokerOrderId).toBe(venueOrder.brokerOrderId);
    if (venueOrder.status === 'OPEN') expect(['OPEN', 'PARTIALLY_FILLED', 'PENDING_CANCEL']).toContain(order.status);
    else expect(order.status).toBe(venueOrder.status);
  }
  expect(harness.live).toHaveLength(new Set(harness.live.map((order) => order.clientOrderId)).size);
  // Positions: the running position is the fold of its fills, and the venue holds the same.
  const net = netFromFills(harness);
  const venueNet = new Map(harness.venue.positions().map((position) => [position.instrumentKey, position.netQuantity]));
  for (const instrumentKey of MODEL_INSTRUMENTS) {
    const fills = harness.fillLog.filter((entry) => entry.instrumentKey === instrumentKey).map((entry) => ({ side: entry.side, quantity: entry.fill.quantity, pricePaise: entry.fill.pricePaise }));
    const position = harness.positions.get(instrumentKey);
    if (position !== undefined) expect(position).toEqual(positionFromFills(fills));
    expect(position?.netQuantity ?? 0).toBe(net.get(instrumentKey) ?? 0);
    expect(position?.netQuantity ?? 0).toBe(venueNet.get(instrumentKey) ?? 0);
  }
}

describe('the OMS against a reference venue', () => {
  it('never doubles an order, never loses a fill, never breaks the state machine, across timeouts, duplicates and restarts', () => {
    fc.assert(fc.property(fc.array(modelOperation, { minLength: 5, maxLength: 60, size: 'max' }), fc.boolean(), (operations, deliverRest) => {
      const harness = runModel(operations);
      if (deliverRest) for (let pick = 0; harness.inFlight.length > 0; pick += 7) harness.deliver(pick, false);
      harness.advance(ABSENCE_SETTLE_MS);
      harness.restart();
      // A cancel the restart asked for again has moved the venue: one more pass takes its outcome.
      harness.reconcileNow();
      checkAgainstVenue(harness);
      expect(harness.alerts).toEqual([]);
      const again = harness.reconcileNow();
      expect(again).toEqual([]);
    }), { numRuns: 500 });
    // About 1-3 s alone; the generous timeout keeps a busy two-core machine from failing it.
  }, 30_000);

  it('resolves a send that timed out after the venue took the order, without sending it again', () => {
    const harness = runModel([
      { kind: 'place', instrument: 0, buy: true, lots: 2, outcome: 'timeout-received' },
      { kind: 'resend', pick: 0 },
      { kind: 'venue-fill', pick: 0, quantity: 65, pricePaise: 10_000 },
      { kind: 'resolve' },
    ]);
    expect(harness.violations).toEqual([]);
    expect(harness.live[0]).toMatchObject({ status: 'PARTIALLY_FILLED', filledQuantity: 65, brokerOrderId: 'B1' });
    expect(harness.venue.receivedWithTag(venueTagOf(harness.live[0]!))).toBe(1);
  });

  it('rejects a lost send only once the venue\'s book has had time to show it', () => {
    const harness = runModel([{ kind: 'place', instrument: 0, buy: false, lots: 1, outcome: 'timeout-lost' }, { kind: 'resolve' }]);
    expect(harness.live[0]?.status).toBe('UNKNOWN');
    harness.advance(ABSENCE_SETTLE_MS);
    harness.resolveUnknown();
    expect(harness.live[0]).toMatchObject({ status: 'REJECTED', statusMessage: NOT_RECEIVED_MESSAGE });
  });

  it('recovers fills whose events were lost in a crash', () => {
    const harness = runModel([
      { kind: 'place', instrument: 1, buy: true, lots: 2, outcome: 'accept' },
      { kind: 'venue-fill', pick: 0, quantity: 100, pricePaise: 20_000 },
      { kind: 'venue-fill', pick: 0, quantity: 100, pricePaise: 20_100 },
      { kind: 'deliver', pick: 0, keep: true },
      { kind: 'restart' },
    ]);
    expect(harness.violations).toEqual([]);
    expect(harness.live[0]).toMatchObject({ status: 'FILLED', filledQuantity: 130 });
    expect(harness.positions.get('NIFTY26FEB25000PE')?.netQuantity).toBe(130);
  });
});
