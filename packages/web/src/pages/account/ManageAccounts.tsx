// /manageAccounts: the users the signed-in manager manages (docs/PRODUCT.md section 7: managers where
// manager_id equals the user, ordered by user name, with user.name and user.user_brokers.active).
// "Act for this user" sends x-hasura-managed-user-id with every GraphQL request from then on;
// the server honours it only while a managers row links the two, and records every mutation made
// so in acting_audit ("Recent actions taken for this user" below, for the selected user).
// Links are made with the user's consent (LinkUserForm: an e-mailed link) and removed with a
// confirmation (UnlinkButton); unlinking the user being acted for stops acting here too.
import { Alert, Badge, Button, Group, Loader, Stack, Switch, Table, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { useQuery } from 'urql';
import { showToast } from '../../app/toast';
import { restartGraphqlClients } from '../../graphql/graphql-client';
import { useAppStore } from '../../stores/app-store';
import { graphqlErrorMessage, useSignedInUserId } from './account-helpers';
import { ActingAuditTable } from './manage/ActingAuditTable';
import { LinkUserForm } from './manage/LinkUserForm';
import { UnlinkButton } from './manage/UnlinkButton';

// Filtered by the signed-in user (not the acting one): the list stays the manager's own while it
// acts for someone.
const MANAGED_USERS_QUERY = `query ManagedUsers($managerId: uuid!) {
  managers(where: { manager_id: { _eq: $managerId } }, order_by: { user: { name: asc } }) {
    user_id
    user { name user_brokers { active } }
  }
}`;

interface ManagedUsersData {
  managers: Array<{ user_id: string; user: { name: string; user_brokers: Array<{ active: boolean }> } | null }>;
}

interface ManagedUser {
  readonly userId: string;
  readonly name: string;
  readonly activeBrokers: number;
  readonly brokers: number;
}

function toManagedUsers(data: ManagedUsersData | undefined): ManagedUser[] {
  return (data?.managers ?? []).map((link) => {
    const brokers = link.user?.user_brokers ?? [];
    return {
      userId: link.user_id,
      name: link.user?.name ?? link.user_id,
      activeBrokers: brokers.filter((broker) => broker.active).length,
      brokers: brokers.length,
    };
  });
}

/** Switches the user the GraphQL clients act for (undefined: the manager itself). */
function actFor(userId: string | undefined): void {
  useAppStore.getState().setManagedUserId(userId);
  restartGraphqlClients();
}

interface UsersTableProps {
  readonly users: readonly ManagedUser[];
  readonly managerId: string;
  readonly managedUserId: string | undefined;
  readonly selectedId: string | undefined;
  readonly onSelect: (user: ManagedUser) => void;
  readonly onStart: (user: ManagedUser) => void;
  readonly onStop: () => void;
  readonly onUnlinked: (user: ManagedUser) => void;
}

function ManagedUsersTable({ users, managerId, managedUserId, selectedId, onSelect, onStart, onStop, onUnlinked }: UsersTableProps) {
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table striped highlightOnHover data-testid="managed-users">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>Active broker accounts</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {users.map((user) => (
            <Table.Tr key={user.userId} aria-selected={user.userId === selectedId}>
              <Table.Td>
                {user.name}
                {user.userId === managedUserId && <Badge ml="xs" size="sm">acting</Badge>}
              </Table.Td>
              <Table.Td>{user.activeBrokers} of {user.brokers}</Table.Td>
              <Table.Td>
                <Group gap="xs" wrap="nowrap" justify="flex-end">
                  <Button size="compact-sm" variant={user.userId === selectedId ? 'filled' : 'default'} onClick={() => onSelect(user)}>
                    Actions
                  </Button>
                  {user.userId === managedUserId ? (
                    <Button size="compact-sm" variant="light" onClick={onStop}>Stop acting</Button>
                  ) : (
                    <Button size="compact-sm" onClick={() => onStart(user)}>Act for this user</Button>
                  )}
                  <UnlinkButton
                    managerId={managerId}
                    userId={user.userId}
                    otherName={user.name}
                    question={`You will no longer see or act for ${user.name}'s accounts; they get an e-mail saying so.`}
                    onRemoved={() => onUnlinked(user)}
                  />
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

export function Component() {
  const navigate = useNavigate();
  const managerId = useSignedInUserId();
  const managedUserId = useAppStore((state) => state.managedUserId);
  const showAllUsers = useAppStore((state) => state.showAllUsers);
  const setShowAllUsers = useAppStore((state) => state.setShowAllUsers);
  const [picked, setPicked] = useState<string | undefined>(undefined);
  const [result, refetch] = useQuery<ManagedUsersData>({
    query: MANAGED_USERS_QUERY,
    variables: { managerId: managerId ?? '' },
    pause: managerId === undefined,
  });

  useEffect(() => {
    if (result.error) showToast('error', graphqlErrorMessage(result.error));
  }, [result.error]);

  const everyone = toManagedUsers(result.data);
  // docs/PRODUCT.md section 6: the show-all-users switch adds the users without an active broker account.
  const users = showAllUsers ? everyone : everyone.filter((user) => user.activeBrokers > 0);
  const actingFor = everyone.find((user) => user.userId === managedUserId);
  const selected = everyone.find((user) => user.userId === (picked ?? managedUserId));

  const start = (user: ManagedUser) => {
    actFor(user.userId);
    showToast('info', `Acting for ${user.name}`);
    void navigate('/dashboard');
  };

  const stop = () => {
    actFor(undefined);
    showToast('info', 'Stopped acting for a managed user');
  };

  const unlinked = (user: ManagedUser) => {
    if (user.userId === managedUserId) actFor(undefined);
    if (user.userId === picked) setPicked(undefined);
    refetch({ requestPolicy: 'network-only' });
  };

  return (
    <Stack gap="md">
      <Title order={2}>Manage accounts</Title>
      {managedUserId !== undefined && (
        <Alert color="blue" title="Acting for a managed user">
          <Group justify="space-between">
            <Text size="sm">You are acting for {actingFor?.name ?? 'a managed user'}: screens show and change that user's data.</Text>
            <Button size="compact-sm" variant="white" color="blue" onClick={stop}>Stop acting</Button>
          </Group>
        </Alert>
      )}
      <LinkUserForm />
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {users.length} of {everyone.length} managed users shown
        </Text>
        <Switch
          label="Show all users (including those without an active broker account)"
          checked={showAllUsers}
          onChange={(event) => setShowAllUsers(event.currentTarget.checked)}
        />
      </Group>
      {result.fetching && !result.data ? <Loader aria-label="Loading managed users" /> : users.length === 0 ? (
        <Text c="dimmed">
          {everyone.length === 0 ? 'You do not manage any users yet.' : 'No managed user has an active broker account. Turn on "Show all users" to see everyone.'}
        </Text>
      ) : managerId !== undefined && (
        <ManagedUsersTable
          users={users} managerId={managerId} managedUserId={managedUserId} selectedId={selected?.userId}
          onSelect={(user) => setPicked(user.userId)} onStart={start} onStop={stop} onUnlinked={unlinked}
        />
      )}
      <Title order={3} size="h4">Recent actions taken for {selected ? selected.name : 'this user'}</Title>
      {selected === undefined
        ? <Text size="sm" c="dimmed">Choose "Actions" on a user to see what you changed while acting for them.</Text>
        : <ActingAuditTable key={selected.userId} subjectId={selected.userId} showActor={false} empty="You have not changed anything while acting for this user." />}
    </Stack>
  );
}
