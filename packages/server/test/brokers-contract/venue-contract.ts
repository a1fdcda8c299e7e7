// The venue contract: what every broker adapter must do behind the engine's `VenuePort`, checked
// against that broker's recorded HTTP exchanges. A broker joins with its recordings (the requests
// it expects and its answers, byte for byte as it sends them) and a harness that builds its adapter
// pointed at a `RecordedResponder`; `describeVenueContract` then registers the same scenarios for
// it as for every other broker (README.md beside this file).
//
// Each scenario asserts two things: the port's answer (accepted, rejected, unknown, timeout, the
// normalised book) and the requests the adapter sent, matched against the recording by method,
// path and the fields that matter. The rules it holds every broker to:
// - a broker order id is kept as the exact string the broker gave;
// - an order request is sent once: a 5xx or no answer is `unknown` or `timeout`, never a second
//   request; only a rate-limit refusal (the broker created nothing) is sent again;
// - `rejected` means nothing exists at the broker, and carries the broker's own message;
// - a dead session is `rejected` with a reason that says the order was not sent;
// - the book's statuses are the five of the port, each order's filled quantity is the sum of its
//   trades, and orders placed elsewhere are reported without a tag;
// - a position in a contract the platform cannot name is still reported, under a key of its own;
// - pushed order updates, repeated and out of order, give one fill event per trade.
import type { Paise } from '@vyuha/core';
import type { ModifyRequest, OmsOrderType, OrderIntent, OrderSide, VenueEvent, VenueOrderReport, VenueOrderStatus, VenuePort, VenuePosition, VenueTrade } from '@vyuha/engine';
import { describe, expect, it } from 'vitest';
import type { ReceivedRequest, RecordedResponder } from './recorded-responder';

export type ContractHttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** The request the adapter must send: compared by method, path and these fields (query and body together). */
export interface ExpectedRequest {
  readonly method: ContractHttpMethod;
  readonly path: string;
  /** Only the fields that matter; the adapter may send more. */
  readonly fields?: Readonly<Record<string, string>>;
}

/** The broker's answer exactly as it came: the body is text, not an object, so ids and numbers stay as sent. */
export interface AnsweredResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** No answer at all: the request stays open until the adapter gives up. */
export interface NoAnswer {
  readonly noAnswer: true;
}

export type RecordedResponse = AnsweredResponse | NoAnswer;

export interface RecordedExchange {
  readonly request: ExpectedRequest;
  readonly response: RecordedResponse;
}

/** The order every place scenario sends, in the platform's terms; the harness turns it into an intent. */
export interface ContractOrder {
  readonly tag: string;
  readonly side: OrderSide;
  readonly quantity: number;
  readonly orderType: OmsOrderType;
  readonly pricePaise?: Paise;
  readonly triggerPricePaise?: Paise;
}

/** One order of the book as the port must report it. */
export interface ExpectedOrder {
  readonly brokerOrderId: string;
  /** Absent for an order placed elsewhere: the report must have no tag either. */
  readonly tag?: string;
  /** `ours` is the harness's instrument key; `other` is any key that is not one of ours. */
  readonly contract: 'ours' | 'other';
  readonly side: OrderSide;
  readonly quantity: number;
  readonly status: VenueOrderStatus;
  readonly trades: readonly VenueTrade[];
  readonly statusMessage?: string;
}

interface Exchanges {
  readonly exchanges: readonly RecordedExchange[];
}

