// Kite Connect over HTTP: the one call the login needs. The form and the answer are the pure
// functions of kite-login.ts; this file only moves bytes. Nothing here logs: errors say what
// failed (status, timeout, unreachable) and never carry the form, the token or the secret.
import { err, ok, type Result } from '@vyuha/core';
import { ConfigError } from '../../config';
import type { ExchangeFailure } from '../broker-login-outcome';
import { encodeKiteSessionForm, KITE_API_VERSION, KITE_LOGIN_URL, KITE_REFUSED, parseKiteSessionAnswer, type KiteSession, type KiteSessionForm } from './kite-login';

export const KITE_API_URL_VARIABLE = 'KITE_API_URL';
export const DEFAULT_KITE_API_URL = 'https://api.kite.trade';
/** Kite answers the exchange in well under a second; ten seconds means it is not answering. */
export const KITE_TIMEOUT_MS = 10_000;

/**
 * The Kite API base URL: KITE_API_URL (tests point it at a fake on 127.0.0.1), else the real one.
 * A value that is not an http(s) URL is a ConfigError naming the variable.
 * @example kiteApiBaseUrl({}) // 'https://api.kite.trade'
 */
export function kiteApiBaseUrl(env: NodeJS.ProcessEnv): string {
  return httpUrlSetting(env, KITE_API_URL_VARIABLE, DEFAULT_KITE_API_URL);
}

export const KITE_LOGIN_URL_VARIABLE = 'KITE_LOGIN_URL';

/**
 * Where the browser signs in to Kite: KITE_LOGIN_URL (a stand-in's login page in tests and demos),
 * else Kite's own. Validated like KITE_API_URL.
 * @example kiteLoginBaseUrl({}) // 'https://kite.zerodha.com/connect/login'
 */
export function kiteLoginBaseUrl(env: NodeJS.ProcessEnv): string {
  return httpUrlSetting(env, KITE_LOGIN_URL_VARIABLE, KITE_LOGIN_URL);
}

function httpUrlSetting(env: NodeJS.ProcessEnv, variable: string, fallback: string): string {
  const raw = env[variable]?.trim();
  if (raw === undefined || raw === '') return fallback;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${variable} must be an http(s) URL such as ${fallback}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new ConfigError(`${variable} must be an http(s) URL such as ${fallback}`);
  return raw.replace(/\/+$/, '');
}

/**
 * DELETE /session/token: ends the day's session at Kite (the user disconnected). Resolves true
 * when Kite confirmed it, false when Kite refused (the token was already dead: nothing to end);
 * a timeout or an unreachable Kite is an error of the Result, never thrown. Logs nothing.
 */
export async function logoutKiteSession(request: {
  readonly baseUrl: string; readonly apiKey: string; readonly accessToken: string; readonly timeoutMs?: number;
}): Promise<Result<boolean, ExchangeFailure>> {
  const timeoutMs = request.timeoutMs ?? KITE_TIMEOUT_MS;
  const query = new URLSearchParams({ api_key: request.apiKey, access_token: request.accessToken });
  try {
    const response = await fetch(`${request.baseUrl}/session/token?${query.toString()}`, {
      method: 'DELETE',
      headers: { 'x-kite-version': KITE_API_VERSION, authorization: `token ${request.apiKey}:${request.accessToken}` },
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'error',
    });
    await response.arrayBuffer();
    if (response.status === 200) return ok(true);
    if (response.status === 403) return ok(false);
    return err({ kind: 'malformed', reason: `Kite answered HTTP ${response.status}` });
  } catch (error) {
    const name = (error as Error).name;
    if (name === 'TimeoutError' || name === 'AbortError') return err({ kind: 'timeout', reason: `Kite did not answer within ${timeoutMs / 1000} s` });
    return err({ kind: 'unreachable', reason: 'Kite could not be reached' });
  }
}

export interface KiteExchangeRequest {
  /** The API base URL, without a trailing slash. */
  readonly baseUrl: string;
  readonly form: KiteSessionForm;
  /** Default KITE_TIMEOUT_MS. */
  readonly timeoutMs?: number;
}

/**
 * POST /session/token: exchanges a request token for the day's session. Kite's refusals (a 403
 * TokenException for a used token or a wrong checksum) come back as the error of the Result, like
 * a timeout or an unreachable host, each with its kind; only a bug throws.
 */
export async function exchangeKiteRequestToken(request: KiteExchangeRequest): Promise<Result<KiteSession, ExchangeFailure>> {
  const timeoutMs = request.timeoutMs ?? KITE_TIMEOUT_MS;
  let status: number;
  let body: string;
  try {
    const response = await fetch(`${request.baseUrl}/session/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-kite-version': KITE_API_VERSION },
      body: encodeKiteSessionForm(request.form),
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'error',
    });
    status = response.status;
    body = await response.text();
  } catch (error) {
    const name = (error as Error).name;
    if (name === 'TimeoutError' || name === 'AbortError') return err({ kind: 'timeout', reason: `Kite did not answer within ${timeoutMs / 1000} s` });
    return err({ kind: 'unreachable', reason: 'Kite could not be reached' });
  }
  const parsed = parseKiteSessionAnswer(body);
  if (parsed.ok) return parsed;
  // Kite states its refusals in the body; a body without one is described by the HTTP status.
  if (parsed.error.startsWith(KITE_REFUSED)) return err({ kind: 'refused', reason: parsed.error });
  return err({ kind: 'malformed', reason: status !== 200 ? `Kite answered HTTP ${status}` : parsed.error });
}
