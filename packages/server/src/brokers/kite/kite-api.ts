// An authenticated Kite Connect v3 client: one `request` that every call after the login goes
// through (orders, trades, positions, margins, logout), so one place adds the headers, encodes the
// form, reads Kite's envelope and tells the caller what kind of failure it met. Each request and
// its answer is handed to `onExchange` as an audit record with the secrets redacted; nothing here
// logs (docs/BROKER-KITE.md, "Errors" and the order endpoints).
//
// Rules:
// - Headers: `X-Kite-Version: 3` and `Authorization: token <api_key>:<access_token>`; POST and PUT
//   bodies are form-encoded, GET and DELETE parameters go in the query string.
// - The answer is `{status: "success", data}` (the Result's value is `data`) or `{status: "error",
//   message, error_type}`. A TokenException means the session is dead; 429 is the rate limit
//   (the request was not taken); any other Kite refusal is `refused`; a 5xx, or a body that is no
//   Kite envelope, is `server`: the request may or may not have taken effect.
// - A connection that was never made (refused, no such host) is `unreachable` with `sent: false`;
//   one that broke after the request left is `unreachable` with `sent: true`.
// - Order and trade ids are read as strings even if a body carried them as bare JSON numbers:
//   19-digit ids lie beyond a JavaScript number's exact range.
// - Secrets never leave this file: records carry `[redacted]` for access_token, api_secret,
//   checksum, request_token, refresh_token (and the session tokens of a login answer), and failure
//   messages are built from the status and Kite's own message only.
import { err, ok, type Result } from '@vyuha/core';
import type { BrokerRequestRecord } from '../broker-request-trail';
import { KITE_API_VERSION } from './kite-login';

export type KiteHttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** Why a request did not give data. `message` never contains a token or a secret. */
export type KiteApiFailure =
  /** A TokenException (Kite answers 403): the session is dead; a new login is needed. */
  | { readonly kind: 'token'; readonly status?: number; readonly message: string }
  /** 429: over a rate limit; the request was not taken. */
  | { readonly kind: 'rate-limited'; readonly status: number; readonly message: string }
  /** Kite refused the request (InputException, OrderException, MarginException, ...): nothing happened. */
  | { readonly kind: 'refused'; readonly status: number; readonly errorType: string; readonly message: string }
  /** A 5xx or a body that is no Kite envelope: the request may or may not have taken effect. */
  | { readonly kind: 'server'; readonly status: number; readonly message: string }
  /** No answer within the timeout: the request may or may not have taken effect. */
  | { readonly kind: 'timeout'; readonly message: string }
  /** No HTTP answer; `sent` says whether the request may have reached Kite. */
  | { readonly kind: 'unreachable'; readonly sent: boolean; readonly message: string };

/** One request to Kite and its answer, as audited (broker-request-trail.ts): secrets are `[redacted]`. */
export type KiteExchangeRecord = BrokerRequestRecord & { readonly method: KiteHttpMethod; readonly outcome: 'ok' | KiteApiFailure['kind'] };

export interface KiteApiOptions {
  /** e.g. https://api.kite.trade (no trailing slash needed). */
  readonly baseUrl: string;
  readonly apiKey: string;
  /** The day's access token, read at each request; undefined means no session (nothing is sent). */
  readonly accessToken: () => string | undefined;
  /** Default 10 s. */
  readonly timeoutMs?: number;
  readonly fetch?: typeof fetch;
  readonly onExchange?: (record: KiteExchangeRecord) => void;
  readonly now?: () => number;
}

export interface KiteRequestOptions {
  readonly form?: Readonly<Record<string, string>>;
  readonly query?: Readonly<Record<string, string>>;
  /** Overrides the client's timeout for this request. */
  readonly timeoutMs?: number;
}

