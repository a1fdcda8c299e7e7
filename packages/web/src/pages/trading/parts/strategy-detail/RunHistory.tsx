// Every PAPER and LIVE run of the strategy, newest first, with docs/PRODUCT.md section 4's status
// icons, its times, what it replayed, its P&L after charges and order count; choosing a run shows
// its chart, orders, positions and equity. An ERROR run's reason is in its row, and the chosen
// one's in an alert above the page's sections (RunErrorAlert).
import { Alert, Table, Text, UnstyledButton } from '@mantine/core';
import { formatRupees } from '@vyuha/core';
import { RunStatus } from '../StatusBadge';
import { dateTimeText } from '../time';
import { paiseOf } from '../trading-tables/orders-model';
import { pnlColor } from './detail-bits';
import { replayOf, runErrorWords, speedText } from './detail-model';
import type { DetailRunRow } from './detail-queries';

/** A run's P&L after charges over all its days. */
export function runPnlPaise(run: DetailRunRow): number {
  return paiseOf(run.daily_pnl_aggregate.aggregate?.sum?.pnl_paise) ?? 0;
}

export function RunHistory({ runs, selectedId, onSelect }: {
  readonly runs: readonly DetailRunRow[];
  readonly selectedId: string | undefined;
  readonly onSelect: (runId: string) => void;
}) {
  if (runs.length === 0) return <Text c="dimmed">Not deployed yet: no paper or live runs.</Text>;
  return (
    <Table.ScrollContainer minWidth={900}>
      <Table highlightOnHover data-testid="run-history">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Status</Table.Th>
            <Table.Th>Kind</Table.Th>
            <Table.Th>Started</Table.Th>
            <Table.Th>Finished</Table.Th>
            <Table.Th>Replay</Table.Th>
            <Table.Th ta="right">P&L</Table.Th>
            <Table.Th ta="right">Orders</Table.Th>
            <Table.Th style={{ whiteSpace: 'nowrap' }}>Why it ended in error</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {runs.map((run) => {
            const replay = replayOf(run.params);
            const pnl = runPnlPaise(run);
            const selected = run.run_id === selectedId;
            return (
              <Table.Tr key={run.run_id} data-testid="run-row" data-run-id={run.run_id} data-status={run.status} data-selected={selected}
                style={selected ? { background: 'var(--mantine-primary-color-light)' } : {}}>
                <Table.Td>
                  <UnstyledButton onClick={() => onSelect(run.run_id)} aria-pressed={selected} aria-label={`Show the run started ${dateTimeText(run.started_at)}`}>
                    <RunStatus status={run.status} />
                  </UnstyledButton>
                </Table.Td>
                <Table.Td>{run.kind}</Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{dateTimeText(run.started_at)}</Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{dateTimeText(run.finished_at)}</Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{replay ? `${replay.from} → ${replay.to} at ${speedText(replay.speed)}` : 'market'}</Table.Td>
                <Table.Td ta="right"><Text size="sm" c={pnlColor(pnl)}>{formatRupees(pnl)}</Text></Table.Td>
                <Table.Td ta="right">{run.orders_aggregate.aggregate?.count ?? 0}</Table.Td>
                <Table.Td><Text size="sm" c="red" maw={320} data-testid="run-error">{runErrorWords(run) ?? ''}</Text></Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** The chosen run's error, where nobody can miss it. */
export function RunErrorAlert({ run }: { readonly run: DetailRunRow }) {
  const words = runErrorWords(run);
  if (words === undefined) return null;
  return (
    <Alert color="red" variant="filled" title={`This run ended in ${run.status}`} role="alert" data-testid="run-error-alert">
      {words}
    </Alert>
  );
}
