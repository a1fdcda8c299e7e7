// An algorithm's saved versions, newest first (number, date, who saved it); each opens read-only
// in the editor, from where it can be restored as a new version. The screen remounts it after a
// save, so it refetches.
import { Button, Loader, Table, Text, Title } from '@mantine/core';
import { useQuery } from 'urql';
import { timestampText } from '../research/display';
import { QueryError } from '../research/query-feedback';

const VERSIONS_QUERY = `
  query AlgorithmVersions($algorithm_id: uuid!) {
    algorithm_versions(where: { algorithm_id: { _eq: $algorithm_id } }, order_by: { version: desc }) { version created_at created_by schema_version }
  }`;

interface VersionRow {
  readonly version: number;
  readonly created_at: string;
  readonly created_by: string | null;
  readonly schema_version: number;
}

/** Who saved a version, as far as this user may know (other users' names are not readable). */
function savedBy(createdBy: string | null, who: { actorId: string | undefined; ownerId: string }): string {
  if (createdBy === null) return 'a deleted user';
  if (createdBy === who.actorId) return 'you';
  return createdBy === who.ownerId ? 'the author' : 'a manager';
}

export function VersionHistory(props: {
  readonly algorithmId: string;
  readonly ownerId: string;
  readonly actorId: string | undefined;
  /** The version open in the editor. */
  readonly openVersion: number | null;
  readonly onOpen: (version: number) => void;
}) {
  const { algorithmId, ownerId, actorId, openVersion, onOpen } = props;
  const [result] = useQuery<{ algorithm_versions: VersionRow[] }>({
    query: VERSIONS_QUERY, variables: { algorithm_id: algorithmId },
  });
  const rows = result.data?.algorithm_versions ?? [];
  return (
    <>
      <Title order={4}>Version history</Title>
      <QueryError error={result.error} title="Could not load the versions" />
      {result.fetching && result.data === undefined && <Loader size="sm" />}
      {result.data !== undefined && rows.length === 0 && <Text c="dimmed" size="sm">No version saved yet.</Text>}
      {rows.length > 0 && (
        <Table striped withTableBorder fz="sm" data-testid="algo-versions">
          <Table.Thead><Table.Tr><Table.Th>Version</Table.Th><Table.Th>Saved</Table.Th><Table.Th>By</Table.Th><Table.Th /></Table.Tr></Table.Thead>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={row.version} data-testid={`algo-version-${row.version}`} aria-current={row.version === openVersion}>
                <Table.Td>{row.version}{row.version === rows[0]?.version ? ' (latest)' : ''}</Table.Td>
                <Table.Td>{timestampText(row.created_at)}</Table.Td>
                <Table.Td>{savedBy(row.created_by, { actorId, ownerId })}</Table.Td>
                <Table.Td>
                  <Button size="compact-xs" variant="subtle" disabled={row.version === openVersion} data-testid={`algo-version-open-${row.version}`}
                    onClick={() => onOpen(row.version)}>
                    {row.version === openVersion ? 'Open' : 'View'}
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </>
  );
}
