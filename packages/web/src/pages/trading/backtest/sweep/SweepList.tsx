// The sweeps and walk-forwards of one backtest run, newest first, followed live (status,
// progress, credits): each opens its results; one still queued or running can be cancelled
// after a confirmation (it keeps charged only the candles of the rows already written).
import { Badge, Button, Group, Progress, Table, Text } from '@mantine/core';
import { confirm } from '../../../../app/confirm';
import { showToast } from '../../../../app/toast';
import { useReadOnly } from '../../../../app/update-mode';
import { metricOf } from './sweep-form';
import { METRIC_LABELS } from './sweep-view';
import { errorMessage } from '../../research/query-feedback';
import { timestampText } from '../../research/display';
import { useCancelSweep, type SweepRecord } from './use-sweeps';

const STATUS_COLORS: Readonly<Record<string, string>> = { QUEUED: 'gray', 'IN PROGRESS': 'blue', COMPLETE: 'teal', ERROR: 'red', CANCELLED: 'orange' };

/** Status, with a progress bar while running. */
export function SweepStatus({ sweep }: { readonly sweep: SweepRecord }) {
  const badge = <Badge color={STATUS_COLORS[sweep.status] ?? 'gray'} variant="light" data-testid={`sweep-status-${sweep.sweep_id}`} data-status={sweep.status}>{sweep.status}</Badge>;
  if (sweep.status !== 'IN PROGRESS') return badge;
  return (
    <Group gap="xs" wrap="nowrap" miw={160}>
      {badge}
      <Progress value={sweep.progress} size="lg" striped animated style={{ flex: 1 }} aria-label={`In progress, ${sweep.progress}%`} />
      <Text size="xs" c="dimmed">{sweep.progress}%</Text>
    </Group>
  );
}

function useCancel(): { cancel: (sweep: SweepRecord) => Promise<void>; cancelling: boolean } {
  const [state, cancelSweep] = useCancelSweep();
  const cancel = async (sweep: SweepRecord): Promise<void> => {
    const what = sweep.kind === 'walkforward' ? 'walk-forward' : 'sweep';
    const accepted = await confirm({
      title: `Cancel ${what}`, message: `Stop this ${what}? It ends CANCELLED and keeps charged only the candles of the rows already written.`,
      acceptLabel: `Cancel ${what}`, rejectLabel: 'Keep running', danger: true,
    });
    if (!accepted) return;
    const result = await cancelSweep({ sweep_id: sweep.sweep_id });
    if (result.error) showToast('error', errorMessage(result.error));
    else if (result.data?.cancel_sweep.cancelled === true) showToast('success', `The ${what} was cancelled`);
    else if (result.data) showToast('info', `The ${what} had already ended (${result.data.cancel_sweep.status})`);
  };
  return { cancel, cancelling: state.fetching };
}

export interface SweepListProps {
  readonly sweeps: readonly SweepRecord[];
  readonly opened: string | undefined;
  readonly onOpen: (sweepId: string) => void;
}

export function SweepList({ sweeps, opened, onOpen }: SweepListProps) {
  const readOnly = useReadOnly();
  const { cancel, cancelling } = useCancel();
  if (sweeps.length === 0) return <Text size="sm" c="dimmed" data-testid="sweep-list-empty">No sweep or walk-forward of this run yet.</Text>;
  return (
    <Table.ScrollContainer minWidth={820}>
      <Table highlightOnHover striped withTableBorder fz="sm" data-testid="sweep-list">
        <Table.Thead>
          <Table.Tr><Table.Th>Started</Table.Th><Table.Th>Kind</Table.Th><Table.Th>Ranked by</Table.Th><Table.Th>Status</Table.Th><Table.Th>Runs</Table.Th><Table.Th>Credits</Table.Th><Table.Th /></Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {sweeps.map((sweep) => {
            const live = sweep.status === 'QUEUED' || sweep.status === 'IN PROGRESS';
            return (
              <Table.Tr key={sweep.sweep_id} onClick={() => onOpen(sweep.sweep_id)} aria-selected={sweep.sweep_id === opened} data-testid={`sweep-row-${sweep.sweep_id}`}
                style={{ cursor: 'pointer', ...(sweep.sweep_id === opened ? { background: 'var(--mantine-primary-color-light)' } : {}) }}>
                <Table.Td>{timestampText(sweep.created_at)}</Table.Td>
                <Table.Td>{sweep.kind === 'walkforward' ? 'Walk-forward' : 'Sweep'}</Table.Td>
                <Table.Td>{METRIC_LABELS[metricOf(sweep.metric, 'sharpe')]}</Table.Td>
                <Table.Td>
                  <SweepStatus sweep={sweep} />
                  {sweep.error !== null && <Text size="xs" c="red" data-testid={`sweep-error-${sweep.sweep_id}`}>{sweep.error}</Text>}
                </Table.Td>
                <Table.Td>{`${sweep.rows_done.toLocaleString('en-IN')} of ${sweep.combinations.toLocaleString('en-IN')} ${sweep.kind === 'walkforward' ? 'windows' : 'combinations'}`}</Table.Td>
                <Table.Td>{live ? `${Number(sweep.estimated_candles).toLocaleString('en-IN')} reserved` : Number(sweep.candles).toLocaleString('en-IN')}</Table.Td>
                <Table.Td onClick={(event) => event.stopPropagation()}>
                  <Group gap={6} wrap="nowrap">
                    <Button size="compact-xs" variant="light" onClick={() => onOpen(sweep.sweep_id)} data-testid={`sweep-open-${sweep.sweep_id}`}>Open</Button>
                    {live && (
                      <Button size="compact-xs" color="red" variant="light" disabled={readOnly || cancelling} onClick={() => void cancel(sweep)} data-testid={`sweep-cancel-${sweep.sweep_id}`}>
                        Cancel
                      </Button>
                    )}
                  </Group>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
