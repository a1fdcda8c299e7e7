// PAPER or LIVE following, as the subscribe and edit dialogs offer it: the rule is the server's
// (trading/follow/subscription-writes.ts liveFollowIssue, the deploy dialog's rule): LIVE needs a
// tier that trades LIVE and an active Zerodha account, named on the subscription. The server
// checks again on every write and when the follower opens; this only keeps a choice off the
// screen that would be refused, and says why in words.
import { PAPER_ONLY_ROLES } from '../../../app/menu';
import { LIVE_BROKERS } from '../parts/deploy/live-availability';
import type { BrokerAccount } from './queries';

/** The account choice meaning "no broker account". */
export const PAPER_ACCOUNT = 'paper';

export type FollowMode = 'PAPER' | 'LIVE';

export interface FollowDraft {
  readonly mode: FollowMode;
  /** A user_broker_id, or PAPER_ACCOUNT. */
  readonly broker: string;
}

/** The accounts a LIVE subscription may trade through: active, of a broker Vyuha trades LIVE through. */
export function liveFollowAccounts(brokers: readonly BrokerAccount[]): BrokerAccount[] {
  return brokers.filter((account) => account.active && LIVE_BROKERS.includes(account.broker));
}

/**
 * Why LIVE following is unavailable, or undefined when it may be chosen.
 * @example followLiveBlocker({ role: 'demo', brokers: [] }) // 'Your plan (demo) trades on paper only.'
 */
export function followLiveBlocker(input: { readonly role: string | undefined; readonly brokers: readonly BrokerAccount[] }): string | undefined {
  if ((PAPER_ONLY_ROLES as readonly string[]).includes(input.role ?? '')) return `Your plan (${input.role ?? ''}) trades on paper only.`;
  if (liveFollowAccounts(input.brokers).length === 0) {
    return 'LIVE following trades through your Zerodha account: connect one (active, with its Kite Connect API key) on your account page first.';
  }
  return undefined;
}

/**
 * The draft's problem in words, or undefined when it can be sent.
 * @example followIssue({ mode: 'LIVE', broker: PAPER_ACCOUNT }, []) // 'Choose the Zerodha account LIVE trades through.'
 */
export function followIssue(draft: FollowDraft, brokers: readonly BrokerAccount[]): string | undefined {
  if (draft.mode !== 'LIVE') return undefined;
  return liveFollowAccounts(brokers).some((account) => account.user_broker_id === draft.broker) ? undefined : 'Choose the Zerodha account LIVE trades through.';
}

/** The mutation's arguments of the draft. @example followArgs({ mode: 'PAPER', broker: PAPER_ACCOUNT }) // { mode: 'PAPER', broker: null } */
export function followArgs(draft: FollowDraft): { mode: FollowMode; broker: string | null } {
  return { mode: draft.mode, broker: draft.broker === PAPER_ACCOUNT ? null : draft.broker };
}
