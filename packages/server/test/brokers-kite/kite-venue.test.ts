// The Kite venue against a scripted responder on 127.0.0.1: each test says how Kite answers each
// request (payloads shaped as Kite records them, docs/BROKER-KITE.md), and the responder records
// what arrived and when. Time is a fake clock the test advances only when no request is on its way,
// so the responder's timestamps are the venue's send times: rate limits and the send deadline are
// measured exactly, without waiting for them.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { paise } from '@vyuha/core';
import type { ClientOrderId, OrderIntent, VenueEvent } from '@vyuha/engine';
import { afterEach, describe, expect, it } from 'vitest';
import { KiteApi, type KiteExchangeRecord } from '../../src/brokers/kite/kite-api';
import { KiteVenue, type KiteVenueOptions } from '../../src/brokers/kite/kite-venue';

const BIG_ID = '1953367517686685697';
const TOKEN = 'SECRETACCESSTOKEN123';
/** 2026-04-06 09:15:00 IST. */
const T0 = Date.parse('2026-04-06T03:45:00Z');
const TAG = 'a1b2c3d4e5f6g0000007';

interface Seen {
  readonly method: string;
  readonly path: string;
  readonly query: Record<string, string>;
  readonly form: Record<string, string>;
  readonly headers: IncomingHttpHeaders;
  /** The fake clock when the request arrived. */
  readonly at: number;
}

type Reply = { readonly status?: number; readonly body: unknown } | 'hang' | 'drop';

const ok = (data: unknown): Reply => ({ body: { status: 'success', data } });
const kiteError = (status: number, errorType: string, message: string): Reply => ({ status, body: { status: 'error', message, data: null, error_type: errorType } });
const TOO_MANY = kiteError(429, 'NetworkException', 'Too many requests');

/** Fake time: `sleep` waits until `drive` moves the clock past it. */
class FakeTime {
  now = T0;
  private waiters: { at: number; resolve: () => void }[] = [];

  readonly sleep = (ms: number): Promise<void> => new Promise((resolve) => {
    this.waiters.push({ at: this.now + ms, resolve });
  });

  /** Runs `work` to its end, moving the clock to the next sleeper whenever `idle` (no request on its way). */
  async drive<T>(work: Promise<T>, idle: () => boolean): Promise<T> {
    let done = false;
    void work.then(() => { done = true; }, () => { done = true; });
    for (let round = 0; round < 100_000; round += 1) {
      while (!idle()) await pause(1);
      await pause(0);
      if (done) return work;
      this.waiters.sort((a, b) => a.at - b.at);
      const next = this.waiters.shift();
      if (next === undefined) {
        await pause(1);
        continue;
      }
      this.now = Math.max(this.now, next.at);
      next.resolve();
    }
    throw new Error('the work never finished');
  }
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => (ms === 0 ? setImmediate(resolve) : setTimeout(resolve, ms)));
}

interface Responder {
  readonly url: string;
  readonly seen: Seen[];
  close(): Promise<void>;
}

