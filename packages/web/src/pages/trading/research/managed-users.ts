// docs/PRODUCT.md section 7's managers query: the users the signed-in user manages (managers where
// manager_id = me, ordered by user name, with user.user_brokers.active). The show-all-users
// switch (docs/PRODUCT.md section 6) keeps users without an active broker; otherwise they are left out.
import { useMemo } from 'react';
import { useQuery, type CombinedError } from 'urql';
import { useAppStore } from '../../../stores/app-store';
import { useActorId } from './use-window-starts';

export interface BrokerAccount {
  readonly user_broker_id: string;
  readonly broker: string;
  readonly client_id: string;
  readonly active: boolean;
  readonly investment_amt_paise: number;
  readonly investment_history: unknown;
}

export interface ManagedUser {
  readonly userId: string;
  readonly name: string;
  readonly brokers: readonly BrokerAccount[];
}

const MANAGERS_QUERY = `
  query ManagedUsers($manager_id: uuid!) {
    managers(where: { manager_id: { _eq: $manager_id } }, order_by: { user: { name: asc } }) {
      user_id
      user { name user_brokers(order_by: { broker: asc }) { user_broker_id broker client_id active investment_amt_paise investment_history } }
    }
  }`;

interface ManagerRow {
  readonly user_id: string;
  readonly user: { readonly name: string; readonly user_brokers: BrokerAccount[] } | null;
}

/** The managed users, filtered by the show-all-users preference; `linkCount` counts them all. */
export function useManagedUsers(): { users: ManagedUser[]; linkCount: number; fetching: boolean; error: CombinedError | undefined; showAll: boolean } {
  const managerId = useActorId();
  const showAll = useAppStore((state) => state.showAllUsers);
  const [result] = useQuery<{ managers: ManagerRow[] }>({ query: MANAGERS_QUERY, variables: { manager_id: managerId ?? '' }, pause: managerId === undefined });
  const users = useMemo(() => (result.data?.managers ?? [])
    .map((row) => ({ userId: row.user_id, name: row.user?.name ?? row.user_id, brokers: row.user?.user_brokers ?? [] }))
    .filter((user) => showAll || user.brokers.some((broker) => broker.active)), [result.data, showAll]);
  // Before the first answer `fetching` stays true, so callers never mistake "not loaded" for "manages nobody".
  const fetching = result.data === undefined && result.error === undefined;
  return { users, linkCount: result.data?.managers.length ?? 0, fetching, error: result.error, showAll };
}

/**
 * docs/PRODUCT.md section 5: a broker's investment is its latest investment-history entry when there is
 * one, otherwise investment_amt_paise.
 */
export function brokerInvestmentPaise(account: BrokerAccount): number {
  const history = Array.isArray(account.investment_history) ? account.investment_history : [];
  let latest: { date: string; amount: number } | undefined;
  for (const entry of history) {
    if (typeof entry !== 'object' || entry === null) continue;
    const { date, amount_paise: amount } = entry as { date?: unknown; amount_paise?: unknown };
    if (typeof date === 'string' && typeof amount === 'number' && (latest === undefined || date > latest.date)) latest = { date, amount };
  }
  return latest?.amount ?? account.investment_amt_paise;
}
