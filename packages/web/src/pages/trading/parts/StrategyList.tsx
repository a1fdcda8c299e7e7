// The strategy lists of /strategies, /baskets and /ensembleSync: Active/All filter (docs/PRODUCT.md section 4)
// and name, kind, mode, status, instrument, updated; each name links to the detail route.
import { Anchor, Badge, Group, SegmentedControl, Stack, Table, Text } from '@mantine/core';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useQuery } from 'urql';
import { QueryState } from './QueryState';
import { StatusBadge } from './StatusBadge';
import { dateTimeText } from './time';

const STRATEGY_LIST = `query StrategyList($where: strategies_bool_exp!) {
  strategies(where: $where, order_by: [{ updated_at: desc }]) {
    strategy_id name kind mode status updated_at published
    instrument { trading_symbol }
    user { name }
  }
}`;

interface StrategyRow {
  readonly strategy_id: string;
  readonly name: string;
  readonly kind: string;
  readonly mode: string;
  readonly status: string;
  readonly updated_at: string;
  readonly published: boolean;
  readonly instrument: { readonly trading_symbol: string } | null;
  readonly user: { readonly name: string } | null;
}

type ActiveFilter = 'active' | 'all';

export interface StrategyListProps {
  /** Whose strategies: a user id, or 'everyone' (staff screens such as Ensemble Sync). */
  readonly owner: string | 'everyone';
  readonly kind?: 'algo' | 'basket' | 'ensemble';
  /** Detail route prefix, e.g. '/baskets'. */
  readonly basePath: string;
  readonly emptyText: string;
}

export function StrategyList({ owner, kind, basePath, emptyText }: StrategyListProps) {
  const [filter, setFilter] = useState<ActiveFilter>('active');
  const where = useMemo(() => ({
    ...(owner === 'everyone' ? {} : { user_id: { _eq: owner } }),
    ...(kind ? { kind: { _eq: kind } } : {}),
    ...(filter === 'active' ? { status: { _eq: 'ACTIVE' } } : {}),
  }), [owner, kind, filter]);
  const [result] = useQuery<{ strategies: StrategyRow[] }>({ query: STRATEGY_LIST, variables: { where } });
  const rows = result.data?.strategies ?? [];
  const showOwner = owner === 'everyone';
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <SegmentedControl<ActiveFilter>
          aria-label="Active or all strategies"
          value={filter}
          onChange={setFilter}
          data={[{ value: 'active', label: 'Active' }, { value: 'all', label: 'All' }]}
        />
        {result.data && <Text size="sm" c="dimmed">{rows.length} {rows.length === 1 ? 'strategy' : 'strategies'}</Text>}
      </Group>
      <QueryState fetching={result.fetching} error={result.error} hasData={result.data !== undefined} title="Could not load the strategies">
        {rows.length === 0 ? (
          <Text c="dimmed">{filter === 'active' ? `${emptyText} (none active; choose All to see the rest).` : `${emptyText}.`}</Text>
        ) : (
          <Table.ScrollContainer minWidth={720}>
            <Table striped highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  {showOwner && <Table.Th>Owner</Table.Th>}
                  <Table.Th>Kind</Table.Th>
                  <Table.Th>Mode</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>Instrument</Table.Th>
                  <Table.Th>Updated</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((row) => (
                  <Table.Tr key={row.strategy_id}>
                    <Table.Td>
                      <Anchor component={Link} to={`${basePath}/${row.strategy_id}`}>{row.name}</Anchor>
                      {row.published && <Badge ml="xs" size="xs" variant="outline">Published</Badge>}
                    </Table.Td>
                    {showOwner && <Table.Td>{row.user?.name ?? '—'}</Table.Td>}
                    <Table.Td>{row.kind}</Table.Td>
                    <Table.Td><Badge variant="light" color={row.mode === 'LIVE' ? 'orange' : 'gray'}>{row.mode}</Badge></Table.Td>
                    <Table.Td><StatusBadge status={row.status} /></Table.Td>
                    <Table.Td>{row.instrument?.trading_symbol ?? '—'}</Table.Td>
                    <Table.Td>{dateTimeText(row.updated_at)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </QueryState>
    </Stack>
  );
}
