// The strategy list of /strategies, live through one GraphQL subscription (a
// fill, an order or a status change anywhere in a listed strategy pushes the list again): name,
// mode, status, today's P&L and orders and the open positions of its PAPER and LIVE runs (never a
// backtest: deploy/strategy-rows.ts), and the actions the role and status allow. Filters
// Current/History and Active/All (docs/PRODUCT.md section 4); each name links to the detail route.
import { Anchor, Badge, Button, Card, Group, SegmentedControl, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useSubscription } from 'urql';
import { formatRupees } from '../../../format/format';
import { istToday } from '../../../format/date-ranges';
import type { DeployStrategy } from './deploy/DeployDialog';
import { LazyCreateStrategyDialog, LazyDeployDialog } from './deploy/lazy-dialogs';
import { statusCondition, tradingFigures, type ActiveFilter, type PeriodFilter, type RunRow } from './deploy/strategy-rows';
import { QueryState } from './QueryState';
import { StatusBadge } from './StatusBadge';
import { StrategyActions } from './StrategyActions';
import { STRATEGY_WRITER_ROLES, useSubject } from './use-subject';

/** Most strategies listed (the newest first), and runs per strategy: the server refuses lists it cannot bound. */
const STRATEGY_LIMIT = 500;

// Runs that can matter today: one still running, one that traded today, one holding a position
// (a strategy normally has one; the newest few are read). Every list has a literal limit.
const STRATEGY_LIST = `subscription StrategyList($where: strategies_bool_exp!, $today: date!) {
  strategies(where: $where, order_by: [{ updated_at: desc }], limit: ${STRATEGY_LIMIT}) {
    strategy_id user_id name kind mode status published strategy_type interval_minutes algorithm_id algorithm_version config
    instrument { instrument_id name trading_symbol lot_size }
    strategy_runs(where: { kind: { _in: ["PAPER", "LIVE"] }, _or: [
      { status: { _eq: "IN PROGRESS" } }, { daily_pnl: { date: { _eq: $today } } }, { positions: { net_quantity: { _neq: 0 } } }
    ] }, order_by: { started_at: desc }, limit: 5) {
      run_id kind status params
      daily_pnl(order_by: { date: desc }, limit: 1) { date pnl_paise orders_count }
      positions(where: { net_quantity: { _neq: 0 } }, limit: 100) { net_quantity }
    }
  }
}`;

interface StrategyRow extends DeployStrategy {
  readonly user_id: string;
  readonly kind: string;
  readonly mode: string;
  readonly status: string;
  readonly published: boolean;
  readonly instrument: DeployStrategy['instrument'] & { readonly trading_symbol: string } | null;
  readonly strategy_runs: readonly RunRow[];
}

export interface StrategyListProps {
  /** Whose strategies (a user id). */
  readonly owner: string;
  readonly kind?: 'algo' | 'basket';
  /** Detail route prefix, e.g. '/strategies'. */
  readonly basePath: string;
  readonly emptyText: string;
}

function Filters({ period, active, setPeriod, setActive }: {
  readonly period: PeriodFilter; readonly active: ActiveFilter;
  readonly setPeriod: (value: PeriodFilter) => void; readonly setActive: (value: ActiveFilter) => void;
}) {
  return (
    <Group gap="sm" wrap="wrap">
      <SegmentedControl<PeriodFilter> aria-label="Current or history" value={period} onChange={setPeriod} data-testid="strategies-period"
        data={[{ value: 'current', label: 'Current' }, { value: 'history', label: 'History' }]} />
      {period === 'current' && (
        <SegmentedControl<ActiveFilter> aria-label="Active or all strategies" value={active} onChange={setActive} data-testid="strategies-active"
          data={[{ value: 'active', label: 'Active' }, { value: 'all', label: 'All' }]} />
      )}
    </Group>
  );
}

export function StrategyList({ owner, kind, basePath, emptyText }: StrategyListProps) {
  const subject = useSubject();
  const [period, setPeriod] = useState<PeriodFilter>('current');
  const [active, setActive] = useState<ActiveFilter>('all');
  const [creating, setCreating] = useState(false);
  // One deploy dialog for the list: a row's own would close when the layout switches between table and cards.
  const [deployingId, setDeployingId] = useState<string | undefined>();
  const today = istToday();
  const where = useMemo(() => ({
    user_id: { _eq: owner },
    ...(kind ? { kind: { _eq: kind } } : {}),
    status: statusCondition(period, active),
  }), [owner, kind, period, active]);
  const [result] = useSubscription<{ strategies: StrategyRow[] }>({ query: STRATEGY_LIST, variables: { where, today } });
  const rows = result.data?.strategies ?? [];
  const deploying = rows.find((row) => row.strategy_id === deployingId);
  const mayCreate = owner === subject.userId && (kind ?? 'algo') === 'algo' && STRATEGY_WRITER_ROLES.includes(subject.role ?? '');
  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Filters period={period} active={active} setPeriod={setPeriod} setActive={setActive} />
        <Group gap="sm" wrap="wrap">
          {result.data && (
            <Text size="sm" c="dimmed">
              {rows.length === STRATEGY_LIMIT ? `The newest ${STRATEGY_LIMIT} strategies` : `${rows.length} ${rows.length === 1 ? 'strategy' : 'strategies'}`}
            </Text>
          )}
          {mayCreate && <Button onClick={() => setCreating(true)} data-testid="strategy-new">New strategy</Button>}
        </Group>
      </Group>
      <QueryState fetching={result.fetching} error={result.error} hasData={result.data !== undefined} title="Could not load the strategies">
        {rows.length === 0
          ? <Text c="dimmed">{`${emptyText}${period === 'current' && active === 'active' ? ' (none active; choose All to see the rest)' : ''}.`}</Text>
          : <StrategyRows rows={rows} today={today} basePath={basePath} onDeploy={setDeployingId} />}
      </QueryState>
      {deploying !== undefined && <LazyDeployDialog strategy={deploying} opened onClose={() => setDeployingId(undefined)} />}
      {mayCreate && <LazyCreateStrategyDialog opened={creating} onClose={() => setCreating(false)} userId={owner} onCreated={() => setActive('all')} />}
    </Stack>
  );
}

