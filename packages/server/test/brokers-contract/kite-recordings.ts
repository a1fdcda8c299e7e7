// Kite Connect v3's recordings for the venue contract: the requests the Kite adapter must send and
// Kite's answers as Kite sends them (docs/BROKER-KITE.md: the `{status, data}` and `{status,
// message, error_type}` envelopes, order ids as strings of up to 19 digits, statuses such as
// COMPLETE and TRIGGER PENDING, trades with trade_id, average_price in rupees and fill_timestamp
// as "YYYY-MM-DD HH:MM:SS" in IST). The contract order is a LIMIT BUY of 5 NSE:INFY (MIS) at
// Rs 1500.50; the harness knows INFY only, so SBIN is a contract the platform cannot map.
//
// Expected trade prices are paise (average_price 1500.35 -> 150035) and times are epoch ms of the
// IST wall clock (09:16:02 IST is 03:46:02 UTC).
import { paise } from '@vyuha/core';
import type { VenueTrade } from '@vyuha/engine';
import type { AnsweredResponse, ExpectedOrder, ExpectedRequest, RecordedExchange, VenueRecordings } from './venue-contract';

const JSON_HEADERS = { 'content-type': 'application/json' };
export const KITE_CONTRACT_TAG = 'c0ffee00c0ffee000017';
const OUR_ORDER = '1953367517686685697';
const REFUSED_MESSAGE = 'Markets are closed right now. Use GTT for placing long standing orders instead.';

const success = (data: unknown): AnsweredResponse => ({ status: 200, headers: JSON_HEADERS, body: JSON.stringify({ status: 'success', data }) });
const failure = (status: number, errorType: string, message: string): AnsweredResponse => ({
  status, headers: JSON_HEADERS, body: JSON.stringify({ status: 'error', message, data: null, error_type: errorType }),
});

/** The place request of the contract order, with the fields Kite needs to take it as meant. */
const PLACE: ExpectedRequest = {
  method: 'POST', path: '/orders/regular',
  fields: {
    exchange: 'NSE', tradingsymbol: 'INFY', transaction_type: 'BUY', order_type: 'LIMIT', quantity: '5', product: 'MIS', price: '1500.50',
    tag: KITE_CONTRACT_TAG,
  },
};

function kiteOrder(fields: Record<string, unknown>): Record<string, unknown> {
  return {
    placed_by: 'AB1234', order_id: OUR_ORDER, exchange_order_id: '1300000001887410', parent_order_id: null, status: 'OPEN', status_message: null,
    status_message_raw: null, order_timestamp: '2026-04-06 09:15:01', exchange_update_timestamp: '2026-04-06 09:15:01',
    exchange_timestamp: '2026-04-06 09:15:01', variety: 'regular', modified: false, exchange: 'NSE', tradingsymbol: 'INFY', instrument_token: 408065,
    order_type: 'LIMIT', transaction_type: 'BUY', validity: 'DAY', validity_ttl: 0, product: 'MIS', quantity: 5, disclosed_quantity: 0,
    price: 1500.5, trigger_price: 0, average_price: 0, filled_quantity: 0, pending_quantity: 5, cancelled_quantity: 0, market_protection: 0,
    meta: {}, tag: KITE_CONTRACT_TAG, tags: [KITE_CONTRACT_TAG], guid: '01XpZ0ecAiHq1Xb', ...fields,
  };
}

function kiteTrade(tradeId: string, orderId: string, fields: Record<string, unknown>): Record<string, unknown> {
  return {
    trade_id: tradeId, order_id: orderId, exchange: 'NSE', tradingsymbol: 'INFY', instrument_token: 408065, product: 'MIS', average_price: 1500.35,
    quantity: 1, exchange_order_id: '1300000001887410', transaction_type: 'BUY', fill_timestamp: '2026-04-06 09:16:02', order_timestamp: '09:16:02',
    exchange_timestamp: '2026-04-06 09:16:02', ...fields,
  };
}

/** 2026-04-06 09:16:02 IST. */
const FILLED_AT = Date.parse('2026-04-06T03:46:02Z');
const trade = (tradeId: string, quantity: number, pricePaise: number): VenueTrade => ({ tradeId, quantity, pricePaise: paise(pricePaise), atMs: FILLED_AT });

