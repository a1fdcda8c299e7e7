// Kite accounts of the stand-in and their sessions: the request tokens the login page hands out, the
// checksum exchange of POST /session/token (SHA-256 of api_key + request_token + api_secret), access
// tokens valid until 06:00 IST the next day unless logged out or expired by a test, and holdings.
import { createHash, randomBytes } from 'node:crypto';
import { KiteError, istTimestamp, nextSixAmIst, rupees } from './kite-format';

export interface AccountInput {
  readonly apiKey: string;
  readonly apiSecret: string;
  readonly userId: string;
  /** Where GET /connect/login sends the browser back (the app's registered redirect URL). */
  readonly redirectUrl?: string;
  /** Cash the margin check works against (default ₹10,00,000). */
  readonly cashPaise?: number;
  /** The app id postbacks carry (default 1000 + the account's number). */
  readonly appId?: number;
}

export interface Account {
  readonly apiKey: string;
  readonly apiSecret: string;
  readonly userId: string;
  readonly redirectUrl: string | undefined;
  readonly appId: number;
  cashPaise: number;
  holdings: Record<string, unknown>[];
}

export interface HoldingInput {
  readonly tradingSymbol: string;
  readonly exchange: string;
  readonly instrumentToken: number;
  readonly isin: string;
  readonly quantity: number;
  readonly averagePricePaise: number;
  readonly lastPricePaise: number;
  readonly closePricePaise?: number;
}

interface Session {
  readonly userId: string;
  readonly apiKey: string;
  readonly expiresAtMs: number;
  valid: boolean;
}

const TOKEN_EXPIRED = 'Incorrect `api_key` or `access_token`.';

function randomToken(): string {
  return randomBytes(16).toString('hex');
}

export class Accounts {
  private readonly byKey = new Map<string, Account>();
  private readonly requestTokens = new Map<string, string>();
  private readonly sessions = new Map<string, Session>();
  private readonly latest = new Map<string, string>();

  constructor(private readonly now: () => number) {}

  add(input: AccountInput): Account {
    if (this.byKey.has(input.apiKey)) throw new Error(`addAccount: api key ${input.apiKey} already has an account.`);
    if (this.byUser(input.userId) !== undefined) throw new Error(`addAccount: user ${input.userId} already has an account.`);
    const account: Account = {
      apiKey: input.apiKey, apiSecret: input.apiSecret, userId: input.userId, redirectUrl: input.redirectUrl,
      appId: input.appId ?? 1000 + this.byKey.size + 1, cashPaise: input.cashPaise ?? 100_000_000, holdings: [],
    };
    this.byKey.set(input.apiKey, account);
    return account;
  }

  byApiKey(apiKey: string): Account | undefined {
    return this.byKey.get(apiKey);
  }

  byUser(userId: string): Account | undefined {
    return [...this.byKey.values()].find((one) => one.userId === userId);
  }

  /** A one-time request token for the account of `apiKey`, as the login page would hand out. */
  issueRequestToken(apiKey: string): string {
    if (!this.byKey.has(apiKey)) throw new Error(`issueRequestToken: no account has api key ${apiKey}.`);
    const token = randomToken();
    this.requestTokens.set(token, apiKey);
    return token;
  }

  /** POST /session/token: checks the checksum, spends the request token, issues an access token. */
  exchange(form: Record<string, string>): Record<string, unknown> {
    const apiKey = form.api_key ?? '';
    const requestToken = form.request_token ?? '';
    const account = this.byKey.get(apiKey);
    const expected = account === undefined ? undefined
      : createHash('sha256').update(`${apiKey}${requestToken}${account.apiSecret}`).digest('hex');
    if (account === undefined || form.checksum !== expected) throw new KiteError(403, 'TokenException', 'Invalid `checksum`.');
    if (this.requestTokens.get(requestToken) !== apiKey) throw new KiteError(403, 'TokenException', 'Token is invalid or has expired.');
    this.requestTokens.delete(requestToken);
    const accessToken = randomToken();
    const now = this.now();
    this.sessions.set(accessToken, { userId: account.userId, apiKey, expiresAtMs: nextSixAmIst(now), valid: true });
    this.latest.set(account.userId, accessToken);
    return {
      ...this.profile(account), api_key: apiKey, access_token: accessToken, public_token: randomToken(), enctoken: randomToken(),
      refresh_token: '', silo: '', login_time: istTimestamp(now), meta: { demat_consent: 'consent' },
    };
  }

  profile(account: Account): Record<string, unknown> {
    return {
      user_id: account.userId, user_name: `Trader ${account.userId}`, user_shortname: 'Trader', email: `${account.userId.toLowerCase()}@example.com`,
      user_type: 'individual', broker: 'ZERODHA', exchanges: ['NSE', 'NFO', 'BSE', 'BFO', 'CDS', 'BCD', 'MCX'],
      products: ['CNC', 'NRML', 'MIS', 'MTF'], order_types: ['MARKET', 'LIMIT', 'SL', 'SL-M'], avatar_url: null,
      meta: { demat_consent: 'consent' },
    };
  }

  accessTokenOf(userId: string): string | undefined {
    return this.latest.get(userId);
  }

  /** The account an `api_key` + `access_token` pair belongs to, or the 403 Kite answers. */
  authenticate(apiKey: string, accessToken: string): Account {
    const session = this.sessions.get(accessToken);
    const account = this.byKey.get(apiKey);
    if (session === undefined || account === undefined || session.apiKey !== apiKey || !session.valid || this.now() >= session.expiresAtMs) {
      throw new KiteError(403, 'TokenException', TOKEN_EXPIRED);
    }
    return account;
  }

  /** DELETE /session/token. */
  invalidate(apiKey: string, accessToken: string): void {
    this.authenticate(apiKey, accessToken);
    const session = this.sessions.get(accessToken);
    if (session !== undefined) session.valid = false;
  }

  /** Every session of the user stops working, as after a master logout or the 06:00 expiry. */
  expireUser(userId: string): void {
    for (const session of this.sessions.values()) if (session.userId === userId) session.valid = false;
  }

  setHoldings(userId: string, holdings: readonly HoldingInput[]): void {
    const account = this.byUser(userId);
    if (account === undefined) throw new Error(`setHoldings: no account for user ${userId}.`);
    account.holdings = holdings.map((one) => {
      const close = one.closePricePaise ?? one.lastPricePaise;
      return {
        tradingsymbol: one.tradingSymbol, exchange: one.exchange, instrument_token: one.instrumentToken, isin: one.isin, product: 'CNC',
        price: 0, quantity: one.quantity, used_quantity: 0, t1_quantity: 0, realised_quantity: one.quantity, authorised_quantity: 0,
        authorised_date: null, authorisation: {}, opening_quantity: one.quantity, short_quantity: 0, collateral_quantity: 0,
        collateral_type: '', discrepancy: false, average_price: rupees(one.averagePricePaise), last_price: rupees(one.lastPricePaise),
        close_price: rupees(close), pnl: rupees((one.lastPricePaise - one.averagePricePaise) * one.quantity),
        day_change: rupees(one.lastPricePaise - close), day_change_percentage: close === 0 ? 0 : ((one.lastPricePaise - close) * 100) / close,
        mtf: { quantity: 0, used_quantity: 0, average_price: 0, value: 0, initial_margin: 0 },
      };
    });
  }
}
