// /users/edit's Managers tab: who manages the signed-in user (my_managers), each removable with a
// confirmation (the manager is e-mailed and can no longer act for the user), and "Actions taken by
// your manager": every mutation a manager made while acting for the user (acting_audit, live).
import { Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from 'urql';
import { formatDate } from '../../../format/format';
import { QueryState } from '../../trading/parts/QueryState';
import { ActingAuditTable } from '../manage/ActingAuditTable';
import { MY_MANAGERS_QUERY, type MyManager } from '../manage/manage-documents';
import { UnlinkButton } from '../manage/UnlinkButton';

export function MyManagersSection({ userId }: { readonly userId: string }) {
  const [result, refetch] = useQuery<{ my_managers: MyManager[] }>({ query: MY_MANAGERS_QUERY, requestPolicy: 'cache-and-network' });
  const managers = result.data?.my_managers ?? [];
  return (
    <Stack gap="md">
      <QueryState fetching={result.fetching} error={result.error} hasData={result.data !== undefined} title="Could not load your managers">
        {managers.length === 0 ? <Text size="sm" c="dimmed">Nobody manages your account.</Text> : (
          <Table.ScrollContainer minWidth={360}>
            <Table data-testid="my-managers">
              <Table.Thead>
                <Table.Tr><Table.Th>Manager</Table.Th><Table.Th>Since</Table.Th><Table.Th /></Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {managers.map((manager) => (
                  <Table.Tr key={manager.manager_id}>
                    <Table.Td>{manager.name}</Table.Td>
                    <Table.Td>{formatDate(Date.parse(manager.since))}</Table.Td>
                    <Table.Td>
                      <UnlinkButton
                        managerId={manager.manager_id} userId={userId} otherName={manager.name}
                        question={`${manager.name} will no longer see or act for your accounts; they get an e-mail saying so.`}
                        onRemoved={() => refetch({ requestPolicy: 'network-only' })}
                      />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </QueryState>
      <Title order={3} size="h4">Actions taken by your manager</Title>
      <ActingAuditTable subjectId={userId} showActor empty="No manager has changed anything for you." />
    </Stack>
  );
}
