// Sets (or replaces) a broker account's API secret: write-only, encrypted by the server's
// `set_broker_secret` action and never shown again. The broker login asks for it when it is
// missing, wrong, or unreadable under a new server key.
import { Button, Group, Modal, PasswordInput, Stack, Text } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useMutation } from 'urql';
import { showToast } from '../../app/toast';
import { graphqlErrorMessage } from './account-helpers';
import { SET_BROKER_SECRET_MUTATION, type UserBrokerRow } from './broker-accounts';

export function BrokerSecretDialog({ row, onClose }: { readonly row: UserBrokerRow | undefined; readonly onClose: () => void }) {
  const [secret, setSecret] = useState('');
  const [state, store] = useMutation(SET_BROKER_SECRET_MUTATION);
  const trimmed = secret.trim();

  const close = () => {
    setSecret('');
    onClose();
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!row || trimmed === '') return;
    const result = await store({ id: row.user_broker_id, secret: trimmed });
    if (result.error) {
      showToast('error', graphqlErrorMessage(result.error));
      return;
    }
    showToast('success', `API secret of ${row.client_id} stored`);
    close();
  };

  return (
    <Modal opened={row !== undefined} onClose={close} title={row ? `API secret: ${row.broker_info?.name ?? row.broker} ${row.client_id}` : ''}>
      <form onSubmit={(event) => void submit(event)}>
        <Stack gap="sm">
          <Text size="sm">The secret of the broker app whose API key this account uses. It is stored encrypted and never shown again; a new one replaces the old.</Text>
          <PasswordInput label="API secret" value={secret} onChange={(event) => setSecret(event.currentTarget.value)} autoComplete="off" maxLength={256} data-autofocus data-testid="broker-secret-input" />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>Cancel</Button>
            <Button type="submit" loading={state.fetching} disabled={trimmed === ''} data-testid="broker-secret-save">Store secret</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
