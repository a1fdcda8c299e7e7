// Kite Connect v3 login, as pure functions: the login URL, the callback query, the form of the
// request-token exchange, and the exchange's answer. No I/O here (kite-http.ts posts the form),
// so every function is tested against recorded payloads.
//
// The flow: the browser goes to kiteLoginUrl(api_key); after the user signs in, Kite sends it to
// the app's registered redirect URL with `request_token`, `action=login` and `status=success`;
// the server posts api_key, request_token and checksum = SHA-256(api_key + request_token +
// api_secret) to /session/token and receives the day's access token.
import { createHash } from 'node:crypto';
import { err, istDate, istMidnightMs, ok, type Result } from '@vyuha/core';

/** Where the browser signs in to Kite. */
export const KITE_LOGIN_URL = 'https://kite.zerodha.com/connect/login';
/** Every Kite Connect v3 API call carries this in `X-Kite-Version`; the login URL carries `v=3`. */
export const KITE_API_VERSION = '3';

/** What the broker-login route is asked to do, read from the query string. */
export type KiteCallback =
  /** No request token: the user is starting a login (send them to Kite). */
  | { readonly kind: 'start' }
  /** Kite came back with a request token to exchange. */
  | { readonly kind: 'token'; readonly requestToken: string };

/** How the parsed answer's error begins when Kite itself refused (its own message follows). */
export const KITE_REFUSED = 'Kite refused the login';

/** The fields of the exchange form (`application/x-www-form-urlencoded`). */
export interface KiteSessionForm {
  readonly api_key: string;
  readonly request_token: string;
  readonly checksum: string;
}

/** The part of Kite's session answer that Vyuha keeps. */
export interface KiteSession {
  readonly accessToken: string;
  /** Kite's user id: the client id the user signed in with (e.g. "AB1234"). */
  readonly userId: string;
}

/**
 * The Kite login page for an app's api_key (`loginUrl`: KITE_LOGIN_URL's value, for a stand-in).
 * @example kiteLoginUrl('abc123') // 'https://kite.zerodha.com/connect/login?v=3&api_key=abc123'
 */
export function kiteLoginUrl(apiKey: string, loginUrl: string = KITE_LOGIN_URL): string {
  return `${loginUrl}?${new URLSearchParams({ v: KITE_API_VERSION, api_key: apiKey }).toString()}`;
}

/** Kite's request tokens are short alphanumeric strings; anything else is not one. */
const REQUEST_TOKEN = /^[A-Za-z0-9]{1,128}$/;

/**
 * Reads the callback query. No `request_token` and no `status` is the start of a login; a
 * `request_token` needs `status=success` (and `action=login` when `action` is present). A
 * repeated or malformed field is an error naming it.
 * @example parseKiteCallback({ request_token: 'Tk1', action: 'login', status: 'success' }) // ok({ kind: 'token', requestToken: 'Tk1' })
 */
export function parseKiteCallback(query: Readonly<Record<string, unknown>>): Result<KiteCallback, string> {
  const fields = {} as Record<'request_token' | 'status' | 'action', string | undefined>;
  for (const name of ['request_token', 'status', 'action'] as const) {
    const value = query[name];
    if (value !== undefined && typeof value !== 'string') return err(`the Kite callback has more than one ${name}`);
    fields[name] = value;
  }
  const { request_token: requestToken, status, action } = fields;
  if (requestToken === undefined) {
    if (status === undefined) return ok({ kind: 'start' });
    return err(`Kite came back with status ${JSON.stringify(status.slice(0, 40))} and no request_token`);
  }
  if (status !== 'success') return err(`Kite came back with status ${JSON.stringify((status ?? '(none)').slice(0, 40))}, not success`);
  if (action !== undefined && action !== 'login') return err(`Kite came back with action ${JSON.stringify(action.slice(0, 40))}, not login`);
  if (!REQUEST_TOKEN.test(requestToken)) return err('the Kite callback has a malformed request_token');
  return ok({ kind: 'token', requestToken });
}

/**
 * The exchange form: checksum = hex SHA-256 of api_key + request_token + api_secret (the secret
 * itself never leaves the server).
 * @example kiteSessionForm({ apiKey: 'k', requestToken: 't', apiSecret: 's' }).checksum // sha256('kts') in hex
 */
export function kiteSessionForm(input: { readonly apiKey: string; readonly requestToken: string; readonly apiSecret: string }): KiteSessionForm {
  const checksum = createHash('sha256').update(`${input.apiKey}${input.requestToken}${input.apiSecret}`, 'utf8').digest('hex');
  return { api_key: input.apiKey, request_token: input.requestToken, checksum };
}

/** The form as the request body. */
export function encodeKiteSessionForm(form: KiteSessionForm): string {
  return new URLSearchParams({ api_key: form.api_key, request_token: form.request_token, checksum: form.checksum }).toString();
}

/**
 * Reads the body of POST /session/token: `{"status":"success","data":{access_token, user_id, ...}}`
 * gives the session; `{"status":"error","message","error_type"}` gives Kite's reason; anything
 * else is an error naming the field that is wrong. Error texts never contain a token.
 * @example parseKiteSessionAnswer('{"status":"error","message":"Invalid `checksum`.","error_type":"TokenException"}') // err('Kite refused the login (TokenException): Invalid `checksum`.')
 */
export function parseKiteSessionAnswer(body: string): Result<KiteSession, string> {
  let answer: unknown;
  try {
    answer = JSON.parse(body);
  } catch {
    return err('the Kite session answer is not JSON');
  }
  if (!isRecord(answer)) return err('the Kite session answer is not a JSON object');
  if (answer.status === 'error') {
    const kind = typeof answer.error_type === 'string' ? ` (${answer.error_type.slice(0, 40)})` : '';
    const message = typeof answer.message === 'string' && answer.message !== '' ? answer.message.slice(0, 200) : 'no message';
    return err(`${KITE_REFUSED}${kind}: ${message}`);
  }
  if (answer.status !== 'success') return err('the Kite session answer has no status "success" or "error"');
  const data = answer.data;
  if (!isRecord(data)) return err('the Kite session answer has no data object');
  if (typeof data.access_token !== 'string' || data.access_token === '') return err('the Kite session answer has no data.access_token string');
  if (typeof data.user_id !== 'string' || data.user_id === '') return err('the Kite session answer has no data.user_id string');
  return ok({ accessToken: data.access_token, userId: data.user_id });
}

const DAY_MS = 86_400_000;
/** Kite access tokens expire at 06:00 IST. */
const EXPIRY_MINUTE_IST = 6 * 60;

/**
 * When a Kite access token issued at `issuedAtMs` dies: the first 06:00 IST after it (Kite
 * invalidates every token at that time, whenever it was issued).
 * @example new Date(kiteSessionExpiry(Date.parse('2026-03-02T10:00:00Z'))).toISOString() // '2026-03-03T00:30:00.000Z'
 */
export function kiteSessionExpiry(issuedAtMs: number): number {
  const expiryToday = istMidnightMs(istDate(issuedAtMs)) + EXPIRY_MINUTE_IST * 60_000;
  return expiryToday > issuedAtMs ? expiryToday : expiryToday + DAY_MS;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
