// "Link a user" on /manageAccounts: the manager enters an e-mail address; the server e-mails its owner a
// consent link when the address has an account, and answers the same either way (request_manager_link).
import { Button, Group, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useMutation } from 'urql';
import { formatDateTime } from '../../../format/format';
import { graphqlErrorMessage } from '../account-helpers';
import { REQUEST_MANAGER_LINK } from './manage-documents';

export function LinkUserForm() {
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState<{ email: string; expiresAt: string } | undefined>(undefined);
  const [state, request] = useMutation<{ request_manager_link: { email: string; expires_at: string } }>(REQUEST_MANAGER_LINK);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSent(undefined);
    void request({ email }).then((result) => {
      const answer = result.data?.request_manager_link;
      if (answer) {
        setSent({ email: answer.email, expiresAt: answer.expires_at });
        setEmail('');
      }
    });
  };
  return (
    <form onSubmit={submit} aria-label="Link a user">
      <Group align="flex-end" gap="sm" wrap="wrap">
        <TextInput
          label="Link a user by e-mail"
          placeholder="user@example.com"
          type="email"
          required
          value={email}
          onChange={(event) => setEmail(event.currentTarget.value)}
          error={state.error ? graphqlErrorMessage(state.error) : undefined}
          style={{ flex: '1 1 240px', maxWidth: 420 }}
        />
        <Button type="submit" loading={state.fetching}>Send consent request</Button>
      </Group>
      {sent && (
        <Text size="sm" mt="xs" data-testid="link-request-sent">
          If {sent.email} has a Vyuha account, its owner now has an e-mail asking for consent (valid until {formatDateTime(Date.parse(sent.expiresAt))} IST).
        </Text>
      )}
    </form>
  );
}
