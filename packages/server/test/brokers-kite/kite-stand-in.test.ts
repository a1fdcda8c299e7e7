// The Kite stand-in (test/kite-stand-in/) driven by the official client, kiteconnect 5.3.0, as the
// live adapter will be: sessions, every order type, the book, positions and margins, the instruments
// dump, the ticker's binary frames and order updates, and each fault a test can switch on.
// The stand-in's clock is injected; sockets are real and waited on with generous timeouts.
// The official KiteTicker keeps its socket and its handlers in module state, so this file registers
// its handlers once and only ever has one official ticker connected (raw `ws` clients where it needs more).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { KiteConnect, KiteTicker } from 'kiteconnect';
import WebSocket from 'ws';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RateLimiter } from '../kite-stand-in/faults';
import { startKiteStandIn, type KiteStandIn, type StandInInstrument } from '../kite-stand-in/stand-in';

type Row = Record<string, unknown>;

/** The part of the official client this file calls, typed loosely (its published types lack market_protection). */
interface Kite {
  generateSession(requestToken: string, apiSecret: string): Promise<Row>;
  invalidateAccessToken(): Promise<boolean>;
  getProfile(): Promise<Row>;
  getMargins(segment?: string): Promise<Row>;
  placeOrder(variety: string, params: Row): Promise<Row>;
  modifyOrder(variety: string, orderId: string, params: Row): Promise<Row>;
  cancelOrder(variety: string, orderId: string): Promise<Row>;
  getOrders(): Promise<Row[]>;
  getOrderHistory(orderId: string): Promise<Row[]>;
  getTrades(): Promise<Row[]>;
  getOrderTrades(orderId: string): Promise<Row[]>;
  getPositions(): Promise<{ net: Row[]; day: Row[] }>;
  getHoldings(): Promise<Row[]>;
  getInstruments(exchange?: string): Promise<Row[]>;
  getLTP(instruments: string[]): Promise<Record<string, Row>>;
  validatePostback(payload: Row, apiSecret: string): boolean;
}

interface Ticker {
  connect(): void;
  disconnect(): void;
  connected(): boolean;
  subscribe(tokens: Array<number | string>): void;
  setMode(mode: string, tokens: number[]): void;
  on(event: string, callback: (...args: never[]) => void): void;
}

const API_KEY = 'standinkey';
const API_SECRET = 'standin-secret-0001';
const USER = 'AB1234';
const REDIRECT_URL = 'http://127.0.0.1:9/api/broker_login/zerodha/AB1234';
const TOKEN_REFUSED = { error_type: 'TokenException', message: 'Incorrect `api_key` or `access_token`.' };

const NIFTY_INDEX: StandInInstrument = {
  instrumentToken: 256_265, exchangeToken: 1_001, tradingSymbol: 'NIFTY 50', name: 'NIFTY 50', exchange: 'NSE',
  segment: 'INDICES', instrumentType: 'EQ', tickSizePaise: 5, lotSize: 1,
};
// token = exchange token x 256 + segment (2 = NFO)
const NIFTY_FUT: StandInInstrument = {
  instrumentToken: 40_000 * 256 + 2, exchangeToken: 40_000, tradingSymbol: 'NIFTY26MARFUT', name: 'NIFTY', exchange: 'NFO',
  segment: 'NFO-FUT', instrumentType: 'FUT', expiry: '2026-03-26', tickSizePaise: 10, lotSize: 75, freezeQuantity: 150,
  closePaise: 2_440_000,
};
const NIFTY_CE: StandInInstrument = {
  instrumentToken: 40_001 * 256 + 2, exchangeToken: 40_001, tradingSymbol: 'NIFTY26MAR24500CE', name: 'NIFTY', exchange: 'NFO',
  segment: 'NFO-OPT', instrumentType: 'CE', expiry: '2026-03-26', strikePaise: 2_450_000, tickSizePaise: 5, lotSize: 75,
  freezeQuantity: 1_800,
};
const INFY: StandInInstrument = {
  instrumentToken: 1_594 * 256 + 1, exchangeToken: 1_594, tradingSymbol: 'INFY', name: 'INFOSYS', exchange: 'NSE',
  segment: 'NSE', instrumentType: 'EQ', tickSizePaise: 5, lotSize: 1,
};

// 2026-03-02 09:15:00 IST
const START_MS = Date.UTC(2026, 2, 2, 3, 45);
let clockMs = START_MS;
let standIn: KiteStandIn;
let kite: Kite;

/** Every official ticker event, collected for the test that is running (handlers are module-wide in the client). */
const seen = { ticks: [] as Row[], updates: [] as Row[], frames: [] as ArrayBuffer[], errors: [] as unknown[], closes: 0, connects: 0 };
let handlersInstalled = false;
let ticker: Ticker | undefined;

const postbacks: Row[] = [];
let postbackServer: Server;
let postbackUrl: string;