async function startResponder(answer: (request: Seen) => Reply, clock: () => number): Promise<Responder> {
  const seen: Seen[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      const entry: Seen = {
        method: request.method ?? '', path: url.pathname, query: Object.fromEntries(url.searchParams),
        form: Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8'))), headers: request.headers, at: clock(),
      };
      seen.push(entry);
      const reply = answer(entry);
      if (reply === 'hang') return;
      if (reply === 'drop') {
        request.socket.destroy();
        return;
      }
      response.statusCode = reply.status ?? 200;
      response.setHeader('content-type', typeof reply.body === 'string' ? 'text/html' : 'application/json');
      response.end(typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

const CONTRACTS = {
  kiteContractOf: (key: string) => (key === '408065' ? { exchange: 'NSE', tradingSymbol: 'INFY' } : undefined),
  instrumentKeyOf: (exchange: string, symbol: string) => (exchange === 'NSE' && symbol === 'INFY' ? '408065' : undefined),
};

const LIMIT_BUY: OrderIntent = {
  clientOrderId: '0f8e0000-0000-4000-8000-0000000000c2-7' as ClientOrderId, tag: TAG, instrumentKey: '408065', exchange: 'NSE',
  tradingSymbol: 'INFY', side: 'BUY', quantity: 5, orderType: 'LIMIT', pricePaise: paise(150_050), product: 'MIS', algoId: 'ALGO42',
};

function kiteOrder(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    placed_by: 'AB1234', order_id: BIG_ID, exchange_order_id: '1300000001887410', parent_order_id: null, status: 'OPEN', status_message: null,
    order_timestamp: '2026-04-06 09:15:01', exchange_timestamp: '2026-04-06 09:15:01', variety: 'regular', modified: false, exchange: 'NSE',
    tradingsymbol: 'INFY', instrument_token: 408065, order_type: 'LIMIT', transaction_type: 'BUY', validity: 'DAY', product: 'MIS', quantity: 5,
    disclosed_quantity: 0, price: 1500.5, trigger_price: 0, average_price: 0, filled_quantity: 0, pending_quantity: 5, cancelled_quantity: 0,
    market_protection: 0, meta: {}, tag: TAG, tags: [TAG], guid: '01XpZ0ecAiHq1Xb', ...fields,
  };
}

function kiteTrade(tradeId: string, quantity: number, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    trade_id: tradeId, order_id: BIG_ID, exchange: 'NSE', tradingsymbol: 'INFY', instrument_token: 408065, product: 'MIS', average_price: 1500.35,
    quantity, exchange_order_id: '1300000001887410', transaction_type: 'BUY', fill_timestamp: '2026-04-06 09:16:02', order_timestamp: '09:16:02',
    exchange_timestamp: '2026-04-06 09:16:02', ...fields,
  };
}

const FILL_AT = Date.parse('2026-04-06T03:46:02Z');
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

interface Setup {
  readonly venue: KiteVenue;
  readonly responder: Responder;
  readonly time: FakeTime;
  readonly records: KiteExchangeRecord[];
  readonly events: VenueEvent[];
  readonly lost: string[];
  /** Runs `work` on the fake clock. */
  drive<T>(work: Promise<T>): Promise<T>;
}

async function setUp(answer: (request: Seen) => Reply, options: { apiTimeoutMs?: number; venue?: Partial<KiteVenueOptions>; realClock?: boolean } = {}): Promise<Setup> {
  const time = new FakeTime();
  const clock = options.realClock === true ? Date.now : () => time.now;
  const responder = await startResponder(answer, clock);
  cleanups.push(() => responder.close());
  const records: KiteExchangeRecord[] = [];
  let issued = 0;
  const api = new KiteApi({
    baseUrl: responder.url, apiKey: 'kite_api_key', accessToken: () => TOKEN, now: clock, onExchange: (record) => records.push(record),
    ...(options.apiTimeoutMs === undefined ? {} : { timeoutMs: options.apiTimeoutMs }),
    fetch: (input, init) => {
      issued += 1;
      return fetch(input, init);
    },
  });
  const lost: string[] = [];
  const venue = new KiteVenue({
    api, contracts: CONTRACTS, clock, sleep: time.sleep, onSessionLost: (reason) => lost.push(reason), ...options.venue,
  });
  const events: VenueEvent[] = [];
  venue.subscribe((event) => events.push(event));
  return { venue, responder, time, records, events, lost, drive: (work) => time.drive(work, () => issued === records.length) };
}

describe('placing an order', () => {
  it('sends the form with Kite\'s headers and answers accepted with the order id, kept exact', async () => {
    // The id arrives as a bare JSON number beyond 2^53: it must come back digit for digit.
    const { venue, responder } = await setUp(() => ({ body: `{"status":"success","data":{"order_id":${BIG_ID}}}` }));
    expect(await venue.place(LIMIT_BUY)).toEqual({ kind: 'accepted', brokerOrderId: BIG_ID, status: 'SUBMITTED' });
    const [request] = responder.seen;
    expect(request).toMatchObject({ method: 'POST', path: '/orders/regular' });
    expect(request?.headers).toMatchObject({
      'x-kite-version': '3', authorization: `token kite_api_key:${TOKEN}`, 'content-type': 'application/x-www-form-urlencoded',
    });
    expect(request?.form).toEqual({
      variety: 'regular', exchange: 'NSE', tradingsymbol: 'INFY', transaction_type: 'BUY', order_type: 'LIMIT', quantity: '5', product: 'MIS',
      validity: 'DAY', tag: TAG, autoslice: 'false', price: '1500.50', algo_id: 'ALGO42',
    });
  });

  it('sends market_protection -1 on MARKET and SL-M orders', async () => {
    const { venue, responder } = await setUp(() => ok({ order_id: BIG_ID }));
    await venue.place({ ...LIMIT_BUY, orderType: 'MARKET' });
    await venue.place({ ...LIMIT_BUY, orderType: 'SL-M', side: 'SELL', triggerPricePaise: paise(149_905) });
    expect(responder.seen[0]?.form).toMatchObject({ order_type: 'MARKET', market_protection: '-1' });
    expect(responder.seen[0]?.form.price).toBeUndefined();
    expect(responder.seen[1]?.form).toMatchObject({ order_type: 'SL-M', market_protection: '-1', trigger_price: '1499.05', transaction_type: 'SELL' });
  });

  it('answers rejected with Kite\'s message when Kite refuses the order', async () => {
    const message = 'Market orders without market protection are not allowed via API. Please set market protection or use a Limit order.';
    const { venue } = await setUp(() => kiteError(400, 'InputException', message));
    expect(await venue.place(LIMIT_BUY)).toEqual({ kind: 'rejected', reason: `Kite refused the order (InputException): ${message}` });
  });

  it('sends again after a 429, once the 500 ms backoff has passed', async () => {
    let calls = 0;
    const setup = await setUp(() => (++calls === 1 ? TOO_MANY : ok({ order_id: BIG_ID })));
    expect(await setup.drive(setup.venue.place(LIMIT_BUY))).toEqual({ kind: 'accepted', brokerOrderId: BIG_ID, status: 'SUBMITTED' });
    expect(setup.responder.seen.map((request) => request.at - T0)).toEqual([0, 500]);
    expect(setup.venue.limits.state(setup.time.now).consecutiveRateLimits).toBe(0);
  });

  it('gives up without sending when 429s push the next try past the 4 s deadline: nothing arrives after it', async () => {
    const setup = await setUp(() => TOO_MANY);
    const outcome = await setup.drive(setup.venue.place(LIMIT_BUY));
    expect(outcome.kind).toBe('rejected');
    expect(outcome.kind === 'rejected' && outcome.reason).toMatch(/^not sent: Kite answered 429 .* past the send deadline$/);
    // Backoffs of 0.5, 1 and 2 s: tries at 0, 0.5, 1.5 and 3.5 s; the next (after 4 s more) would be at 7.5 s.
    expect(setup.responder.seen.map((request) => request.at - T0)).toEqual([0, 500, 1_500, 3_500]);
    expect(setup.responder.seen.every((request) => request.at <= T0 + 4_000)).toBe(true);
    expect(setup.venue.limits.state(setup.time.now)).toMatchObject({ consecutiveRateLimits: 4, backingOffUntilMs: T0 + 7_500 });
  });

  it('answers unknown on a 5xx after Kite may have taken the order, and on a dropped connection', async () => {
    const { venue } = await setUp(() => kiteError(500, 'GeneralException', 'Something went wrong'));
    expect(await venue.place(LIMIT_BUY)).toEqual({ kind: 'unknown', reason: 'Kite answered HTTP 500: Something went wrong' });
    const dropped = await setUp(() => 'drop');
    const outcome = await dropped.venue.place(LIMIT_BUY);
    expect(outcome.kind).toBe('unknown');
    const html = await setUp(() => ({ status: 502, body: '<html>Bad Gateway</html>' }));
    expect(await html.venue.place(LIMIT_BUY)).toEqual({ kind: 'unknown', reason: 'Kite answered HTTP 502 with a body that is not JSON' });
  });

  it('answers timeout when Kite holds the response', async () => {
    const { venue, responder } = await setUp(() => 'hang', { apiTimeoutMs: 200, realClock: true });
    expect(await venue.place(LIMIT_BUY)).toEqual({ kind: 'timeout' });
    expect(responder.seen).toHaveLength(1);
  });

  it('answers rejected, not sent, when Kite cannot be reached at all', async () => {
    const closed = await startResponder(() => ok(null), Date.now);
    await closed.close();
    const api = new KiteApi({ baseUrl: closed.url, apiKey: 'kite_api_key', accessToken: () => TOKEN });
    const venue = new KiteVenue({ api, contracts: CONTRACTS, clock: Date.now });
    expect(await venue.place(LIMIT_BUY)).toEqual({ kind: 'rejected', reason: 'not sent: Kite could not be reached (ECONNREFUSED)' });
  });

  it('answers rejected and reports the lost session on a TokenException', async () => {
    const { venue, lost } = await setUp(() => kiteError(403, 'TokenException', 'Incorrect `api_key` or `access_token`.'));
    expect(await venue.place(LIMIT_BUY)).toEqual({ kind: 'rejected', reason: 'Kite session expired: not sent' });
    expect(lost).toEqual(['Incorrect `api_key` or `access_token`.']);
  });

  it('reports a refusal with the session the request left with, though a new one came before the answer', async () => {
    let epoch = 1;
    const refusals: Array<number | undefined> = [];
    const { venue } = await setUp(() => {
      // A new login while the request is at Kite.
      epoch = 2;
      return kiteError(403, 'TokenException', 'Incorrect `api_key` or `access_token`.');
    }, { venue: { sessionEpoch: () => epoch, onSessionLost: (_reason, sent) => refusals.push(sent) } });
    await venue.place(LIMIT_BUY);
    expect({ refusals, epoch }).toEqual({ refusals: [1], epoch: 2 });
  });

  it('refuses locally an instrument without a Kite contract', async () => {
    const { venue, responder } = await setUp(() => ok({ order_id: BIG_ID }));
    expect(await venue.place({ ...LIMIT_BUY, instrumentKey: '999' })).toEqual({ kind: 'rejected', reason: 'no Kite contract is known for instrument 999: not sent' });
    expect(responder.seen).toHaveLength(0);
  });

  it('sends 25 orders at most 10 in any second', async () => {
    let next = 0;
    const setup = await setUp(() => ok({ order_id: String(BigInt(BIG_ID) + BigInt(next++)) }));
    const outcomes = await setup.drive(Promise.all(Array.from({ length: 25 }, () => setup.venue.place(LIMIT_BUY))));
    expect(outcomes.every((outcome) => outcome.kind === 'accepted')).toBe(true);
    const times = setup.responder.seen.map((request) => request.at);
    expect(times).toHaveLength(25);
    const most = Math.max(...times.map((start) => times.filter((at) => at >= start && at < start + 1_000).length));
    expect(most).toBe(10);
    expect(times.map((at) => at - T0)).toEqual([...Array(10).fill(0), ...Array(10).fill(1_000), ...Array(5).fill(2_000)]);
  });
});

describe('cancelling and modifying', () => {
  it('cancels with DELETE /orders/regular/{id} and passes Kite\'s refusal on', async () => {
    let refuse = false;
    const { venue, responder } = await setUp(() => (refuse ? kiteError(400, 'OrderException', 'Order cannot be cancelled as it is being processed.') : ok({ order_id: BIG_ID })));
    expect(await venue.cancel({ brokerOrderId: BIG_ID })).toEqual({ kind: 'requested' });
    expect(responder.seen[0]).toMatchObject({ method: 'DELETE', path: `/orders/regular/${BIG_ID}` });
    refuse = true;
    expect(await venue.cancel({ brokerOrderId: BIG_ID }))
      .toEqual({ kind: 'refused', reason: 'Kite refused the cancellation (OrderException): Order cannot be cancelled as it is being processed.' });
  });

  it('modifies with PUT (levels in rupees, the order type it was placed with) and refuses the 26th modification locally', async () => {
    const setup = await setUp(() => ok({ order_id: BIG_ID }));
    await setup.venue.place(LIMIT_BUY);
    const outcomes = await setup.drive(Promise.all(Array.from({ length: 25 }, (_, index) =>
      setup.venue.modify({ brokerOrderId: BIG_ID, pricePaise: paise(150_100 + index * 5) }))));
    expect(outcomes.every((outcome) => outcome.kind === 'requested')).toBe(true);
    const puts = setup.responder.seen.filter((request) => request.method === 'PUT');
    expect(puts).toHaveLength(25);
    expect(puts[0]).toMatchObject({ path: `/orders/regular/${BIG_ID}`, form: { order_type: 'LIMIT', price: '1501.00' } });
    expect(puts[24]?.form.price).toBe('1502.20');
    const refused = await setup.venue.modify({ brokerOrderId: BIG_ID, pricePaise: paise(150_000) });
    expect(refused).toEqual({ kind: 'refused', reason: `Kite allows 25 modifications per order and order ${BIG_ID} has had them all: not sent` });
    expect(setup.responder.seen.filter((request) => request.method === 'PUT')).toHaveLength(25);
  });
});

describe('the venue\'s view', () => {
  const book = (request: Seen): Reply => {
    if (request.path === '/orders') {
      return ok([
        kiteOrder({ status: 'OPEN', filled_quantity: 3, pending_quantity: 2 }),
        kiteOrder({ order_id: '220303000308932', tag: null, tags: [], tradingsymbol: 'SBIN', status: 'COMPLETE', quantity: 1, filled_quantity: 1, transaction_type: 'SELL' }),
        kiteOrder({ order_id: '1953367517686685698', tag: null, tags: ['mktp', 'mktp:2.00', 'b1b2c3d4e5f6g0000008'], status: 'REJECTED', status_message: 'Insufficient funds.' }),
      ]);
    }
    if (request.path === '/trades') {
      return ok([
        kiteTrade('10000000', 2), kiteTrade('10000001', 1, { average_price: 1500.4 }),
        kiteTrade('20000000', 1, { order_id: '220303000308932', tradingsymbol: 'SBIN', average_price: 780.05, transaction_type: 'SELL' }),
      ]);
    }
    if (request.path === `/orders/1953367517686685698/trades`) return ok([]);
    return kiteError(404, 'GeneralException', 'not found');
  };

  it('reads the order book and the trade book once each, orders of other platforms included', async () => {
    const { venue, responder } = await setUp(book);
    const reports = await venue.orderBook();
    expect(responder.seen.map((request) => request.path)).toEqual(['/orders', '/trades']);
    expect(reports).toEqual([
      {
        brokerOrderId: BIG_ID, tag: TAG, instrumentKey: '408065', side: 'BUY', quantity: 5, status: 'OPEN', filledQuantity: 3,
        trades: [
          { tradeId: '10000000', quantity: 2, pricePaise: 150_035, atMs: FILL_AT },
          { tradeId: '10000001', quantity: 1, pricePaise: 150_040, atMs: FILL_AT },
        ],
      },
      {
        brokerOrderId: '220303000308932', instrumentKey: 'kite:NSE:SBIN', side: 'SELL', quantity: 1, status: 'FILLED', filledQuantity: 1,
        trades: [{ tradeId: '20000000', quantity: 1, pricePaise: 78_005, atMs: FILL_AT }],
      },
      {
        brokerOrderId: '1953367517686685698', instrumentKey: '408065', side: 'BUY', quantity: 5, status: 'REJECTED', filledQuantity: 0, trades: [],
        statusMessage: 'Insufficient funds.',
      },
    ]);
  });

  it('finds an order by its tag, or among its tags, with its trades', async () => {
    const { venue, responder } = await setUp(book);
    const found = await venue.orderByTag('b1b2c3d4e5f6g0000008');
    expect(found).toMatchObject({ brokerOrderId: '1953367517686685698', status: 'REJECTED', trades: [] });
    expect(responder.seen.map((request) => request.path)).toEqual(['/orders', '/orders/1953367517686685698/trades']);
    expect(await venue.orderByTag('z9z9z9z9z9z9z9999999')).toBeUndefined();
    expect(responder.seen).toHaveLength(3);
  });

  it('reads net positions, summing products, naming unknown contracts and leaving flat ones out', async () => {
    const position = (symbol: string, product: string, quantity: number): Record<string, unknown> => ({
      tradingsymbol: symbol, exchange: 'NSE', instrument_token: 408065, product, quantity, overnight_quantity: 0, multiplier: 1,
      average_price: 1500, close_price: 0, last_price: 1501, value: -7500, pnl: 5, m2m: 5, unrealised: 5, realised: 0,
    });
    const { venue } = await setUp(() => ok({
      net: [position('INFY', 'MIS', 5), position('INFY', 'NRML', -2), position('SBIN', 'CNC', -10), position('RELIANCE', 'MIS', 0)],
      day: [position('INFY', 'MIS', 99)],
    }));
    expect(await venue.positions()).toEqual([{ instrumentKey: '408065', netQuantity: 3 }, { instrumentKey: 'kite:NSE:SBIN', netQuantity: -10 }]);
  });

  it('reads margins in paise, holdings, and logs out with the session in the query', async () => {
    const { venue, responder } = await setUp((request) => {
      if (request.path === '/user/margins') {
        return ok({
          equity: { enabled: true, net: 99725.05, available: { adhoc_margin: 0, cash: 245431.6, opening_balance: 245431.6, live_balance: 99725.05, collateral: 0, intraday_payin: 0 }, utilised: {} },
          commodity: { enabled: true, net: 100661.7, available: { adhoc_margin: 0, cash: 100661.7, opening_balance: 100661.7, live_balance: 100661.7, collateral: 0, intraday_payin: 0 }, utilised: {} },
        });
      }
      if (request.path === '/portfolio/holdings') return ok([{ tradingsymbol: 'INFY', exchange: 'NSE', instrument_token: 408065, isin: 'INE009A01021', product: 'CNC', quantity: 4, t1_quantity: 1, average_price: 1402.25 }]);
      return ok(true);
    });
    expect(await venue.margins()).toEqual({
      ok: true, value: { equity: { availableCashPaise: 24_543_160, netPaise: 9_972_505 }, commodity: { availableCashPaise: 10_066_170, netPaise: 10_066_170 } },
    });
    expect(await venue.holdings()).toEqual({ ok: true, value: [{ instrumentKey: '408065', quantity: 4, t1Quantity: 1, averagePricePaise: 140_225 }] });
    expect(await venue.logout()).toEqual({ ok: true, value: undefined });
    expect(responder.seen[2]).toMatchObject({ method: 'DELETE', path: '/session/token', query: { api_key: 'kite_api_key', access_token: TOKEN } });
  });
});

describe('order updates', () => {
  it('acks OPEN once, fetches trades when filled_quantity grows, emits each trade once whatever repeats or comes late', async () => {
    const trades: Record<string, unknown>[] = [];
    const setup = await setUp((request) => (request.path === `/orders/${BIG_ID}/trades` ? ok(trades) : kiteError(404, 'GeneralException', 'not found')));
    const { venue, events, responder } = setup;
    const tradeFetches = (): number => responder.seen.filter((request) => request.path.endsWith('/trades')).length;
    venue.onOrderUpdate(kiteOrder({ status: 'OPEN' }));
    venue.onOrderUpdate(kiteOrder({ status: 'OPEN' }));
    await venue.settled();
    expect(events).toEqual([{ kind: 'ack', tag: TAG, brokerOrderId: BIG_ID, status: 'OPEN' }]);
    trades.push(kiteTrade('10000000', 2));
    const partial = kiteOrder({ status: 'UPDATE', filled_quantity: 2, pending_quantity: 3 });
    venue.onOrderUpdate(partial);
    await venue.settled();
    venue.onOrderUpdate(partial);
    await venue.settled();
    expect(tradeFetches()).toBe(1);
    trades.push(kiteTrade('10000001', 3, { average_price: 1500.4 }));
    venue.onOrderUpdate(kiteOrder({ status: 'COMPLETE', filled_quantity: 5, pending_quantity: 0 }));
    // The partial fill's update again, after the completion: stale, nothing to do.
    venue.onOrderUpdate(partial);
    venue.onOrderUpdate(kiteOrder({ status: 'OPEN' }));
    await venue.settled();
    expect(tradeFetches()).toBe(2);
    expect(events.slice(1)).toEqual([
      { kind: 'fill', brokerOrderId: BIG_ID, tag: TAG, trade: { tradeId: '10000000', quantity: 2, pricePaise: 150_035, atMs: FILL_AT } },
      { kind: 'fill', brokerOrderId: BIG_ID, tag: TAG, trade: { tradeId: '10000001', quantity: 3, pricePaise: 150_040, atMs: FILL_AT } },
    ]);
  });

  it('emits cancelled after the fills of a partly filled order, and rejected with Kite\'s message, each once', async () => {
    const setup = await setUp((request) => (request.path === `/orders/${BIG_ID}/trades` ? ok([kiteTrade('10000000', 2)]) : ok([])));
    const { venue, events } = setup;
    const cancelled = kiteOrder({ status: 'CANCELLED', filled_quantity: 2, pending_quantity: 0, cancelled_quantity: 3 });
    expect(venue.onOrderUpdate(JSON.stringify(cancelled))).toEqual({ ok: true, value: undefined });
    venue.onOrderUpdate(cancelled);
    venue.onOrderUpdate(kiteOrder({ order_id: '1953367517686685698', status: 'REJECTED', status_message: 'Insufficient funds.' }));
    venue.onOrderUpdate(kiteOrder({ order_id: '1953367517686685698', status: 'REJECTED', status_message: 'Insufficient funds.' }));
    await venue.settled();
    // Per order, in order; the rejection needs no trades, so it is not held behind the other order's fetch.
    expect(events.filter((event) => event.brokerOrderId === BIG_ID)).toEqual([
      { kind: 'fill', brokerOrderId: BIG_ID, tag: TAG, trade: { tradeId: '10000000', quantity: 2, pricePaise: 150_035, atMs: FILL_AT } },
      { kind: 'cancelled', brokerOrderId: BIG_ID, tag: TAG },
    ]);
    expect(events.filter((event) => event.brokerOrderId !== BIG_ID)).toEqual([
      { kind: 'rejected', brokerOrderId: '1953367517686685698', tag: TAG, reason: 'Insufficient funds.' },
    ]);
  });

  it('ignores orders placed without a tag elsewhere, and refuses an update it cannot read', async () => {
    const { venue, events, responder } = await setUp(() => ok([]));
    venue.onOrderUpdate(kiteOrder({ tag: null, tags: [], status: 'COMPLETE', filled_quantity: 5 }));
    await venue.settled();
    expect(events).toEqual([]);
    expect(responder.seen).toHaveLength(0);
    expect(venue.onOrderUpdate({ ...kiteOrder(), status: 'SOMETHING' })).toEqual({ ok: false, error: 'order update.status "SOMETHING" is not a Kite order status this venue knows' });
  });
});

describe('polling', () => {
  it('emits what changed in the books every pollMs, once, until stopped', async () => {
    let orders = [kiteOrder({ status: 'OPEN' })];
    let trades: Record<string, unknown>[] = [];
    const sleeps: number[] = [];
    let wake: (() => void) | undefined;
    const sleep = (ms: number): Promise<void> => new Promise((resolve) => {
      sleeps.push(ms);
      wake = resolve;
    });
    const { venue, events, responder } = await setUp((request) => (request.path === '/orders' ? ok(orders) : ok(trades)), { venue: { sleep, pollMs: 3_000 } });
    const polls = (): number => responder.seen.filter((request) => request.path === '/orders').length;
    const pollAndWait = async (): Promise<void> => {
      const before = polls();
      wake?.();
      for (let waited = 0; polls() === before || responder.seen.length % 2 === 1; waited += 1) {
        if (waited > 5_000) throw new Error('no poll');
        await pause(1);
      }
      await pause(5);
      await venue.settled();
    };
    venue.startPolling();
    expect(sleeps).toEqual([3_000]);
    await pollAndWait();
    expect(events).toEqual([{ kind: 'ack', tag: TAG, brokerOrderId: BIG_ID, status: 'OPEN' }]);
    orders = [kiteOrder({ status: 'COMPLETE', filled_quantity: 5 })];
    trades = [kiteTrade('10000000', 5)];
    await pollAndWait();
    await pollAndWait();
    expect(events.slice(1)).toEqual([{ kind: 'fill', brokerOrderId: BIG_ID, tag: TAG, trade: { tradeId: '10000000', quantity: 5, pricePaise: 150_035, atMs: FILL_AT } }]);
    // Polling reads the trade book; it never fetches one order's trades.
    expect(responder.seen.every((request) => request.path === '/orders' || request.path === '/trades')).toBe(true);
    venue.stopPolling();
    const count = responder.seen.length;
    wake?.();
    await pause(20);
    expect(responder.seen).toHaveLength(count);
  });
});

describe('the audit records', () => {
  it('records each exchange with the tag, status and outcome, and never the access token', async () => {
    const { venue, records } = await setUp((request) => (request.path === '/orders/regular' ? ok({ order_id: BIG_ID }) : ok(true)));
    await venue.place(LIMIT_BUY);
    await venue.logout();
    expect(records[0]).toMatchObject({
      method: 'POST', path: '/orders/regular', tag: TAG, brokerOrderId: BIG_ID, status: 200, outcome: 'ok',
      form: { tag: TAG, price: '1500.50' }, response: { status: 'success', data: { order_id: BIG_ID } },
    });
    expect(records[1]).toMatchObject({ method: 'DELETE', path: '/session/token', query: { api_key: 'kite_api_key', access_token: '[redacted]' }, outcome: 'ok' });
    expect(JSON.stringify(records)).not.toContain(TOKEN);
  });
});
