// GET /api/broker_login/:broker/:client_id: the daily broker login, started and finished by the
// browser's own navigations (docs/PRODUCT.md section 2). Without a request token it sends the browser to the
// broker's login page; the broker sends it back here with one, and the server exchanges it for
// the day's access token, stores that encrypted in broker_sessions, and returns the browser to the
// brokers tab of /users/edit. Every ending, success or failure, is that redirect with a code the
// page turns into words (broker-login-outcome.ts); a successful login also settles who owns the
// client id (broker-ownership.ts).
//
// The browser is identified by the `vyuhaAccessToken` cookie (docs/PRODUCT.md section 7: the web app keeps
// the access token there for navigations), verified exactly as GraphQL verifies a bearer token.
// Only the signed-in user's own accounts can be logged in. Tokens, request tokens and secrets
// never reach the log or the audit trail.
import { isIP } from 'node:net';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type pg from 'pg';
import type { AccessTokenClaims } from '../auth/jwt';
import { exchangeFailureCode, outcomeLocation, type BrokerLoginErrorCode } from './broker-login-outcome';
import { storeVerifiedSession } from './broker-ownership';
import { BrokerSecretError, decryptBrokerSecret, encryptBrokerSecret, type BrokerSecretKey } from './broker-secrets';
import { exchangeKiteRequestToken, kiteApiBaseUrl, kiteLoginBaseUrl } from './kite/kite-http';
import { kiteLoginUrl, kiteSessionExpiry, kiteSessionForm, parseKiteCallback } from './kite/kite-login';

/** Must match the web app's ACCESS_TOKEN_COOKIE (packages/web/src/auth/token-storage.ts). */
export const ACCESS_TOKEN_COOKIE = 'vyuhaAccessToken';
export const SIGN_IN_PATH = '/authenticate/signin';

export interface BrokerLoginOptions {
  readonly pool: pg.Pool;
  /** The verifier the GraphQL layer uses (createSigningKeys(...).verify). */
  readonly verifyToken: (token: string) => Promise<AccessTokenClaims>;
  /** Where the Hasura claims live in the token (auth config `jwt.claimsNamespace`). */
  readonly claimsNamespace: string;
  /** Decrypts API secrets and encrypts access tokens; undefined when none is configured. */
  readonly key: BrokerSecretKey | undefined;
  /** Kite API base URL; default from KITE_API_URL (kiteApiBaseUrl). */
  readonly kiteApiUrl?: string;
  /** Kite's login page; default from KITE_LOGIN_URL (kiteLoginBaseUrl). */
  readonly kiteLoginUrl?: string;
  /** Clock for session expiry; default Date.now. */
  readonly now?: () => number;
}

interface AccountRow {
  readonly broker: string;
  readonly user_broker_id: string | null;
  readonly api_key: string | null;
  readonly api_secret_ciphertext: Buffer | null;
  readonly api_secret_nonce: Buffer | null;
  readonly api_secret_key_id: string | null;
}

interface Params {
  readonly broker: string;
  readonly client_id: string;
}

const BROKER_ID = /^[a-z0-9]+$/;
const CLIENT_ID = /^[A-Za-z0-9_-]{2,32}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Registers GET /api/broker_login/:broker/:client_id. */
export const brokerLoginRoutes: FastifyPluginAsync<BrokerLoginOptions> = async (app, options) => {
  const kiteApiUrl = options.kiteApiUrl ?? kiteApiBaseUrl(process.env);
  const kiteLoginPage = options.kiteLoginUrl ?? kiteLoginBaseUrl(process.env);
  const now = options.now ?? Date.now;
  app.get<{ Params: Params; Querystring: Record<string, unknown> }>('/api/broker_login/:broker/:client_id', {
    // The query string carries the broker's request token: request logs show the path only.
    logSerializers: { req: (request: FastifyRequest) => ({ method: request.method, url: request.url.split('?')[0] }) },
  }, async (request, reply) => {
    void reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
    const userId = await signedInUser(request, options);
    if (userId === undefined) return reply.redirect(SIGN_IN_PATH, 302);
    const { broker, client_id: clientId } = request.params;
    const failed = (code: BrokerLoginErrorCode) => reply.redirect(outcomeLocation({ kind: 'error', code, broker, clientId }), 302);
    // A malformed client id cannot be anyone's account: it looks up nothing.
    const account = BROKER_ID.test(broker)
      ? await findAccount(options.pool, { broker, clientId: CLIENT_ID.test(clientId) ? clientId : '', userId })
      : undefined;
    if (account === undefined) return failed('unknown-broker');
    // Someone else's account and a missing one answer alike: the owner is not revealed.
    if (account.user_broker_id === null) return failed('account-not-found');
    // One case per built adapter; every other row of `brokers` is honest about it.
    switch (account.broker) {
      case 'zerodha':
        return kiteLogin({ request, reply, context: { options, kiteApiUrl, kiteLoginPage, now, userId, clientId, account: { ...account, user_broker_id: account.user_broker_id } } });
      default:
        return failed('not-supported');
    }
  });
};

interface KiteLoginContext {
  readonly options: BrokerLoginOptions;
  readonly kiteApiUrl: string;
  readonly kiteLoginPage: string;
  readonly now: () => number;
  readonly userId: string;
  readonly clientId: string;
  readonly account: AccountRow & { readonly user_broker_id: string };
}

