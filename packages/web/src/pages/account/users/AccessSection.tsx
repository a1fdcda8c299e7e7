// A user's tier, permissions and status on /users/edit?user=<id>: staff change them through
// admin_set_user_access (confirmed first; the server checks the role again and refuses what the
// caller may not do, naming the field). A disabled user cannot sign in or refresh a session.
// Shown read-only when the signed-in role may not change this user (support, an administrator
// looking at staff, anyone looking at themselves).
import { Badge, Button, Checkbox, Group, Select, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useMutation } from 'urql';
import { confirm } from '../../../app/confirm';
import { showToast } from '../../../app/toast';
import { SETTINGS_UPDATED, graphqlErrorMessage } from '../account-helpers';
import { PERMISSIONS, SET_USER_ACCESS_MUTATION, type AdminUserRow } from './user-admin-documents';

export function AccessSection({ user, editable, tiers, onChanged }: {
  readonly user: AdminUserRow;
  readonly editable: boolean;
  readonly tiers: readonly string[];
  readonly onChanged: () => void;
}) {
  const [state, setAccess] = useMutation(SET_USER_ACCESS_MUTATION);
  const [permissions, setPermissions] = useState<string[]>([...user.permissions]);
  const changedPermissions = [...permissions].sort().join(',') !== [...user.permissions].sort().join(',');

  const apply = async (change: { tier?: string; permissions?: string[]; disabled?: boolean }, question: { title: string; message: string; label: string; danger?: boolean }) => {
    const accepted = await confirm({ title: question.title, message: question.message, acceptLabel: question.label, rejectLabel: 'Cancel', danger: question.danger ?? false });
    if (!accepted) return;
    const result = await setAccess({ userId: user.user_id, ...change });
    if (result.error) showToast('error', graphqlErrorMessage(result.error));
    else showToast('success', SETTINGS_UPDATED);
    onChanged();
  };

  if (!editable) {
    return (
      <Stack gap="xs">
        <Text size="sm">Tier: <b>{user.tier}</b></Text>
        <Text size="sm">Permissions: {user.permissions.length === 0 ? 'none' : user.permissions.join(', ')}</Text>
        <Text size="sm">Status: {user.disabled ? 'disabled' : 'enabled'}</Text>
      </Stack>
    );
  }

  return (
    <Stack gap="md">
      <Select
        label="Tier"
        description="The new tier applies from the user's next sign-in or token refresh."
        data={[...tiers]}
        value={user.tier}
        allowDeselect={false}
        w={240}
        disabled={state.fetching}
        data-testid="access-tier"
        onChange={(tier) => {
          if (tier === null || tier === user.tier) return;
          void apply({ tier }, { title: 'Change tier', message: `Change ${user.name} from ${user.tier} to ${tier}?`, label: 'Change' });
        }}
      />
      <Checkbox.Group label="Permissions" value={permissions} onChange={setPermissions}>
        <Group mt={4}>
          {PERMISSIONS.map((permission) => <Checkbox key={permission} value={permission} label={permission} data-testid={`permission-${permission}`} />)}
        </Group>
      </Checkbox.Group>
      <Group>
        <Button
          size="xs"
          disabled={!changedPermissions || state.fetching}
          onClick={() => void apply({ permissions }, { title: 'Change permissions', message: `Give ${user.name} ${permissions.length === 0 ? 'no permissions' : permissions.join(', ')}?`, label: 'Save' })}
          data-testid="save-permissions"
        >
          Save permissions
        </Button>
      </Group>
      <Group>
        {user.disabled ? <Badge color="red">disabled</Badge> : <Badge color="green" variant="light">enabled</Badge>}
        {user.disabled ? (
          <Button size="xs" variant="light" disabled={state.fetching} data-testid="enable-user"
            onClick={() => void apply({ disabled: false }, { title: 'Enable user', message: `Let ${user.name} sign in again?`, label: 'Enable' })}>
            Enable
          </Button>
        ) : (
          <Button size="xs" color="red" variant="light" disabled={state.fetching} data-testid="disable-user"
            onClick={() => void apply({ disabled: true }, {
              title: 'Disable user', label: 'Disable', danger: true,
              message: `Disable ${user.name}? They can no longer sign in or refresh their session; their strategies are not stopped.`,
            })}>
            Disable
          </Button>
        )}
      </Group>
    </Stack>
  );
}