async function waitFor<T>(read: () => T | undefined | false, what: string, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function rejection(promise: Promise<unknown>): Promise<Row> {
  return promise.then(() => { throw new Error('expected a rejection'); }, (error: unknown) => error as Row);
}

/** A MARKET order with automatic market protection, as the adapter sends it. */
const MARKET = { order_type: 'MARKET', market_protection: -1 };

async function login(): Promise<{ kite: Kite; session: Row }> {
  const client = new KiteConnect({ api_key: API_KEY, root: standIn.apiUrl }) as unknown as Kite;
  const session = await client.generateSession(standIn.issueRequestToken(API_KEY), API_SECRET);
  return { kite: client, session };
}

/** Places a regular order one clock second after the previous call (to stay under 10 per second). */
async function place(params: Row): Promise<string> {
  clockMs += 1_000;
  const answer = await kite.placeOrder('regular', { validity: 'DAY', ...params });
  return String(answer.order_id);
}

function orderOf(orderId: string): Row {
  const order = standIn.orders(USER).find((one) => one.order_id === orderId);
  if (order === undefined) throw new Error(`no order ${orderId}`);
  return order;
}

/** Order params for `instrument`: exchange, trading symbol and side, then the rest. */
function order(instrument: StandInInstrument, side: 'BUY' | 'SELL', rest: Row): Row {
  return { exchange: instrument.exchange, tradingsymbol: instrument.tradingSymbol, transaction_type: side, ...rest };
}

/** The first tick seen for `token` at `lastPrice` (rupees), in `mode` when given. */
async function tickOf(token: number, lastPrice: number, ...rest: [mode: string, what: string] | [what: string]): Promise<Row> {
  const [mode, what] = rest.length === 2 ? rest : [undefined, rest[0]];
  const matches = (one: Row): boolean => one.instrument_token === token && one.last_price === lastPrice && (mode === undefined || one.mode === mode);
  return waitFor(() => seen.ticks.find(matches), what);
}

async function openTicker(accessToken: string): Promise<Ticker> {
  // reconnect false: with it true, disconnect() ends the process.
  const settings = { api_key: API_KEY, access_token: accessToken, root: standIn.tickerUrl, reconnect: false };
  const opened = new KiteTicker(settings as never) as unknown as Ticker;
  if (!handlersInstalled) {
    handlersInstalled = true;
    opened.on('ticks', (ticks: Row[]) => seen.ticks.push(...ticks));
    opened.on('order_update', (update: Row) => seen.updates.push(update));
    opened.on('message', (frame: ArrayBuffer) => seen.frames.push(frame));
    opened.on('error', (error: unknown) => seen.errors.push(error));
    opened.on('close', () => { seen.closes += 1; });
    opened.on('connect', () => { seen.connects += 1; });
  }
  const before = seen.connects;
  opened.connect();
  ticker = opened;
  await waitFor(() => seen.connects > before, 'the ticker to connect');
  await waitFor(() => standIn.tickerConnections().length > 0, 'the stand-in to see the connection');
  return opened;
}

async function subscribed(token: number, mode: string): Promise<void> {
  await waitFor(() => standIn.tickerConnections().some((one) => one.subscriptions.some((sub) => sub.token === token && sub.mode === mode)),
    `token ${token} in ${mode} mode`);
}

beforeAll(async () => {
  postbackServer = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      postbacks.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Row);
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => postbackServer.listen(0, '127.0.0.1', resolve));
  postbackUrl = `http://127.0.0.1:${(postbackServer.address() as AddressInfo).port}/postback`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => postbackServer.close(() => resolve()));
});

beforeEach(async () => {
  clockMs = START_MS;
  Object.assign(seen, { ticks: [], updates: [], frames: [], errors: [], closes: 0, connects: 0 });
  postbacks.length = 0;
  standIn = await startKiteStandIn({ now: () => clockMs, postbackUrl, heartbeatMs: 100 });
  standIn.addAccount({ apiKey: API_KEY, apiSecret: API_SECRET, userId: USER, redirectUrl: REDIRECT_URL });
  for (const instrument of [NIFTY_INDEX, NIFTY_FUT, NIFTY_CE, INFY]) standIn.addInstrument(instrument);
  standIn.tick(NIFTY_INDEX.instrumentToken, 2_450_000);
  standIn.tick(NIFTY_FUT.instrumentToken, 2_450_000);
  standIn.tick(NIFTY_CE.instrumentToken, 15_000);
  standIn.tick(INFY.instrumentToken, 150_000);
  ({ kite } = await login());
});

afterEach(async () => {
  if (ticker?.connected() === true) ticker.disconnect();
  ticker = undefined;
  await standIn.close();
});

