// How a broker login ends for the browser: always a 302 back to the brokers tab of /users/edit,
// `broker_login=ok` or `broker_login=error&code=<code>`, plus the broker and client id (and, for
// a login as someone else, the broker's id of who signed in). The account page turns the code
// into words (packages/web/src/pages/account/broker-login-outcome.ts keeps the same list): a
// page of raw JSON (`not-implemented`, `api-key-missing`) told a trader nothing.
//
// Only codes and ids that match strict patterns travel in the URL, never free text: a link
// crafted by someone else cannot make the page say anything but our own words.

export const BROKERS_TAB = '/users/edit';

/** Every way a login can fail, as the page receives it. */
export const BROKER_LOGIN_ERROR_CODES = [
  /** No such broker in the `brokers` table. */
  'unknown-broker',
  /** The signed-in user has no account with this broker and client id (another user's looks the same). */
  'account-not-found',
  /** A broker without an adapter yet: only Zerodha (Kite Connect) logs in today. */
  'not-supported',
  /** The account has no API key (the broker app's key). */
  'api-key-missing',
  /** The account has no API secret stored. */
  'api-secret-missing',
  /** The server has no key to decrypt API secrets (VYUHA_BROKER_SECRET_KEY). */
  'secret-key-missing',
  /** The stored API secret cannot be decrypted with the server's key (the key changed). */
  'secret-unreadable',
  /** The broker sent the browser back without a usable login (cancelled, failed, malformed). */
  'callback-invalid',
  /** The broker refused the checksum: the API secret is wrong. */
  'api-secret-wrong',
  /** The broker's one-time token was used already or expired: log in again. */
  'request-token-expired',
  /** The broker refused the exchange for another reason. */
  'broker-refused',
  /** The broker could not be reached. */
  'broker-unreachable',
  /** The broker did not answer in time. */
  'broker-timeout',
  /** The broker's answer could not be read. */
  'broker-answer-invalid',
  /** Someone signed in at the broker as another client id than this account's. */
  'wrong-user',
] as const;

export type BrokerLoginErrorCode = (typeof BROKER_LOGIN_ERROR_CODES)[number];

/** Broker ids and client ids as the database allows them; anything else stays out of the URL. */
const BROKER_ID = /^[a-z0-9]{1,32}$/;
const CLIENT_ID = /^[A-Za-z0-9_-]{2,32}$/;

export type BrokerLoginOutcome =
  | { readonly kind: 'ok'; readonly broker: string; readonly clientId: string }
  | { readonly kind: 'error'; readonly code: BrokerLoginErrorCode; readonly broker: string; readonly clientId: string; readonly signedInAs?: string };

/**
 * The brokers tab address for an outcome.
 * @example outcomeLocation({ kind: 'error', code: 'not-supported', broker: 'upstox', clientId: 'UP1111' }) // '/users/edit?tab=brokers&broker_login=error&code=not-supported&broker=upstox&client_id=UP1111'
 */
export function outcomeLocation(outcome: BrokerLoginOutcome): string {
  const query = new URLSearchParams({ tab: 'brokers', broker_login: outcome.kind });
  if (outcome.kind === 'error') query.set('code', outcome.code);
  if (BROKER_ID.test(outcome.broker)) query.set('broker', outcome.broker);
  if (CLIENT_ID.test(outcome.clientId)) query.set('client_id', outcome.clientId);
  if (outcome.kind === 'error' && outcome.signedInAs !== undefined && CLIENT_ID.test(outcome.signedInAs)) query.set('signed_in_as', outcome.signedInAs);
  return `${BROKERS_TAB}?${query.toString()}`;
}

/** How a token exchange failed, as the adapter's HTTP layer reports it. */
export interface ExchangeFailure {
  readonly kind: 'refused' | 'timeout' | 'unreachable' | 'malformed';
  /** Our sentence for the log (the broker's own message for a refusal); never a token. */
  readonly reason: string;
}

/**
 * The code for a failed exchange. Kite answers both a wrong checksum and a spent request token
 * with a TokenException; its message tells them apart.
 * @example exchangeFailureCode({ kind: 'refused', reason: 'Kite refused the login (TokenException): Invalid `checksum`.' }) // 'api-secret-wrong'
 */
export function exchangeFailureCode(failure: ExchangeFailure): BrokerLoginErrorCode {
  switch (failure.kind) {
    case 'timeout': return 'broker-timeout';
    case 'unreachable': return 'broker-unreachable';
    case 'malformed': return 'broker-answer-invalid';
    case 'refused': {
      if (/checksum/i.test(failure.reason)) return 'api-secret-wrong';
      if (/token is invalid or has expired/i.test(failure.reason)) return 'request-token-expired';
      return 'broker-refused';
    }
  }
}
