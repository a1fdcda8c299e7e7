// One index-and-expiry group of stored payoff positions: its legs (each removable) and, when
// opened, its analysis.
import { ActionIcon, Button, Group, Paper, Table, Text } from '@mantine/core';
import type { PayoffPosition, PayoffPositionGroup } from '@vyuha/engine';
import type { ReactNode } from 'react';
import { formatDateTime, formatRupeesAmount } from '../../../format/format';
import { levelText } from './payoff-format';

function LegsTable({ group, busy, onRemove }: { readonly group: PayoffPositionGroup; readonly busy: boolean; readonly onRemove: (position: PayoffPosition) => void }) {
  return (
    <Table.ScrollContainer minWidth={520}>
      <Table fz="sm" verticalSpacing={4}>
        <Table.Thead>
          <Table.Tr><Table.Th>Side</Table.Th><Table.Th>Strike</Table.Th><Table.Th>Type</Table.Th><Table.Th>Quantity</Table.Th><Table.Th>Price</Table.Th><Table.Th>Added</Table.Th><Table.Th /></Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {group.positions.map((position, index) => (
            <Table.Tr key={`${position.timestamp}-${index}`} data-testid="payoff-leg">
              <Table.Td><Text span size="sm" fw={600} c={position.quantity > 0 ? 'teal' : 'red'}>{position.quantity > 0 ? 'Buy' : 'Sell'}</Text></Table.Td>
              <Table.Td>{position.strike === undefined ? '—' : levelText(position.strike)}</Table.Td>
              <Table.Td>{position.kind === 'future' ? 'FUT' : position.optionType}</Table.Td>
              <Table.Td>{Math.abs(position.quantity).toLocaleString('en-IN')}</Table.Td>
              <Table.Td>{formatRupeesAmount(position.entryPrice)}</Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(position.timestamp)}</Table.Td>
              <Table.Td>
                <ActionIcon variant="subtle" color="red" aria-label="Remove leg" disabled={busy} onClick={() => onRemove(position)}>×</ActionIcon>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

export interface PayoffGroupCardProps {
  readonly group: PayoffPositionGroup;
  readonly open: boolean;
  readonly busy: boolean;
  readonly onOpen: () => void;
  readonly onRemove: (position: PayoffPosition) => void;
  /** The analysis, shown when open. */
  readonly children: ReactNode;
}

export function PayoffGroupCard({ group, open, busy, onOpen, onRemove, children }: PayoffGroupCardProps) {
  return (
    <Paper withBorder p="sm" data-testid="payoff-group" data-indice={group.indice} data-expiry={group.expiry}>
      <Group justify="space-between" mb="xs" wrap="wrap" gap="xs">
        <Text fw={600}>{group.indice} · expiry {group.expiry}</Text>
        <Group gap="xs" wrap="wrap">
          <Text size="xs" c="dimmed">Updated {formatDateTime(group.updatedAt)}</Text>
          {!open && <Button size="compact-xs" variant="light" onClick={onOpen} data-testid="payoff-open-group">Show payoff</Button>}
        </Group>
      </Group>
      <LegsTable group={group} busy={busy} onRemove={onRemove} />
      {open && children}
    </Paper>
  );
}
