// A Kite Connect stand-in on 127.0.0.1 for tests and the local demo: the HTTP API and the ticker
// WebSocket on one port, a matching engine driven by scripted prices (tick()), and switchable faults.
// Everything it does follows docs/BROKER-KITE.md; the choices Kite leaves open are listed in README.md.
// Order updates go out after the HTTP answer: as ticker text frames to the account's connections and
// as a JSON POST to `postbackUrl` (checksum = SHA-256 hex of order_id + order_timestamp + api_secret).
import { createHash } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Accounts, type AccountInput, type HoldingInput } from './accounts';
import { Faults, RateLimiter, type AfterAccept } from './faults';
import { handleHttp, positions, type LoggedRequest, type RouteContext } from './http-routes';
import { checkInstrument, type StandInInstrument } from './instruments';
import { OrderBook, type KiteOrderJson, type OrderUpdate } from './matching';
import { TickerServer, type QuoteState, type TickerConnectionInfo } from './ticker-server';

export type { StandInInstrument } from './instruments';
export type { AccountInput, HoldingInput } from './accounts';
export type { LoggedRequest } from './http-routes';
export type { TickerConnectionInfo, QuoteState } from './ticker-server';

export interface StandInOptions {
  /** Port on 127.0.0.1 for HTTP and the ticker; default 0 (any free port). */
  readonly port?: number;
  /** The stand-in's clock (epoch ms): timestamps, token expiry, rate-limit windows. Default Date.now. */
  readonly now?: () => number;
  /** Where order postbacks are POSTed (JSON). None when absent. */
  readonly postbackUrl?: string;
  /** Ticker heartbeat period; default 1000 ms. */
  readonly heartbeatMs?: number;
}

export interface TickOptions {
  /** The day's volume after this tick (default: previous volume + one lot). */
  readonly volume?: number;
  /** Exchange time of the tick (default now()). */
  readonly atMs?: number;
  readonly oi?: number;
}

export interface KiteStandIn {
  /** http://127.0.0.1:P (no trailing slash): KITE_API_URL. */
  readonly apiUrl: string;
  /** ws://127.0.0.1:P/ : the client appends ?api_key=..&access_token=.. */
  readonly tickerUrl: string;
  /** http://127.0.0.1:P/connect/login: add ?api_key=..&v=3. */
  readonly loginUrl: string;
  /** Every HTTP call, in arrival order, secrets redacted. */
  readonly requests: readonly LoggedRequest[];
  close(): Promise<void>;
  addAccount(account: AccountInput): void;
  issueRequestToken(apiKey: string): string;
  accessTokenOf(userId: string): string | undefined;
  setHoldings(userId: string, holdings: readonly HoldingInput[]): void;
  setCash(userId: string, cashPaise: number): void;
  addInstrument(instrument: StandInInstrument): void;
  /** Sets the last price, matches resting orders, and sends the tick to subscribed ticker connections. */
  tick(token: number, pricePaise: number, options?: TickOptions): void;
  orders(userId: string): KiteOrderJson[];
  positions(userId: string): { net: unknown[]; day: unknown[] };
  tickerConnections(): TickerConnectionInfo[];
  rejectNext(message: string, n?: number): void;
  partialFills(parts: number): void;
  rateLimitNext(n: number): void;
  failAfterAccept(mode: AfterAccept): void;
  duplicateUpdates(on: boolean): void;
  reorderUpdates(on: boolean): void;
  stallTicker(): void;
  resumeTicker(): void;
  dropTicker(): void;
  expireToken(userId: string): void;
  apiDown(status: 502 | 503 | null): void;
}

type MarketState = { -readonly [K in keyof QuoteState]: QuoteState[K] };

