// Whether the deploy dialog may offer LIVE, and the reason in words when it may not. The server
// decides again at deploy (deployments.ts liveIssues: the tier, the account, its session today,
// no option legs, no replay); this only keeps a choice off the screen that would be refused.
// The day's broker session is not readable through GraphQL (its token is a secret), so a missing
// login for today is the server's refusal, shown at the account field with the login link.
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
