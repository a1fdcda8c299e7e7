// The algorithm drawer's content: the latest version's rule graph as text, checked with the
// engine's compileAlgorithm (errors with their path and line:column inside the expression).
import { Alert, Badge, Code, List, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { compileAlgorithm, formatAlgorithmError } from '@vyuha/engine';
import { useMemo } from 'react';
import { useQuery } from 'urql';
import { timestampText } from './display';
import { algorithmText } from './algorithm-text';
import { QueryError } from './query-feedback';

const VERSION_QUERY = `
  query AlgorithmVersion($algorithm_id: uuid!, $version: Int!) {
    algorithm_versions_by_pk(algorithm_id: $algorithm_id, version: $version) { version graph schema_version created_at }
  }`;

interface VersionRow { readonly version: number; readonly graph: unknown; readonly schema_version: number; readonly created_at: string }

function GraphCheck({ graph }: { readonly graph: unknown }) {
  const compiled = useMemo(() => compileAlgorithm(graph), [graph]);
  if (compiled.ok) {
    return <Alert color="teal" variant="light" title="Valid">Compiles; the first signal can come after {compiled.value.warmup} warm-up candles.</Alert>;
  }
  return (
    <Alert color="red" variant="light" title={`${compiled.error.length} error${compiled.error.length === 1 ? '' : 's'}`}>
      <List size="sm" spacing={4}>
        {compiled.error.map((error, index) => (
          <List.Item key={index}>
            <Code>{formatAlgorithmError(error)}</Code>
            {error.nodeId !== undefined && <Text span size="xs" c="dimmed"> (node {error.nodeId})</Text>}
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}

function GraphText({ graph }: { readonly graph: unknown }) {
  const described = useMemo(() => algorithmText(graph), [graph]);
  return (
    <Stack gap="sm">
      <Title order={5}>Rules</Title>
      {described.rules.length === 0 ? <Text size="sm" c="dimmed">No buy, sell or exit node.</Text> : (
        <List size="sm" spacing={4}>{described.rules.map((rule, index) => <List.Item key={index}><Code>{rule}</Code></List.Item>)}</List>
      )}
      {described.exits.length > 0 && (
        <>
          <Title order={5}>Exits</Title>
          <List size="sm">{described.exits.map((exit) => <List.Item key={exit}>{exit}</List.Item>)}</List>
        </>
      )}
      <Title order={5}>Nodes</Title>
      <Table striped withTableBorder fz="sm">
        <Table.Thead><Table.Tr><Table.Th>Id</Table.Th><Table.Th>Type</Table.Th><Table.Th>Says</Table.Th><Table.Th>Inputs</Table.Th></Table.Tr></Table.Thead>
        <Table.Tbody>
          {described.nodes.map((node) => (
            <Table.Tr key={node.id}>
              <Table.Td><Code>{node.id}</Code></Table.Td>
              <Table.Td><Badge variant="light" size="sm">{node.type}</Badge></Table.Td>
              <Table.Td>{node.type === 'condition' ? <Code>{node.text}</Code> : node.text}</Table.Td>
              <Table.Td>{node.inputs.join(', ') || '-'}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}

/** The latest version of one algorithm; nothing to load when it has no saved version. */
export function AlgorithmDetail({ algorithmId, version }: { readonly algorithmId: string; readonly version: number | null }) {
  const [result] = useQuery<{ algorithm_versions_by_pk: VersionRow | null }>({
    query: VERSION_QUERY, variables: { algorithm_id: algorithmId, version: version ?? 0 }, pause: version === null,
  });
  if (version === null) return <Text c="dimmed">No version saved yet.</Text>;
  if (result.error) return <QueryError error={result.error} title="Could not load the version" />;
  const row = result.data?.algorithm_versions_by_pk;
  if (row === undefined) return <Loader size="sm" />;
  if (row === null) return <Text c="dimmed">Version {version} is not readable.</Text>;
  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">Version {row.version} (schema {row.schema_version}), saved {timestampText(row.created_at)}</Text>
      <GraphCheck graph={row.graph} />
      <GraphText graph={row.graph} />
    </Stack>
  );
}
