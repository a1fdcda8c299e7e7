// One subscription's view (docs/PRODUCT.md section 3, the subscription view data): the strategy
// followed (name, type, mode, status, algorithm, instrument, interval) and the subscriber's own
// figures from its follower runs: P&L today and over all days (pnl, full_pnl), orders today and
// in all (orders, full_orders), per day (full_day_pnl, full_day_orders), and the orders
// themselves. Live: a follower's new order or fill shows without a reload.
import { Badge, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { formatRupees } from '@vyuha/core';
import { useDeferredValue, useMemo } from 'react';
import { useSubscription } from 'urql';
import { formatDate } from '../../../format/format';
import { QueryState } from '../parts/QueryState';
import { StatusBadge } from '../parts/StatusBadge';
import { OrdersTable } from '../parts/trading-tables/OrdersTable';
import { FOLLOW_DAYS, followerRunsWhere } from './queries';
import { followFigures, sizingText, type DailyRow, type SubscriptionRow } from './subscription-model';

function Figure({ label, value, testId, tone }: { readonly label: string; readonly value: string; readonly testId: string; readonly tone?: number }) {
  return (
    <Paper withBorder p="sm">
      <Text size="xs" c="dimmed">{label}</Text>
      <Text fw={700} data-testid={testId} {...(tone === undefined || tone === 0 ? {} : { c: tone > 0 ? 'teal' : 'red' })}>{value}</Text>
    </Paper>
  );
}

function StrategyFacts({ row }: { readonly row: SubscriptionRow }) {
  const strategy = row.strategy;
  if (strategy === null) return <Text c="dimmed">The strategy is no longer published.</Text>;
  return (
    <Stack gap={6}>
      <Group gap="xs" wrap="wrap">
        <Title order={4} style={{ overflowWrap: 'anywhere' }}>{strategy.name}</Title>
        <StatusBadge status={strategy.status} />
        <Badge variant="light" color={strategy.mode === 'LIVE' ? 'orange' : 'gray'}>{strategy.mode}</Badge>
        <Badge variant="outline">{strategy.strategy_type}</Badge>
      </Group>
      <Text size="sm" c="dimmed">
        {strategy.algorithm === null ? 'Algorithm not shared' : `Algorithm ${strategy.algorithm.name}${strategy.algorithm.published ? ' (published)' : ''}`}
        {' · '}{strategy.instrument?.trading_symbol ?? 'No instrument'} · {strategy.interval_minutes ?? 5} min · {sizingText(row)}
      </Text>
    </Stack>
  );
}

export function SubscriptionView({ row, userId }: { readonly row: SubscriptionRow; readonly userId: string }) {
  const runs = useMemo(() => followerRunsWhere(userId, row.subscription_id), [userId, row.subscription_id]);
  const dayWhere = useMemo(() => ({ run: runs }), [runs]);
  const orderWhere = useMemo(() => ({ user_id: { _eq: userId }, run: runs }), [userId, runs]);
  const [days] = useSubscription<{ daily_pnl: DailyRow[] }>({ query: FOLLOW_DAYS, variables: { where: dayWhere } });
  const figures = useMemo(() => followFigures(days.data?.daily_pnl ?? [], formatDate(Date.now())), [days.data]);
  // The per-day table (one row a day followed) renders in a deferred, interruptible pass after the figures.
  const dayRows = useDeferredValue(figures.days);
  return (
    <Paper withBorder p="md" data-testid="subscription-view">
      <Stack gap="md">
        <StrategyFacts row={row} />
        <QueryState fetching={days.data === undefined} error={days.error} hasData={days.data !== undefined} title="Could not follow this subscription's P&L">
          <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
            <Figure label="P&L today" value={formatRupees(figures.pnlPaise)} testId="follow-pnl" tone={figures.pnlPaise} />
            <Figure label="P&L, all days" value={formatRupees(figures.fullPnlPaise)} testId="follow-full-pnl" tone={figures.fullPnlPaise} />
            <Figure label="Orders today" value={String(figures.orders)} testId="follow-orders" />
            <Figure label="Orders, all days" value={String(figures.fullOrders)} testId="follow-full-orders" />
          </SimpleGrid>
          {dayRows.length > 0 && (
            <Table.ScrollContainer minWidth={320}>
              <Table striped data-testid="follow-days">
                <Table.Thead><Table.Tr><Table.Th>Day</Table.Th><Table.Th ta="right">P&L</Table.Th><Table.Th ta="right">Orders</Table.Th></Table.Tr></Table.Thead>
                <Table.Tbody>
                  {dayRows.map((day) => (
                    <Table.Tr key={day.date}>
                      <Table.Td>{day.date}</Table.Td>
                      <Table.Td ta="right" {...(day.pnlPaise === 0 ? {} : { c: day.pnlPaise > 0 ? 'teal' : 'red' })}>{formatRupees(day.pnlPaise)}</Table.Td>
                      <Table.Td ta="right">{day.orders}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </QueryState>
        <Stack gap={4}>
          <Text fw={600}>Your orders following it</Text>
          <OrdersTable where={orderWhere} limit={20} emptyText="No orders yet: they appear at the publisher's next entry." />
        </Stack>
      </Stack>
    </Paper>
  );
}