async function kiteLogin(input: { request: FastifyRequest<{ Querystring: Record<string, unknown> }>; reply: FastifyReply; context: KiteLoginContext }): Promise<FastifyReply> {
  const { request, reply, context } = input;
  const { account, clientId } = context;
  const fail = (code: BrokerLoginErrorCode, reason: string, signedInAs?: string) => loginFailed(reply, { request, context, code, reason, ...(signedInAs === undefined ? {} : { signedInAs }) });
  const callback = parseKiteCallback(request.query);
  if (!callback.ok) return fail('callback-invalid', callback.error);
  // Both steps need the app's key: the login URL names it, the exchange checksums it.
  if (account.api_key === null || account.api_key === '') return fail('api-key-missing', 'the account has no api_key');
  if (callback.value.kind === 'start') return reply.redirect(kiteLoginUrl(account.api_key, context.kiteLoginPage), 302);
  if (account.api_secret_ciphertext === null || account.api_secret_nonce === null || account.api_secret_key_id === null) {
    return fail('api-secret-missing', 'the account has no API secret (set_broker_secret)');
  }
  const key = context.options.key;
  if (key === undefined) return fail('secret-key-missing', 'no broker secret key is configured (VYUHA_BROKER_SECRET_KEY)');
  let apiSecret: string;
  try {
    apiSecret = decryptBrokerSecret([key], { ciphertext: account.api_secret_ciphertext, nonce: account.api_secret_nonce, keyId: account.api_secret_key_id });
  } catch (error) {
    if (!(error instanceof BrokerSecretError)) throw error;
    return fail('secret-unreadable', `the API secret cannot be decrypted: ${error.message}`);
  }
  const form = kiteSessionForm({ apiKey: account.api_key, requestToken: callback.value.requestToken, apiSecret });
  const session = await exchangeKiteRequestToken({ baseUrl: context.kiteApiUrl, form });
  if (!session.ok) return fail(exchangeFailureCode(session.error), session.error.reason);
  // A Kite session belongs to whoever signed in at Kite: storing another client's under this
  // account would trade in the wrong account.
  if (session.value.userId.toUpperCase() !== clientId.toUpperCase()) {
    const signedInAs = session.value.userId.slice(0, 32);
    return fail('wrong-user', `signed in to Kite as ${signedInAs}, not ${clientId}`, signedInAs);
  }
  const expiresAt = new Date(kiteSessionExpiry(context.now()));
  const { claimsLost } = await storeVerifiedSession(context.options.pool, {
    userBrokerId: account.user_broker_id,
    broker: account.broker,
    clientId,
    token: encryptBrokerSecret(key, session.value.accessToken),
    brokerUserId: session.value.userId,
    expiresAt,
    actorUserId: context.userId,
    ip: isIP(request.ip) === 0 ? null : request.ip,
  });
  request.log.info({ broker: account.broker, clientId, expiresAt: expiresAt.toISOString(), claimsLost }, 'broker login: session stored');
  return reply.redirect(outcomeLocation({ kind: 'ok', broker: account.broker, clientId }), 302);
}

interface LoginFailure {
  readonly request: FastifyRequest;
  readonly context: KiteLoginContext;
  readonly code: BrokerLoginErrorCode;
  /** For the log (never a token or secret). */
  readonly reason: string;
  readonly signedInAs?: string;
}

/** Back to the brokers tab with the failure's code; the log gets the reason too. */
function loginFailed(reply: FastifyReply, failure: LoginFailure): FastifyReply {
  const { account, clientId } = failure.context;
  failure.request.log.warn({ broker: account.broker, clientId, code: failure.code, reason: failure.reason }, 'broker login failed');
  const outcome = { kind: 'error', code: failure.code, broker: account.broker, clientId } as const;
  return reply.redirect(outcomeLocation(failure.signedInAs === undefined ? outcome : { ...outcome, signedInAs: failure.signedInAs }), 302);
}

/** The user id of a valid `vyuhaAccessToken` cookie, else undefined. */
async function signedInUser(request: FastifyRequest, options: BrokerLoginOptions): Promise<string | undefined> {
  const token = readCookie(request.headers.cookie, ACCESS_TOKEN_COOKIE);
  if (token === undefined) return undefined;
  let claims: AccessTokenClaims;
  try {
    claims = await options.verifyToken(token);
  } catch {
    // Expired, forged, malformed: all mean "sign in again".
    return undefined;
  }
  const hasura = claims[options.claimsNamespace];
  if (typeof hasura !== 'object' || hasura === null) return undefined;
  const userId = (hasura as Record<string, unknown>)['x-hasura-user-id'];
  return typeof userId === 'string' && UUID.test(userId) ? userId.toLowerCase() : undefined;
}

/**
 * One cookie's value from a Cookie header, URI-decoded as the web app encodes it.
 * @example readCookie('a=1; vyuhaAccessToken=x%2Ey', 'vyuhaAccessToken') // 'x.y'
 */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at < 0 || part.slice(0, at).trim() !== name) continue;
    const raw = part.slice(at + 1).trim();
    try {
      const value = decodeURIComponent(raw);
      return value === '' ? undefined : value;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** The broker row, joined with the user's own account at it (NULL columns when they have none); undefined for an unknown broker. */
async function findAccount(pool: pg.Pool, where: { broker: string; clientId: string; userId: string }): Promise<AccountRow | undefined> {
  const { rows } = await pool.query<AccountRow>(
    `SELECT b.broker, ub.user_broker_id, ub.api_key,
            ub.api_secret_ciphertext, ub.api_secret_nonce, ub.api_secret_key_id
       FROM brokers b
       LEFT JOIN user_brokers ub ON ub.broker = b.broker AND ub.client_id = $2 AND ub.user_id = $3::uuid
      WHERE b.broker = $1`,
    [where.broker, where.clientId, where.userId]);
  return rows[0];
}
