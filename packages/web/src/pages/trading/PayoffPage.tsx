// /payoff (docs/PRODUCT.md sections 2 and 3): option legs grouped by index ("indice") and expiry, each group's
// payoff at expiry drawn with the engine's payoff functions, breakevens marked, max profit and
// loss shown. Positions live in component state and sessionStorage. The indices' last prices (the
// ATM strike, the chart's "Last price" mark) come from parts/use-last-prices.ts, as on /chart.
import { ActionIcon, Badge, Button, Group, Loader, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { availableIndices, groupPositions, replacePositionsForIndex, type PayoffPosition, type PayoffPositionGroup } from '@vyuha/engine';
import { useMemo, useState } from 'react';
import { useQuery } from 'urql';
import { formatDateTime, formatRupeesAmount } from '../../format/format';
import { useLastPrices } from './parts/use-last-prices';
import { PayoffGroupChart } from './research/PayoffGroupChart';
import { PayoffLegForm, type PayoffIndex } from './research/PayoffLegForm';
import { usePayoffPositions } from './research/payoff-store';
import { QueryError } from './research/query-feedback';

const INDICES_QUERY = `
  query PayoffIndices {
    index_configs(order_by: { sort_order: asc }) { id name value oc_step instrument_id }
  }`;

const groupKey = (group: { indice: string; expiry: string }): string => JSON.stringify([group.indice, group.expiry]);

function LegsTable({ group, onRemove }: { readonly group: PayoffPositionGroup; readonly onRemove: (position: PayoffPosition) => void }) {
  return (
    <Table fz="sm" verticalSpacing={4}>
      <Table.Thead>
        <Table.Tr><Table.Th>Side</Table.Th><Table.Th>Strike</Table.Th><Table.Th>Type</Table.Th><Table.Th>Quantity</Table.Th><Table.Th>Premium</Table.Th><Table.Th>Added</Table.Th><Table.Th /></Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {group.positions.map((position) => (
          <Table.Tr key={`${position.timestamp}-${position.strike}-${position.optionType}-${position.quantity}`}>
            <Table.Td><Badge color={position.quantity > 0 ? 'teal' : 'red'} variant="light">{position.quantity > 0 ? 'Buy' : 'Sell'}</Badge></Table.Td>
            <Table.Td>{position.strike?.toLocaleString('en-IN')}</Table.Td>
            <Table.Td>{position.optionType}</Table.Td>
            <Table.Td>{Math.abs(position.quantity)}</Table.Td>
            <Table.Td>{formatRupeesAmount(position.entryPrice)}</Table.Td>
            <Table.Td>{formatDateTime(position.timestamp)}</Table.Td>
            <Table.Td>
              <ActionIcon variant="subtle" color="red" aria-label="Remove leg" onClick={() => onRemove(position)}>×</ActionIcon>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

export function Component() {
  const [result] = useQuery<{ index_configs: PayoffIndex[] }>({ query: INDICES_QUERY });
  const indices = result.data?.index_configs ?? [];
  const lastPrices = useLastPrices(indices.map((index) => index.instrument_id));
  const [positions, setPositions] = usePayoffPositions();
  const [selectedKey, setSelectedKey] = useState<string | undefined>(undefined);
  const groups = useMemo(() => groupPositions(positions), [positions]);
  const selected = groups.find((group) => groupKey(group) === selectedKey) ?? groups[0];

  const add = (position: PayoffPosition, replace: boolean): void => {
    const others = replace ? [] : positions.filter((existing) => existing.indice === position.indice);
    setPositions(replacePositionsForIndex(positions, position.indice, [...others, position]));
    setSelectedKey(groupKey(position));
  };
  const remove = (position: PayoffPosition): void => setPositions(positions.filter((existing) => existing !== position));
  const clearIndex = (indice: string): void => setPositions(replacePositionsForIndex(positions, indice, []));
  const spotOf = (indice: string): number | undefined => {
    const index = indices.find((row) => row.name === indice);
    return index === undefined ? undefined : lastPrices.prices.get(index.instrument_id)?.rupees;
  };

  return (
    <Stack gap="md">
      <Title order={2}>Payoff</Title>
      <QueryError error={result.error} title="Could not load the indices" />
      <QueryError error={lastPrices.error} title="Could not load the last prices" />
      {result.fetching && result.data === undefined && <Loader size="sm" />}
      {indices.length > 0 && <Paper withBorder p="sm"><PayoffLegForm indices={indices} lastPrices={lastPrices.prices} onAdd={add} /></Paper>}
      {groups.length === 0 ? <Text c="dimmed">No positions yet: add an option leg above.</Text> : (
        <Group gap="xs">
          <Text size="sm" c="dimmed">Indices:</Text>
          {availableIndices(positions).map((indice) => (
            <Button key={indice} size="compact-xs" variant="subtle" color="red" onClick={() => clearIndex(indice)}>Clear {indice}</Button>
          ))}
        </Group>
      )}
      {groups.map((group) => {
        const key = groupKey(group);
        const isSelected = selected !== undefined && groupKey(selected) === key;
        return (
          <Paper key={key} withBorder p="sm">
            <Group justify="space-between" mb="xs">
              <Text fw={600}>{group.indice} · expiry {group.expiry}</Text>
              <Group gap="xs">
                <Text size="xs" c="dimmed">Updated {formatDateTime(group.updatedAt)}</Text>
                {!isSelected && <Button size="compact-xs" variant="light" onClick={() => setSelectedKey(key)}>Show payoff</Button>}
              </Group>
            </Group>
            <LegsTable group={group} onRemove={remove} />
            {isSelected && <PayoffGroupChart group={group} spot={spotOf(group.indice)} />}
          </Paper>
        );
      })}
    </Stack>
  );
}
