// The day's broker session as the trading runtime reads it: the account, its API key, the access
// token (decrypted only here, in memory) and whether it may still be used. A session is usable
// until its `expires_at` (Kite: 06:00 IST the next day) unless the broker refused it earlier or the
// user disconnected (`invalidated_at`, migration 0023). Whatever is wrong, the answer says it in
// words a user can act on and gives the login path that fixes it (`/api/broker_login/...`).
import { err, ok, type Result } from '@vyuha/core';
import type pg from 'pg';
import { decryptBrokerSecret, type BrokerSecretKey } from './broker-secrets';

/** The brokers whose LIVE trading the platform runs today. */
export const LIVE_BROKERS: ReadonlySet<string> = new Set(['zerodha']);

/** A usable session: everything an adapter needs to call the broker for this account. */
export interface LiveBrokerSession {
  readonly userBrokerId: string;
  readonly userId: string;
  readonly broker: string;
  readonly brokerName: string;
  readonly clientId: string;
  readonly apiKey: string;
  readonly accessToken: string;
  readonly expiresAtMs: number;
}

/** Why an account cannot trade LIVE now, in words, with what fixes it. */
export interface BrokerSessionProblem {
  readonly code: 'account-not-found' | 'account-inactive' | 'broker-not-supported' | 'api-key-missing' | 'no-session' | 'session-expired'
    | 'session-invalidated' | 'secret-key-missing' | 'session-unreadable';
  readonly message: string;
  /** Where the user logs in to the broker for today; absent when a login would not help. */
  readonly loginPath?: string;
}

/**
 * The path of the broker login for an account (the route of broker-login-routes.ts).
 * @example brokerLoginPath('zerodha', 'AB1234') // '/api/broker_login/zerodha/AB1234'
 */
export function brokerLoginPath(broker: string, clientId: string): string {
  return `/api/broker_login/${encodeURIComponent(broker)}/${encodeURIComponent(clientId)}`;
}

/**
 * What a user is told when the account has no usable session today.
 * @example logInForTodayMessage('Zerodha (Kite Connect)') // 'Log in to Zerodha for today: ...'
 */
export function logInForTodayMessage(brokerName: string, why: string): string {
  const short = brokerName.replace(/\s*\(.*\)\s*$/, '');
  return `Log in to ${short} for today: ${why}`;
}

interface SessionRow {
  user_broker_id: string;
  user_id: string;
  broker: string;
  broker_name: string;
  client_id: string;
  active: boolean;
  api_key: string | null;
  access_token_ciphertext: Buffer | null;
  access_token_nonce: Buffer | null;
  access_token_key_id: string | null;
  expires_ms: string | null;
  invalidated_at: Date | null;
  invalid_reason: string | null;
}

/**
 * The account's session if it can be used at `nowMs`, else the problem. The token is decrypted
 * with `keys`; it never leaves the returned object (no log, no error message carries it).
 */
export async function liveBrokerSession(
  db: pg.Pool | pg.PoolClient,
  request: { readonly userBrokerId: string; readonly keys: readonly BrokerSecretKey[]; readonly nowMs: number },
): Promise<Result<LiveBrokerSession, BrokerSessionProblem>> {
  return readSession(db, request, true);
}

/**
 * Why the account cannot trade LIVE at `nowMs` (as liveBrokerSession says it), or undefined when
 * its session is usable; reads no secret (deploy_strategy asks this before any run starts).
 */
export async function brokerSessionProblem(db: pg.Pool | pg.PoolClient, request: { readonly userBrokerId: string; readonly nowMs: number }): Promise<BrokerSessionProblem | undefined> {
  const session = await readSession(db, { ...request, keys: [] }, false);
  return session.ok ? undefined : session.error;
}