/** Kite answers in well under a second; ten seconds means it is not answering. */
export const KITE_API_TIMEOUT_MS = 10_000;
const SECRET_FIELDS = new Set(['access_token', 'api_secret', 'checksum', 'request_token', 'refresh_token', 'enctoken', 'public_token']);
const REDACTED = '[redacted]';
const ID_FIELDS = /"(order_id|exchange_order_id|parent_order_id|trade_id)"(\s*):(\s*)(-?\d+)(?=\s*[,}\]])/g;
/** Errors of the socket layer that mean no connection was made, so nothing was sent. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

/**
 * Kite's JSON with order and trade ids kept exact: a bare number in one of those fields becomes
 * the same digits as a string before parsing. Throws SyntaxError for text that is not JSON.
 * @example parseKiteJson('{"order_id":1953367517686685697}') // { order_id: '1953367517686685697' }
 */
export function parseKiteJson(text: string): unknown {
  return JSON.parse(text.replace(ID_FIELDS, '"$1"$2:$3"$4"'));
}

/** A copy of `fields` with every secret replaced by `[redacted]`. */
export function redactFields(fields: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, SECRET_FIELDS.has(key) ? REDACTED : value]));
}

export class KiteApi {
  private readonly fetchImpl: typeof fetch;
  private readonly now: () => number;
  private readonly baseUrl: string;

  constructor(private readonly options: KiteApiOptions) {
    this.fetchImpl = options.fetch ?? fetch;
    this.now = options.now ?? Date.now;
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
  }

  /** The query of `DELETE /session/token` (logout), or undefined without a session. */
  sessionQuery(): Readonly<Record<string, string>> | undefined {
    const accessToken = this.options.accessToken();
    return accessToken === undefined ? undefined : { api_key: this.options.apiKey, access_token: accessToken };
  }

