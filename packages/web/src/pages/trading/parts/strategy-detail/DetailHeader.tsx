// The detail page's header: name, status, mode, instrument, interval, type, today's P&L across the
// strategy's PAPER and LIVE runs, the algorithm it runs, and the actions the viewer may take.
import { Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { formatRupees } from '@vyuha/core';
import { StatusBadge } from '../StatusBadge';
import { StrategyActions } from '../StrategyActions';
import type { Subject } from '../use-subject';
import { ModeBadge, pnlColor } from './detail-bits';
import type { DetailStrategyRow } from './detail-queries';

function Field({ label, children, testId }: { readonly label: string; readonly children: ReactNode; readonly testId?: string }) {
  return (
    <Stack gap={2} miw={0}>
      <Text size="xs" c="dimmed" tt="uppercase">{label}</Text>
      <Text size="sm" component="div" data-testid={testId} style={{ overflowWrap: 'anywhere' }}>{children}</Text>
    </Stack>
  );
}

export function DetailHeader({ strategy, todayPaise, subject }: {
  readonly strategy: DetailStrategyRow;
  readonly todayPaise: number;
  readonly subject: Subject;
}) {
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Group gap="sm" wrap="wrap">
          <Title order={3} style={{ overflowWrap: 'anywhere' }} data-testid="detail-name">{strategy.name}</Title>
          <StatusBadge status={strategy.status} />
          <ModeBadge mode={strategy.mode} />
        </Group>
        <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} spacing="md">
          <Field label="Instrument">
            {strategy.instrument ? `${strategy.instrument.trading_symbol} (${strategy.instrument.exchange})` : '—'}
          </Field>
          <Field label="Interval">{strategy.interval_minutes} min</Field>
          <Field label="Type">{strategy.strategy_type}</Field>
          <Field label="Today's P&L" testId="detail-today-pnl">
            <Text span size="sm" fw={600} c={pnlColor(todayPaise)}>{formatRupees(todayPaise)}</Text>
          </Field>
          <Field label="Algorithm">
            {strategy.algorithm ? `${strategy.algorithm.name} v${strategy.algorithm_version ?? '?'}` : '—'}
          </Field>
          <Field label="Exchange algo id">{strategy.algo_id ?? '—'}</Field>
        </SimpleGrid>
        <StrategyActions subject={subject} strategy={strategy} deployable={strategy} size="sm" />
      </Stack>
    </Paper>
  );
}
