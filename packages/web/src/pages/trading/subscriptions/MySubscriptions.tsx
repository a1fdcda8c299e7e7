// The user's subscriptions, live (Active/All): strategy, sizing, investment, broker account,
// expiry with the "expiring" badge under 168 hours (docs/PRODUCT.md section 4), state, and per row
// View, Edit, Pause/Resume and Unsubscribe (confirmed); above, the investment total
// (docs/PRODUCT.md section 5: active brokers only). Buttons only for roles that may subscribe.
import { Badge, Button, Group, SegmentedControl, Stack, Table, Text } from '@mantine/core';
import { formatRupees } from '@vyuha/core';
import { confirm } from '../../../app/confirm';
import { useReadOnly } from '../../../app/update-mode';
import { currentInvestmentPaise, expiryState } from '../parts/investment';
import { dateTimeText, epochMs } from '../parts/time';
import type { BrokerAccount } from './queries';
import { investmentTotalPaise, sizingText, type SubscriptionRow } from './subscription-model';
import { useUpdateSubscription } from './use-update-subscription';

export type ActiveFilter = 'active' | 'all';

function StateBadges({ row, nowMs }: { readonly row: SubscriptionRow; readonly nowMs: number }) {
  const expiry = expiryState(epochMs(row.expires_at), nowMs);
  return (
    <Group gap={6} wrap="nowrap">
      {!row.active ? <Badge color="gray" variant="light">Unsubscribed</Badge>
        : row.paused ? <Badge color="yellow" variant="light">Paused</Badge>
          : <Badge color="teal" variant="light">Following</Badge>}
      {row.mode === 'LIVE' && <Badge color="orange" variant="outline" data-testid="follows-live">LIVE</Badge>}
      {expiry === 'expiring' && <Badge color="orange" variant="filled" data-testid="expiring">Expiring</Badge>}
      {expiry === 'expired' && <Badge color="red" variant="light">Expired</Badge>}
    </Group>
  );
}

function RowActions({ row, canWrite, onView, onEdit }: {
  readonly row: SubscriptionRow; readonly canWrite: boolean; readonly onView: () => void; readonly onEdit: () => void;
}) {
  const { update, busy } = useUpdateSubscription();
  const name = row.strategy?.name ?? 'this strategy';
  const unsubscribe = async (): Promise<void> => {
    const sure = await confirm({
      title: 'Unsubscribe?', danger: true, acceptLabel: 'Unsubscribe', rejectLabel: 'Keep',
      message: `Stop following ${name}? Positions your subscription holds are closed at market and its run ends.`,
    });
    if (sure) await update(row.subscription_id, { active: false }, `Unsubscribed from ${name}.`);
  };
  return (
    <Group gap={6} wrap="wrap">
      <Button size="compact-xs" variant="light" onClick={onView}>View</Button>
      {canWrite && row.active && (
        <>
          <Button size="compact-xs" variant="default" onClick={onEdit}>Edit</Button>
          <Button size="compact-xs" variant="default" loading={busy}
            onClick={() => void update(row.subscription_id, { paused: !row.paused }, row.paused ? `Following ${name} again.` : `Paused: no new entries from ${name}.`)}>
            {row.paused ? 'Resume' : 'Pause'}
          </Button>
          <Button size="compact-xs" variant="subtle" color="red" onClick={() => void unsubscribe()}>Unsubscribe</Button>
        </>
      )}
    </Group>
  );
}

export function MySubscriptions({ rows, brokers, filter, onFilter, canSubscribe, selected, onView, onEdit }: {
  readonly rows: readonly SubscriptionRow[];
  readonly brokers: readonly BrokerAccount[];
  readonly filter: ActiveFilter;
  readonly onFilter: (filter: ActiveFilter) => void;
  readonly canSubscribe: boolean;
  readonly selected: string | undefined;
  readonly onView: (id: string) => void;
  readonly onEdit: (row: SubscriptionRow) => void;
}) {
  const readOnly = useReadOnly();
  const nowMs = Date.now();
  const brokerById = new Map(brokers.map((broker) => [broker.user_broker_id, broker]));
  const total = investmentTotalPaise(rows, new Map(brokers.map((broker) => [broker.user_broker_id, broker.active])));
  return (
    <Stack gap="sm">
      <Group justify="space-between" wrap="wrap">
        <SegmentedControl<ActiveFilter> aria-label="Active or all subscriptions" value={filter} onChange={onFilter}
          data={[{ value: 'active', label: 'Active' }, { value: 'all', label: 'All' }]} />
        <Text size="sm" data-testid="investment-total">Invested (active brokers): <b>{formatRupees(total)}</b></Text>
      </Group>
      {rows.length === 0 ? (
        <Text c="dimmed">{filter === 'active' ? 'No active subscriptions. Subscribe to a strategy from the marketplace below.' : 'No subscriptions yet.'}</Text>
      ) : (
        <Table.ScrollContainer minWidth={900}>
          <Table striped data-testid="subscriptions-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Strategy</Table.Th>
                <Table.Th>Sizing</Table.Th>
                <Table.Th ta="right">Investment</Table.Th>
                <Table.Th>Account</Table.Th>
                <Table.Th>Expires</Table.Th>
                <Table.Th>State</Table.Th>
                <Table.Th>Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row) => {
                const broker = row.user_broker_id === null ? undefined : brokerById.get(row.user_broker_id);
                return (
                  <Table.Tr key={row.subscription_id} data-testid="subscription-row" data-subscription-id={row.subscription_id}
                    {...(selected === row.subscription_id ? { bg: 'var(--mantine-primary-color-light)' } : {})}>
                    <Table.Td>{row.strategy?.name ?? <Text size="sm" c="dimmed">No longer published</Text>}</Table.Td>
                    <Table.Td>{sizingText(row)}</Table.Td>
                    <Table.Td ta="right">{formatRupees(currentInvestmentPaise(row))}</Table.Td>
                    <Table.Td>{broker === undefined ? 'Paper' : `${broker.client_id}${broker.active ? '' : ' (off)'}`}</Table.Td>
                    <Table.Td>{dateTimeText(row.expires_at)}</Table.Td>
                    <Table.Td><StateBadges row={row} nowMs={nowMs} /></Table.Td>
                    <Table.Td>
                      <RowActions row={row} canWrite={canSubscribe && !readOnly} onView={() => onView(row.subscription_id)} onEdit={() => onEdit(row)} />
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