  /**
   * Sends one request; the Result's value is the answer's `data`.
   * @example await api.request('GET', '/orders') // ok([{ order_id: '1953367517686685697', status: 'OPEN', ... }])
   */
  async request(method: KiteHttpMethod, path: string, options: KiteRequestOptions = {}): Promise<Result<unknown, KiteApiFailure>> {
    const accessToken = this.options.accessToken();
    if (accessToken === undefined) return err({ kind: 'token', message: 'there is no Kite session (log in to Kite first); nothing was sent' });
    const startedAtMs = this.now();
    const timeoutMs = options.timeoutMs ?? this.options.timeoutMs ?? KITE_API_TIMEOUT_MS;
    const url = options.query === undefined || Object.keys(options.query).length === 0
      ? `${this.baseUrl}${path}` : `${this.baseUrl}${path}?${new URLSearchParams(options.query).toString()}`;
    const headers: Record<string, string> = {
      'x-kite-version': KITE_API_VERSION,
      authorization: `token ${this.options.apiKey}:${accessToken}`,
    };
    if (options.form !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
    const record = (fields: Pick<KiteExchangeRecord, 'outcome'> & Partial<Pick<KiteExchangeRecord, 'status' | 'response'>>): void => {
      this.options.onExchange?.(exchangeRecord({ method, path, options, startedAtMs, durationMs: this.now() - startedAtMs, ...fields }));
    };
    let status: number;
    let text: string;
    try {
      const response = await this.fetchImpl(url, {
        method, headers, redirect: 'error', signal: AbortSignal.timeout(timeoutMs),
        ...(options.form === undefined ? {} : { body: new URLSearchParams(options.form).toString() }),
      });
      status = response.status;
      text = await response.text();
    } catch (error) {
      const failure = transportFailure(error, timeoutMs);
      record({ outcome: failure.kind });
      return err(failure);
    }
    const answer = readAnswer(status, text);
    record({ outcome: answer.ok ? 'ok' : answer.error.kind, status, response: answer.body });
    return answer.ok ? ok(answer.data) : err(answer.error);
  }
}

function transportFailure(error: unknown, timeoutMs: number): KiteApiFailure {
  const name = error instanceof Error ? error.name : '';
  if (name === 'TimeoutError' || name === 'AbortError') return { kind: 'timeout', message: `Kite did not answer within ${timeoutMs / 1000} s` };
  const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  const code = typeof cause?.code === 'string' ? cause.code : undefined;
  if (code !== undefined && NOT_SENT_CODES.has(code)) return { kind: 'unreachable', sent: false, message: `Kite could not be reached (${code})` };
  return { kind: 'unreachable', sent: true, message: `the connection to Kite broke before an answer${code === undefined ? '' : ` (${code})`}` };
}

type Answer =
  | { readonly ok: true; readonly data: unknown; readonly body: unknown }
  | { readonly ok: false; readonly error: KiteApiFailure; readonly body: unknown };

/** Kite's envelope read into data or a failure of the right kind. */
function readAnswer(status: number, text: string): Answer {
  let body: unknown;
  try {
    body = parseKiteJson(text);
  } catch {
    const shown = { text: text.slice(0, 200) };
    if (status === 429) return { ok: false, error: { kind: 'rate-limited', status, message: 'Kite answered 429 (too many requests)' }, body: shown };
    return { ok: false, error: { kind: 'server', status, message: `Kite answered HTTP ${status} with a body that is not JSON` }, body: shown };
  }
  const envelope = isRecord(body) ? body : {};
  const errorType = typeof envelope.error_type === 'string' ? envelope.error_type.slice(0, 40) : undefined;
  const message = typeof envelope.message === 'string' && envelope.message !== '' ? envelope.message.slice(0, 300) : undefined;
  if (status === 429) return { ok: false, error: { kind: 'rate-limited', status, message: message ?? 'Too many requests' }, body };
  if (errorType === 'TokenException') return { ok: false, error: { kind: 'token', status, message: message ?? 'the Kite session is no longer valid' }, body };
  if (status >= 500) return { ok: false, error: { kind: 'server', status, message: `Kite answered HTTP ${status}${message === undefined ? '' : `: ${message}`}` }, body };
  if (envelope.status === 'error' || errorType !== undefined) {
    return { ok: false, error: { kind: 'refused', status, errorType: errorType ?? 'GeneralException', message: message ?? `Kite refused the request (HTTP ${status})` }, body };
  }
  if (status >= 200 && status < 300 && envelope.status === 'success' && 'data' in envelope) return { ok: true, data: envelope.data, body };
  return { ok: false, error: { kind: 'server', status, message: `Kite answered HTTP ${status} without its "status" envelope` }, body };
}

function exchangeRecord(input: {
  readonly method: KiteHttpMethod; readonly path: string; readonly options: KiteRequestOptions; readonly startedAtMs: number; readonly durationMs: number;
  readonly outcome: KiteExchangeRecord['outcome']; readonly status?: number; readonly response?: unknown;
}): KiteExchangeRecord {
  const { form, query } = input.options;
  const tag = form?.tag;
  const brokerOrderId = /^\/orders\/[a-z]+\/([^/]+)$/.exec(input.path)?.[1] ?? orderIdOf(input.response);
  return {
    method: input.method,
    path: input.path,
    ...(form === undefined ? {} : { form: redactFields(form) }),
    ...(query === undefined ? {} : { query: redactFields(query) }),
    ...(tag === undefined ? {} : { tag }),
    ...(brokerOrderId === undefined ? {} : { brokerOrderId }),
    ...(input.status === undefined ? {} : { status: input.status }),
    outcome: input.outcome,
    ...(input.response === undefined ? {} : { response: summarised(input.response) }),
    startedAtMs: input.startedAtMs,
    durationMs: input.durationMs,
  };
}

function orderIdOf(body: unknown): string | undefined {
  if (!isRecord(body) || !isRecord(body.data)) return undefined;
  return typeof body.data.order_id === 'string' ? body.data.order_id : undefined;
}

const SUMMARY_FIELDS = ['order_id', 'trade_id', 'tag', 'status', 'quantity', 'filled_quantity', 'tradingsymbol', 'average_price'];

/** The body as audited: secrets redacted, and a list of orders or trades cut to the fields that identify them. */
function summarised(body: unknown): unknown {
  if (!isRecord(body)) return body;
  const data = body.data;
  if (Array.isArray(data)) {
    const items = data.map((item) => (isRecord(item) ? Object.fromEntries(SUMMARY_FIELDS.filter((key) => key in item).map((key) => [key, item[key]])) : item));
    return { ...body, data: items };
  }
  return redactDeep(body);
}

function redactDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactDeep);
  if (!isRecord(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, SECRET_FIELDS.has(key) ? REDACTED : redactDeep(inner)]));
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