describe('sessions', () => {
  it('exchanges a request token with the right checksum and refuses a wrong secret and a spent token', async () => {
    const requestToken = standIn.issueRequestToken(API_KEY);
    const client = new KiteConnect({ api_key: API_KEY, root: standIn.apiUrl }) as unknown as Kite;
    expect(await rejection(client.generateSession(requestToken, 'wrong-secret')))
      .toMatchObject({ error_type: 'TokenException', message: 'Invalid `checksum`.' });
    const session = await client.generateSession(requestToken, API_SECRET);
    expect(session).toMatchObject({ user_id: USER, api_key: API_KEY, broker: 'ZERODHA', refresh_token: '' });
    // The client reads the IST text as local time.
    expect(session.login_time).toEqual(new Date('2026-03-02 09:15:00'));
    expect(session.access_token).toBe(standIn.accessTokenOf(USER));
    expect(await client.getProfile()).toMatchObject({ user_id: USER, user_type: 'individual' });
    expect(await rejection(client.generateSession(requestToken, API_SECRET)))
      .toMatchObject({ error_type: 'TokenException', message: 'Token is invalid or has expired.' });
    const logged = standIn.requests.filter((one) => one.path === '/session/token');
    expect(logged.map((one) => one.status)).toEqual([200, 403, 200, 403]);
    expect(logged.every((one) => one.params.checksum === '[redacted]')).toBe(true);
  });

  it('redirects the login page to the redirect URL with a request token that logs in', async () => {
    const page = `${standIn.loginUrl}?api_key=${API_KEY}&v=3&redirect_params=${encodeURIComponent('state=xyz')}`;
    const response = await fetch(page, { redirect: 'manual' });
    expect(response.status).toBe(302);
    const target = new URL(response.headers.get('location') ?? '');
    expect(target.pathname).toBe('/api/broker_login/zerodha/AB1234');
    expect(Object.fromEntries(target.searchParams)).toMatchObject({ state: 'xyz', action: 'login', status: 'success' });
    const client = new KiteConnect({ api_key: API_KEY, root: standIn.apiUrl }) as unknown as Kite;
    expect(await client.generateSession(target.searchParams.get('request_token') ?? '', API_SECRET)).toMatchObject({ user_id: USER });
  });

  it('logs out with DELETE /session/token, redacts the token in the log, and refuses the token afterwards', async () => {
    expect(await kite.invalidateAccessToken()).toBe(true);
    const logout = standIn.requests.find((one) => one.method === 'DELETE' && one.path === '/session/token');
    expect(logout?.params).toMatchObject({ api_key: API_KEY, access_token: '[redacted]' });
    expect(JSON.stringify(standIn.requests)).not.toContain(standIn.accessTokenOf(USER));
    expect(await rejection(kite.getProfile())).toMatchObject(TOKEN_REFUSED);
  });

  it('ends a session at 06:00 IST the next day', async () => {
    clockMs = Date.UTC(2026, 2, 3, 0, 29, 59); // 05:59:59 IST next day
    await kite.getProfile();
    clockMs += 1_000;
    expect(await rejection(kite.getProfile())).toMatchObject({ error_type: 'TokenException' });
  });
});

