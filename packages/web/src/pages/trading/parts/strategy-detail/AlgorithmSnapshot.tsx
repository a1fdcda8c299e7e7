// The algorithm version the strategy runs, read-only: its rule graph on the /algo canvas (nodes
// can be selected, never moved or changed) and the strategy's deployable configuration.
import { Anchor, Group, Loader, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { useQuery } from 'urql';
import { documentToFlow, readStoredGraph, type FlowGraph } from '../../algo/graph-model';
import { RuleCanvas } from '../../algo/RuleCanvas';
import { ConfigView } from '../ConfigView';
import { errorMessage } from '../QueryState';
import { dateTimeText } from '../time';
import { SNAPSHOT_QUERY } from './detail-queries';

const NO_ERRORS: ReadonlyMap<string, readonly string[]> = new Map();

function SnapshotGraph({ algorithmId, version }: { readonly algorithmId: string; readonly version: number }) {
  const [result] = useQuery<{ algorithm_versions: Array<{ version: number; graph: unknown; created_at: string }> }>({
    query: SNAPSHOT_QUERY, variables: { algorithmId, version },
  });
  const row = result.data?.algorithm_versions[0];
  const [graph, setGraph] = useState<FlowGraph | undefined>(undefined);
  useEffect(() => {
    const document = row === undefined ? undefined : readStoredGraph(row.graph);
    setGraph(document === undefined ? undefined : documentToFlow(document));
  }, [row]);
  if (result.error) return <Text c="red" size="sm">Could not load the algorithm: {errorMessage(result.error)}</Text>;
  if (result.data === undefined) return <Loader size="sm" />;
  if (row === undefined) return <Text c="dimmed" size="sm">This algorithm version is not visible to you.</Text>;
  return (
    <Stack gap={6} data-testid="snapshot-graph">
      <Text size="xs" c="dimmed">Saved {dateTimeText(row.created_at)}</Text>
      {graph === undefined
        ? <Text c="dimmed" size="sm">This version's rule graph cannot be drawn.</Text>
        : <RuleCanvas graph={graph} onChange={(update) => setGraph((current) => (current === undefined ? current : update(current)))} errors={NO_ERRORS} readOnly />}
    </Stack>
  );
}

export function AlgorithmSnapshot({ algorithmId, version, name, config, editorLink }: {
  /** Offer the /algo editor (it is hidden while a manager acts for a user). */
  readonly editorLink: boolean;
  readonly algorithmId: string | null;
  readonly version: number | null;
  readonly name: string | undefined;
  readonly config: unknown;
}) {
  return (
    <Stack gap="sm">
      {algorithmId !== null && version !== null ? (
        <>
          <Group gap="xs" wrap="wrap">
            <Text fw={600} data-testid="snapshot-name">{name ?? 'Algorithm'} v{version}</Text>
            {editorLink && <Anchor component={Link} to={`/algo?algorithm=${algorithmId}&version=${version}`} size="sm">Open in the editor</Anchor>}
          </Group>
          <SnapshotGraph algorithmId={algorithmId} version={version} />
        </>
      ) : <Text c="dimmed" size="sm">This strategy runs no algorithm of its own.</Text>}
      <Text size="sm" fw={500}>Configuration</Text>
      <ConfigView config={config} />
    </Stack>
  );
}
