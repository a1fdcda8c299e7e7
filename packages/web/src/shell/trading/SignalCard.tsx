// One pending signal in the queue: the strategy, what the order will be, the time left (ticking),
// and accept or reject (confirm_signal). A row past its expiry can only be dismissed.
import { Badge, Button, Checkbox, Group, Paper, Stack, Text } from '@mantine/core';
import { formatDateTime, parseTimestamp } from '../../format/format';
import { signalOrder } from './signal-order';
import { stillOpen, timeLeft } from './time-left';

export interface PendingSignalRow {
  readonly pending_signal_id: string;
  readonly strategy_id: string;
  readonly run_id: string | null;
  readonly payload: unknown;
  readonly created_at: string;
  readonly expires_at: string | null;
  readonly strategy: { readonly name: string; readonly config: unknown } | null;
}

const ACTION_COLOR = { BUY: 'teal', SELL: 'red', EXIT: 'gray' } as const;

export interface SignalCardProps {
  readonly signal: PendingSignalRow;
  readonly now: number;
  readonly selected: boolean;
  readonly busy: boolean;
  readonly onSelect: (selected: boolean) => void;
  readonly onAnswer: (accept: boolean) => void;
}

export function SignalCard({ signal, now, selected, busy, onSelect, onAnswer }: SignalCardProps) {
  const order = signalOrder(signal.payload, signal.strategy?.config);
  const expiresAt = signal.expires_at === null ? undefined : parseTimestamp(signal.expires_at);
  const left = timeLeft(expiresAt, now);
  const open = stillOpen(expiresAt, now);
  return (
    <Paper withBorder p="sm" data-testid="signal-card" data-signal-id={signal.pending_signal_id}>
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Checkbox
            checked={selected}
            onChange={(event) => onSelect(event.currentTarget.checked)}
            label={<Text size="sm" fw={600} lineClamp={1}>{signal.strategy?.name ?? 'Strategy'}</Text>}
            aria-label={`Select the signal of ${signal.strategy?.name ?? 'this strategy'}`}
          />
          <Badge color={open ? 'blue' : 'gray'} variant="light" data-testid="signal-time-left" style={{ flexShrink: 0 }}>
            {left === undefined ? 'no expiry' : left === 'expired' ? 'expired' : `${left} left`}
          </Badge>
        </Group>
        <Group gap={6} wrap="wrap">
          <Badge color={order.action === undefined ? 'gray' : ACTION_COLOR[order.action]} data-testid="signal-action">{order.action ?? 'unknown'}</Badge>
          <Text size="sm" data-testid="signal-instrument">{order.instrument}</Text>
          <Text size="sm" c="dimmed">at {order.price}</Text>
        </Group>
        <Text size="xs" c="dimmed">
          Quantity: {order.quantity}
          {order.barMs === undefined ? '' : ` · bar ${formatDateTime(order.barMs)} IST`}
        </Text>
        <Group gap="xs" justify="flex-end">
          <Button size="xs" variant="default" disabled={busy} onClick={() => onAnswer(false)} data-testid="signal-reject">Reject</Button>
          <Button size="xs" color="teal" disabled={busy || !open || order.action === undefined} onClick={() => onAnswer(true)} data-testid="signal-accept">Accept</Button>
        </Group>
      </Stack>
    </Paper>
  );
}
