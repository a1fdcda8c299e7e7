// One backtest strategy: its runs with their headline metrics (live status through a
// subscription; the full rows are fetched again when a run's status changes) and the selected
// run's equity curve and metrics.
import { Anchor, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useQuery, useSubscription } from 'urql';
import { formatRupees, MISSING_VALUE, percent } from '../../../format/format';
import { ratioText, timestampText } from './display';
import { QueryError } from './query-feedback';
import { runCell, runSummary } from './run-metrics';
import { RunAnalytics } from './RunAnalytics';
import { RunStatus } from './RunStatus';

const STRATEGY_QUERY = `
  query BacktestStrategy($strategy_id: uuid!) {
    strategies_by_pk(strategy_id: $strategy_id) {
      strategy_id name strategy_type created_at instrument { name }
      strategy_runs(where: { kind: { _eq: "BACKTEST" } }, order_by: { started_at: asc }) {
        run_id status progress candles error params metrics result started_at finished_at
      }
    }
  }`;

const STATUS_SUBSCRIPTION = `
  subscription BacktestStrategyStatus($strategy_id: uuid!) {
    strategy_runs(where: { strategy_id: { _eq: $strategy_id }, kind: { _eq: "BACKTEST" } }) { run_id status progress candles }
  }`;

interface RunRow {
  readonly run_id: string;
  readonly status: string;
  readonly progress: number;
  readonly candles: number;
  readonly error: string | null;
  readonly params: unknown;
  readonly metrics: unknown;
  readonly result: unknown;
  readonly started_at: string;
  readonly finished_at: string | null;
}

interface StrategyRow {
  readonly strategy_id: string;
  readonly name: string;
  readonly strategy_type: string;
  readonly created_at: string;
  readonly instrument: { readonly name: string } | null;
  readonly strategy_runs: RunRow[];
}

type LiveStatus = Pick<RunRow, 'run_id' | 'status' | 'progress' | 'candles'>;

/** Run ids with their statuses, order-independent. */
const statusKey = (runs: ReadonlyArray<{ run_id: string; status: string }> | undefined): string =>
  (runs ?? []).map((run) => `${run.run_id}:${run.status}`).sort().join(',');

const money = (paise: number | undefined): string => (paise === undefined ? MISSING_VALUE : formatRupees(paise));
const pct = (value: number | undefined): string => (value === undefined ? MISSING_VALUE : percent(value));

function runTitle(run: RunRow): string {
  const cell = runCell(run.params);
  const range = cell.from !== undefined && cell.to !== undefined ? `${cell.from} to ${cell.to}` : undefined;
  return [cell.algorithm, range, cell.interval === undefined ? undefined : `${cell.interval} min`].filter((part) => part !== undefined).join(' · ') || run.run_id;
}

function MetricsTable({ runs, live, selected, onSelect }: {
  readonly runs: readonly RunRow[]; readonly live: ReadonlyMap<string, LiveStatus>; readonly selected: string | undefined; readonly onSelect: (runId: string) => void;
}) {
  return (
    <Table.ScrollContainer minWidth={900}>
      <Table highlightOnHover striped withTableBorder fz="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Run</Table.Th><Table.Th>Status</Table.Th><Table.Th>Net P&L</Table.Th><Table.Th>Return</Table.Th>
            <Table.Th>Max drawdown</Table.Th><Table.Th>Sharpe</Table.Th><Table.Th>Trades</Table.Th><Table.Th>Win rate</Table.Th>
            <Table.Th>Charges</Table.Th><Table.Th>Candles</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {runs.map((run) => {
            const now = live.get(run.run_id) ?? run;
            const summary = runSummary(run.metrics, run.result);
            return (
              <Table.Tr key={run.run_id} onClick={() => onSelect(run.run_id)} aria-selected={run.run_id === selected}
                style={{ cursor: 'pointer', ...(run.run_id === selected ? { background: 'var(--mantine-primary-color-light)' } : {}) }}>
                <Table.Td>{runTitle(run)}</Table.Td>
                <Table.Td><RunStatus status={now.status} progress={now.progress} error={run.error} /></Table.Td>
                <Table.Td c={summary.netPnlPaise === undefined ? 'dimmed' : summary.netPnlPaise < 0 ? 'red' : 'teal'}>{money(summary.netPnlPaise)}</Table.Td>
                <Table.Td>{pct(summary.returnPercent)}</Table.Td>
                <Table.Td>{money(summary.maxDrawdownPaise)}{summary.maxDrawdownPercent === undefined ? '' : ` (${percent(summary.maxDrawdownPercent)})`}</Table.Td>
                <Table.Td>{ratioText(summary.sharpe)}</Table.Td>
                <Table.Td>{summary.trades ?? MISSING_VALUE}</Table.Td>
                <Table.Td>{summary.winRate === undefined ? MISSING_VALUE : percent(summary.winRate * 100)}</Table.Td>
                <Table.Td>{money(summary.chargesPaise)}</Table.Td>
                <Table.Td>{now.candles.toLocaleString('en-IN')}</Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** The backtest strategy `strategyId`. */
export function BacktestStrategy({ strategyId }: { readonly strategyId: string }) {
  const [result, refetch] = useQuery<{ strategies_by_pk: StrategyRow | null }>({ query: STRATEGY_QUERY, variables: { strategy_id: strategyId } });
  const [status] = useSubscription<{ strategy_runs: LiveStatus[] }>({ query: STATUS_SUBSCRIPTION, variables: { strategy_id: strategyId } });
  const [selected, setSelected] = useState<string | undefined>(undefined);
  const live = useMemo(() => new Map((status.data?.strategy_runs ?? []).map((run) => [run.run_id, run])), [status.data]);
  // When the live statuses differ from the loaded rows (a run finished, or a new one), load the rows again.
  const liveKey = statusKey(status.data?.strategy_runs);
  const loadedKey = statusKey(result.data?.strategies_by_pk?.strategy_runs);
  const stale = status.data !== undefined && result.data !== undefined && !result.fetching && liveKey !== loadedKey;
  useEffect(() => {
    if (stale) refetch({ requestPolicy: 'network-only' });
  }, [stale, liveKey, refetch]);

  const strategy = result.data?.strategies_by_pk;
  const runs = strategy?.strategy_runs ?? [];
  const chosen = runs.find((run) => run.run_id === selected) ?? runs.find((run) => run.metrics !== null || run.result !== null);
  return (
    <Stack gap="md">
      <Anchor component={Link} to="/backtest" size="sm">All backtests</Anchor>
      <QueryError error={result.error ?? status.error} title="Could not load the backtest" />
      {result.fetching && strategy === undefined && <Loader size="sm" />}
      {strategy === null && <Text c="dimmed">No backtest strategy {strategyId} is visible to you.</Text>}
      {strategy && (
        <>
          <Group justify="space-between" align="baseline">
            <Title order={3}>{strategy.name}</Title>
            <Text size="sm" c="dimmed">
              {[strategy.instrument?.name, strategy.strategy_type, `created ${timestampText(strategy.created_at)}`].filter((part) => part !== undefined).join(' · ')}
            </Text>
          </Group>
          {runs.length === 0 ? <Text c="dimmed">This strategy has no backtest runs.</Text> : (
            <MetricsTable runs={runs} live={live} selected={chosen?.run_id} onSelect={setSelected} />
          )}
          {chosen !== undefined && <RunAnalytics key={chosen.run_id} title={runTitle(chosen)} metrics={chosen.metrics} result={chosen.result} />}
        </>
      )}
    </Stack>
  );
}
