// The marketplace: published strategies as a grid (or a list, the user's marketplaceLayout
// preference), each with its paper record from the publisher's PAPER runs (return, max drawdown,
// win rate, trades, since when) and Subscribe for the roles that may subscribe. The strategies are
// a subscription; the records are read again whenever what they depend on changes
// (use-live-records.ts), so the cards move without a reload or a refresh button.
import { Badge, Button, Group, Paper, SegmentedControl, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useSubscription } from 'urql';
import { percent } from '../../../format/format';
import { useReadOnly } from '../../../app/update-mode';
import { QueryState } from '../parts/QueryState';
import { StatusBadge } from '../parts/StatusBadge';
import { lazyPart } from '../../../app/lazy-part';
import type { SubscribeTarget } from '../parts/SubscribeModal';
import { dateText } from '../parts/time';
import { MARKETPLACE, type BrokerAccount, type MarketRow, type PaperRecordRow } from './queries';
import { useLiveRecords } from './use-live-records';
import { useMarketplaceLayout } from './use-marketplace-layout';

/** The subscribe form loads when a strategy's Subscribe is clicked. */
const SubscribeModal = lazyPart(() => import('../parts/SubscribeModal').then((module) => module.SubscribeModal), { renderWhen: (props) => props.target !== undefined });

function Figure({ label, value, color }: { readonly label: string; readonly value: string; readonly color?: string }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">{label}</Text>
      <Text size="sm" fw={600} {...(color === undefined ? {} : { c: color })}>{value}</Text>
    </Stack>
  );
}

function RecordFigures({ record }: { readonly record: PaperRecordRow | undefined }) {
  if (record === undefined || record.since === null) return <Text size="sm" c="dimmed">No paper record yet.</Text>;
  const pct = (value: number | null): string => (value === null ? '—' : percent(value));
  return (
    <Stack gap={4} data-testid="paper-record" data-trades={record.trades}>
      <Group gap="lg" wrap="wrap">
        <Figure label="Return" value={pct(record.return_pct)} {...(record.return_pct === null ? {} : { color: record.return_pct >= 0 ? 'teal' : 'red' })} />
        <Figure label="Max drawdown" value={pct(record.max_drawdown_pct)} />
        <Figure label="Win rate" value={pct(record.win_rate_pct)} />
        <Figure label="Trades" value={String(record.trades)} />
      </Group>
      <Text size="xs" c="dimmed">Paper since {dateText(record.since)}</Text>
    </Stack>
  );
}

function StrategyCard({ strategy, record, subscribed, own, canSubscribe, onSubscribe }: {
  readonly strategy: MarketRow; readonly record: PaperRecordRow | undefined; readonly subscribed: boolean; readonly own: boolean;
  readonly canSubscribe: boolean; readonly onSubscribe: () => void;
}) {
  const readOnly = useReadOnly();
  return (
    <Paper withBorder p="md" data-testid="market-card" data-strategy-id={strategy.strategy_id}>
      <Stack gap="xs" h="100%" justify="space-between">
        <Stack gap={6}>
          <Group justify="space-between" wrap="nowrap" align="flex-start">
            <Text fw={600} style={{ overflowWrap: 'anywhere' }}>{strategy.name}</Text>
            <StatusBadge status={strategy.status} />
          </Group>
          <Group gap={6}>
            <Badge variant="light" color={strategy.mode === 'LIVE' ? 'orange' : 'gray'}>{strategy.mode}</Badge>
            <Badge variant="outline">{strategy.strategy_type}</Badge>
            {own && <Badge variant="dot">Yours</Badge>}
          </Group>
          <Text size="sm" c="dimmed">{strategy.instrument?.trading_symbol ?? 'No instrument'} · {strategy.interval_minutes ?? 5} min</Text>
          <RecordFigures record={record} />
        </Stack>
        {subscribed ? (
          <Badge color="teal" variant="light" size="lg">Subscribed</Badge>
        ) : canSubscribe ? (
          <Button size="xs" disabled={readOnly} onClick={onSubscribe}>Subscribe</Button>
        ) : null}
      </Stack>
    </Paper>
  );
}

export function Marketplace({ userId, canSubscribe, subscribedStrategyIds, brokers }: {
  readonly userId: string;
  readonly canSubscribe: boolean;
  /** Strategies the user follows now (active subscriptions). */
  readonly subscribedStrategyIds: ReadonlySet<string>;
  readonly brokers: readonly BrokerAccount[];
}) {
  const [target, setTarget] = useState<SubscribeTarget | undefined>(undefined);
  const [market] = useSubscription<{ strategies: MarketRow[] }>({ query: MARKETPLACE });
  const { layout, setLayout } = useMarketplaceLayout(userId);
  const strategies = market.data?.strategies;
  const records = useLiveRecords(strategies);
  const recordOf = new Map(records.data?.marketplace_paper_records.map((record) => [record.strategy_id, record]));
  return (
    <Stack gap="sm">
      <Group justify="space-between" wrap="wrap">
        <Title order={3}>Marketplace</Title>
        <Group gap="xs">
          <SegmentedControl size="xs" aria-label="Marketplace layout" value={layout} onChange={(value) => setLayout(value === 'list' ? 'list' : 'grid')}
            data={[{ value: 'grid', label: 'Grid' }, { value: 'list', label: 'List' }]} />
        </Group>
      </Group>
      <QueryState fetching={strategies === undefined} error={market.error} hasData={strategies !== undefined} title="Could not load the marketplace">
        {strategies !== undefined && strategies.length === 0 ? (
          <Text c="dimmed">No strategies are published yet.</Text>
        ) : (
          <SimpleGrid cols={layout === 'grid' ? { base: 1, sm: 2, lg: 3 } : 1} spacing="md" data-testid="marketplace" data-layout={layout}>
            {(strategies ?? []).map((strategy) => (
              <StrategyCard
                key={strategy.strategy_id}
                strategy={strategy}
                record={recordOf.get(strategy.strategy_id)}
                subscribed={subscribedStrategyIds.has(strategy.strategy_id)}
                own={strategy.user_id === userId}
                canSubscribe={canSubscribe}
                onSubscribe={() => setTarget({ strategy_id: strategy.strategy_id, name: strategy.name })}
              />
            ))}
          </SimpleGrid>
        )}
      </QueryState>
      <SubscribeModal target={target} brokers={brokers} onClose={() => setTarget(undefined)} onSubscribed={() => undefined} />
    </Stack>
  );
}