export async function startKiteStandIn(options: StandInOptions = {}): Promise<KiteStandIn> {
  const now = options.now ?? (() => Date.now());
  const accounts = new Accounts(now);
  const faults = new Faults();
  const instruments = new Map<number, StandInInstrument>();
  const market = new Map<number, MarketState>();
  const lastPaise = (token: number): number | undefined => market.get(token)?.lastPaise;
  const book = new OrderBook({ now, lastPaise, cashPaise: (userId) => accounts.byUser(userId)?.cashPaise ?? 0 });
  const held = new Set<ServerResponse>();
  const requests: LoggedRequest[] = [];

  const ticker = new TickerServer({
    heartbeatMs: options.heartbeatMs ?? 1000,
    authenticate: (apiKey, accessToken) => accounts.authenticate(apiKey, accessToken).userId,
    quote: (token) => market.get(token),
    isStalled: () => faults.tickerStalled,
  });

  const deliverOne = (update: OrderUpdate): void => {
    const account = accounts.byUser(update.userId);
    if (account === undefined) return;
    const order = update.order;
    const checksum = createHash('sha256').update(`${order.order_id}${String(order.order_timestamp)}${account.apiSecret}`).digest('hex');
    const payload = {
      ...order, user_id: account.userId, app_id: account.appId, checksum,
      unfilled_quantity: Number(order.quantity) - Number(order.filled_quantity),
    };
    ticker.pushOrderUpdate(account.userId, payload);
    if (options.postbackUrl !== undefined) {
      // Postbacks are fire-and-forget, as Kite's are: a failing receiver changes nothing here.
      const request = { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload) };
      fetch(options.postbackUrl, request).catch(() => undefined);
    }
  };

  /** Delivers after the current answer has been written; reversed per order and doubled when the faults say so. */
  const deliver = (updates: readonly OrderUpdate[]): void => {
    if (updates.length === 0) return;
    const byOrder = new Map<string, OrderUpdate[]>();
    for (const update of updates) byOrder.set(update.order.order_id, [...(byOrder.get(update.order.order_id) ?? []), update]);
    const ordered = [...byOrder.values()].flatMap((list) => (faults.reorderUpdates ? [...list].reverse() : list));
    const times = faults.duplicateUpdates ? 2 : 1;
    setImmediate(() => {
      for (const update of ordered) for (let copy = 0; copy < times; copy += 1) deliverOne(update);
    });
  };

  const context: RouteContext = {
    accounts, book, faults, limiter: new RateLimiter(), requests, held, now, deliver, lastPaise,
    instruments: () => [...instruments.values()],
    instrument: (exchange, symbol) => [...instruments.values()].find((one) => one.exchange === exchange && one.tradingSymbol === symbol),
    closePaise: (token) => market.get(token)?.closePaise ?? instruments.get(token)?.closePaise ?? 0,
  };

  const server = createServer((request, response) => {
    handleHttp(context, request, response).catch((error: unknown) => {
      if (!response.headersSent) {
        response.writeHead(500, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ status: 'error', message: `Stand-in failure: ${String(error)}`, error_type: 'GeneralException' }));
      }
    });
  });
  server.on('upgrade', (request, socket, head) => ticker.handleUpgrade(request, socket, head));
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  const userOf = (userId: string): void => {
    if (accounts.byUser(userId) === undefined) throw new Error(`No stand-in account for user ${userId}.`);
  };

  return {
    apiUrl: `http://127.0.0.1:${port}`,
    tickerUrl: `ws://127.0.0.1:${port}/`,
    loginUrl: `http://127.0.0.1:${port}/connect/login`,
    requests,
    async close() {
      await ticker.close();
      for (const response of held) response.destroy();
      held.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    addAccount: (account) => void accounts.add(account),
    issueRequestToken: (apiKey) => accounts.issueRequestToken(apiKey),
    accessTokenOf: (userId) => accounts.accessTokenOf(userId),
    setHoldings: (userId, holdings) => accounts.setHoldings(userId, holdings),
    setCash(userId, cashPaise) {
      const account = accounts.byUser(userId);
      if (account === undefined) throw new Error(`setCash: no stand-in account for user ${userId}.`);
      account.cashPaise = cashPaise;
    },
    addInstrument(instrument) {
      checkInstrument(instrument);
      if (instruments.has(instrument.instrumentToken)) throw new Error(`addInstrument: token ${instrument.instrumentToken} is already listed.`);
      instruments.set(instrument.instrumentToken, instrument);
    },
    tick(token, pricePaise, tickOptions = {}) {
      const instrument = instruments.get(token);
      if (instrument === undefined) throw new Error(`tick: no instrument with token ${token}.`);
      if (!Number.isSafeInteger(pricePaise) || pricePaise <= 0) {
        throw new Error(`tick: pricePaise must be a positive whole number, got ${pricePaise}.`);
      }
      const before = market.get(token);
      const lastQuantity = instrument.lotSize;
      const volume = tickOptions.volume ?? (before?.volume ?? 0) + lastQuantity;
      const traded = Math.max(0, volume - (before?.volume ?? 0));
      const averagePaise = before === undefined || volume === 0 ? pricePaise
        : Math.round((before.averagePaise * before.volume + pricePaise * traded) / Math.max(1, before.volume + traded));
      market.set(token, {
        token, lastPaise: pricePaise, lastQuantity, averagePaise, volume,
        openPaise: before?.openPaise ?? pricePaise, highPaise: Math.max(before?.highPaise ?? pricePaise, pricePaise),
        lowPaise: Math.min(before?.lowPaise ?? pricePaise, pricePaise), closePaise: before?.closePaise ?? instrument.closePaise ?? pricePaise,
        oi: tickOptions.oi ?? before?.oi ?? 0, atMs: tickOptions.atMs ?? now(), tickSizePaise: instrument.tickSizePaise, lotSize: instrument.lotSize,
      });
      ticker.pushTick(token);
      deliver(book.onPrice(token));
    },
    orders: (userId) => book.ordersOf(userId),
    positions: (userId) => positions(context, userId),
    tickerConnections: () => ticker.info(),
    rejectNext(message, n = 1) {
      for (let count = 0; count < n; count += 1) faults.rejections.push(message);
    },
    partialFills(parts) {
      if (!Number.isSafeInteger(parts) || parts < 1) throw new Error(`partialFills: parts must be a whole number of at least 1, got ${parts}.`);
      faults.partialParts = parts;
    },
    rateLimitNext(n) { faults.rateLimitedOrderCalls = n; },
    failAfterAccept(mode) { faults.afterAccept = mode; },
    duplicateUpdates(on) { faults.duplicateUpdates = on; },
    reorderUpdates(on) { faults.reorderUpdates = on; },
    stallTicker() { faults.tickerStalled = true; },
    resumeTicker() { faults.tickerStalled = false; },
    dropTicker: () => ticker.dropAll(),
    expireToken(userId) {
      userOf(userId);
      accounts.expireUser(userId);
    },
    apiDown(status) { faults.apiDownStatus = status ?? undefined; },
  };
}