/** One broker's recordings: one entry per scenario. */
export interface VenueRecordings {
  /** A tag in the broker's form (length, alphabet), used by the place scenarios. */
  readonly tag: string;
  /** The contract order the place scenarios send; the expected requests are written for it. */
  readonly order: ContractOrder;
  readonly placeAccepted: Exchanges & { readonly brokerOrderId: string };
  readonly placeRefused: Exchanges & { readonly brokerMessage: string };
  readonly placeServerError: Exchanges;
  readonly placeNoAnswer: Exchanges;
  /** A rate-limit refusal, then the same order accepted. */
  readonly placeRateLimited: Exchanges & { readonly brokerOrderId: string };
  readonly placeSessionExpired: Exchanges;
  readonly cancel: Exchanges & { readonly brokerOrderId: string };
  /** Absent for a venue without `modify`. */
  readonly modify?: Exchanges & { readonly request: ModifyRequest };
  readonly orderBook: Exchanges & { readonly expected: readonly ExpectedOrder[] };
  readonly orderByTagFound: Exchanges & { readonly tag: string; readonly expected: ExpectedOrder };
  readonly orderByTagAbsent: Exchanges & { readonly tag: string };
  /** Our contract's net quantity (after any products are summed) and one contract the platform cannot map. */
  readonly positions: Exchanges & { readonly oursNetQuantity: number; readonly otherNetQuantity: number };
  /**
   * Pushed updates as the broker sends them (repeats and late ones included), with the reads they
   * cause; absent for a venue without pushed updates.
   */
  readonly pushedUpdates?: Exchanges & {
    readonly updates: readonly unknown[];
    readonly brokerOrderId: string;
    readonly tag: string;
    readonly trades: readonly VenueTrade[];
  };
}

export interface VenueHarness {
  readonly venue: VenuePort;
  /** Hands the adapter one pushed order update (a socket message, a webhook body). */
  readonly onOrderUpdate?: (update: unknown) => unknown;
  readonly recordings: VenueRecordings;
  readonly responder: RecordedResponder;
  /** The platform's key of the one contract the harness's adapter knows. */
  readonly instrumentKey: string;
  /** An intent for the known contract. */
  intent(order: ContractOrder): OrderIntent;
  close(): Promise<void>;
}

const STATUSES: readonly VenueOrderStatus[] = ['SUBMITTED', 'OPEN', 'FILLED', 'CANCELLED', 'REJECTED'];

