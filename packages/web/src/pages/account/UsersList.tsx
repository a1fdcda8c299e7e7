// /users/list (administrator, superadmin; support read-only): every user, searched by name (staff:
// or e-mail) and filtered by tier, active brokers, last sign-in and status, paged on the server
// (the admin_users action). Each row opens the user's /users/edit?user=<id>, where staff change
// tier, permissions and the disabled flag and grant credits and licences.
// Support gets names masked and no e-mail from the server itself; this screen shows what it gets.
import { Alert, Anchor, Badge, Group, Pagination, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useQuery } from 'urql';
import { useAuthState } from '../../auth/auth-service';
import { formatDate, formatDateTime } from '../../format/format';
import { QueryState } from '../trading/parts/QueryState';
import { ADMIN_USERS_QUERY, TIERS, type AdminUsersData } from './users/user-admin-documents';

const PAGE_SIZE = 25;

type Choice = 'any' | 'yes' | 'no';

function choice(value: Choice): boolean | undefined {
  return value === 'any' ? undefined : value === 'yes';
}

/** The date input's `YYYY-MM-DD`, or undefined while empty or half typed. */
function isoDate(value: string | null): string | undefined {
  return value !== null && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : undefined;
}

export function Component() {
  const role = useAuthState((snapshot) => snapshot.context.role);
  const staff = role === 'administrator' || role === 'superadmin';
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search, 300);
  const [tier, setTier] = useState<string | null>(null);
  const [brokers, setBrokers] = useState<Choice>('any');
  const [status, setStatus] = useState<Choice>('any');
  const [signedInSince, setSignedInSince] = useState<string | null>(null);
  const [page, setPage] = useState(1);

  const filter = useMemo(() => {
    const since = isoDate(signedInSince);
    const hasBrokers = choice(brokers);
    const disabled = choice(status);
    return {
      ...(debouncedSearch.trim() === '' ? {} : { search: debouncedSearch.trim() }),
      ...(tier === null ? {} : { tier }),
      ...(hasBrokers === undefined ? {} : { has_active_brokers: hasBrokers }),
      ...(disabled === undefined ? {} : { disabled }),
      ...(since === undefined ? {} : { signed_in_since: since }),
    };
  }, [debouncedSearch, tier, brokers, status, signedInSince]);

  useEffect(() => setPage(1), [filter]);

  const [result] = useQuery<AdminUsersData>({
    query: ADMIN_USERS_QUERY,
    variables: { filter, limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE },
    requestPolicy: 'cache-and-network',
  });

  const rows = result.data?.admin_users.rows ?? [];
  const count = result.data?.admin_users.total ?? 0;
  const pages = Math.max(1, Math.ceil(count / PAGE_SIZE));

  return (
    <Stack gap="md">
      <Title order={2}>Users</Title>
      <Alert color="gray" variant="light">
        {staff
          ? role === 'superadmin'
            ? 'Open a user to change their tier, permissions or status, or to grant credits and licences. Every change is recorded with who made it.'
            : 'Open a user to change their tier, permissions or status, or to grant credits and licences. Administrators and superadmins are changed by a superadmin.'
          : 'Read-only: names are masked and e-mail addresses are not shown.'}
      </Alert>
      <Group align="flex-end" gap="sm" wrap="wrap">
        <TextInput
          label="Search"
          placeholder={staff ? 'Name or e-mail' : 'Name'}
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          w={240}
          data-testid="users-search"
        />
        <Select label="Tier" placeholder="Any" data={[...TIERS]} value={tier} onChange={setTier} clearable w={150} data-testid="users-tier" />
        <Select
          label="Active brokers"
          data={[{ value: 'any', label: 'Any' }, { value: 'yes', label: 'With' }, { value: 'no', label: 'Without' }]}
          value={brokers}
          onChange={(value) => setBrokers((value ?? 'any') as Choice)}
          allowDeselect={false}
          w={130}
        />
        <Select
          label="Status"
          data={[{ value: 'any', label: 'Any' }, { value: 'no', label: 'Enabled' }, { value: 'yes', label: 'Disabled' }]}
          value={status}
          onChange={(value) => setStatus((value ?? 'any') as Choice)}
          allowDeselect={false}
          w={130}
          data-testid="users-status"
        />
        <TextInput
          type="date"
          label="Signed in since"
          value={signedInSince ?? ''}
          onChange={(event) => setSignedInSince(event.currentTarget.value === '' ? null : event.currentTarget.value)}
          w={170}
          data-testid="users-signed-in-since"
        />
        <Text size="sm" c="dimmed" ml="auto" data-testid="users-count">{count} {count === 1 ? 'user' : 'users'}</Text>
      </Group>
      <QueryState fetching={result.fetching} error={result.error} hasData={result.data !== undefined} title="Could not load the users">
        {rows.length === 0 ? (
          <Text c="dimmed">No users match.</Text>
        ) : (
          <Table.ScrollContainer minWidth={900}>
            <Table striped highlightOnHover data-testid="users-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  {staff && <Table.Th>E-mail</Table.Th>}
                  <Table.Th>Tier</Table.Th>
                  <Table.Th>Permissions</Table.Th>
                  <Table.Th ta="right">Active brokers</Table.Th>
                  <Table.Th>Last sign-in</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>Created</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((row) => (
                  <Table.Tr key={row.user_id} data-testid="user-row" data-user-id={row.user_id}>
                    <Table.Td>
                      <Anchor component={Link} to={`/users/edit?user=${row.user_id}`} data-testid="user-name">{row.name}</Anchor>
                    </Table.Td>
                    {staff && <Table.Td>{row.email ?? '-'}</Table.Td>}
                    <Table.Td>{row.tier}</Table.Td>
                    <Table.Td>
                      <Group gap={4}>
                        {row.permissions.length === 0 ? <Text size="sm" c="dimmed">none</Text>
                          : row.permissions.map((permission) => <Badge key={permission} size="sm" variant="light">{permission.replace('strategy:', '')}</Badge>)}
                      </Group>
                    </Table.Td>
                    <Table.Td ta="right">{row.active_brokers}</Table.Td>
                    <Table.Td>{row.last_sign_in_at === null ? 'never' : formatDateTime(Date.parse(row.last_sign_in_at))}</Table.Td>
                    <Table.Td>
                      {row.disabled ? <Badge color="red" data-testid="user-status">disabled</Badge> : <Badge color="green" variant="light" data-testid="user-status">enabled</Badge>}
                    </Table.Td>
                    <Table.Td>{formatDate(Date.parse(row.created_at))}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </QueryState>
      {pages > 1 && <Pagination total={pages} value={page} onChange={setPage} />}
    </Stack>
  );
}
