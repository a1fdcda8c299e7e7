// Kite Connect over HTTP: the one call the login needs. The form and the answer are the pure
// functions of kite-login.ts; this file only moves bytes. Nothing here logs: errors say what
// failed (status, timeout, unreachable) and never carry the form, the token or the secret.
import { err, type Result } from '@vyuha/core';
import { ConfigError } from '../../config';
import type { ExchangeFailure } from '../broker-login-outcome';
import { encodeKiteSessionForm, KITE_API_VERSION, KITE_REFUSED, parseKiteSessionAnswer, type KiteSession, type KiteSessionForm } from './kite-login';

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
  const raw = env[KITE_API_URL_VARIABLE]?.trim();
  if (raw === undefined || raw === '') return DEFAULT_KITE_API_URL;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${KITE_API_URL_VARIABLE} must be an http(s) URL such as ${DEFAULT_KITE_API_URL}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new ConfigError(`${KITE_API_URL_VARIABLE} must be an http(s) URL such as ${DEFAULT_KITE_API_URL}`);
  return raw.replace(/\/+$/, '');
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
