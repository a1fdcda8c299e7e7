// The runs of a strategy (strategy_runs): kind, status with its icon, progress, times, error.
import { Table, Text } from '@mantine/core';
import { RunStatus } from './StatusBadge';
import { dateTimeText } from './time';

export interface RunRow {
  readonly run_id: string;
  readonly kind: string;
  readonly status: string;
  readonly progress: number;
  readonly started_at: string;
  readonly finished_at: string | null;
  readonly error: string | null;
}

/** The run fields RunsTable reads, for the queries that embed them. */
export const RUN_FIELDS = 'run_id kind status progress started_at finished_at error';

export function RunsTable({ runs }: { readonly runs: readonly RunRow[] }) {
  if (runs.length === 0) return <Text c="dimmed">No runs yet.</Text>;
  return (
    <Table.ScrollContainer minWidth={720}>
      <Table striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Kind</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Progress</Table.Th>
            <Table.Th>Started</Table.Th>
            <Table.Th>Finished</Table.Th>
            <Table.Th>Error</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {runs.map((run) => (
            <Table.Tr key={run.run_id}>
              <Table.Td>{run.kind}</Table.Td>
              <Table.Td><RunStatus status={run.status} /></Table.Td>
              <Table.Td>{run.progress}%</Table.Td>
              <Table.Td>{dateTimeText(run.started_at)}</Table.Td>
              <Table.Td>{dateTimeText(run.finished_at)}</Table.Td>
              <Table.Td><Text size="sm" c={run.error ? 'red' : 'dimmed'}>{run.error ?? '—'}</Text></Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
