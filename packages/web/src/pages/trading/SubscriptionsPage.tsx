// /subscriptions: the user's subscriptions (Active/All) with strategy, quantity, investment (docs/PRODUCT.md
// section 5) and an expiring badge under 168 hours (docs/PRODUCT.md section 4); below, the marketplace of
// published strategies in a grid (docs/PRODUCT.md section 2) with Subscribe.
import { Anchor, Badge, Button, Group, Paper, SegmentedControl, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useQuery } from 'urql';
import { useReadOnly } from '../../app/update-mode';
import { formatRupees } from '../../format/format';
import { currentInvestmentPaise, expiryState } from './parts/investment';
import { QueryState } from './parts/QueryState';
import { StatusBadge } from './parts/StatusBadge';
import { SubscribeModal, type SubscribeTarget } from './parts/SubscribeModal';
import { dateTimeText, epochMs } from './parts/time';
import { SUBSCRIBER_ROLES, useSubject } from './parts/use-subject';

const MY_SUBSCRIPTIONS = `query MySubscriptions($where: subscriptions_bool_exp!) {
  subscriptions(where: $where, order_by: [{ created_at: desc }]) {
    subscription_id quantity investment_amt_paise investment_history active expires_at
    strategy { strategy_id name mode status }
    instrument { trading_symbol }
  }
}`;

const MARKETPLACE = `query Marketplace($userId: uuid!) {
  strategies(where: { published: { _eq: true } }, order_by: [{ updated_at: desc }]) {
    strategy_id user_id name kind mode strategy_type status interval_minutes updated_at
    instrument { trading_symbol }
  }
  subscriptions(where: { user_id: { _eq: $userId }, active: { _eq: true } }) { subscription_id strategy_id }
}`;

interface SubscriptionRow {
  readonly subscription_id: string;
  readonly quantity: number;
  readonly investment_amt_paise: number | string;
  readonly investment_history: unknown;
  readonly active: boolean;
  readonly expires_at: string | null;
  readonly strategy: { readonly strategy_id: string; readonly name: string; readonly mode: string; readonly status: string } | null;
  readonly instrument: { readonly trading_symbol: string } | null;
}

interface MarketRow {
  readonly strategy_id: string;
  readonly user_id: string;
  readonly name: string;
  readonly kind: string;
  readonly mode: string;
  readonly strategy_type: string;
  readonly status: string;
  readonly interval_minutes: number;
  readonly updated_at: string;
  readonly instrument: { readonly trading_symbol: string } | null;
}

type ActiveFilter = 'active' | 'all';

function ExpiryBadge({ expiresAt, nowMs }: { readonly expiresAt: string | null; readonly nowMs: number }) {
  const state = expiryState(epochMs(expiresAt), nowMs);
  if (state === 'expiring') return <Badge color="yellow" variant="filled">Expiring</Badge>;
  if (state === 'expired') return <Badge color="red" variant="light">Expired</Badge>;
  return null;
}

