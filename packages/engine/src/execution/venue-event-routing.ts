// From the venue's event stream to the state machine: which local order an event is about, and
// which order event it is. An event names the venue's order id; an order whose acknowledgement
// has not arrived yet (or was lost to a timeout) is found by the tag it was placed with instead.
import type { OrderEvent } from './order-events';
import { venueTagOf } from './order-state';
import type { OmsOrder } from './order-state';
import type { VenueEvent } from './venue-port';

/** The order event a venue event means. */
export function orderEventOf(event: VenueEvent): OrderEvent {
  switch (event.kind) {
    case 'ack':
      return { type: 'accepted', brokerOrderId: event.brokerOrderId, status: event.status };
    case 'fill':
      return { type: 'fill', fill: event.trade, brokerOrderId: event.brokerOrderId };
    case 'cancelled':
      return { type: 'cancelled', brokerOrderId: event.brokerOrderId, ...(event.reason === undefined ? {} : { reason: event.reason }) };
    case 'rejected':
      return { type: 'rejected', reason: event.reason, brokerOrderId: event.brokerOrderId };
  }
}

/**
 * The local order a venue event is about: by broker order id, else by tag; undefined when none
 * matches (an order placed outside the platform, which reconciliation reports through positions).
 */
export function orderForVenueEvent(orders: Iterable<OmsOrder>, event: VenueEvent): OmsOrder | undefined {
  const tag = event.tag;
  let byTag: OmsOrder | undefined;
  for (const order of orders) {
    if (order.brokerOrderId === event.brokerOrderId) return order;
    if (tag !== undefined && order.brokerOrderId === undefined && venueTagOf(order) === tag) byTag = order;
  }
  return byTag;
}