/** Registers the contract's scenarios for one broker; `harness` builds a fresh adapter per scenario. */
export function describeVenueContract(name: string, harness: () => Promise<VenueHarness>): void {
  const run = async (scenario: (h: VenueHarness) => Promise<void>): Promise<void> => {
    const h = await harness();
    try {
      await scenario(h);
    } finally {
      await h.close();
    }
  };

  describe(`${name} venue contract: placing`, () => {
    it('keeps the broker order id of an accepted order as its exact string', () => run(async (h) => {
      const { placeAccepted: recording } = h.recordings;
      h.responder.play(recording.exchanges);
      const outcome = await h.venue.place(h.intent(h.recordings.order));
      expect(outcome).toEqual({ kind: 'accepted', brokerOrderId: recording.brokerOrderId, status: expect.stringMatching(/^(SUBMITTED|OPEN)$/) });
      expectRequests(h.responder, recording.exchanges);
    }));

    it('answers rejected with the broker\'s message when the broker refuses the order', () => run(async (h) => {
      const { placeRefused: recording } = h.recordings;
      h.responder.play(recording.exchanges);
      const outcome = await h.venue.place(h.intent(h.recordings.order));
      expect(outcome.kind).toBe('rejected');
      expect(outcome.kind === 'rejected' ? outcome.reason : '').toContain(recording.brokerMessage);
      expectRequests(h.responder, recording.exchanges);
    }));

    it('answers unknown to a server error, and never sends the order again', () => run(async (h) => {
      const { placeServerError: recording } = h.recordings;
      h.responder.play(recording.exchanges);
      const outcome = await h.venue.place(h.intent(h.recordings.order));
      expect(outcome.kind).toBe('unknown');
      await h.venue.settled?.();
      expectRequests(h.responder, recording.exchanges);
      expect(h.responder.received).toHaveLength(1);
    }));

    it('answers timeout when no answer comes, and never sends the order again', () => run(async (h) => {
      const { placeNoAnswer: recording } = h.recordings;
      h.responder.play(recording.exchanges);
      const outcome = await h.venue.place(h.intent(h.recordings.order));
      expect(outcome).toEqual({ kind: 'timeout' });
      await h.venue.settled?.();
      expectRequests(h.responder, recording.exchanges);
      expect(h.responder.received).toHaveLength(1);
    }));

    it('sends again after a rate-limit refusal, and one order results', () => run(async (h) => {
      const { placeRateLimited: recording } = h.recordings;
      h.responder.play(recording.exchanges);
      const outcome = await h.venue.place(h.intent(h.recordings.order));
      expect(outcome).toMatchObject({ kind: 'accepted', brokerOrderId: recording.brokerOrderId });
      expectRequests(h.responder, recording.exchanges);
      expect(h.responder.received).toHaveLength(2);
    }));

    it('answers rejected as not sent when the session has expired', () => run(async (h) => {
      const { placeSessionExpired: recording } = h.recordings;
      h.responder.play(recording.exchanges);
      const outcome = await h.venue.place(h.intent(h.recordings.order));
      expect(outcome.kind).toBe('rejected');
      expect(outcome.kind === 'rejected' ? outcome.reason : '').toMatch(/not sent/i);
      expectRequests(h.responder, recording.exchanges);
      expect(h.responder.received).toHaveLength(1);
    }));
  });

  describe(`${name} venue contract: changing orders`, () => {
    it('requests a cancellation', () => run(async (h) => {
      const { cancel: recording } = h.recordings;
      h.responder.play(recording.exchanges);
      expect(await h.venue.cancel({ brokerOrderId: recording.brokerOrderId })).toEqual({ kind: 'requested' });
      expectRequests(h.responder, recording.exchanges);
    }));

    it('requests a modification, when the venue can modify', () => run(async (h) => {
      const recording = h.recordings.modify;
      const modify = h.venue.modify?.bind(h.venue);
      // A venue without modify has no recording for it, and the other way round.
      expect(modify === undefined).toBe(recording === undefined);
      if (modify === undefined || recording === undefined) return;
      h.responder.play(recording.exchanges);
      expect(await modify(recording.request)).toEqual({ kind: 'requested' });
      expectRequests(h.responder, recording.exchanges);
    }));
  });

  describe(`${name} venue contract: the venue's view`, () => {
    it('maps the order book: the five statuses, fills that add up to the trades, other platforms\' orders without a tag', () => run(async (h) => {
      const { orderBook: recording } = h.recordings;
      // The recording must exercise every normalised status and an order placed elsewhere.
      expect(new Set(recording.expected.map((order) => order.status))).toEqual(new Set(STATUSES));
      expect(recording.expected.some((order) => order.tag === undefined && order.contract === 'other')).toBe(true);
      h.responder.play(recording.exchanges);
      const reports = await h.venue.orderBook();
      for (const report of reports) expectConsistent(report);
      expect(reports.map((report) => report.brokerOrderId).sort()).toEqual(recording.expected.map((order) => order.brokerOrderId).sort());
      for (const expected of recording.expected) {
        expectOrder(reports.find((report) => report.brokerOrderId === expected.brokerOrderId), expected, h.instrumentKey);
      }
      expectRequests(h.responder, recording.exchanges);
    }));

    it('finds an order by its tag, with its trades', () => run(async (h) => {
      const { orderByTagFound: recording } = h.recordings;
      h.responder.play(recording.exchanges);
      const report = await h.venue.orderByTag(recording.tag);
      expect(report).toBeDefined();
      if (report !== undefined) expectConsistent(report);
      expectOrder(report, recording.expected, h.instrumentKey);
      expectRequests(h.responder, recording.exchanges);
    }));

    it('answers undefined for a tag the venue has no order for', () => run(async (h) => {
      const { orderByTagAbsent: recording } = h.recordings;
      h.responder.play(recording.exchanges);
      expect(await h.venue.orderByTag(recording.tag)).toBeUndefined();
      expectRequests(h.responder, recording.exchanges);
    }));

    it('reports net positions, a contract it cannot map under a key that is not ours', () => run(async (h) => {
      const { positions: recording } = h.recordings;
      h.responder.play(recording.exchanges);
      const positions = (await h.venue.positions()).filter((position) => position.netQuantity !== 0);
      const keys = positions.map((position) => position.instrumentKey);
      expect(new Set(keys).size).toBe(keys.length);
      expect(positions.find((position) => position.instrumentKey === h.instrumentKey)).toEqual({ instrumentKey: h.instrumentKey, netQuantity: recording.oursNetQuantity });
      const others: VenuePosition[] = positions.filter((position) => position.instrumentKey !== h.instrumentKey);
      expect(others).toHaveLength(1);
      expect(others[0]?.instrumentKey).not.toBe('');
      expect(others[0]?.netQuantity).toBe(recording.otherNetQuantity);
      expectRequests(h.responder, recording.exchanges);
    }));
  });

  describe(`${name} venue contract: pushed updates`, () => {
    it('turns repeated, out-of-order updates into one fill event per trade', () => run(async (h) => {
      const recording = h.recordings.pushedUpdates;
      expect(h.onOrderUpdate === undefined).toBe(recording === undefined);
      if (h.onOrderUpdate === undefined || recording === undefined) return;
      // The recording must repeat an update, or the scenario proves nothing about repeats.
      const texts = recording.updates.map((update) => (typeof update === 'string' ? update : JSON.stringify(update)));
      expect(new Set(texts).size).toBeLessThan(texts.length);
      h.responder.play(recording.exchanges);
      const events: VenueEvent[] = [];
      const unsubscribe = h.venue.subscribe((event) => events.push(event));
      for (const update of recording.updates) h.onOrderUpdate(update);
      await h.venue.settled?.();
      unsubscribe();
      const fills = events.filter((event) => event.kind === 'fill');
      const byTrade = (a: VenueTrade, b: VenueTrade): number => a.tradeId.localeCompare(b.tradeId);
      expect(fills.map((fill) => fill.trade).sort(byTrade)).toEqual([...recording.trades].sort(byTrade));
      for (const fill of fills) expect(fill).toMatchObject({ brokerOrderId: recording.brokerOrderId, tag: recording.tag });
      expectRequests(h.responder, recording.exchanges);
    }));
  });
}

