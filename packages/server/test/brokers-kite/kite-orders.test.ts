// Kite's orders as pure mappings: the forms we send, and Kite's orders, trades, order updates and
// postbacks read back, with payloads shaped as Kite records them (docs/BROKER-KITE.md, "Orders").
import { createHash } from 'node:crypto';
import { paise } from '@vyuha/core';
import type { ClientOrderId, OrderIntent } from '@vyuha/engine';
import { describe, expect, it } from 'vitest';
import { parseKiteJson } from '../../src/brokers/kite/kite-api';
import {
  kiteModifyForm, kitePlaceForm, kiteRupees, kiteTradeOf, orderReportOf, parseKiteOrderUpdate, venueStatusOf, verifyKitePostback,
} from '../../src/brokers/kite/kite-orders';

const BIG_ID = '1953367517686685697';

const LIMIT_BUY: OrderIntent = {
  clientOrderId: '0f8e0000-0000-4000-8000-0000000000c2-7' as ClientOrderId, tag: 'a1b2c3d4e5f6g0000007', instrumentKey: '408065',
  exchange: 'NSE', tradingSymbol: 'INFY', side: 'BUY', quantity: 5, orderType: 'LIMIT', pricePaise: paise(150_050), product: 'MIS',
};
const INFY = { exchange: 'NSE', tradingSymbol: 'INFY' };

/** An order of GET /orders, shaped like Kite's orders.json. */
function kiteOrder(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    placed_by: 'AB1234', order_id: BIG_ID, exchange_order_id: '1300000001887410', parent_order_id: null, status: 'OPEN',
    status_message: null, status_message_raw: null, order_timestamp: '2026-04-06 09:15:01', exchange_update_timestamp: '2026-04-06 09:15:01',
    exchange_timestamp: '2026-04-06 09:15:01', variety: 'regular', modified: false, exchange: 'NSE', tradingsymbol: 'INFY',
    instrument_token: 408065, order_type: 'LIMIT', transaction_type: 'BUY', validity: 'DAY', validity_ttl: 0, product: 'MIS', quantity: 5,
    disclosed_quantity: 0, price: 1500.5, trigger_price: 0, average_price: 0, filled_quantity: 0, pending_quantity: 5, cancelled_quantity: 0,
    market_protection: 0, meta: {}, tag: 'a1b2c3d4e5f6g0000007', tags: ['a1b2c3d4e5f6g0000007'], guid: '01XpZ0ecAiHq1Xb',
    ...fields,
  };
}

/** A trade of GET /trades, shaped like Kite's trades.json (order_timestamp is time-only there). */
function kiteTrade(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    trade_id: '10000000', order_id: BIG_ID, exchange: 'NSE', tradingsymbol: 'INFY', instrument_token: 408065, product: 'MIS',
    average_price: 1500.35, quantity: 2, exchange_order_id: '1300000001887410', transaction_type: 'BUY',
    fill_timestamp: '2026-04-06 09:16:02', order_timestamp: '09:16:02', exchange_timestamp: '2026-04-06 09:16:02',
    ...fields,
  };
}

const KEYS = (exchange: string, symbol: string): string | undefined => (exchange === 'NSE' && symbol === 'INFY' ? '408065' : undefined);