// The order book: one order per normalised status, and one placed from Kite's own app (no tag).
const PARTLY_FILLED = kiteOrder({ status: 'OPEN', filled_quantity: 3, pending_quantity: 2, average_price: 1500.3667 });
const TRIGGER_PENDING = kiteOrder({
  order_id: '1953367517686685698', tag: 'c0ffee00c0ffee000018', tags: ['c0ffee00c0ffee000018'], status: 'TRIGGER PENDING', order_type: 'SL',
  transaction_type: 'SELL', quantity: 2, pending_quantity: 2, price: 1490, trigger_price: 1492.5,
});
const ELSEWHERE = kiteOrder({
  order_id: '220303000308932', tag: null, tags: [], tradingsymbol: 'SBIN', instrument_token: 779521, status: 'COMPLETE', order_type: 'MARKET',
  transaction_type: 'SELL', product: 'CNC', quantity: 1, filled_quantity: 1, pending_quantity: 0, price: 0, average_price: 780.05, guid: null,
});
const CANCELLED = kiteOrder({
  order_id: '1953367517686685699', tag: 'c0ffee00c0ffee000019', tags: ['c0ffee00c0ffee000019'], status: 'CANCELLED', quantity: 1, pending_quantity: 0,
  cancelled_quantity: 1,
});
const REJECTED = kiteOrder({
  order_id: '1953367517686685700', exchange_order_id: null, tag: null, tags: ['mktp', 'mktp:2.00', 'c0ffee00c0ffee000020'], status: 'REJECTED',
  status_message: 'Insufficient funds. Required margin is 7502.50 but available margin is 1200.00.', order_type: 'MARKET', price: 0,
  pending_quantity: 0, exchange_timestamp: null, exchange_update_timestamp: null,
});
const REQUESTED = kiteOrder({
  order_id: '1953367517686685701', exchange_order_id: null, tag: 'c0ffee00c0ffee000021', tags: ['c0ffee00c0ffee000021'], status: 'PUT ORDER REQ RECEIVED',
  exchange_timestamp: null, exchange_update_timestamp: null,
});
const BOOK_TRADES = [
  kiteTrade('10000000', OUR_ORDER, { quantity: 2 }),
  kiteTrade('10000001', OUR_ORDER, { quantity: 1, average_price: 1500.4, fill_timestamp: '2026-04-06 09:16:02' }),
  kiteTrade('20000000', '220303000308932', { tradingsymbol: 'SBIN', instrument_token: 779521, product: 'CNC', average_price: 780.05, transaction_type: 'SELL' }),
];

const BOOK_EXPECTED: readonly ExpectedOrder[] = [
  { brokerOrderId: OUR_ORDER, tag: KITE_CONTRACT_TAG, contract: 'ours', side: 'BUY', quantity: 5, status: 'OPEN', trades: [trade('10000000', 2, 150_035), trade('10000001', 1, 150_040)] },
  { brokerOrderId: '1953367517686685698', tag: 'c0ffee00c0ffee000018', contract: 'ours', side: 'SELL', quantity: 2, status: 'OPEN', trades: [] },
  { brokerOrderId: '220303000308932', contract: 'other', side: 'SELL', quantity: 1, status: 'FILLED', trades: [trade('20000000', 1, 78_005)] },
  { brokerOrderId: '1953367517686685699', tag: 'c0ffee00c0ffee000019', contract: 'ours', side: 'BUY', quantity: 1, status: 'CANCELLED', trades: [] },
  {
    // Kite's system tags come first; the order's own tag field is null, so the report has no tag.
    brokerOrderId: '1953367517686685700', contract: 'ours', side: 'BUY', quantity: 5, status: 'REJECTED', trades: [],
    statusMessage: 'Insufficient funds. Required margin is 7502.50 but available margin is 1200.00.',
  },
  { brokerOrderId: '1953367517686685701', tag: 'c0ffee00c0ffee000021', contract: 'ours', side: 'BUY', quantity: 5, status: 'SUBMITTED', trades: [] },
];

function position(symbol: string, product: string, quantity: number): Record<string, unknown> {
  return {
    tradingsymbol: symbol, exchange: 'NSE', instrument_token: symbol === 'INFY' ? 408065 : 779521, product, quantity, overnight_quantity: 0,
    multiplier: 1, average_price: 1500, close_price: 0, last_price: 1501, value: -7500, pnl: 5, m2m: 5, unrealised: 5, realised: 0,
    buy_quantity: Math.max(quantity, 0), buy_price: 1500, buy_value: 7500, sell_quantity: Math.max(-quantity, 0), sell_price: 0, sell_value: 0,
    day_buy_quantity: Math.max(quantity, 0), day_sell_quantity: Math.max(-quantity, 0),
  };
}