/** `refresh` changes after a subscribe: the client keeps no document cache, so the list refetches itself. */
function MySubscriptions({ userId, refresh }: { readonly userId: string; readonly refresh: number }) {
  const [filter, setFilter] = useState<ActiveFilter>('active');
  const where = useMemo(() => ({ user_id: { _eq: userId }, ...(filter === 'active' ? { active: { _eq: true } } : {}) }), [userId, filter]);
  const [result, reexecute] = useQuery<{ subscriptions: SubscriptionRow[] }>({ query: MY_SUBSCRIPTIONS, variables: { where } });
  useEffect(() => {
    if (refresh > 0) reexecute({ requestPolicy: 'network-only' });
  }, [refresh, reexecute]);
  const rows = result.data?.subscriptions ?? [];
  const nowMs = Date.now();
  return (
    <Stack gap="sm">
      <SegmentedControl<ActiveFilter>
        aria-label="Active or all subscriptions"
        w="fit-content"
        value={filter}
        onChange={setFilter}
        data={[{ value: 'active', label: 'Active' }, { value: 'all', label: 'All' }]}
      />
      <QueryState fetching={result.fetching} error={result.error} hasData={result.data !== undefined} title="Could not load your subscriptions">
        {rows.length === 0 ? (
          <Text c="dimmed">{filter === 'active' ? 'No active subscriptions. Subscribe to a strategy from the marketplace below.' : 'No subscriptions yet.'}</Text>
        ) : (
          <Table.ScrollContainer minWidth={720}>
            <Table striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Strategy</Table.Th>
                  <Table.Th ta="right">Quantity</Table.Th>
                  <Table.Th ta="right">Investment</Table.Th>
                  <Table.Th>Instrument</Table.Th>
                  <Table.Th>Expires</Table.Th>
                  <Table.Th>State</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((row) => (
                  <Table.Tr key={row.subscription_id}>
                    <Table.Td>
                      {row.strategy
                        ? <Anchor component={Link} to={`/strategies/${row.strategy.strategy_id}`}>{row.strategy.name}</Anchor>
                        : <Text size="sm" c="dimmed">Strategy no longer visible</Text>}
                    </Table.Td>
                    <Table.Td ta="right">{row.quantity}</Table.Td>
                    <Table.Td ta="right">{formatRupees(currentInvestmentPaise(row))}</Table.Td>
                    <Table.Td>{row.instrument?.trading_symbol ?? '—'}</Table.Td>
                    <Table.Td>{dateTimeText(row.expires_at)}</Table.Td>
                    <Table.Td>
                      <Group gap={6}>
                        {row.active ? <Badge color="teal" variant="light">Active</Badge> : <Badge color="gray" variant="light">Inactive</Badge>}
                        <ExpiryBadge expiresAt={row.expires_at} nowMs={nowMs} />
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </QueryState>
    </Stack>
  );
}

function Marketplace({ userId, canSubscribe, onSubscribed }: {
  readonly userId: string;
  readonly canSubscribe: boolean;
  readonly onSubscribed: () => void;
}) {
  const readOnly = useReadOnly();
  const [target, setTarget] = useState<SubscribeTarget | undefined>(undefined);
  const [result, reexecute] = useQuery<{ strategies: MarketRow[]; subscriptions: Array<{ strategy_id: string }> }>({
    query: MARKETPLACE,
    variables: { userId },
  });
  const subscribed = new Set(result.data?.subscriptions.map((row) => row.strategy_id));
  const strategies = result.data?.strategies ?? [];
  return (
    <QueryState fetching={result.fetching} error={result.error} hasData={result.data !== undefined} title="Could not load the marketplace">
      {strategies.length === 0 ? (
        <Text c="dimmed">No strategies are published yet.</Text>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
          {strategies.map((strategy) => (
            <Paper key={strategy.strategy_id} withBorder p="md">
              <Stack gap="xs" h="100%" justify="space-between">
                <Stack gap={6}>
                  <Group justify="space-between" wrap="nowrap" align="flex-start">
                    <Text fw={600}>{strategy.name}</Text>
                    <StatusBadge status={strategy.status} />
                  </Group>
                  <Group gap={6}>
                    <Badge variant="light" color={strategy.mode === 'LIVE' ? 'orange' : 'gray'}>{strategy.mode}</Badge>
                    <Badge variant="outline">{strategy.kind}</Badge>
                    <Badge variant="outline">{strategy.strategy_type}</Badge>
                    {strategy.user_id === userId && <Badge variant="dot">Yours</Badge>}
                  </Group>
                  <Text size="sm" c="dimmed">
                    {strategy.instrument?.trading_symbol ?? 'No instrument'} · {strategy.interval_minutes} min · updated {dateTimeText(strategy.updated_at)}
                  </Text>
                </Stack>
                {subscribed.has(strategy.strategy_id) ? (
                  <Badge color="teal" variant="light" size="lg">Subscribed</Badge>
                ) : canSubscribe ? (
                  <Button size="xs" disabled={readOnly} onClick={() => setTarget({ strategy_id: strategy.strategy_id, name: strategy.name })}>
                    Subscribe
                  </Button>
                ) : null}
              </Stack>
            </Paper>
          ))}
        </SimpleGrid>
      )}
      <SubscribeModal target={target} onClose={() => setTarget(undefined)} onSubscribed={() => {
        reexecute({ requestPolicy: 'network-only' });
        onSubscribed();
      }} />
    </QueryState>
  );
}

export function Component() {
  const { userId, role } = useSubject();
  const canSubscribe = SUBSCRIBER_ROLES.includes(role ?? '');
  const [refresh, setRefresh] = useState(0);
  return (
    <Stack gap="lg">
      <Title order={2}>Subscriptions</Title>
      {userId === undefined ? (
        <Text c="dimmed">Signing in…</Text>
      ) : (
        <>
          <MySubscriptions userId={userId} refresh={refresh} />
          <Stack gap="sm">
            <Title order={3}>Marketplace</Title>
            <Marketplace userId={userId} canSubscribe={canSubscribe} onSubscribed={() => setRefresh((value) => value + 1)} />
          </Stack>
        </>
      )}
    </Stack>
  );
}
