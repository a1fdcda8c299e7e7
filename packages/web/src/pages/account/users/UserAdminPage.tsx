// Another user's /users/edit?user=<id> for administrators, superadmins and support: profile,
// security (password, second factor, security keys, access tokens: states only, never a secret),
// broker accounts with their investments, licences and credits with the utilisation figures and
// alerts, and the trail of changes to their access and grants. Read with the admin_user action;
// staff change access and grants here (AccessSection, GrantsSection), support only reads, with
// names and client ids masked by the server.
import { Alert, Badge, Card, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from 'urql';
import { useAuthState } from '../../../auth/auth-service';
import { formatDateTime, formatRupees } from '../../../format/format';
import { QueryState } from '../../trading/parts/QueryState';
import { useSignedInUserId } from '../account-helpers';
import { AccessSection } from './AccessSection';
import { GrantsSection } from './GrantsSection';
import { ADMIN_USER_QUERY, assignableTiers, canChangeUser, type AdminUserDetail } from './user-admin-documents';

const when = (value: string | null): string => (value === null ? 'never' : formatDateTime(Date.parse(value)));

/** One audit entry's change in words: the fields whose value differs between before and after. */
function changeText(before: unknown, after: unknown): string {
  const old = (before ?? {}) as Record<string, unknown>;
  const next = (after ?? {}) as Record<string, unknown>;
  if (before === null && after === null) return '';
  const keys = [...new Set([...Object.keys(old), ...Object.keys(next)])]
    .filter((key) => !['id', 'user_id', 'created_at', 'updated_at'].includes(key) && JSON.stringify(old[key]) !== JSON.stringify(next[key]));
  return keys.map((key) => `${key}: ${old[key] === undefined ? '-' : JSON.stringify(old[key])} → ${next[key] === undefined ? '-' : JSON.stringify(next[key])}`).join('; ');
}

function Section({ title, children, testId }: { readonly title: string; readonly children: React.ReactNode; readonly testId?: string }) {
  return (
    <Card withBorder padding="md" data-testid={testId}>
      <Title order={4} mb="sm">{title}</Title>
      {children}
    </Card>
  );
}

export function UserAdminPage({ userId }: { readonly userId: string }) {
  const role = useAuthState((snapshot) => snapshot.context.role);
  const selfId = useSignedInUserId();
  const [result, reexecute] = useQuery<{ admin_user: AdminUserDetail | null }>({ query: ADMIN_USER_QUERY, variables: { userId }, requestPolicy: 'cache-and-network' });
  const reload = () => reexecute({ requestPolicy: 'network-only' });
  const detail = result.data?.admin_user;

  return (
    <Stack gap="md">
      <QueryState fetching={result.fetching} error={result.error} hasData={result.data !== undefined} title="Could not load the user">
        {detail === null || detail === undefined ? <Alert color="yellow" title="No such user">There is no user {userId}.</Alert> : (() => {
          const editable = canChangeUser({ role, selfId, user: detail.user });
          const { user, security } = detail;
          return (
            <>
              <Group gap="sm">
                <Title order={2} data-testid="admin-user-name">{user.name}</Title>
                <Badge variant="light">{user.tier}</Badge>
                {user.disabled && <Badge color="red">disabled</Badge>}
              </Group>
              {!editable && (
                <Alert color="gray" variant="light">
                  {role === 'support' ? 'Read-only: names and account ids are masked.'
                    : user.user_id === selfId ? 'Your own access is changed by another administrator.'
                      : 'Administrators and superadmins are changed by a superadmin.'}
                </Alert>
              )}
              <SimpleGrid cols={{ base: 1, md: 2 }}>
                <Section title="Profile" testId="admin-profile">
                  <Stack gap={4}>
                    <Text size="sm">Name: {user.name}</Text>
                    {user.email !== null && <Text size="sm">E-mail: {user.email}</Text>}
                    <Text size="sm">Created: {when(user.created_at)}</Text>
                    <Text size="sm">Last sign-in: {when(user.last_sign_in_at)}</Text>
                  </Stack>
                </Section>
                <Section title="Access" testId="admin-access">
                  <AccessSection key={`${user.tier}-${user.permissions.join(',')}-${user.disabled}`} user={user} editable={editable}
                    tiers={assignableTiers(role)} onChanged={reload} />
                </Section>
                <Section title="Security" testId="admin-security">
                  <Stack gap={4}>
                    <Text size="sm">Password: {security.password_set ? 'set' : 'none (passwordless or provider sign-in)'}</Text>
                    <Text size="sm">Two-factor: {security.mfa ?? 'off'}</Text>
                    <Text size="sm">Security keys: {security.security_keys.length === 0 ? 'none' : security.security_keys.join(', ')}</Text>
                    <Text size="sm">
                      Access tokens: {security.personal_access_tokens.filter((token) => token.live).length} live of {security.personal_access_tokens.length}
                    </Text>
                  </Stack>
                </Section>
                <Section title="Broker accounts" testId="admin-brokers">
                  {detail.brokers.length === 0 ? <Text size="sm" c="dimmed">No broker accounts.</Text> : (
                    <Table>
                      <Table.Thead>
                        <Table.Tr><Table.Th>Broker</Table.Th><Table.Th>Client id</Table.Th><Table.Th ta="right">Investment</Table.Th><Table.Th>State</Table.Th></Table.Tr>
                      </Table.Thead>
                      <Table.Tbody>
                        {detail.brokers.map((broker) => (
                          <Table.Tr key={broker.user_broker_id}>
                            <Table.Td>{broker.broker}</Table.Td>
                            <Table.Td>{broker.client_id}</Table.Td>
                            <Table.Td ta="right">{formatRupees(broker.investment_paise)}</Table.Td>
                            <Table.Td>{broker.active ? 'active' : 'inactive'}{broker.has_secret ? '' : ', no API secret'}</Table.Td>
                          </Table.Tr>
                        ))}
                      </Table.Tbody>
                    </Table>
                  )}
                </Section>
              </SimpleGrid>
              <Section title="Licences and credits" testId="admin-licences">
                <GrantsSection userId={user.user_id} licences={detail.licences} grants={detail.grants} editable={editable} onChanged={reload} />
              </Section>
              <Section title="Changes" testId="admin-audit">
                {detail.audit.length === 0 ? <Text size="sm" c="dimmed">No changes recorded.</Text> : (
                  <Table.ScrollContainer minWidth={640}>
                    <Table striped>
                      <Table.Thead>
                        <Table.Tr><Table.Th>When</Table.Th><Table.Th>Who</Table.Th><Table.Th>What</Table.Th><Table.Th>Change</Table.Th></Table.Tr>
                      </Table.Thead>
                      <Table.Tbody>
                        {detail.audit.map((entry, index) => (
                          <Table.Tr key={`${entry.at}-${index}`} data-testid="audit-row">
                            <Table.Td>{when(entry.at)}</Table.Td>
                            <Table.Td>{entry.actor_name ?? 'system'}</Table.Td>
                            <Table.Td>{entry.action}</Table.Td>
                            <Table.Td><Text size="xs">{changeText(entry.before, entry.after)}</Text></Table.Td>
                          </Table.Tr>
                        ))}
                      </Table.Tbody>
                    </Table>
                  </Table.ScrollContainer>
                )}
              </Section>
            </>
          );
        })()}
      </QueryState>
    </Stack>
  );
}
