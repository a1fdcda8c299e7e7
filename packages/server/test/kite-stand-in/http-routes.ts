// The HTTP side of the stand-in: Kite Connect v3's routes that an adapter and the browser login need,
// with Kite's envelopes, statuses and rate limits (docs/BROKER-KITE.md). Every call is logged in
// `requests` with the access token and checksum redacted. Order calls pass through the faults first
// (rate-limited, down), and the "after accept" fault decides what happens to the answer of a
// placement once the order exists.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import type { Account, Accounts } from './accounts';
import type { Faults, LimitClass, RateLimiter } from './faults';
import { instrumentsCsv, type StandInInstrument } from './instruments';
import { KiteError, rupees, sendError, sendSuccess } from './kite-format';
import { positionJson, positionSums } from './margin';
import { tradeJson, type OrderBook, type OrderUpdate } from './matching';
import { readChange, readPlaceParams } from './order-params';

export interface LoggedRequest {
  readonly method: string;
  readonly path: string;
  /** Query and form fields together; `access_token` and `checksum` read "[redacted]". */
  readonly params: Readonly<Record<string, string | readonly string[]>>;
  /** The HTTP status answered; null while held (timeout fault) or when the socket was dropped. */
  status: number | null;
  readonly atMs: number;
}

export interface RouteContext {
  readonly accounts: Accounts;
  readonly book: OrderBook;
  readonly faults: Faults;
  readonly limiter: RateLimiter;
  readonly requests: LoggedRequest[];
  /** Answers held back by the timeout fault, ended by close(). */
  readonly held: Set<ServerResponse>;
  now(): number;
  instruments(): readonly StandInInstrument[];
  instrument(exchange: string, symbol: string): StandInInstrument | undefined;
  lastPaise(token: number): number | undefined;
  closePaise(token: number): number;
  /** Sends order updates (ticker and postback) once the answer has gone. */
  deliver(updates: readonly OrderUpdate[]): void;
}

const SECRET_FIELDS = new Set(['access_token', 'checksum']);
const MAX_SLICES = 10;