// Pushed updates: the `data` of the ticker's order messages (the postback's structure), as text.
const UPDATE_FIELDS = { user_id: 'AB1234', app_id: 1234, unfilled_quantity: 0 };
const OPENED = JSON.stringify(kiteOrder({ ...UPDATE_FIELDS, status: 'OPEN' }));
const COMPLETED = JSON.stringify(kiteOrder({ ...UPDATE_FIELDS, status: 'COMPLETE', filled_quantity: 5, pending_quantity: 0, average_price: 1500.38 }));
const PARTLY = JSON.stringify(kiteOrder({ ...UPDATE_FIELDS, status: 'UPDATE', filled_quantity: 2, pending_quantity: 3, average_price: 1500.35 }));

const get = (path: string, response: AnsweredResponse): RecordedExchange => ({ request: { method: 'GET', path }, response });

export const KITE_RECORDINGS: VenueRecordings = {
  tag: KITE_CONTRACT_TAG,
  order: { tag: KITE_CONTRACT_TAG, side: 'BUY', quantity: 5, orderType: 'LIMIT', pricePaise: paise(150_050) },
  placeAccepted: { brokerOrderId: OUR_ORDER, exchanges: [{ request: PLACE, response: success({ order_id: OUR_ORDER }) }] },
  placeRefused: {
    brokerMessage: REFUSED_MESSAGE,
    exchanges: [{ request: PLACE, response: failure(400, 'InputException', REFUSED_MESSAGE) }],
  },
  placeServerError: {
    exchanges: [{ request: PLACE, response: failure(500, 'GeneralException', 'Something went wrong. Please try again.') }],
  },
  placeNoAnswer: { exchanges: [{ request: PLACE, response: { noAnswer: true } }] },
  placeRateLimited: {
    brokerOrderId: OUR_ORDER,
    exchanges: [
      { request: PLACE, response: { status: 429, headers: JSON_HEADERS, body: '{"status":"error","message":"Too many requests","error_type":"NetworkException"}' } },
      { request: PLACE, response: success({ order_id: OUR_ORDER }) },
    ],
  },
  placeSessionExpired: {
    exchanges: [{ request: PLACE, response: failure(403, 'TokenException', 'Incorrect `api_key` or `access_token`.') }],
  },
  cancel: {
    brokerOrderId: OUR_ORDER,
    exchanges: [{ request: { method: 'DELETE', path: `/orders/regular/${OUR_ORDER}` }, response: success({ order_id: OUR_ORDER }) }],
  },
  modify: {
    request: { brokerOrderId: OUR_ORDER, pricePaise: paise(150_100), quantity: 4 },
    exchanges: [{
      request: { method: 'PUT', path: `/orders/regular/${OUR_ORDER}`, fields: { price: '1501.00', quantity: '4' } },
      response: success({ order_id: OUR_ORDER }),
    }],
  },
  orderBook: {
    expected: BOOK_EXPECTED,
    exchanges: [
      get('/orders', success([PARTLY_FILLED, TRIGGER_PENDING, ELSEWHERE, CANCELLED, REJECTED, REQUESTED])),
      get('/trades', success(BOOK_TRADES)),
    ],
  },
  orderByTagFound: {
    tag: 'c0ffee00c0ffee000020',
    expected: {
      brokerOrderId: '1953367517686685700', contract: 'ours', side: 'BUY', quantity: 5, status: 'REJECTED', trades: [],
      statusMessage: 'Insufficient funds. Required margin is 7502.50 but available margin is 1200.00.',
    },
    exchanges: [
      get('/orders', success([PARTLY_FILLED, ELSEWHERE, REJECTED])),
      get('/orders/1953367517686685700/trades', success([])),
    ],
  },
  orderByTagAbsent: {
    tag: 'c0ffee00c0ffee000099',
    exchanges: [get('/orders', success([PARTLY_FILLED, ELSEWHERE, REJECTED]))],
  },
  positions: {
    oursNetQuantity: 3,
    otherNetQuantity: -10,
    exchanges: [get('/portfolio/positions', success({
      net: [position('INFY', 'MIS', 5), position('INFY', 'NRML', -2), position('SBIN', 'CNC', -10), position('RELIANCE', 'MIS', 0)],
      day: [position('INFY', 'MIS', 5), position('SBIN', 'CNC', -10)],
    }))],
  },
  pushedUpdates: {
    brokerOrderId: OUR_ORDER,
    tag: KITE_CONTRACT_TAG,
    // The completion arrives before the partial fill's update, and both arrive twice.
    updates: [OPENED, COMPLETED, PARTLY, COMPLETED, PARTLY],
    trades: [trade('10000000', 2, 150_035), trade('10000001', 3, 150_040)],
    exchanges: [get(`/orders/${OUR_ORDER}/trades`, success([
      kiteTrade('10000000', OUR_ORDER, { quantity: 2 }),
      kiteTrade('10000001', OUR_ORDER, { quantity: 3, average_price: 1500.4 }),
    ]))],
  },
};