/** A report's own invariants: a port status, and a filled quantity that is its trades' sum. */
function expectConsistent(report: VenueOrderReport): void {
  expect(STATUSES).toContain(report.status);
  expect(report.filledQuantity).toBe(report.trades.reduce((sum, trade) => sum + trade.quantity, 0));
  expect(report.filledQuantity).toBeLessThanOrEqual(report.quantity);
}

function expectOrder(report: VenueOrderReport | undefined, expected: ExpectedOrder, ourKey: string): void {
  expect(report, `order ${expected.brokerOrderId}`).toBeDefined();
  if (report === undefined) return;
  expect(report.brokerOrderId).toBe(expected.brokerOrderId);
  expect(report.tag).toBe(expected.tag);
  expect(report.side).toBe(expected.side);
  expect(report.quantity).toBe(expected.quantity);
  expect(report.status, `status of order ${expected.brokerOrderId}`).toBe(expected.status);
  expect(report.trades).toEqual(expected.trades);
  if (expected.statusMessage !== undefined) expect(report.statusMessage).toBe(expected.statusMessage);
  if (expected.contract === 'ours') expect(report.instrumentKey).toBe(ourKey);
  else expect(report.instrumentKey).not.toBe(ourKey);
  expect(report.instrumentKey).not.toBe('');
}

/**
 * What the adapter sent against the recording: every request found its exchange (nothing
 * unrecorded, so no resent order), every exchange was asked for, a request that changes something
 * exactly once, and each request carried the recording's fields.
 */
function expectRequests(responder: RecordedResponder, exchanges: readonly RecordedExchange[]): void {
  const describeRequest = (request: ReceivedRequest): string => `${request.method} ${request.path}`;
  expect(responder.received.filter((request) => request.answeredBy === undefined).map(describeRequest), 'requests with no recording').toEqual([]);
  for (const [index, exchange] of exchanges.entries()) {
    const { method, path, fields = {} } = exchange.request;
    const answered = responder.received.filter((request) => request.answeredBy === index);
    const label = `exchange ${index} (${method} ${path})`;
    if (method === 'GET') expect(answered.length, `${label} asked for`).toBeGreaterThanOrEqual(1);
    else expect(answered.length, `${label} sent exactly once`).toBe(1);
    for (const request of answered) expect(request.fields, `${label} fields`).toMatchObject(fields);
  }
}