interface Call {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly form: Record<string, string>;
  readonly request: IncomingMessage;
  readonly response: ServerResponse;
  readonly entry: LoggedRequest;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function loggedParams(query: URLSearchParams, form: Record<string, string>): Record<string, string | string[]> {
  const params: Record<string, string | string[]> = {};
  for (const key of new Set(query.keys())) {
    const values = query.getAll(key);
    params[key] = values.length === 1 ? (values[0] ?? '') : values;
  }
  Object.assign(params, form);
  for (const key of Object.keys(params)) if (SECRET_FIELDS.has(key)) params[key] = '[redacted]';
  return params;
}

export async function handleHttp(context: RouteContext, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://stand-in');
  const body = request.method === 'POST' || request.method === 'PUT' ? await readBody(request) : '';
  const form = Object.fromEntries(new URLSearchParams(body));
  const entry: LoggedRequest = {
    method: request.method ?? 'GET', path: url.pathname, params: loggedParams(url.searchParams, form), status: null, atMs: context.now(),
  };
  context.requests.push(entry);
  const call: Call = { method: entry.method, path: url.pathname.replace(/\/+$/, '') || '/', query: url.searchParams, form, request, response, entry };
  if (context.faults.apiDownStatus !== undefined) {
    const status = context.faults.apiDownStatus;
    response.writeHead(status, { 'content-type': 'text/html' });
    response.end(`<html><body><h1>${status} ${status === 502 ? 'Bad Gateway' : 'Service Unavailable'}</h1></body></html>`);
  } else {
    try {
      route(context, call);
    } catch (error) {
      if (!(error instanceof KiteError)) throw error;
      sendError(response, error);
    }
  }
  // Routes answer synchronously; an answer held or dropped by a fault stays null.
  if (response.writableEnded && !response.destroyed) entry.status = response.statusCode;
}

function route(context: RouteContext, call: Call): void {
  const { method, path } = call;
  if (method === 'GET' && path === '/connect/login') return loginRedirect(context, call);
  if (call.request.headers['x-kite-version'] !== '3') {
    throw new KiteError(400, 'InputException', 'Missing or wrong `X-Kite-Version` header: Kite Connect v3 needs `X-Kite-Version: 3`.');
  }
  if (path === '/session/token' && method === 'POST') return sendSuccess(call.response, context.accounts.exchange(call.form));
  if (path === '/session/token' && method === 'DELETE') {
    context.accounts.invalidate(call.query.get('api_key') ?? '', call.query.get('access_token') ?? '');
    return sendSuccess(call.response, true);
  }
  if (method === 'GET' && (path === '/instruments' || path.startsWith('/instruments/'))) return instruments(context, call);
  const account = authenticate(context, call);
  const orderCall = path.startsWith('/orders/') && method !== 'GET';
  if (orderCall && context.faults.takeRateLimit()) throw tooMany();
  const kind: LimitClass = orderCall && method !== 'DELETE' ? 'order' : path.startsWith('/quote') ? 'quote' : 'other';
  if (!context.limiter.allow(account.userId, kind, context.now())) throw tooMany();
  if (orderCall) return orderRoute(context, call, account);
  return readRoute(context, call, account);
}

function tooMany(): KiteError {
  return new KiteError(429, 'NetworkException', 'Too many requests');
}

function authenticate(context: RouteContext, call: Call): Account {
  const match = /^token ([^:]+):(.+)$/.exec(call.request.headers.authorization ?? '');
  return context.accounts.authenticate(match?.[1] ?? '', match?.[2] ?? '');
}

function loginRedirect(context: RouteContext, call: Call): void {
  const account = context.accounts.byApiKey(call.query.get('api_key') ?? '');
  if (account?.redirectUrl === undefined) {
    call.response.writeHead(400, { 'content-type': 'text/plain' });
    call.response.end('Invalid api_key, or the app has no redirect URL.');
    return;
  }
  const target = new URL(account.redirectUrl);
  for (const [key, value] of new URLSearchParams(call.query.get('redirect_params') ?? '')) target.searchParams.append(key, value);
  target.searchParams.set('request_token', context.accounts.issueRequestToken(account.apiKey));
  target.searchParams.set('action', 'login');
  target.searchParams.set('status', 'success');
  call.response.writeHead(302, { location: target.toString() });
  call.response.end();
}

function instruments(context: RouteContext, call: Call): void {
  const exchange = call.path.split('/')[2];
  const rows = context.instruments().filter((one) => exchange === undefined || one.exchange === exchange);
  const csv = Buffer.from(instrumentsCsv(rows, (token) => context.lastPaise(token)));
  const gzip = /\bgzip\b/.test(String(call.request.headers['accept-encoding'] ?? ''));
  call.response.writeHead(200, { 'content-type': 'text/csv', ...(gzip ? { 'content-encoding': 'gzip' } : {}) });
  call.response.end(gzip ? gzipSync(csv) : csv);
}

function readRoute(context: RouteContext, call: Call, account: Account): void {
  const { path, response } = call;
  const { book } = context;
  const parts = path.split('/').slice(1);
  if (call.method !== 'GET') throw new KiteError(405, 'InputException', `${call.method} ${path} is not allowed.`);
  if (path === '/user/profile') return sendSuccess(response, context.accounts.profile(account));
  if (path === '/user/margins') return sendSuccess(response, margins(context, account));
  if (parts[0] === 'user' && parts[1] === 'margins' && parts.length === 3) {
    const segment = (margins(context, account) as Record<string, unknown>)[parts[2] ?? ''];
    if (segment === undefined) throw new KiteError(400, 'InputException', 'Invalid segment: equity or commodity.');
    return sendSuccess(response, segment);
  }
  if (path === '/quote/ltp') return sendSuccess(response, ltp(context, call.query.getAll('i')));
  if (path === '/orders') return sendSuccess(response, book.ordersOf(account.userId));
  if (parts[0] === 'orders' && parts.length === 2) return sendSuccess(response, book.historyOf(account.userId, parts[1] ?? ''));
  if (parts[0] === 'orders' && parts[2] === 'trades' && parts.length === 3) {
    book.historyOf(account.userId, parts[1] ?? '');
    return sendSuccess(response, book.tradesOf(account.userId, parts[1]).map(tradeJson));
  }
  if (path === '/trades') return sendSuccess(response, book.tradesOf(account.userId).map(tradeJson));
  if (path === '/portfolio/positions') return sendSuccess(response, positions(context, account.userId));
  if (path === '/portfolio/holdings') return sendSuccess(response, account.holdings);
  throw new KiteError(404, 'GeneralException', `Route not found: GET ${path}.`);
}

/** GET /portfolio/positions for a user (also the `positions(userId)` control). */
export function positions(context: Pick<RouteContext, 'book' | 'lastPaise' | 'closePaise'>, userId: string): { net: unknown[]; day: unknown[] } {
  const rows = positionSums(context.book.tradesOf(userId)).map((sums) => positionJson(sums, {
    lastPaise: context.lastPaise(sums.instrument.instrumentToken) ?? 0, closePaise: context.closePaise(sums.instrument.instrumentToken),
  }));
  return { net: rows, day: rows.map((row) => ({ ...row })) };
}

function margins(context: RouteContext, account: Account): Record<string, unknown> {
  const utilised = context.book.utilisedPaise(account.userId);
  const net = account.cashPaise - utilised;
  const zeroUtilised = {
    debits: 0, exposure: 0, m2m_realised: 0, m2m_unrealised: 0, option_premium: 0, payout: 0, span: 0, holding_sales: 0,
    turnover: 0, liquid_collateral: 0, stock_collateral: 0, delivery: 0,
  };
  const available = (cash: number, live: number): Record<string, number> => ({
    adhoc_margin: 0, cash: rupees(cash), opening_balance: rupees(cash), live_balance: rupees(live), collateral: 0, intraday_payin: 0,
  });
  return {
    equity: {
      enabled: true, net: rupees(net), available: available(account.cashPaise, net),
      utilised: { ...zeroUtilised, debits: rupees(utilised), span: rupees(utilised) },
    },
    commodity: { enabled: true, net: 0, available: available(0, 0), utilised: zeroUtilised },
  };
}

function ltp(context: RouteContext, keys: readonly string[]): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const key of keys) {
    const [exchange, symbol] = key.includes(':') ? key.split(/:(.*)/s) : [];
    const instrument = symbol === undefined
      ? context.instruments().find((one) => String(one.instrumentToken) === key)
      : context.instrument(exchange ?? '', symbol);
    const last = instrument === undefined ? undefined : context.lastPaise(instrument.instrumentToken);
    if (instrument !== undefined && last !== undefined) data[key] = { instrument_token: instrument.instrumentToken, last_price: rupees(last) };
  }
  return data;
}

