// /users/list (administrator, superadmin): every user profile, searched by name and paged with
// users_aggregate. Staff may change `users.tier` (docs/GRAPHQL-PERMISSIONS.md): a superadmin any
// user's, an administrator only between the non-staff tiers of non-staff users. E-mail addresses
// and the disabled flag live in the auth schema, which GraphQL does not expose.
import { Alert, Group, Loader, Pagination, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { useAuthState } from '../../auth/auth-service';
import { confirm } from '../../app/confirm';
import { showToast } from '../../app/toast';
import { useReadOnly } from '../../app/update-mode';
import { formatDate } from '../../format/format';
import { SETTINGS_UPDATED, graphqlErrorMessage, useSignedInUserId } from './account-helpers';

const PAGE_SIZE = 25;

const TIERS = ['trial', 'basic', 'advanced', 'demo', 'backtest', 'manager', 'administrator', 'superadmin', 'support'] as const;
/** Tiers an administrator may neither edit nor grant (the server's PROTECTED_TIERS). */
const STAFF_TIERS: readonly string[] = ['administrator', 'superadmin'];

const USERS_QUERY = `query UsersList($where: users_bool_exp!, $limit: Int!, $offset: Int!) {
  users(where: $where, order_by: [{ name: asc }, { user_id: asc }], limit: $limit, offset: $offset) {
    user_id name tier created_at
  }
  users_aggregate(where: $where) { aggregate { count } }
}`;

const SET_TIER_MUTATION = `mutation UsersSetTier($userId: uuid!, $tier: String!) {
  update_users_by_pk(pk_columns: { user_id: $userId }, _set: { tier: $tier }) { user_id tier }
}`;

interface UserRow {
  readonly user_id: string;
  readonly name: string;
  readonly tier: string;
  readonly created_at: string;
}

interface UsersData {
  users: UserRow[];
  users_aggregate: { aggregate: { count: number } | null };
}

/** `%` and `_` are wildcards in ILIKE: a name search matches them literally. */
function nameFilter(search: string): Record<string, unknown> {
  const text = search.trim();
  if (text === '') return {};
  return { name: { _ilike: `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%` } };
}

/** The tiers the signed-in role may give this user, or undefined when the row is not editable. */
function assignableTiers(input: { role: string | undefined; row: UserRow; selfId: string | undefined }): readonly string[] | undefined {
  if (input.role === 'superadmin') return TIERS;
  if (input.role !== 'administrator') return undefined;
  if (input.row.user_id === input.selfId || STAFF_TIERS.includes(input.row.tier)) return undefined;
  return TIERS.filter((tier) => !STAFF_TIERS.includes(tier));
}

function TierCell({ row, tiers, disabled, onChanged }: {
  readonly row: UserRow;
  readonly tiers: readonly string[] | undefined;
  readonly disabled: boolean;
  readonly onChanged: () => void;
}) {
  const [state, setTier] = useMutation(SET_TIER_MUTATION);
  if (!tiers) return <Text size="sm">{row.tier}</Text>;

  const change = async (tier: string | null) => {
    if (!tier || tier === row.tier) return;
    const accepted = await confirm({
      title: 'Change tier',
      message: `Change ${row.name} from ${row.tier} to ${tier}? The new tier applies from their next sign-in or token refresh.`,
      acceptLabel: 'Change',
      rejectLabel: 'Cancel',
    });
    if (!accepted) return;
    const result = await setTier({ userId: row.user_id, tier });
    if (result.error) showToast('error', graphqlErrorMessage(result.error));
    else showToast('success', SETTINGS_UPDATED);
    onChanged();
  };

  return (
    <Select
      size="xs"
      w={160}
      data={[...tiers]}
      value={row.tier}
      onChange={(tier) => void change(tier)}
      allowDeselect={false}
      disabled={disabled || state.fetching}
      aria-label={`Tier of ${row.name}`}
    />
  );
}

export function Component() {
  const readOnly = useReadOnly();
  const role = useAuthState((snapshot) => snapshot.context.role);
  const selfId = useSignedInUserId();
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search, 300);
  const [page, setPage] = useState(1);

  useEffect(() => setPage(1), [debouncedSearch]);

  const [result, reexecute] = useQuery<UsersData>({
    query: USERS_QUERY,
    variables: { where: nameFilter(debouncedSearch), limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE },
  });

  useEffect(() => {
    if (result.error) showToast('error', graphqlErrorMessage(result.error));
  }, [result.error]);

  const rows = result.data?.users ?? [];
  const count = result.data?.users_aggregate.aggregate?.count ?? 0;
  const pages = Math.max(1, Math.ceil(count / PAGE_SIZE));
  const canEdit = role === 'superadmin' || role === 'administrator';

  return (
    <Stack gap="md">
      <Title order={2}>Users</Title>
      <Alert color="gray" variant="light">
        {canEdit
          ? role === 'superadmin'
            ? 'You can change any user\'s tier.'
            : 'You can move users who are not administrators or superadmins between the other tiers.'
          : 'This list is read-only for your role.'}{' '}
        E-mail addresses and disabling accounts are not available here: they belong to the auth service, which GraphQL does not expose.
      </Alert>
      <Group justify="space-between">
        <TextInput
          placeholder="Search by name"
          aria-label="Search by name"
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          w={320}
        />
        <Text size="sm" c="dimmed">{count} users</Text>
      </Group>
      {result.fetching && !result.data ? <Loader aria-label="Loading users" /> : rows.length === 0 ? (
        <Text c="dimmed">No users match.</Text>
      ) : (
        <Table.ScrollContainer minWidth={560}>
          <Table striped highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Tier</Table.Th>
                <Table.Th>Created</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row) => (
                <Table.Tr key={row.user_id}>
                  <Table.Td>{row.name}</Table.Td>
                  <Table.Td>
                    <TierCell
                      row={row}
                      tiers={assignableTiers({ role, row, selfId })}
                      disabled={readOnly}
                      onChanged={() => reexecute({ requestPolicy: 'network-only' })}
                    />
                  </Table.Td>
                  <Table.Td>{formatDate(Date.parse(row.created_at))}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {pages > 1 && <Pagination total={pages} value={page} onChange={setPage} />}
    </Stack>
  );
}