describe('the place form', () => {
  it('sends a LIMIT order as a regular DAY order, price in rupees with 2 decimals, tag, no autoslice, no protection', () => {
    expect(kitePlaceForm(LIMIT_BUY, INFY, { marketProtection: -1 })).toEqual({
      ok: true,
      value: {
        variety: 'regular', exchange: 'NSE', tradingsymbol: 'INFY', transaction_type: 'BUY', order_type: 'LIMIT', quantity: '5',
        product: 'MIS', validity: 'DAY', tag: 'a1b2c3d4e5f6g0000007', autoslice: 'false', price: '1500.50',
      },
    });
  });

  it('puts market_protection on MARKET and SL-M orders, the trigger on SL and SL-M, and the algo id when there is one', () => {
    const market = kitePlaceForm({ ...LIMIT_BUY, orderType: 'MARKET', algoId: 'ALGO42' }, INFY, { marketProtection: -1 });
    expect(market.ok && market.value).toMatchObject({ order_type: 'MARKET', market_protection: '-1', algo_id: 'ALGO42' });
    expect(market.ok && 'price' in market.value).toBe(false);
    const slm = kitePlaceForm({ ...LIMIT_BUY, orderType: 'SL-M', side: 'SELL', triggerPricePaise: paise(149_905) }, INFY, { marketProtection: 2.5 });
    expect(slm.ok && slm.value).toMatchObject({ order_type: 'SL-M', transaction_type: 'SELL', trigger_price: '1499.05', market_protection: '2.5' });
    const sl = kitePlaceForm({ ...LIMIT_BUY, orderType: 'SL', triggerPricePaise: paise(150_000) }, INFY, { marketProtection: -1 });
    expect(sl.ok && sl.value).toMatchObject({ price: '1500.50', trigger_price: '1500.00' });
    expect(sl.ok && 'market_protection' in sl.value).toBe(false);
  });

  it('refuses what Kite would refuse, naming the field', () => {
    expect(kitePlaceForm({ ...LIMIT_BUY, orderType: 'MARKET' }, INFY, { marketProtection: 0 })).toEqual({
      ok: false,
      error: 'market_protection must be -1 (automatic) or a percentage above 0 up to 100, got 0: Kite refuses MARKET and SL-M orders without it',
    });
    const { pricePaise: _unused, ...noPrice } = LIMIT_BUY;
    expect(kitePlaceForm(noPrice, INFY, { marketProtection: -1 })).toEqual({ ok: false, error: 'price is required for a LIMIT order' });
    expect(kitePlaceForm({ ...LIMIT_BUY, orderType: 'SL-M' }, INFY, { marketProtection: -1 })).toEqual({ ok: false, error: 'trigger_price is required for a SL-M order' });
    expect(kitePlaceForm({ ...LIMIT_BUY, tag: 'a-tag-with-dashes' }, INFY, { marketProtection: -1 }).ok).toBe(false);
    expect(kitePlaceForm({ ...LIMIT_BUY, quantity: 0 }, INFY, { marketProtection: -1 })).toEqual({ ok: false, error: 'quantity must be a whole number above 0, got 0' });
  });

  it('writes rupees from whole paise without float drift', () => {
    expect([kiteRupees(5), kiteRupees(100), kiteRupees(125_035), kiteRupees(-1_999), kiteRupees(900_719_925_474_099)])
      .toEqual(['0.05', '1.00', '1250.35', '-19.99', '9007199254740.99']);
  });
});

describe('the modify form', () => {
  it('carries the changed levels in rupees and the order type, with protection for SL-M', () => {
    expect(kiteModifyForm({ brokerOrderId: BIG_ID, pricePaise: paise(150_100) }, { orderType: 'LIMIT', marketProtection: -1 }))
      .toEqual({ ok: true, value: { order_type: 'LIMIT', price: '1501.00' } });
    expect(kiteModifyForm({ brokerOrderId: BIG_ID, triggerPricePaise: paise(149_000), quantity: 3 }, { orderType: 'SL-M', marketProtection: -1 }))
      .toEqual({ ok: true, value: { order_type: 'SL-M', quantity: '3', trigger_price: '1490.00', market_protection: '-1' } });
    expect(kiteModifyForm({ brokerOrderId: BIG_ID }, { marketProtection: -1 })).toEqual({ ok: false, error: 'a modification must change quantity, price or trigger_price' });
  });
});

describe('Kite statuses', () => {
  it('maps every documented word and refuses unknown ones', () => {
    const words: Record<string, string> = {
      COMPLETE: 'FILLED', OPEN: 'OPEN', 'TRIGGER PENDING': 'OPEN', CANCELLED: 'CANCELLED', REJECTED: 'REJECTED',
      'PUT ORDER REQ RECEIVED': 'SUBMITTED', 'VALIDATION PENDING': 'SUBMITTED', 'OPEN PENDING': 'SUBMITTED', 'AMO REQ RECEIVED': 'SUBMITTED',
      'MODIFY VALIDATION PENDING': 'OPEN', 'MODIFY PENDING': 'OPEN', MODIFIED: 'OPEN', 'CANCEL PENDING': 'OPEN', UPDATE: 'OPEN',
    };
    for (const [word, status] of Object.entries(words)) expect(venueStatusOf(word)).toEqual({ ok: true, value: status });
    expect(venueStatusOf('PARTIALLY EXECUTED')).toEqual({ ok: false, error: 'status "PARTIALLY EXECUTED" is not a Kite order status this venue knows' });
    expect(venueStatusOf('toString').ok).toBe(false);
  });
});