describe('orders', () => {
  it('fills MARKET at the last price, a marketable LIMIT at the last price, and rests a LIMIT until a tick crosses it', async () => {
    const market = await place(order(NIFTY_FUT, 'BUY', { ...MARKET, quantity: 75, product: 'NRML' }));
    expect(orderOf(market)).toMatchObject({ status: 'COMPLETE', average_price: 24500, filled_quantity: 75, pending_quantity: 0 });
    expect(market).toMatch(/^\d{19}$/);
    const marketable = await place(order(INFY, 'BUY', { order_type: 'LIMIT', quantity: 10, product: 'CNC', price: 1510 }));
    expect(orderOf(marketable)).toMatchObject({ status: 'COMPLETE', average_price: 1500, price: 1510 });
    const resting = await place(order(NIFTY_CE, 'BUY', { order_type: 'LIMIT', quantity: 75, product: 'MIS', price: 148.5 }));
    expect(orderOf(resting)).toMatchObject({ status: 'OPEN', filled_quantity: 0, pending_quantity: 75 });
    standIn.tick(NIFTY_CE.instrumentToken, 14_900);
    expect(orderOf(resting).status).toBe('OPEN');
    standIn.tick(NIFTY_CE.instrumentToken, 14_800);
    expect(orderOf(resting)).toMatchObject({ status: 'COMPLETE', average_price: 148.5 });
    const history = await kite.getOrderHistory(resting);
    expect(history.map((one) => one.status)).toEqual(['PUT ORDER REQ RECEIVED', 'VALIDATION PENDING', 'OPEN PENDING', 'OPEN', 'COMPLETE']);
    expect((await kite.getOrders()).map((one) => one.order_id)).toEqual([market, marketable, resting]);
  });

  it('holds SL and SL-M in TRIGGER PENDING until the price reaches the trigger', async () => {
    const stopLimit = await place(order(NIFTY_FUT, 'SELL', { order_type: 'SL', quantity: 75, product: 'MIS', price: 24380,
      trigger_price: 24400 }));
    const stopMarket = await place(order(INFY, 'BUY', { order_type: 'SL-M', quantity: 5, product: 'MIS', trigger_price: 1520,
      market_protection: 2 }));
    expect([orderOf(stopLimit).status, orderOf(stopMarket).status]).toEqual(['TRIGGER PENDING', 'TRIGGER PENDING']);
    standIn.tick(NIFTY_FUT.instrumentToken, 2_440_500);
    expect(orderOf(stopLimit).status).toBe('TRIGGER PENDING');
    // Triggered at 24,390 (<= 24,400): a SELL LIMIT at 24,380 is marketable there and fills at the last price.
    standIn.tick(NIFTY_FUT.instrumentToken, 2_439_000);
    expect(orderOf(stopLimit)).toMatchObject({ status: 'COMPLETE', average_price: 24390, order_type: 'SL' });
    standIn.tick(INFY.instrumentToken, 152_250);
    expect(orderOf(stopMarket)).toMatchObject({ status: 'COMPLETE', average_price: 1522.5 });
    expect((await kite.getOrderHistory(stopMarket)).map((one) => one.status))
      .toEqual(['PUT ORDER REQ RECEIVED', 'VALIDATION PENDING', 'OPEN PENDING', 'TRIGGER PENDING', 'OPEN', 'COMPLETE']);
  });

  it('rejects MARKET and SL-M without market protection as orders in REJECTED status', async () => {
    const market = await place(order(INFY, 'BUY', { order_type: 'MARKET', quantity: 1, product: 'CNC' }));
    const stop = await place(order(INFY, 'SELL', { order_type: 'SL-M', quantity: 1, product: 'MIS', trigger_price: 1400,
      market_protection: 0 }));
    const text = 'Market orders without market protection are not allowed via API. Please set market protection or use a Limit order.';
    for (const orderId of [market, stop]) {
      expect(orderOf(orderId)).toMatchObject({ status: 'REJECTED', status_message: text, exchange_order_id: null });
    }
  });

  it('refuses a tag over 20 characters or not alphanumeric with 400 InputException, and ignores the extra variety key', async () => {
    const base = order(INFY, 'BUY', { order_type: 'LIMIT', quantity: 1, product: 'CNC', price: 1400 });
    expect(await rejection(kite.placeOrder('regular', { ...base, tag: 'a'.repeat(21) }))).toMatchObject({ error_type: 'InputException' });
    expect(await rejection(kite.placeOrder('regular', { ...base, tag: 'has space' }))).toMatchObject({ error_type: 'InputException' });
    const orderId = await place({ ...base, tag: 'a'.repeat(20) });
    expect(orderOf(orderId)).toMatchObject({ tag: 'a'.repeat(20), status: 'OPEN' });
    expect(standIn.requests.at(-1)?.params).toMatchObject({ variety: 'regular', tag: 'a'.repeat(20) });
    expect(standIn.requests.filter((one) => one.path === '/orders/regular').map((one) => one.status)).toEqual([400, 400, 200]);
  });

  it('refuses off-tick prices, unknown instruments and order ids, and calls without X-Kite-Version 3', async () => {
    const limit = { order_type: 'LIMIT', quantity: 75, product: 'NRML' };
    expect(await rejection(kite.placeOrder('regular', order(NIFTY_FUT, 'BUY', { ...limit, price: 24000.05 }))))
      .toMatchObject({ error_type: 'InputException', message: 'Invalid `price`: 24000.05 is not a multiple of the tick size 0.1.' });
    expect(await rejection(kite.placeOrder('regular', order(NIFTY_FUT, 'BUY', { ...limit, quantity: 50, price: 24000 }))))
      .toMatchObject({ error_type: 'InputException', message: 'Invalid `quantity`: 50 is not a multiple of the lot size 75.' });
    expect(await rejection(kite.placeOrder('regular', { ...order(NIFTY_FUT, 'BUY', { ...limit, price: 24000 }), tradingsymbol: 'NIFTY99JANFUT' })))
      .toMatchObject({ error_type: 'InputException' });
    // A JS number with float noise (0.1 + 0.2 = 0.30000000000000004) still reads as whole paise.
    const noisy = await place(order(INFY, 'BUY', { order_type: 'LIMIT', quantity: 1, product: 'CNC', price: 1400 + 0.1 + 0.2 }));
    expect(orderOf(noisy).price).toBe(1400.3);
    expect(await rejection(kite.getOrderHistory('1953367517686600999'))).toMatchObject({ error_type: 'InputException' });
    const bare = await fetch(`${standIn.apiUrl}/user/profile`, { headers: { authorization: `token ${API_KEY}:${standIn.accessTokenOf(USER) ?? ''}` } });
    expect(bare.status).toBe(400);
    expect(await bare.json()).toMatchObject({ status: 'error', error_type: 'InputException' });
  });

  it('modifies an open order up to 25 times and refuses the 26th', async () => {
    const orderId = await place(order(INFY, 'BUY', { order_type: 'LIMIT', quantity: 1, product: 'CNC', price: 1400 }));
    for (let count = 1; count <= 25; count += 1) {
      clockMs += 1_000;
      await kite.modifyOrder('regular', orderId, { price: (140_000 - count * 5) / 100 });
    }
    expect(orderOf(orderId)).toMatchObject({ status: 'OPEN', price: 1398.75, modified: true });
    clockMs += 1_000;
    expect(await rejection(kite.modifyOrder('regular', orderId, { price: 1390 })))
      .toMatchObject({ error_type: 'InputException', message: 'Maximum allowed order modifications exceeded' });
    const history = (await kite.getOrderHistory(orderId)).map((one) => one.status);
    expect(history.slice(4, 8)).toEqual(['MODIFY VALIDATION PENDING', 'MODIFY PENDING', 'MODIFIED', 'OPEN']);
  });

  it('fills an order modified into a marketable price, and cancels one that rests', async () => {
    const moved = await place(order(INFY, 'SELL', { order_type: 'LIMIT', quantity: 4, product: 'MIS', price: 1600 }));
    await kite.modifyOrder('regular', moved, { price: 1490, quantity: 6 });
    expect(orderOf(moved)).toMatchObject({ status: 'COMPLETE', filled_quantity: 6, average_price: 1500 });
    const resting = await place(order(INFY, 'BUY', { order_type: 'LIMIT', quantity: 3, product: 'CNC', price: 1400 }));
    expect(await kite.cancelOrder('regular', resting)).toEqual({ order_id: resting });
    expect(orderOf(resting)).toMatchObject({ status: 'CANCELLED', cancelled_quantity: 3, pending_quantity: 0 });
    expect((await kite.getOrderHistory(resting)).map((one) => one.status).slice(-2)).toEqual(['CANCEL PENDING', 'CANCELLED']);
    expect(await rejection(kite.cancelOrder('regular', resting))).toMatchObject({ error_type: 'OrderException' });
  });

  it('lists trades, trades per order, and positions with net quantity and average price', async () => {
    const first = await place(order(NIFTY_FUT, 'BUY', { ...MARKET, quantity: 75, product: 'NRML' }));
    standIn.tick(NIFTY_FUT.instrumentToken, 2_452_000);
    const second = await place(order(NIFTY_FUT, 'BUY', { ...MARKET, quantity: 75, product: 'NRML' }));
    standIn.tick(NIFTY_FUT.instrumentToken, 2_460_000);
    await place(order(NIFTY_FUT, 'SELL', { ...MARKET, quantity: 75, product: 'NRML' }));
    const trades = await kite.getTrades();
    expect(trades.map((one) => [one.transaction_type, one.quantity, one.average_price]))
      .toEqual([['BUY', 75, 24500], ['BUY', 75, 24520], ['SELL', 75, 24600]]);
    expect(trades[0]?.order_timestamp).toBe('09:15:01');
    expect((await kite.getOrderTrades(second)).map((one) => one.order_id)).toEqual([second]);
    expect((await kite.getOrderTrades(first)).map((one) => one.trade_id)).toEqual([trades[0]?.trade_id]);
    const { net, day } = await kite.getPositions();
    // Bought 75 @ 24,500 and 75 @ 24,520 (average 24,510), sold 75 @ 24,600: net 75 long.
    // realised = 75 x (24,600 - 24,510) = 6,750; pnl = 24,600x75 - (24,500+24,520)x75 + 75 x 24,600 = 13,500.
    expect(net).toHaveLength(1);
    expect(net[0]).toMatchObject({
      tradingsymbol: 'NIFTY26MARFUT', product: 'NRML', quantity: 75, average_price: 24510, buy_quantity: 150, sell_quantity: 75,
      last_price: 24600, realised: 6750, pnl: 13500, close_price: 24400,
    });
    expect(day).toEqual(net);
  });

  it('answers margins from cash minus what positions and working orders hold, and rejects an order past it', async () => {
    // 75 x ₹24,500 x 0.15 = ₹2,75,625 for one lot of the future.
    await place(order(NIFTY_FUT, 'BUY', { ...MARKET, quantity: 75, product: 'NRML' }));
    const equity = await kite.getMargins('equity');
    expect(equity).toMatchObject({
      enabled: true, net: 724_375, available: { cash: 1_000_000, live_balance: 724_375 }, utilised: { debits: 275_625 },
    });
    expect(await kite.getMargins()).toMatchObject({ equity: { net: 724_375 }, commodity: { enabled: true } });
    // A resting 150 at ₹24,400 blocks 150 x 24,400 x 0.15 = ₹5,49,000: fits. Then 75 more need ₹2,75,625
    // against 10,00,000 - 2,75,625 - 5,49,000 = ₹1,75,375 left.
    await place(order(NIFTY_FUT, 'BUY', { order_type: 'LIMIT', quantity: 150, product: 'NRML', price: 24400 }));
    const refused = await place(order(NIFTY_FUT, 'BUY', { ...MARKET, quantity: 75, product: 'NRML' }));
    expect(orderOf(refused)).toMatchObject({
      status: 'REJECTED', status_message: 'Insufficient funds. Required margin is 275625.00 but available margin is 175375.00.',
    });
    // Selling against the long needs no margin.
    const closing = await place(order(NIFTY_FUT, 'SELL', { ...MARKET, quantity: 75, product: 'NRML' }));
    expect(orderOf(closing).status).toBe('COMPLETE');
  });

  it('answers the holdings a test sets', async () => {
    expect(await kite.getHoldings()).toEqual([]);
    standIn.setHoldings(USER, [{
      tradingSymbol: 'INFY', exchange: 'NSE', instrumentToken: INFY.instrumentToken, isin: 'INE009A01021', quantity: 10,
      averagePricePaise: 140_000, lastPricePaise: 150_000,
    }]);
    expect(await kite.getHoldings())
      .toEqual([expect.objectContaining({ tradingsymbol: 'INFY', quantity: 10, average_price: 1400, last_price: 1500, pnl: 1000 })]);
  });

  it('slices an autoslice order by the freeze quantity into child orders', async () => {
    standIn.setCash(USER, 1_000_000_000);
    clockMs += 1_000;
    const sliceable = { order_type: 'LIMIT', product: 'NRML', autoslice: true };
    const answer = await kite.placeOrder('regular', order(NIFTY_CE, 'BUY', { ...sliceable, quantity: 150, price: 140 }));
    expect(answer.children).toBeUndefined(); // 150 is within the option's freeze quantity of 1,800
    const sliced = await kite.placeOrder('regular', order(NIFTY_FUT, 'BUY', { ...sliceable, quantity: 375, price: 24000 }));
    const children = (sliced.children as Row[]).map((one) => String(one.order_id));
    expect(children.map((id) => orderOf(id).quantity)).toEqual([150, 150, 75]);
    expect(orderOf(children[0] ?? '').tags).toEqual(['autoslice', `autoslice:${String(sliced.order_id)}`]);
    // 1,650 / 150 = 11 slices, one more than autoslice makes.
    expect(await rejection(kite.placeOrder('regular', order(NIFTY_FUT, 'BUY', { ...sliceable, quantity: 1_650, price: 24000 }))))
      .toMatchObject({ error_type: 'InputException' });
    const unsliced = await place(order(NIFTY_FUT, 'BUY', { order_type: 'LIMIT', quantity: 225, product: 'NRML', price: 24000 }));
    expect(orderOf(unsliced).status).toBe('REJECTED');
  });
});

