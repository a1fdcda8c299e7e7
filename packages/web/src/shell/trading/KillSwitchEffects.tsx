// What a kill switch did, live while it is on: the orders cancelled since it went on and the
// square-off orders it placed (kill-switch-state.ts says why these are read from the orders).
import { Badge, Group, ScrollArea, Stack, Text } from '@mantine/core';
import { useSubscription } from 'urql';
import { formatDateTime, parseTimestamp } from '../../format/format';
import { switchEffects, type SwitchOrderRow, type SwitchState } from './kill-switch-state';
import { SWITCH_ORDERS_SUBSCRIPTION } from './trading-documents';
import { errorText } from './use-trading-calls';

function OrderLine({ order }: { readonly order: SwitchOrderRow }) {
  return (
    <Group gap={6} wrap="wrap" data-testid="kill-switch-order">
      <Badge size="xs" variant="light" color={order.side === 'BUY' ? 'teal' : 'red'}>{order.side}</Badge>
      <Text size="xs">{order.quantity} {order.instrument?.trading_symbol ?? ''}</Text>
      <Text size="xs" c="dimmed">{order.status}{order.strategy === null ? '' : ` · ${order.strategy.name}`}</Text>
    </Group>
  );
}

function OrderList({ title, orders, testId }: { readonly title: string; readonly orders: readonly SwitchOrderRow[]; readonly testId: string }) {
  return (
    <Stack gap={4} data-testid={testId}>
      <Text size="sm" fw={600}>{title} ({orders.length})</Text>
      {orders.length === 0 ? <Text size="xs" c="dimmed">None.</Text> : orders.map((order) => <OrderLine key={order.order_id} order={order} />)}
    </Stack>
  );
}

export function KillSwitchEffects({ userId, state, since }: { readonly userId: string; readonly state: SwitchState; readonly since: string }) {
  const [result] = useSubscription<{ orders: SwitchOrderRow[] }>({ query: SWITCH_ORDERS_SUBSCRIPTION, variables: { user_id: userId, since } });
  const effects = switchEffects(result.data?.orders, parseTimestamp(since));
  return (
    <Stack gap="xs" data-testid="kill-switch-effects">
      <Text size="sm">
        On since {state.since === undefined ? '—' : `${formatDateTime(state.since)} IST`}.{' '}
        {state.squareOff ? 'Open positions were squared off.' : 'Open positions were left as they were.'}
      </Text>
      {result.error !== undefined && <Text size="xs" c="red">{errorText(result.error)}</Text>}
      <ScrollArea.Autosize mah={280} type="auto">
        <Stack gap="sm">
          <OrderList title="Orders cancelled" orders={effects.cancelled} testId="kill-switch-cancelled" />
          <OrderList title="Square-off orders" orders={effects.squareOffs} testId="kill-switch-square-offs" />
        </Stack>
      </ScrollArea.Autosize>
      <Text size="xs" c="dimmed">No new order leaves this account until the switch is turned off.</Text>
    </Stack>
  );
}
