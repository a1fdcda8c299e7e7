// Removing a manager link, after a confirmation (remove_manager_link): used by the manager on
// /manageAccounts and by the managed user on /users/edit. The other party is e-mailed by the server.
import { Button, Group, Modal, Text } from '@mantine/core';
import { useState } from 'react';
import { useMutation } from 'urql';
import { showToast } from '../../../app/toast';
import { graphqlErrorMessage } from '../account-helpers';
import { REMOVE_MANAGER_LINK } from './manage-documents';

export interface UnlinkButtonProps {
  readonly managerId: string;
  readonly userId: string;
  /** Whose link it is, in words, e.g. "Kavya Reddy". */
  readonly otherName: string;
  readonly question: string;
  readonly onRemoved: () => void;
}

export function UnlinkButton({ managerId, userId, otherName, question, onRemoved }: UnlinkButtonProps) {
  const [open, setOpen] = useState(false);
  const [state, remove] = useMutation(REMOVE_MANAGER_LINK);
  const confirm = () => {
    void remove({ managerId, userId }).then((result) => {
      if (result.error) {
        showToast('error', graphqlErrorMessage(result.error));
        return;
      }
      setOpen(false);
      showToast('info', `The link with ${otherName} was removed`);
      onRemoved();
    });
  };
  return (
    <>
      <Button size="compact-sm" color="red" variant="subtle" onClick={() => setOpen(true)}>Unlink</Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={`Unlink ${otherName}?`}>
        <Text size="sm">{question}</Text>
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={() => setOpen(false)}>Cancel</Button>
          <Button color="red" loading={state.fetching} onClick={confirm}>Unlink</Button>
        </Group>
      </Modal>
    </>
  );
}