async function readSession(
  db: pg.Pool | pg.PoolClient,
  request: { readonly userBrokerId: string; readonly keys: readonly BrokerSecretKey[]; readonly nowMs: number },
  decrypt: boolean,
): Promise<Result<LiveBrokerSession, BrokerSessionProblem>> {
  const { rows } = await db.query<SessionRow>(
    `SELECT ub.user_broker_id, ub.user_id, ub.broker, b.name AS broker_name, ub.client_id, ub.active, ub.api_key,
            s.access_token_ciphertext, s.access_token_nonce, s.access_token_key_id,
            (extract(epoch FROM s.expires_at) * 1000)::bigint::text AS expires_ms, s.invalidated_at, s.invalid_reason
     FROM user_brokers ub JOIN brokers b ON b.broker = ub.broker
     LEFT JOIN broker_sessions s ON s.user_broker_id = ub.user_broker_id
     WHERE ub.user_broker_id = $1`, [request.userBrokerId]);
  const row = rows[0];
  if (row === undefined) return err({ code: 'account-not-found', message: `broker account ${request.userBrokerId} does not exist` });
  const login = brokerLoginPath(row.broker, row.client_id);
  if (!LIVE_BROKERS.has(row.broker)) {
    return err({ code: 'broker-not-supported', message: `LIVE trading through ${row.broker_name} is not available yet; Zerodha is the broker Vyuha trades through today` });
  }
  if (!row.active) return err({ code: 'account-inactive', message: `the ${row.broker_name} account ${row.client_id} is switched off; switch it on in your broker accounts` });
  if (row.api_key === null || row.api_key === '') {
    return err({ code: 'api-key-missing', message: `the ${row.broker_name} account ${row.client_id} has no API key; add your Kite Connect app's key and secret in your broker accounts` });
  }
  if (row.access_token_ciphertext === null || row.access_token_nonce === null || row.access_token_key_id === null || row.expires_ms === null) {
    return err({ code: 'no-session', message: logInForTodayMessage(row.broker_name, `there is no session for ${row.client_id}`), loginPath: login });
  }
  if (row.invalidated_at !== null) {
    return err({ code: 'session-invalidated', message: logInForTodayMessage(row.broker_name, `the session of ${row.client_id} ended (${row.invalid_reason ?? 'refused by the broker'})`), loginPath: login });
  }
  const expiresAtMs = Number(row.expires_ms);
  if (expiresAtMs <= request.nowMs) {
    return err({ code: 'session-expired', message: logInForTodayMessage(row.broker_name, `the session of ${row.client_id} expired at 06:00 IST`), loginPath: login });
  }
  if (!decrypt) {
    return ok({
      userBrokerId: row.user_broker_id, userId: row.user_id, broker: row.broker, brokerName: row.broker_name, clientId: row.client_id,
      apiKey: row.api_key, accessToken: '', expiresAtMs,
    });
  }
  if (request.keys.length === 0) {
    return err({ code: 'secret-key-missing', message: 'the server has no broker secret key (VYUHA_BROKER_SECRET_KEY), so it cannot read broker sessions' });
  }
  let accessToken: string;
  try {
    accessToken = decryptBrokerSecret(request.keys, {
      ciphertext: row.access_token_ciphertext, nonce: row.access_token_nonce, keyId: row.access_token_key_id,
    });
  } catch {
    return err({ code: 'session-unreadable', message: logInForTodayMessage(row.broker_name, `the stored session of ${row.client_id} cannot be read with the server's key`), loginPath: login });
  }
  return ok({
    userBrokerId: row.user_broker_id, userId: row.user_id, broker: row.broker, brokerName: row.broker_name, clientId: row.client_id,
    apiKey: row.api_key, accessToken, expiresAtMs,
  });
}

/**
 * Marks the account's session unusable from now on (the broker refused its token, or the user
 * disconnected); a later login replaces the row and so clears it. True when a usable session was
 * ended by this call.
 */
export async function invalidateBrokerSession(db: pg.Pool | pg.PoolClient, userBrokerId: string, reason: string): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE broker_sessions SET invalidated_at = now(), invalid_reason = $2 WHERE user_broker_id = $1 AND invalidated_at IS NULL`,
    [userBrokerId, reason]);
  return (rowCount ?? 0) > 0;
}