describe('market data over HTTP', () => {
  it('serves the instruments CSV as exactly text/csv, gzipped when asked, parsed by the client into rows', async () => {
    const rows = (await kite.getInstruments()).filter((row) => row.tradingsymbol !== undefined && row.tradingsymbol !== '');
    expect(rows).toHaveLength(4);
    expect(rows.find((row) => row.tradingsymbol === 'NIFTY26MAR24500CE')).toEqual({
      instrument_token: String(NIFTY_CE.instrumentToken), exchange_token: '40001', tradingsymbol: 'NIFTY26MAR24500CE', name: 'NIFTY',
      last_price: 150, expiry: new Date('2026-03-26'), strike: 24500, tick_size: 0.05, lot_size: 75, instrument_type: 'CE',
      segment: 'NFO-OPT', exchange: 'NFO',
    });
    expect((await kite.getInstruments('NFO')).filter((row) => row.exchange === 'NFO')).toHaveLength(2);
    const response = await fetch(`${standIn.apiUrl}/instruments`, { headers: { 'x-kite-version': '3', 'accept-encoding': 'gzip' } });
    expect(response.headers.get('content-type')).toBe('text/csv');
    expect(response.headers.get('content-encoding')).toBe('gzip');
    expect((await response.text()).split('\n')[0])
      .toBe('instrument_token,exchange_token,tradingsymbol,name,last_price,expiry,strike,tick_size,lot_size,instrument_type,segment,exchange');
  });

  it('answers /quote/ltp keyed by the strings sent, leaving out what it does not know', async () => {
    expect(await kite.getLTP(['NFO:NIFTY26MARFUT', String(NIFTY_INDEX.instrumentToken), 'NSE:NOPE']))
      .toEqual({
        'NFO:NIFTY26MARFUT': { instrument_token: NIFTY_FUT.instrumentToken, last_price: 24500 },
        '256265': { instrument_token: 256_265, last_price: 24500 },
      });
  });
});