interface RowsProps {
  readonly rows: readonly StrategyRow[]; readonly today: string; readonly basePath: string;
  readonly onDeploy: (strategyId: string) => void;
}

type RowProps = Omit<RowsProps, 'rows'> & { readonly row: StrategyRow };

/** A table on a desktop; on a phone, one card per strategy with its figures in view (no sideways scroll). */
function StrategyRows(props: RowsProps) {
  const phone = useMediaQuery('(max-width: 48em)');
  if (!phone) return <StrategyTable {...props} />;
  return (
    <Stack gap="sm" data-testid="strategy-cards">
      {props.rows.map((row) => <StrategyCard key={row.strategy_id} {...props} row={row} />)}
    </Stack>
  );
}

function PnlText({ pnl }: { readonly pnl: number | undefined }) {
  return <Text size="sm" c={pnl === undefined || pnl === 0 ? 'dimmed' : pnl > 0 ? 'teal' : 'red'}>{pnl === undefined ? '—' : formatRupees(pnl)}</Text>;
}

function StrategyCard({ row, today, basePath, onDeploy }: RowProps) {
  const figures = tradingFigures(row.strategy_runs, today);
  return (
    <Card withBorder padding="sm" data-testid={`strategy-row-${row.strategy_id}`}>
      <Stack gap={6}>
        <Anchor component={Link} to={`${basePath}/${row.strategy_id}`}>{row.name}</Anchor>
        <Text size="xs" c="dimmed">
          {row.instrument?.trading_symbol ?? '—'} · {row.interval_minutes} min · {row.strategy_type}
        </Text>
        <Group gap={6} wrap="wrap">
          <Badge variant="light" color={row.mode === 'LIVE' ? 'orange' : 'gray'}>{row.mode}</Badge>
          <StatusBadge status={row.status} />
          {row.published && <Badge size="sm" variant="outline">Published</Badge>}
        </Group>
        <SimpleGrid cols={3} spacing="xs">
          <Stack gap={0}><Text size="xs" c="dimmed">Today's P&amp;L</Text><PnlText pnl={figures.todayPnlPaise} /></Stack>
          <Stack gap={0}><Text size="xs" c="dimmed">Orders today</Text><Text size="sm">{figures.ordersToday}</Text></Stack>
          <Stack gap={0}><Text size="xs" c="dimmed">Open positions</Text><Text size="sm">{figures.openPositions}</Text></Stack>
        </SimpleGrid>
        {figures.replayDate && <Text size="xs" c="dimmed">replay day {figures.replayDate}</Text>}
        <StrategyActions strategy={row} {...(row.kind === 'algo' ? { onDeploy: () => onDeploy(row.strategy_id) } : {})} />
      </Stack>
    </Card>
  );
}

function StrategyTable({ rows, ...rest }: RowsProps) {
  return (
    <Table.ScrollContainer minWidth={980}>
      <Table striped highlightOnHover data-testid="strategy-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th w={96}>Mode</Table.Th>
            <Table.Th w={116}>Status</Table.Th>
            <Table.Th ta="right">Today's P&amp;L</Table.Th>
            <Table.Th ta="right">Orders today</Table.Th>
            <Table.Th ta="right">Open positions</Table.Th>
            <Table.Th>Actions</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => <StrategyRowView key={row.strategy_id} {...rest} row={row} />)}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function StrategyRowView({ row, today, basePath, onDeploy }: RowProps) {
  const figures = tradingFigures(row.strategy_runs, today);
  const pnl = figures.todayPnlPaise;
  return (
    <Table.Tr data-testid={`strategy-row-${row.strategy_id}`}>
      <Table.Td>
        <Anchor component={Link} to={`${basePath}/${row.strategy_id}`}>{row.name}</Anchor>
        {row.published && <Badge ml="xs" size="xs" variant="outline" data-testid="strategy-published">Published</Badge>}
        <Text size="xs" c="dimmed">{row.instrument?.trading_symbol ?? '—'} · {row.interval_minutes} min · {row.strategy_type}</Text>
      </Table.Td>
      <Table.Td w={96}><Badge variant="light" color={row.mode === 'LIVE' ? 'orange' : 'gray'} style={{ overflow: 'visible' }}>{row.mode}</Badge></Table.Td>
      <Table.Td w={116} data-testid="strategy-status"><StatusBadge status={row.status} /></Table.Td>
      <Table.Td ta="right" data-testid="strategy-pnl">
        <PnlText pnl={pnl} />
        {figures.replayDate && <Text size="xs" c="dimmed">replay day {figures.replayDate}</Text>}
      </Table.Td>
      <Table.Td ta="right" data-testid="strategy-orders">{figures.ordersToday}</Table.Td>
      <Table.Td ta="right" data-testid="strategy-positions">{figures.openPositions}</Table.Td>
      <Table.Td><StrategyActions strategy={row} {...(row.kind === 'algo' ? { onDeploy: () => onDeploy(row.strategy_id) } : {})} /></Table.Td>
    </Table.Tr>
  );
}