function orderRoute(context: RouteContext, call: Call, account: Account): void {
  const parts = call.path.split('/').slice(1);
  if (parts[1] !== 'regular') {
    throw new KiteError(400, 'InputException', `Invalid \`variety\`: the stand-in serves regular orders only, got ${parts[1] ?? ''}.`);
  }
  const { book } = context;
  if (call.method === 'POST' && parts.length === 2) return placeRoute(context, call, account);
  const orderId = parts[2] ?? '';
  if (parts.length !== 3) throw new KiteError(404, 'GeneralException', `Route not found: ${call.method} ${call.path}.`);
  const updates = call.method === 'PUT'
    ? book.modify(account.userId, orderId, readChange(call.form, book.instrumentOf(account.userId, orderId)))
    : book.cancel(account.userId, orderId);
  sendSuccess(call.response, { order_id: orderId });
  context.deliver(updates);
}

function placeRoute(context: RouteContext, call: Call, account: Account): void {
  const params = readPlaceParams(call.form, (exchange, symbol) => context.instrument(exchange, symbol));
  const { faults, book } = context;
  const freeze = params.instrument.freezeQuantity;
  const sliced = params.autoslice && freeze !== undefined && params.quantity > freeze;
  const sizes: number[] = [];
  if (sliced) {
    const slices = Math.ceil(params.quantity / freeze);
    if (slices > MAX_SLICES) {
      throw new KiteError(400, 'InputException',
        `Autoslice splits into at most ${MAX_SLICES} slices of the freeze quantity ${freeze}; ${params.quantity} needs ${slices}.`);
    }
    for (let left = params.quantity; left > 0; left -= freeze) sizes.push(Math.min(freeze, left));
  } else {
    sizes.push(params.quantity);
  }
  const parentId = sliced ? book.newOrderId() : undefined;
  const updates: OrderUpdate[] = [];
  const orderIds = sizes.map((quantity) => {
    const placed = book.place(
      { ...params, userId: account.userId, quantity, ...(parentId === undefined ? {} : { tags: ['autoslice', `autoslice:${parentId}`] }) },
      { rejectMessage: faults.takeRejection(), parts: faults.takePartialParts() },
    );
    updates.push(...placed.updates);
    return placed.orderId;
  });
  const data = parentId === undefined
    ? { order_id: orderIds[0] }
    : { order_id: parentId, children: orderIds.map((orderId) => ({ order_id: orderId })) };
  answerAccepted(context, call, data);
  context.deliver(updates);
}

/** The answer of an accepted placement, unless a test asked for it to fail after the order exists. */
function answerAccepted(context: RouteContext, call: Call, data: unknown): void {
  switch (context.faults.takeAfterAccept()) {
    case '500': return sendError(call.response, new KiteError(500, 'GeneralException', 'Something went wrong while placing the order.'));
    case 'timeout':
      context.held.add(call.response);
      return;
    case 'drop':
      call.request.socket.destroy();
      return;
    case undefined: return sendSuccess(call.response, data);
  }
}