describe('ticker', () => {
  it('streams ltp, quote and full ticks for an NFO token and an index token with the prices right', async () => {
    const official = await openTicker(standIn.accessTokenOf(USER) ?? '');
    const fut = NIFTY_FUT.instrumentToken;
    const index = NIFTY_INDEX.instrumentToken;
    official.subscribe([fut, index]);
    await subscribed(index, 'quote');
    standIn.tick(fut, 2_451_230, { volume: 1_000 });
    standIn.tick(index, 2_449_865);
    const futQuote = await tickOf(fut, 24512.3, 'the future in quote mode');
    // close 24,400 (closePaise), open 24,500 (first tick), high 24,512.30, low 24,500; change = 112.30 x 100 / 24,400.
    expect(futQuote).toMatchObject({ mode: 'quote', tradable: true, volume_traded: 1_000, last_traded_quantity: 75,
      ohlc: { open: 24500, high: 24512.3, low: 24500, close: 24400 }, total_buy_quantity: 1_125, total_sell_quantity: 1_125 });
    expect(futQuote.change).toBeCloseTo((112.3 * 100) / 24400, 10);
    const indexQuote = await tickOf(index, 24498.65, 'the index in quote mode');
    expect(indexQuote).toMatchObject({ mode: 'quote', tradable: false, ohlc: { open: 24500, high: 24500, low: 24498.65, close: 24500 } });
    official.setMode('ltp', [fut]);
    official.setMode('full', [index]);
    await subscribed(fut, 'ltp');
    await subscribed(index, 'full');
    clockMs = START_MS + 60_000;
    standIn.tick(fut, 2_452_000);
    standIn.tick(index, 2_451_005);
    expect(await tickOf(fut, 24520, 'the future in ltp mode'))
      .toEqual({ tradable: true, mode: 'ltp', instrument_token: fut, last_price: 24520 });
    const indexFull = await tickOf(index, 24510.05, 'the index in full mode');
    expect(indexFull).toMatchObject({ mode: 'full', ohlc: { high: 24510.05 } });
    expect((indexFull.exchange_timestamp as Date).getTime()).toBe(START_MS + 60_000);
    official.setMode('full', [fut]);
    await subscribed(fut, 'full');
    standIn.tick(fut, 2_453_000, { atMs: START_MS + 61_000, oi: 12_345 });
    const futFull = await tickOf(fut, 24530, 'full', 'the future in full mode');
    expect(futFull).toMatchObject({ oi: 12_345, oi_day_high: 12_345 });
    expect((futFull.last_trade_time as Date).getTime()).toBe(START_MS + 61_000);
    const depth = futFull.depth as { buy: Row[]; sell: Row[] };
    expect(depth.buy[0]).toEqual({ price: 24529.9, quantity: 75, orders: 1 });
    expect(depth.sell[4]).toEqual({ price: 24530.5, quantity: 375, orders: 5 });
  });

  it('ignores tokens sent as strings and sends 1-byte heartbeats', async () => {
    const official = await openTicker(standIn.accessTokenOf(USER) ?? '');
    official.subscribe([String(INFY.instrumentToken)]);
    official.subscribe([NIFTY_CE.instrumentToken]);
    await subscribed(NIFTY_CE.instrumentToken, 'quote');
    expect(standIn.tickerConnections()[0]?.subscriptions).toEqual([{ token: NIFTY_CE.instrumentToken, mode: 'quote' }]);
    await waitFor(() => seen.frames.filter((frame) => frame.byteLength === 1).length >= 3, 'three heartbeats');
    standIn.tick(INFY.instrumentToken, 150_500);
    standIn.tick(NIFTY_CE.instrumentToken, 15_500);
    await waitFor(() => seen.ticks.some((one) => one.last_price === 155), 'the option tick');
    expect(seen.ticks.some((one) => one.instrument_token === INFY.instrumentToken)).toBe(false);
  });

  it('sends order updates on status changes after placement, matching the postback, never on placement', async () => {
    const official = await openTicker(standIn.accessTokenOf(USER) ?? '');
    official.subscribe([NIFTY_CE.instrumentToken]);
    const resting = await place(order(NIFTY_CE, 'BUY', { order_type: 'LIMIT', quantity: 75, product: 'NRML', price: 140 }));
    const filled = await place(order(INFY, 'BUY', { ...MARKET, quantity: 2, product: 'CNC' }));
    await waitFor(() => seen.updates.length >= 1, 'the fill update');
    expect(seen.updates.map((one) => [one.order_id, one.status])).toEqual([[filled, 'COMPLETE']]);
    standIn.tick(NIFTY_CE.instrumentToken, 13_950);
    await waitFor(() => seen.updates.length >= 2, 'the resting order fill');
    const update = seen.updates[1] ?? {};
    expect(update).toMatchObject({
      order_id: resting, status: 'COMPLETE', filled_quantity: 75, unfilled_quantity: 0, user_id: USER, average_price: 140,
    });
    expect(kite.validatePostback(update, API_SECRET)).toBe(true);
    await waitFor(() => postbacks.length >= 2, 'two postbacks');
    expect(postbacks.map((one) => [one.order_id, one.status])).toEqual([[filled, 'COMPLETE'], [resting, 'COMPLETE']]);
    expect(kite.validatePostback(postbacks[1] ?? {}, API_SECRET)).toBe(true);
    expect(kite.validatePostback(postbacks[1] ?? {}, 'another-secret')).toBe(false);
  });

  it('refuses the handshake with 403 after expireToken, keeps an open socket, and answers API calls 403', async () => {
    const official = await openTicker(standIn.accessTokenOf(USER) ?? '');
    standIn.expireToken(USER);
    const status = await new Promise<number>((resolve, reject) => {
      const raw = new WebSocket(`${standIn.tickerUrl}?api_key=${API_KEY}&access_token=${standIn.accessTokenOf(USER) ?? ''}`);
      raw.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
      raw.on('open', () => reject(new Error('the handshake should have been refused')));
      raw.on('error', () => undefined);
    });
    expect(status).toBe(403);
    const beats = seen.frames.length;
    await waitFor(() => seen.frames.length >= beats + 2, 'heartbeats on the open socket');
    expect(official.connected()).toBe(true);
    expect(await rejection(kite.getOrders())).toMatchObject(TOKEN_REFUSED);
    expect(standIn.requests.at(-1)?.status).toBe(403);
    // A fresh login works again.
    const fresh = await login();
    expect(await fresh.kite.getOrders()).toEqual([]);
  });
});

