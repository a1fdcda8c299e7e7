// The user's backtests, below the form on /backtest: each backtest strategy with its BACKTEST
// runs, live through a subscription on strategy_runs (status, progress bar while IN PROGRESS,
// candles used), and cancel for a run still IN PROGRESS (the cancel_backtest action).
import { Anchor, Button, Group, Loader, Paper, Stack, Table, Text } from '@mantine/core';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { useSubscription } from 'urql';
import { useReadOnly } from '../../../app/update-mode';
import { formatRupees } from '../../../format/format';
import { timestampText } from './display';
import { QueryError } from './query-feedback';
import { runCell } from './run-metrics';
import { RunStatus } from './RunStatus';
import { useCancelRun } from '../backtest/results/use-cancel-run';

/** Most runs the list follows live (the newest). */
const RUN_LIMIT = 500;

const RUNS_SUBSCRIPTION = `
  subscription BacktestRuns($user_id: uuid!, $limit: Int!) {
    strategy_runs(where: { kind: { _eq: "BACKTEST" }, user_id: { _eq: $user_id } }, order_by: { started_at: desc }, limit: $limit) {
      run_id strategy_id status progress candles error params started_at finished_at
      strategy { name created_at }
    }
  }`;

interface RunRow {
  readonly run_id: string;
  readonly strategy_id: string | null;
  readonly status: string;
  readonly progress: number;
  readonly candles: number;
  readonly error: string | null;
  readonly params: unknown;
  readonly started_at: string;
  readonly finished_at: string | null;
  readonly strategy: { readonly name: string; readonly created_at: string } | null;
}

interface StrategyGroup {
  readonly strategyId: string;
  readonly name: string;
  readonly createdAt: string;
  readonly runs: RunRow[];
}

/** Runs grouped by strategy, newest strategy first, runs in the order the form made them. */
function groupByStrategy(runs: readonly RunRow[]): StrategyGroup[] {
  const groups = new Map<string, StrategyGroup>();
  for (const run of runs) {
    if (run.strategy_id === null) continue;
    const group = groups.get(run.strategy_id)
      ?? { strategyId: run.strategy_id, name: run.strategy?.name ?? run.strategy_id, createdAt: run.strategy?.created_at ?? run.started_at, runs: [] };
    group.runs.push(run);
    groups.set(run.strategy_id, group);
  }
  return [...groups.values()]
    .map((group) => ({ ...group, runs: [...group.runs].reverse() }))
    .sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
}

function runLabel(params: unknown): string {
  const cell = runCell(params);
  const parts = [cell.algorithm, cell.from !== undefined && cell.to !== undefined ? `${cell.from} to ${cell.to}` : undefined,
    cell.interval === undefined ? undefined : `${cell.interval} min`,
    cell.investmentPaise === undefined ? undefined : formatRupees(cell.investmentPaise, { compact: true })];
  return parts.filter((part) => part !== undefined).join(' · ') || '-';
}

function StrategyRuns({ group, onCancel, cancelDisabled }: { readonly group: StrategyGroup; readonly onCancel: (runId: string) => void; readonly cancelDisabled: boolean }) {
  const candles = group.runs.reduce((sum, run) => sum + run.candles, 0);
  return (
    <Paper withBorder p="sm" data-testid={`bt-backtest-${group.strategyId}`}>
      <Group justify="space-between" mb="xs">
        <Anchor component={Link} to={`/backtest/${group.strategyId}`} fw={600}>{group.name}</Anchor>
        <Text size="sm" c="dimmed">Created {timestampText(group.createdAt)} · {group.runs.length} run{group.runs.length === 1 ? '' : 's'} · {candles.toLocaleString('en-IN')} candles</Text>
      </Group>
      <Table fz="sm" verticalSpacing={6}>
        <Table.Thead>
          <Table.Tr><Table.Th>Run</Table.Th><Table.Th>Status</Table.Th><Table.Th>Candles used</Table.Th><Table.Th>Started</Table.Th><Table.Th /></Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {group.runs.map((run) => (
            <Table.Tr key={run.run_id}>
              <Table.Td>{runLabel(run.params)}</Table.Td>
              <Table.Td><RunStatus status={run.status} progress={run.progress} error={run.error} runId={run.run_id} /></Table.Td>
              <Table.Td>{run.candles.toLocaleString('en-IN')}</Table.Td>
              <Table.Td>{timestampText(run.started_at)}</Table.Td>
              <Table.Td>
                {run.status === 'IN PROGRESS' && (
                  <Button size="compact-xs" color="red" variant="light" disabled={cancelDisabled} onClick={() => onCancel(run.run_id)}>Cancel</Button>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Paper>
  );
}

/** The list of backtests of `userId` (the acting user). */
export function BacktestRuns({ userId }: { readonly userId: string }) {
  const readOnly = useReadOnly();
  const [result] = useSubscription<{ strategy_runs: RunRow[] }>({ query: RUNS_SUBSCRIPTION, variables: { user_id: userId, limit: RUN_LIMIT } });
  const groups = useMemo(() => groupByStrategy(result.data?.strategy_runs ?? []), [result.data]);
  const { cancel, cancelling } = useCancelRun();
  return (
    <Stack gap="md" data-testid="bt-list">
      <QueryError error={result.error} title="Could not follow the backtest runs" />
      {result.data === undefined && result.error === undefined && <Loader size="sm" />}
      {result.data !== undefined && groups.length === 0 && <Text c="dimmed">No backtests yet.</Text>}
      {result.data !== undefined && result.data.strategy_runs.length === RUN_LIMIT && (
        <Text size="xs" c="dimmed">Showing the newest {RUN_LIMIT} runs.</Text>
      )}
      {groups.map((group) => (
        <StrategyRuns key={group.strategyId} group={group} onCancel={(runId) => void cancel(runId)} cancelDisabled={readOnly || cancelling} />
      ))}
    </Stack>
  );
}