describe('trades', () => {
  it('reads the fill price in paise and the IST fill time as epoch ms', () => {
    // 09:16:02 IST is 03:46:02 UTC.
    expect(kiteTradeOf(kiteTrade())).toEqual({
      ok: true, value: { tradeId: '10000000', orderId: BIG_ID, quantity: 2, pricePaise: 150_035, atMs: Date.parse('2026-04-06T03:46:02Z') },
    });
    expect(kiteTradeOf(kiteTrade({ fill_timestamp: null })).ok).toBe(true);
    expect(kiteTradeOf(kiteTrade({ fill_timestamp: '09:16:02' }))).toEqual({
      ok: false, error: 'trade.fill_timestamp must be a time "YYYY-MM-DD HH:MM:SS" (IST), got "09:16:02"',
    });
    expect(kiteTradeOf(kiteTrade({ trade_id: 10000000 }))).toEqual({ ok: false, error: 'trade.trade_id must be an id string, got 10000000' });
    expect(kiteTradeOf(kiteTrade({ average_price: '1500.35' })).ok).toBe(false);
  });
});

describe('the order report', () => {
  it('maps an order with its trades; filledQuantity is the trades\' sum', () => {
    const order = kiteOrder({ status: 'OPEN', filled_quantity: 3, pending_quantity: 2 });
    const report = orderReportOf(order, [kiteTrade(), kiteTrade({ trade_id: '10000001', quantity: 1, average_price: 1500.4 })], KEYS);
    expect(report).toEqual({
      ok: true,
      value: {
        brokerOrderId: BIG_ID, tag: 'a1b2c3d4e5f6g0000007', instrumentKey: '408065', side: 'BUY', quantity: 5, status: 'OPEN', filledQuantity: 3,
        trades: [
          { tradeId: '10000000', quantity: 2, pricePaise: 150_035, atMs: Date.parse('2026-04-06T03:46:02Z') },
          { tradeId: '10000001', quantity: 1, pricePaise: 150_040, atMs: Date.parse('2026-04-06T03:46:02Z') },
        ],
      },
    });
  });

  it('reports a COMPLETE order whose trades lag as OPEN, so nothing final is adopted without its fills', () => {
    const report = orderReportOf(kiteOrder({ status: 'COMPLETE', filled_quantity: 5, pending_quantity: 0 }), [kiteTrade()], KEYS);
    expect(report.ok && { status: report.value.status, filledQuantity: report.value.filledQuantity }).toEqual({ status: 'OPEN', filledQuantity: 2 });
    const full = orderReportOf(kiteOrder({ status: 'COMPLETE', filled_quantity: 5 }), [kiteTrade({ quantity: 5 })], KEYS);
    expect(full.ok && full.value.status).toBe('FILLED');
  });

  it('keeps a rejection\'s message, leaves out a missing tag and names an unknown contract kite:<exchange>:<symbol>', () => {
    const report = orderReportOf(kiteOrder({
      status: 'REJECTED', tag: null, tags: null, exchange: 'NFO', tradingsymbol: 'NIFTY26APRFUT', exchange_order_id: null,
      status_message: 'Insufficient funds. Required margin is 95417.84 but available margin is 74251.80.',
    }), [], KEYS);
    expect(report).toEqual({
      ok: true,
      value: {
        brokerOrderId: BIG_ID, instrumentKey: 'kite:NFO:NIFTY26APRFUT', side: 'BUY', quantity: 5, status: 'REJECTED', filledQuantity: 0, trades: [],
        statusMessage: 'Insufficient funds. Required margin is 95417.84 but available margin is 74251.80.',
      },
    });
  });

  it('refuses a trade of another order and a malformed order, naming the field', () => {
    expect(orderReportOf(kiteOrder(), [kiteTrade({ order_id: '220303000308932' })], KEYS))
      .toEqual({ ok: false, error: `trades[0].order_id 220303000308932 is not order ${BIG_ID}` });
    expect(orderReportOf(kiteOrder({ transaction_type: 'buy' }), [], KEYS)).toEqual({ ok: false, error: 'order.transaction_type must be BUY or SELL, got "buy"' });
    expect(orderReportOf(kiteOrder({ filled_quantity: '2' }), [], KEYS)).toEqual({ ok: false, error: 'order.filled_quantity must be a whole number from 0, got "2"' });
    expect(orderReportOf(kiteOrder({ status: 'LOST' }), [], KEYS)).toEqual({ ok: false, error: 'order.status "LOST" is not a Kite order status this venue knows' });
  });
});

