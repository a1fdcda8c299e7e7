// /algo (spec sections 2 and 4): the algorithms the user can see (own, and published ones from
// the marketplace) with the Published/All filter; a drawer shows the latest version's rule graph
// as text with the engine's validation. The editor comes with the research workflow issue.
import { Badge, Drawer, Group, Loader, SegmentedControl, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useQuery } from 'urql';
import { timestampText } from './research/display';
import { AlgorithmDetail } from './research/AlgorithmDetail';
import { QueryError } from './research/query-feedback';

type Filter = 'All' | 'Published';

const ALGORITHMS_QUERY = `
  query Algorithms($where: algorithms_bool_exp!) {
    algorithms(where: $where, order_by: { updated_at: desc }) {
      algorithm_id name description published latest_version updated_at
    }
  }`;

interface AlgorithmRow {
  readonly algorithm_id: string;
  readonly name: string;
  readonly description: string;
  readonly published: boolean;
  readonly latest_version: number | null;
  readonly updated_at: string;
}

export function Component() {
  const [filter, setFilter] = useState<Filter>('All');
  const [selectedId, setSelectedId] = useState<string | undefined>(undefined);
  const where = filter === 'Published' ? { published: { _eq: true } } : {};
  const [result] = useQuery<{ algorithms: AlgorithmRow[] }>({ query: ALGORITHMS_QUERY, variables: { where } });
  const rows = result.data?.algorithms ?? [];
  const selected = rows.find((row) => row.algorithm_id === selectedId);

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={2}>Algorithms</Title>
        <SegmentedControl data={['Published', 'All']} value={filter} onChange={(value) => setFilter(value as Filter)} aria-label="Filter" />
      </Group>
      <QueryError error={result.error} title="Could not load the algorithms" />
      {result.fetching && result.data === undefined && <Loader size="sm" />}
      {result.data !== undefined && rows.length === 0 && (
        <Text c="dimmed">{filter === 'Published' ? 'No published algorithms.' : 'No algorithms yet.'}</Text>
      )}
      {rows.length > 0 && (
        <Table highlightOnHover striped withTableBorder>
          <Table.Thead>
            <Table.Tr><Table.Th>Name</Table.Th><Table.Th>Latest version</Table.Th><Table.Th>Published</Table.Th><Table.Th>Updated</Table.Th></Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={row.algorithm_id} style={{ cursor: 'pointer' }} onClick={() => setSelectedId(row.algorithm_id)}
                aria-selected={row.algorithm_id === selectedId}>
                <Table.Td>
                  <Text fw={500}>{row.name}</Text>
                  {row.description !== '' && <Text size="xs" c="dimmed">{row.description}</Text>}
                </Table.Td>
                <Table.Td>{row.latest_version ?? '-'}</Table.Td>
                <Table.Td>{row.published ? <Badge color="teal" variant="light">Published</Badge> : <Badge color="gray" variant="light">Private</Badge>}</Table.Td>
                <Table.Td>{timestampText(row.updated_at)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <Drawer opened={selected !== undefined} onClose={() => setSelectedId(undefined)} position="right" size="xl" title={selected?.name ?? ''}>
        {selected !== undefined && (
          <Stack gap="sm">
            {selected.description !== '' && <Text size="sm">{selected.description}</Text>}
            <AlgorithmDetail algorithmId={selected.algorithm_id} version={selected.latest_version} />
          </Stack>
        )}
      </Drawer>
    </Stack>
  );
}
