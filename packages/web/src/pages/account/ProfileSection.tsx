// Profile: the user's name (the only `users` column a tier may update, docs/GRAPHQL-PERMISSIONS.md),
// tier and the sign-in e-mail (from the auth service; the e-mail is not a GraphQL column).
import { Alert, Button, Group, Loader, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import type { AuthUser } from '../../auth/auth-types';
import { useReadOnly } from '../../app/update-mode';
import { showToast } from '../../app/toast';
import { formatDate } from '../../format/format';
import { SETTINGS_UPDATED, graphqlErrorMessage } from './account-helpers';

const PROFILE_QUERY = `query AccountProfile($userId: uuid!) {
  users_by_pk(user_id: $userId) { user_id name tier created_at }
}`;

const RENAME_MUTATION = `mutation AccountRename($userId: uuid!, $name: String!) {
  update_users_by_pk(pk_columns: { user_id: $userId }, _set: { name: $name }) { user_id name }
}`;

interface ProfileData {
  users_by_pk: { user_id: string; name: string; tier: string; created_at: string } | null;
}

export interface ProfileSectionProps {
  /** The user whose profile GraphQL shows (the managed user while acting for one). */
  readonly userId: string;
  /** The signed-in user from the auth service (its e-mail). */
  readonly authUser: AuthUser | undefined;
  /** True while a manager acts for another user: the e-mail shown is not that user's. */
  readonly acting: boolean;
}

export function ProfileSection({ userId, authUser, acting }: ProfileSectionProps) {
  const readOnly = useReadOnly();
  const [result, reexecute] = useQuery<ProfileData>({ query: PROFILE_QUERY, variables: { userId } });
  const [renameState, rename] = useMutation(RENAME_MUTATION);
  const profile = result.data?.users_by_pk ?? undefined;
  const [name, setName] = useState('');

  useEffect(() => {
    if (profile) setName(profile.name);
  }, [profile]);

  useEffect(() => {
    if (result.error) showToast('error', graphqlErrorMessage(result.error));
  }, [result.error]);

  const trimmed = name.trim();
  const unchanged = profile !== undefined && trimmed === profile.name;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (trimmed === '' || unchanged) return;
    const answer = await rename({ userId, name: trimmed });
    if (answer.error) {
      showToast('error', graphqlErrorMessage(answer.error));
      return;
    }
    showToast('success', SETTINGS_UPDATED);
    reexecute({ requestPolicy: 'network-only' });
  };

  return (
    <Paper withBorder p="md">
      <Title order={3} mb="sm">Profile</Title>
      {result.fetching && !profile && <Loader size="sm" aria-label="Loading profile" />}
      {!result.fetching && !profile && !result.error && <Alert color="yellow">No profile was found for this account.</Alert>}
      {profile && (
        <form onSubmit={(event) => void submit(event)}>
          <Stack gap="sm" maw={480}>
            <TextInput
              label="Name"
              value={name}
              onChange={(event) => setName(event.currentTarget.value)}
              error={trimmed === '' ? 'Name is required' : undefined}
              maxLength={200}
              required
              disabled={readOnly}
            />
            <Group gap="xl">
              <Text size="sm"><Text span c="dimmed">Tier: </Text>{profile.tier}</Text>
              <Text size="sm"><Text span c="dimmed">Member since: </Text>{formatDate(Date.parse(profile.created_at))}</Text>
            </Group>
            {!acting && (
              <Text size="sm">
                <Text span c="dimmed">E-mail: </Text>
                {authUser?.email ?? '—'}
                {authUser && authUser.email && !authUser.emailVerified && <Text span c="yellow"> (not verified)</Text>}
              </Text>
            )}
            <Group>
              <Button type="submit" loading={renameState.fetching} disabled={readOnly || trimmed === '' || unchanged}>
                Save name
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Paper>
  );
}
