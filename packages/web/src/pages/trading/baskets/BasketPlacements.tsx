// The basket's placements, live: each run with the outcome of every leg (filled at what price and
// charges, refused and why, not sent), the reason when it stopped, the open or closed positions it
// holds, and, when some legs filled and a later one did not, the choice to keep them or square them
// off (choose_basket_outcome; the choice is recorded on the run and shown). A LIVE placement is
// sent by the strategy worker holding the broker account: while its run is IN PROGRESS its legs
// show PENDING until each one ends, as the worker writes them on the run.
import { Badge, Button, Group, Paper, Stack, Table, Text } from '@mantine/core';
import { useMutation, useSubscription } from 'urql';
import { formatDateTime, formatRupees, parseTimestamp } from '../../../format/format';
import { errorMessage, QueryState } from '../parts/QueryState';
import { RunStatus } from '../parts/StatusBadge';
import { CHOOSE_BASKET_OUTCOME, PLACEMENTS_SUBSCRIPTION, type PlacementRow, type StoredLegOutcome } from './basket-documents';

const LEG_COLOURS: Readonly<Record<string, string>> = { FILLED: 'teal', REFUSED: 'red', REJECTED: 'red', NOT_FILLED: 'orange', NOT_SENT: 'gray', PENDING: 'blue' };
const LEG_LABELS: Readonly<Record<string, string>> = { FILLED: 'Filled', REFUSED: 'Refused', REJECTED: 'Rejected', NOT_FILLED: 'Not filled', NOT_SENT: 'Not sent', PENDING: 'Pending' };

function OutcomeTable({ legs, testId }: { readonly legs: readonly StoredLegOutcome[]; readonly testId: string }) {
  return (
    <Table.ScrollContainer minWidth={620}>
      <Table fz="sm" verticalSpacing={4} data-testid={testId}>
        <Table.Thead><Table.Tr><Table.Th>#</Table.Th><Table.Th>Leg</Table.Th><Table.Th>Units</Table.Th><Table.Th>Outcome</Table.Th><Table.Th>Price</Table.Th><Table.Th>Charges</Table.Th><Table.Th>Why</Table.Th></Table.Tr></Table.Thead>
        <Table.Tbody>
          {legs.map((leg) => (
            <Table.Tr key={`${leg.index}-${leg.side}`} data-status={leg.status}>
              <Table.Td>{leg.index + 1}</Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{leg.side} {leg.symbol}</Table.Td>
              <Table.Td>{leg.quantity.toLocaleString('en-IN')}</Table.Td>
              <Table.Td><Badge variant="light" color={LEG_COLOURS[leg.status] ?? 'gray'}>{LEG_LABELS[leg.status] ?? leg.status}</Badge></Table.Td>
              <Table.Td>{leg.averagePricePaise === null ? '' : formatRupees(leg.averagePricePaise)}</Table.Td>
              <Table.Td>{leg.chargesPaise === 0 ? '' : formatRupees(leg.chargesPaise)}</Table.Td>
              <Table.Td><Text size="xs">{leg.message ?? ''}</Text></Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function Choice({ run, canWrite }: { readonly run: PlacementRow; readonly canWrite: boolean }) {
  const [state, choose] = useMutation(CHOOSE_BASKET_OUTCOME);
  const result = run.result ?? {};
  if (result.choice === 'keep') return <Text size="sm" data-testid="basket-choice">You kept the filled legs.</Text>;
  if (result.choice === 'square-off') {
    return <Text size="sm" data-testid="basket-choice">{run.status === 'IN PROGRESS' ? 'You chose to square the filled legs off.' : 'You squared the filled legs off.'}</Text>;
  }
  if (result.needsChoice !== true) return null;
  return (
    <Stack gap={4}>
      <Text size="sm" fw={600}>Some legs filled and a later one did not. Keep the filled legs, or square them off at market?</Text>
      {canWrite && (
        <Group gap="xs" wrap="wrap">
          <Button size="xs" variant="default" loading={state.fetching} onClick={() => void choose({ run_id: run.run_id, choice: 'keep' })} data-testid="basket-keep">Keep filled legs</Button>
          <Button size="xs" color="red" loading={state.fetching} onClick={() => void choose({ run_id: run.run_id, choice: 'square-off' })} data-testid="basket-square-off">Square off filled legs</Button>
        </Group>
      )}
      {state.error && <Text c="red" size="sm" role="alert">{errorMessage(state.error)}</Text>}
    </Stack>
  );
}

function Placement({ run, canWrite }: { readonly run: PlacementRow; readonly canWrite: boolean }) {
  const result = run.result ?? {};
  const positions = run.positions.filter((position) => position.instrument !== null);
  return (
    <Paper withBorder p="sm" data-testid={`basket-run-${run.run_id}`}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap">
          <Group gap="xs"><Badge variant="outline">{run.kind}</Badge><RunStatus status={run.status} /></Group>
          <Text size="xs" c="dimmed">{formatDateTime(parseTimestamp(run.started_at) ?? 0)}</Text>
        </Group>
        {run.status_reason !== null && <Text size="sm" c="dimmed">{run.status_reason}</Text>}
        {run.kind === 'LIVE' && run.status === 'IN PROGRESS' && (
          <Text size="sm" data-testid="basket-live-pending">
            {result.choice === 'square-off' ? 'Squaring the filled legs off' : 'Placing the legs'} through your Zerodha account: each leg shows here as the broker answers it.
          </Text>
        )}
        <OutcomeTable legs={result.legs ?? []} testId="basket-outcome" />
        <Choice run={run} canWrite={canWrite} />
        {(result.squareOff ?? []).length > 0 && <OutcomeTable legs={result.squareOff ?? []} testId="basket-square-off-outcome" />}
        {positions.length > 0 && (
          <Group gap="xs" wrap="wrap" data-testid="basket-positions">
            <Text size="sm">Positions:</Text>
            {positions.map((position) => (
              <Badge key={position.instrument_id} variant="light" color={position.net_quantity === 0 ? 'gray' : 'blue'} data-net={position.net_quantity}>
                {position.instrument?.trading_symbol} {position.net_quantity === 0 ? 'closed' : position.net_quantity.toLocaleString('en-IN')}
              </Badge>
            ))}
          </Group>
        )}
      </Stack>
    </Paper>
  );
}

export function BasketPlacements({ strategyId, canWrite }: { readonly strategyId: string; readonly canWrite: boolean }) {
  const [result] = useSubscription<{ strategy_runs: PlacementRow[] }>({ query: PLACEMENTS_SUBSCRIPTION, variables: { strategy_id: strategyId } });
  const runs = result.data?.strategy_runs ?? [];
  return (
    <QueryState fetching={result.fetching} error={result.error} hasData={result.data !== undefined} title="Could not follow the placements">
      <Stack gap="sm" data-testid="basket-placements">
        {runs.length === 0 ? <Text c="dimmed" size="sm">Not placed yet.</Text> : runs.map((run) => <Placement key={run.run_id} run={run} canWrite={canWrite} />)}
      </Stack>
    </QueryState>
  );
}