describe('order updates and postbacks', () => {
  const secret = 'kite-api-secret';
  const postback = (fields: Record<string, unknown> = {}): Record<string, unknown> => {
    const body: Record<string, unknown> = { ...kiteOrder({ status: 'COMPLETE', filled_quantity: 5 }), user_id: 'AB1234', app_id: 1234, unfilled_quantity: 0, ...fields };
    return { ...body, checksum: createHash('sha256').update(`${String(body.order_id)}${String(body.order_timestamp)}${secret}`).digest('hex') };
  };

  it('keeps a 19-digit order id exact even when a body carries it as a bare number', () => {
    const text = JSON.stringify(kiteOrder({ order_id: 'X' })).replace('"order_id":"X"', `"order_id":${BIG_ID}`);
    const update = parseKiteOrderUpdate(text);
    expect(update.ok && update.value.orderId).toBe(BIG_ID);
    expect(parseKiteJson(`{"data":{"order_id":${BIG_ID},"note":"\\"order_id\\":1"}}`)).toEqual({ data: { order_id: BIG_ID, note: '"order_id":1' } });
  });

  it('reads a ticker order message\'s data', () => {
    const update = parseKiteOrderUpdate(kiteOrder({ status: 'UPDATE', filled_quantity: 2 }));
    expect(update.ok && update.value).toMatchObject({ orderId: BIG_ID, kiteStatus: 'UPDATE', status: 'OPEN', filledQuantity: 2, tag: 'a1b2c3d4e5f6g0000007' });
    expect(parseKiteOrderUpdate('not json')).toEqual({ ok: false, error: 'the order update is not JSON' });
    expect(parseKiteOrderUpdate(kiteOrder({ quantity: 5, filled_quantity: 6 }))).toEqual({ ok: false, error: 'order update.filled_quantity 6 exceeds quantity 5' });
  });

  it('accepts a postback whose checksum is SHA-256(order_id + order_timestamp + api_secret)', () => {
    const verified = verifyKitePostback(JSON.stringify(postback()), secret);
    expect(verified.ok && verified.value).toMatchObject({ orderId: BIG_ID, status: 'FILLED', filledQuantity: 5 });
    expect(verifyKitePostback(postback(), secret).ok).toBe(true);
  });

  it('refuses a postback signed with another secret or altered, without showing the checksum', () => {
    const body = postback();
    const wrong = verifyKitePostback(body, 'another-secret');
    expect(wrong).toEqual({ ok: false, error: 'postback.checksum does not match: the postback is not from Kite or the API secret differs' });
    expect(verifyKitePostback({ ...body, order_timestamp: '2026-04-06 09:15:02' }, secret).ok).toBe(false);
    expect(verifyKitePostback({ ...body, checksum: 'abc' }, secret)).toEqual({ ok: false, error: 'postback.checksum must be 64 hex digits' });
    expect(JSON.stringify(wrong)).not.toContain(String(body.checksum));
    expect(verifyKitePostback('{', secret)).toEqual({ ok: false, error: 'the postback is not JSON' });
  });
});

describe('kiteProductOf', () => {
  it('names the spec\'s product codes as Kite does, and nothing else', async () => {
    const { kiteProductOf } = await import('../../src/brokers/kite/kite-orders');
    expect(['MIS', 'I', 'Intraday'].map(kiteProductOf)).toEqual(['MIS', 'MIS', 'MIS']);
    expect(['CNC', 'D', 'Delivery'].map(kiteProductOf)).toEqual(['CNC', 'CNC', 'CNC']);
    expect(['NRML', 'M', 'Margin', 'Carryforward'].map(kiteProductOf)).toEqual(['NRML', 'NRML', 'NRML', 'NRML']);
    expect(kiteProductOf('MTF')).toBeUndefined();
    expect(kiteProductOf('toString')).toBeUndefined();
  });
});
