// The algorithm list of /algo with the Published/All filter (docs/PRODUCT.md section 4): All is the user's
// own algorithms plus the published ones of others, Published only the published ones. Others'
// algorithms open read-only (view, copy to own).
import { Badge, Button, Group, Loader, SegmentedControl, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useQuery } from 'urql';
import { timestampText } from '../research/display';
import { QueryError } from '../research/query-feedback';

export type AlgoFilter = 'Published' | 'All';

const ALGORITHMS_QUERY = `
  query Algorithms($where: algorithms_bool_exp!) {
    algorithms(where: $where, order_by: { updated_at: desc }) {
      algorithm_id name description published latest_version updated_at user_id
    }
  }`;

/** An algorithm as the list and the editor read it. */
export interface AlgorithmRow {
  readonly algorithm_id: string;
  readonly name: string;
  readonly description: string;
  readonly published: boolean;
  readonly latest_version: number | null;
  readonly updated_at: string;
  readonly user_id: string;
}

/** The filter's rows; staff roles may read every row, so "own" is asked for explicitly. */
function whereOf(filter: AlgoFilter, userId: string): Record<string, unknown> {
  const published = { published: { _eq: true } };
  return filter === 'Published' ? published : { _or: [{ user_id: { _eq: userId } }, published] };
}

export function AlgoList({ userId, canCreate, onOpen, onNew }: {
  readonly userId: string;
  readonly canCreate: boolean;
  readonly onOpen: (algorithmId: string) => void;
  readonly onNew: () => void;
}) {
  const [filter, setFilter] = useState<AlgoFilter>('All');
  const [result] = useQuery<{ algorithms: AlgorithmRow[] }>({ query: ALGORITHMS_QUERY, variables: { where: whereOf(filter, userId) } });
  const rows = result.data?.algorithms ?? [];
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={2}>Algorithms</Title>
        <Group>
          <SegmentedControl data={['Published', 'All']} value={filter} onChange={(value) => setFilter(value as AlgoFilter)} aria-label="Filter" data-testid="algo-filter" />
          <Button onClick={onNew} disabled={!canCreate} data-testid="algo-new">New algorithm</Button>
        </Group>
      </Group>
      <QueryError error={result.error} title="Could not load the algorithms" />
      {result.fetching && result.data === undefined && <Loader size="sm" />}
      {result.data !== undefined && rows.length === 0 && (
        <Text c="dimmed">{filter === 'Published' ? 'No published algorithms.' : 'No algorithms yet.'}</Text>
      )}
      {rows.length > 0 && (
        <Table highlightOnHover striped withTableBorder data-testid="algo-list">
          <Table.Thead>
            <Table.Tr><Table.Th>Name</Table.Th><Table.Th>Author</Table.Th><Table.Th>Latest version</Table.Th><Table.Th>Published</Table.Th><Table.Th>Updated</Table.Th></Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={row.algorithm_id} style={{ cursor: 'pointer' }} onClick={() => onOpen(row.algorithm_id)} data-testid={`algo-row-${row.name}`}>
                <Table.Td>
                  <Text fw={500}>{row.name}</Text>
                  {row.description !== '' && <Text size="xs" c="dimmed">{row.description}</Text>}
                </Table.Td>
                <Table.Td>{row.user_id === userId ? 'You' : <Text span c="dimmed" size="sm">Marketplace (read-only)</Text>}</Table.Td>
                <Table.Td>{row.latest_version ?? '-'}</Table.Td>
                <Table.Td>{row.published ? <Badge color="teal" variant="light">Published</Badge> : <Badge color="gray" variant="light">Private</Badge>}</Table.Td>
                <Table.Td>{timestampText(row.updated_at)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
