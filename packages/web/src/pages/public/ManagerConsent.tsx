// /manageAccounts/consent#token=... (noauth): the page a manager link request e-mail opens. Shows which
// manager asks, with Accept and Decline (GraphQL manager_link_request and respond_manager_link, the
// token alone, signed in or not). The token stays in the fragment, so no server log or proxy sees it.
// An unknown, expired or used link shows only "This link is no longer valid" and changes nothing.
import { Alert, Button, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useLocation } from 'react-router';
import { useMutation, useQuery } from 'urql';
import {
  LINK_NO_LONGER_VALID, MANAGER_LINK_REQUEST_QUERY, RESPOND_MANAGER_LINK,
} from '../account/manage/manage-documents';

interface RequestInfo {
  readonly manager_link_request: { valid: boolean; manager_name: string | null; expires_at: string | null };
}

function NoLongerValid() {
  return (
    <Alert color="red" variant="light" title={LINK_NO_LONGER_VALID} data-testid="consent-invalid">
      Ask the manager to send a new request.
    </Alert>
  );
}

function Consent({ token }: { readonly token: string }) {
  const [info] = useQuery<RequestInfo>({ query: MANAGER_LINK_REQUEST_QUERY, variables: { token }, requestPolicy: 'network-only' });
  const [state, respond] = useMutation<{ respond_manager_link: { response: string; manager_name: string } }>(RESPOND_MANAGER_LINK);
  const [done, setDone] = useState<string | undefined>(undefined);
  if (info.error) return <Alert color="red" title="Could not load the request">Try again in a moment.</Alert>;
  const request = info.data?.manager_link_request;
  if (request === undefined) return <Group justify="center" py="xl"><Loader aria-label="Loading the request" /></Group>;
  if (done !== undefined) {
    return (
      <Alert color={done === 'accepted' ? 'teal' : 'gray'} title={done === 'accepted' ? 'Accepted' : 'Declined'} data-testid="consent-done">
        {done === 'accepted'
          ? `${request.manager_name ?? 'The manager'} now manages your account. You can remove them at any time on your account page (Managers).`
          : 'Nothing changed: the manager does not manage your account.'}
      </Alert>
    );
  }
  if (!request.valid || state.error?.graphQLErrors.some((error) => error.message.endsWith(LINK_NO_LONGER_VALID))) return <NoLongerValid />;
  const answer = (accept: boolean) => {
    void respond({ token, accept }).then((result) => {
      const response = result.data?.respond_manager_link.response;
      if (response !== undefined) setDone(response);
    });
  };
  return (
    <Stack gap="md" data-testid="consent-request">
      <Text>
        <b>{request.manager_name}</b> asks to manage your Vyuha account. A manager sees your accounts and can act for you;
        every change they make is recorded and shown to you on your account page.
      </Text>
      {state.error && !state.error.graphQLErrors.some((error) => error.message.endsWith(LINK_NO_LONGER_VALID)) && (
        <Alert color="red" title="Your answer was not saved">{state.error.message}</Alert>
      )}
      <Group>
        <Button onClick={() => answer(true)} loading={state.fetching}>Accept</Button>
        <Button variant="default" onClick={() => answer(false)} disabled={state.fetching}>Decline</Button>
      </Group>
    </Stack>
  );
}

export function Component() {
  const { hash } = useLocation();
  const token = new URLSearchParams(hash.replace(/^#/, '')).get('token');
  return (
    <Stack gap="md" maw={640} mx="auto" py="xl" px="md">
      <Title order={1} size="h2">Manager request</Title>
      {token === null || token === '' ? <NoLongerValid /> : <Consent token={token} />}
    </Stack>
  );
}
