// The acting trail about one user, live (acting_audit over a GraphQL subscription): on /manageAccounts
// "Recent actions taken for this user" (the manager's own rows), on /users/edit "Actions taken by
// your manager" (every manager's rows about the signed-in user). Times in IST.
import { Badge, Table, Text } from '@mantine/core';
import { useSubscription } from 'urql';
import { formatDateTime } from '../../../format/format';
import { QueryState } from '../../trading/parts/QueryState';
import { ACTING_AUDIT_SUBSCRIPTION, type ActingAuditRow } from './manage-documents';

export interface ActingAuditTableProps {
  readonly subjectId: string;
  /** Show who acted (the user's page: there may be several managers). */
  readonly showActor: boolean;
  readonly empty: string;
}

export function ActingAuditTable({ subjectId, showActor, empty }: ActingAuditTableProps) {
  const [result] = useSubscription<{ acting_audit: ActingAuditRow[] }>({ query: ACTING_AUDIT_SUBSCRIPTION, variables: { subjectId } });
  const rows = result.data?.acting_audit ?? [];
  return (
    <QueryState fetching={result.fetching} error={result.error} hasData={result.data !== undefined} title="Could not load the actions">
      {rows.length === 0 ? <Text size="sm" c="dimmed">{empty}</Text> : (
        <Table.ScrollContainer minWidth={520}>
          <Table striped data-testid="acting-audit">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>When (IST)</Table.Th>
                {showActor && <Table.Th>By</Table.Th>}
                <Table.Th>Action</Table.Th>
                <Table.Th>Outcome</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row) => (
                <Table.Tr key={row.acting_audit_id}>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(Date.parse(row.created_at))}</Table.Td>
                  {showActor && <Table.Td>{row.actor_name}</Table.Td>}
                  <Table.Td style={{ wordBreak: 'break-word' }}>
                    {row.root_fields.join(', ')}
                    {row.operation_name !== null && <Text span size="xs" c="dimmed"> ({row.operation_name})</Text>}
                  </Table.Td>
                  <Table.Td>
                    <Badge color={row.outcome === 'ok' ? 'teal' : 'red'} variant="light" title={row.error ?? undefined}>{row.outcome}</Badge>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </QueryState>
  );
}
