// /subscriptions: the user's subscriptions (Active/All) with the investment total, the selected
// subscription's view (its P&L, orders and days, live), and the marketplace of published
// strategies with their paper records (docs/PRODUCT.md sections 2, 3 and 5). Subscribing, editing,
// pausing and unsubscribing are for the roles that may subscribe (the server's subscribe_strategy
// and update_subscription check them again). How a subscriber's orders follow the publisher's:
// packages/server/src/trading/follow/follower-desk.ts.
import { Stack, Text, Title } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useQuery, useSubscription } from 'urql';
import { lazyPart } from '../../app/lazy-part';
import { QueryState } from './parts/QueryState';
import { SUBSCRIBER_ROLES, useSubject } from './parts/use-subject';
import { Marketplace } from './subscriptions/Marketplace';
import { MySubscriptions, type ActiveFilter } from './subscriptions/MySubscriptions';
import { MY_BROKERS, MY_SUBSCRIPTIONS, type BrokerAccount } from './subscriptions/queries';
import type { SubscriptionRow } from './subscriptions/subscription-model';
import { SubscriptionView } from './subscriptions/SubscriptionView';

/** The edit form (sizing and follow-mode fields) loads when a subscription is edited. */
const EditSubscriptionModal = lazyPart(
  () => import('./subscriptions/EditSubscriptionModal').then((module) => module.EditSubscriptionModal), { renderWhen: (props) => props.row !== undefined });

function SubscriptionsScreen({ userId, canSubscribe }: { readonly userId: string; readonly canSubscribe: boolean }) {
  const [filter, setFilter] = useState<ActiveFilter>('active');
  const [selected, setSelected] = useState<string | undefined>(undefined);
  const [editing, setEditing] = useState<SubscriptionRow | undefined>(undefined);
  const where = useMemo(() => ({ user_id: { _eq: userId } }), [userId]);
  const [mine] = useSubscription<{ subscriptions: SubscriptionRow[] }>({ query: MY_SUBSCRIPTIONS, variables: { where } });
  const [brokers] = useQuery<{ user_brokers: BrokerAccount[] }>({ query: MY_BROKERS, variables: { userId } });
  const all = mine.data?.subscriptions;
  const rows = (all ?? []).filter((row) => filter === 'all' || row.active);
  const accounts = brokers.data?.user_brokers ?? [];
  const following = new Set((all ?? []).filter((row) => row.active).map((row) => row.strategy?.strategy_id ?? ''));
  const viewed = (all ?? []).find((row) => row.subscription_id === selected) ?? rows[0];
  return (
    <Stack gap="lg">
      <QueryState fetching={all === undefined} error={mine.error} hasData={all !== undefined} title="Could not load your subscriptions">
        <MySubscriptions rows={rows} brokers={accounts} filter={filter} onFilter={setFilter} canSubscribe={canSubscribe}
          selected={viewed?.subscription_id} onView={setSelected} onEdit={setEditing} />
        {viewed !== undefined && <SubscriptionView row={viewed} userId={userId} />}
      </QueryState>
      <Marketplace userId={userId} canSubscribe={canSubscribe} subscribedStrategyIds={following} brokers={accounts} />
      <EditSubscriptionModal row={editing} onClose={() => setEditing(undefined)} />
    </Stack>
  );
}

export function Component() {
  const { userId, role } = useSubject();
  const canSubscribe = SUBSCRIBER_ROLES.includes(role ?? '');
  return (
    <Stack gap="lg">
      <Title order={2}>Subscriptions</Title>
      {userId === undefined ? <Text c="dimmed">Signing in…</Text> : <SubscriptionsScreen userId={userId} canSubscribe={canSubscribe} />}
    </Stack>
  );
}
