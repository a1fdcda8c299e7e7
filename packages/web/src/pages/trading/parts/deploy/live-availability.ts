// Whether the deploy dialog may offer LIVE, and the reason in words when it may not; and, for each
// account offered, whether it logged in to Zerodha today. The server decides again at deploy
// (deployments.ts liveIssues: the tier, the account, its session today, no option legs, no
// replay); this only keeps a choice off the screen that would be refused and says beforehand what
// the server will say.
//
// Today's login: the session table is not readable through GraphQL (its token is a secret), but
// every successful login marks the account `verified` and stamps `ownership_checked_at` (the
// server's broker-ownership.ts), and an account another user's login took is switched off (never
// offered). So an offered account logged in today when it is verified and was stamped since the
// start of Kite's session day (06:00 IST; its tokens die then). What this cannot see: a session
// ended later the same day (a logout, or Kite refusing the token); the server's refusal says that.
import { istMinuteOfDay } from '@vyuha/core';
import { PAPER_ONLY_ROLES } from '../../../../app/menu';

/** The brokers Vyuha trades LIVE through today (the server's LIVE_BROKERS). */
export const LIVE_BROKERS: readonly string[] = ['zerodha'];

export interface BrokerAccountRow {
  readonly user_broker_id: string;
  readonly broker: string;
  readonly client_id: string;
  readonly active: boolean;
  readonly api_key: string | null;
  readonly investment_amt_paise: number | string;
  readonly investment_history: unknown;
  /** 'verified' once a login through this account succeeded (the broker named its owner). */
  readonly ownership?: string;
  /** When the broker last settled the ownership: this account's latest successful login, for a verified one. */
  readonly ownership_checked_at?: string | null;
}

export interface LiveBlocker {
  readonly reason: string;
  /** Where the user fixes it. */
  readonly link?: { readonly label: string; readonly to: string };
}

/** The accounts a LIVE run may trade through: active, of a LIVE broker, with an API key. */
export function liveAccounts(accounts: readonly BrokerAccountRow[]): BrokerAccountRow[] {
  return accounts.filter((row) => row.active && LIVE_BROKERS.includes(row.broker) && row.api_key !== null && row.api_key !== '');
}

/**
 * Why LIVE is unavailable, or undefined when it may be tried.
 * @example liveBlocker({ role: 'demo', accounts: [], legs: false }).reason // 'Your plan (demo) trades on paper only.'
 */
export function liveBlocker(input: { readonly role: string | undefined; readonly accounts: readonly BrokerAccountRow[]; readonly legs: boolean }): LiveBlocker | undefined {
  if ((PAPER_ONLY_ROLES as readonly string[]).includes(input.role ?? '')) return { reason: `Your plan (${input.role ?? ''}) trades on paper only.` };
  if (input.legs) return { reason: 'Option legs are not traded LIVE yet: deploy this strategy on PAPER.' };
  if (liveAccounts(input.accounts).length === 0) {
    return {
      reason: 'LIVE trades through your Zerodha account: connect a broker account (active, with its Kite Connect API key) first.',
      link: { label: 'Connect a broker account on your account page', to: '/users/edit' },
    };
  }
  return undefined;
}

/** Kite's tokens die at 06:00 IST, 00:30 UTC. */
const SESSION_DAY_OFFSET_MS = 30 * 60_000;
const DAY_MS = 86_400_000;

/**
 * The start of the broker session day `nowMs` is in: the latest 06:00 IST at or before it.
 * @example new Date(sessionDayStart(Date.parse('2026-12-01T23:00:00Z'))).toISOString() // '2026-12-01T00:30:00.000Z'
 */
export function sessionDayStart(nowMs: number): number {
  return Math.floor((nowMs - SESSION_DAY_OFFSET_MS) / DAY_MS) * DAY_MS + SESSION_DAY_OFFSET_MS;
}

export interface TodayLogin {
  readonly userBrokerId: string;
  readonly loggedIn: boolean;
  /** The account's state in words, e.g. 'Zerodha AB1234: logged in today at 09:05 IST.' */
  readonly words: string;
  /** Where the daily login starts (the server's /api/broker_login route); absent once logged in. */
  readonly loginPath?: string;
}

/**
 * Whether an offered account logged in to Zerodha today, in words, with the login path when it did not.
 * @example todayLogin({ ...row, client_id: 'AB1234', ownership: 'verified', ownership_checked_at: '2026-12-01T03:35:00Z' }, Date.parse('2026-12-01T05:00:00Z')).words
 *   // 'Zerodha AB1234: logged in today at 09:05 IST.'
 */
export function todayLogin(row: BrokerAccountRow, nowMs: number): TodayLogin {
  const at = row.ownership_checked_at == null ? Number.NaN : Date.parse(row.ownership_checked_at);
  const loggedIn = row.ownership === 'verified' && Number.isFinite(at) && at >= sessionDayStart(nowMs) && at <= nowMs + 60_000;
  const name = `Zerodha ${row.client_id}`;
  if (loggedIn) {
    const minute = istMinuteOfDay(at);
    const clock = `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
    return { userBrokerId: row.user_broker_id, loggedIn, words: `${name}: logged in today at ${clock} IST.` };
  }
  return {
    userBrokerId: row.user_broker_id, loggedIn,
    words: `${name}: not logged in today. Log in to Zerodha for today.`,
    loginPath: `/api/broker_login/${encodeURIComponent(row.broker)}/${encodeURIComponent(row.client_id)}`,
  };
}

/**
 * What deploying LIVE through the chosen account will meet, in words, before the user deploys;
 * undefined when it logged in today.
 * @example liveLoginNote({ userBrokerId: 'a1', loggedIn: false, words: '...' }) // 'This account has not logged in to Zerodha today: ...'
 */
export function liveLoginNote(login: TodayLogin | undefined): string | undefined {
  if (login === undefined || login.loggedIn) return undefined;
  return 'This account has not logged in to Zerodha today: the server refuses to deploy LIVE without today\'s session. '
    + 'Log in to Zerodha for today (it opens in a new tab; this dialog sees the login as soon as it is done), then deploy.';
}
