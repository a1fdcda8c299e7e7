// The open trading alerts (trading_alerts, migration 0023: a broker session to renew, an
// unexplained position that paused strategies, margin short...): a header button with their
// count, shown only while there are some, whose popover says each in words, links where the
// server says to go (the broker login, a server route, so a full page load) and acknowledges it.
import { Anchor, Badge, Box, Button, Group, Paper, Popover, ScrollArea, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useSubscription } from 'urql';
import { formatDateTime, parseTimestamp } from '../../format/format';
import { alertLink, alertWords } from './alert-words';
import { ACKNOWLEDGE_ALERT, TRADING_ALERTS_SUBSCRIPTION } from './trading-documents';
import { useRunMutation } from './use-trading-calls';

interface AlertRow {
  readonly trading_alert_id: string;
  readonly kind: string;
  readonly message: string;
  readonly action_path: string | null;
  readonly created_at: string;
  readonly strategy: { readonly name: string } | null;
}

function AlertCard({ alert, onAcknowledge, busy }: { readonly alert: AlertRow; readonly onAcknowledge: () => void; readonly busy: boolean }) {
  const words = alertWords(alert.kind);
  const link = alertLink(alert.action_path);
  const at = parseTimestamp(alert.created_at);
  return (
    <Paper withBorder p="xs" data-testid="trading-alert" data-kind={alert.kind}>
      <Stack gap={4}>
        <Group gap={6} wrap="wrap">
          <Badge size="xs" color={words.color}>{words.title}</Badge>
          {alert.strategy !== null && <Text size="xs" c="dimmed">{alert.strategy.name}</Text>}
        </Group>
        <Text size="sm">{alert.message}</Text>
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Text size="xs" c="dimmed">{at === undefined ? '' : `${formatDateTime(at)} IST`}</Text>
          <Group gap="xs">
            {link !== undefined && <Anchor size="xs" href={link} data-testid="trading-alert-link">{words.linkLabel}</Anchor>}
            <Button size="compact-xs" variant="default" loading={busy} onClick={onAcknowledge} data-testid="trading-alert-ack">Acknowledge</Button>
          </Group>
        </Group>
      </Stack>
    </Paper>
  );
}

export function TradingAlerts({ targetUserId }: { readonly targetUserId: string }) {
  const [result] = useSubscription<{ trading_alerts: AlertRow[] }>({ query: TRADING_ALERTS_SUBSCRIPTION, variables: { user_id: targetUserId } });
  const run = useRunMutation();
  const [busy, setBusy] = useState<string | undefined>(undefined);
  const alerts = result.data?.trading_alerts ?? [];
  if (alerts.length === 0) return null;
  const acknowledge = async (id: string): Promise<void> => {
    setBusy(id);
    await run(ACKNOWLEDGE_ALERT, { trading_alert_id: id, at: new Date().toISOString() }).finally(() => setBusy(undefined));
  };
  return (
    <Popover position="bottom-end" width={340} withArrow shadow="md">
      <Popover.Target>
        <Button size="xs" color="orange" variant="light" aria-label={`Trading alerts: ${alerts.length}`} data-testid="trading-alerts-button">
          ⚠ {alerts.length}<Box component="span" visibleFrom="md" ml={4}>{alerts.length === 1 ? 'alert' : 'alerts'}</Box>
        </Button>
      </Popover.Target>
      <Popover.Dropdown data-testid="trading-alerts">
        <ScrollArea.Autosize mah={360} type="auto">
          <Stack gap="xs">
            {alerts.map((alert) => (
              <AlertCard key={alert.trading_alert_id} alert={alert} busy={busy === alert.trading_alert_id} onAcknowledge={() => void acknowledge(alert.trading_alert_id)} />
            ))}
          </Stack>
        </ScrollArea.Autosize>
      </Popover.Dropdown>
    </Popover>
  );
}