describe('faults', () => {
  it('rejectNext rejects the next n orders with the message', async () => {
    standIn.rejectNext('RMS: blocked for the test', 2);
    const base = order(INFY, 'BUY', { order_type: 'LIMIT', quantity: 1, product: 'CNC', price: 1400 });
    const ids = [await place(base), await place(base), await place(base)];
    expect(ids.map((id) => [orderOf(id).status, orderOf(id).status_message])).toEqual([
      ['REJECTED', 'RMS: blocked for the test'], ['REJECTED', 'RMS: blocked for the test'], ['OPEN', null],
    ]);
  });

  it('partialFills splits the next fill into parts, each with its own update', async () => {
    const official = await openTicker(standIn.accessTokenOf(USER) ?? '');
    expect(official.connected()).toBe(true);
    standIn.partialFills(3);
    const orderId = await place(order(NIFTY_CE, 'BUY', { ...MARKET, quantity: 300, product: 'MIS' }));
    await waitFor(() => seen.updates.length >= 3, 'three updates');
    expect(seen.updates.map((one) => [one.status, one.filled_quantity, one.pending_quantity]))
      .toEqual([['UPDATE', 75, 225], ['UPDATE', 150, 150], ['COMPLETE', 300, 0]]);
    expect((await kite.getOrderTrades(orderId)).map((one) => one.quantity)).toEqual([75, 75, 150]);
    const next = await place(order(INFY, 'BUY', { ...MARKET, quantity: 3, product: 'CNC' }));
    expect(await kite.getOrderTrades(next)).toHaveLength(1);
  });

  it('rateLimitNext answers the next n order calls 429, and the real limit allows 10 order calls a second and 400 a minute', async () => {
    const base = order(INFY, 'BUY', { order_type: 'LIMIT', quantity: 1, product: 'CNC', price: 1400 });
    standIn.rateLimitNext(2);
    for (let count = 0; count < 2; count += 1) {
      expect(await rejection(kite.placeOrder('regular', base)))
        .toEqual({ status: 'error', message: 'Too many requests', data: null, error_type: 'NetworkException' });
    }
    clockMs += 1_000;
    for (let count = 0; count < 10; count += 1) await kite.placeOrder('regular', base);
    expect(await rejection(kite.placeOrder('regular', base))).toMatchObject({ error_type: 'NetworkException' });
    expect(await kite.getOrders()).toHaveLength(10); // other endpoints have their own 10 per second
    clockMs += 1_000;
    for (let count = 0; count < 390; count += 1) {
      clockMs += 120;
      await kite.placeOrder('regular', base);
    }
    clockMs += 500;
    expect(await rejection(kite.placeOrder('regular', base))).toMatchObject({ message: 'Too many requests' });
    clockMs += 60_000;
    await kite.placeOrder('regular', base);
  });

  it('caps order calls at 5,000 a day per user (the limiter alone)', () => {
    const limiter = new RateLimiter();
    const istMidnight = Date.UTC(2026, 2, 1, 18, 30);
    for (let count = 0; count < 5_000; count += 1) expect(limiter.allow(USER, 'order', istMidnight + count * 15_000)).toBe(true);
    expect(limiter.allow(USER, 'order', istMidnight + 5_000 * 15_000)).toBe(false);
    expect(limiter.allow('OTHER1', 'order', istMidnight + 5_000 * 15_000)).toBe(true);
    expect(limiter.allow(USER, 'order', istMidnight + 86_400_000)).toBe(true);
  });

  it('failAfterAccept creates the order but answers 500, never answers, or drops the socket', async () => {
    const base = order(INFY, 'BUY', { ...MARKET, quantity: 1, product: 'CNC' });
    standIn.failAfterAccept('500');
    expect(await rejection(kite.placeOrder('regular', base))).toMatchObject({ error_type: 'GeneralException' });
    standIn.failAfterAccept('drop');
    clockMs += 1_000;
    expect(await rejection(kite.placeOrder('regular', base))).toMatchObject({ error_type: 'NetworkException' });
    const impatient = new KiteConnect({ api_key: API_KEY, root: standIn.apiUrl, timeout: 300 }) as unknown as Kite & {
      setAccessToken(token: string): void;
    };
    impatient.setAccessToken(standIn.accessTokenOf(USER) ?? '');
    standIn.failAfterAccept('timeout');
    clockMs += 1_000;
    expect(await rejection(impatient.placeOrder('regular', base))).toMatchObject({ error_type: 'NetworkException' });
    const orders = await kite.getOrders();
    expect(orders.map((one) => one.status)).toEqual(['COMPLETE', 'COMPLETE', 'COMPLETE']);
    expect(standIn.requests.filter((one) => one.path === '/orders/regular').map((one) => one.status)).toEqual([500, null, null]);
  });

  it('duplicateUpdates sends every update twice, on the ticker and as postbacks', async () => {
    await openTicker(standIn.accessTokenOf(USER) ?? '');
    standIn.duplicateUpdates(true);
    const orderId = await place(order(INFY, 'BUY', { ...MARKET, quantity: 1, product: 'CNC' }));
    await waitFor(() => seen.updates.length >= 2 && postbacks.length >= 2, 'two copies');
    expect(seen.updates.map((one) => [one.order_id, one.status])).toEqual([[orderId, 'COMPLETE'], [orderId, 'COMPLETE']]);
    expect(postbacks.map((one) => one.order_id)).toEqual([orderId, orderId]);
  });

  it('reorderUpdates delivers an order\'s updates in reverse: COMPLETE before the partial fill', async () => {
    await openTicker(standIn.accessTokenOf(USER) ?? '');
    standIn.reorderUpdates(true);
    standIn.partialFills(2);
    await place(order(INFY, 'BUY', { ...MARKET, quantity: 4, product: 'CNC' }));
    await waitFor(() => seen.updates.length >= 2, 'two updates');
    expect(seen.updates.map((one) => [one.status, one.filled_quantity])).toEqual([['COMPLETE', 4], ['UPDATE', 2]]);
  });

  it('stallTicker stops every frame, heartbeats included, with the socket open; resumeTicker restarts them', async () => {
    const official = await openTicker(standIn.accessTokenOf(USER) ?? '');
    official.subscribe([INFY.instrumentToken]);
    await subscribed(INFY.instrumentToken, 'quote');
    await waitFor(() => seen.frames.some((frame) => frame.byteLength === 1), 'a heartbeat');
    standIn.stallTicker();
    await new Promise((resolve) => setTimeout(resolve, 150)); // let frames already in flight land
    const framesAtStall = seen.frames.length;
    standIn.tick(INFY.instrumentToken, 151_000);
    await new Promise((resolve) => setTimeout(resolve, 600)); // six heartbeat periods
    expect(seen.frames.length).toBe(framesAtStall);
    expect(official.connected()).toBe(true);
    expect(standIn.tickerConnections()).toHaveLength(1);
    standIn.resumeTicker();
    standIn.tick(INFY.instrumentToken, 152_000);
    await waitFor(() => seen.ticks.some((one) => one.last_price === 1520), 'the tick after resuming');
    expect(seen.ticks.some((one) => one.last_price === 1510)).toBe(false);
  });

  it('dropTicker closes every ticker socket', async () => {
    const official = await openTicker(standIn.accessTokenOf(USER) ?? '');
    const raw = new WebSocket(`${standIn.tickerUrl}?api_key=${API_KEY}&access_token=${standIn.accessTokenOf(USER) ?? ''}`);
    await new Promise((resolve) => raw.on('open', resolve));
    await waitFor(() => standIn.tickerConnections().length === 2, 'two connections');
    const rawClosed = new Promise((resolve) => raw.on('close', resolve));
    standIn.dropTicker();
    await rawClosed;
    await waitFor(() => seen.closes >= 1, 'the official client to see the close');
    expect(official.connected()).toBe(false);
    expect(standIn.tickerConnections()).toEqual([]);
  });

  it('apiDown answers every call 502 or 503 until cleared', async () => {
    standIn.apiDown(503);
    expect(await rejection(kite.getOrders())).toMatchObject({ error_type: 'NetworkException', message: 'Service Unavailable' });
    standIn.apiDown(502);
    expect(await rejection(kite.getProfile())).toMatchObject({ error_type: 'NetworkException', message: 'Bad Gateway' });
    standIn.apiDown(null);
    expect(await kite.getProfile()).toMatchObject({ user_id: USER });
    expect(standIn.requests.slice(-3).map((one) => one.status)).toEqual([503, 502, 200]);
  });
});
