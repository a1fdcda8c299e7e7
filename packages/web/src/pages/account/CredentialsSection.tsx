// Change e-mail and change password (spec sections 4 and 7): each form goes
// idle -> requesting -> success | error. The new e-mail is confirmed from a mail sent to it.
import { Alert, Button, Group, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { authApi } from '../../auth/auth-api';
import { CLIENT_AUTH_ERRORS, MIN_PASSWORD_LENGTH, isValidEmail, isValidPassword } from '../../auth/auth-errors';
import { showToast } from '../../app/toast';
import { type RequestState, withAccessToken } from './account-helpers';

/** Where the confirmation link of an e-mail change lands (the auth pages finish the sign-in there). */
function emailRedirectUrl(): string {
  return `${window.location.origin}/authenticate/redirect`;
}

function ChangeEmailForm({ currentEmail }: { readonly currentEmail: string | undefined }) {
  const [email, setEmail] = useState('');
  const [state, setState] = useState<RequestState>('idle');
  const [message, setMessage] = useState<string | undefined>(undefined);
  const [sentTo, setSentTo] = useState('');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const newEmail = email.trim();
    if (!isValidEmail(newEmail)) {
      setState('error');
      setMessage(CLIENT_AUTH_ERRORS['invalid-email'].message);
      return;
    }
    setState('requesting');
    setMessage(undefined);
    const result = await withAccessToken((token) => authApi.changeEmail({ newEmail, options: { redirectTo: emailRedirectUrl() } }, token));
    if (result.ok) {
      setState('success');
      setSentTo(newEmail);
      setEmail('');
    } else {
      setState('error');
      setMessage(result.error.message);
      showToast('error', result.error.message);
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)}>
      <Stack gap="sm" maw={480}>
        <Title order={4}>Change e-mail</Title>
        {currentEmail && <Text size="sm" c="dimmed">Current e-mail: {currentEmail}</Text>}
        <TextInput
          label="New e-mail"
          type="email"
          autoComplete="email"
          value={email}
          onChange={(event) => {
            setEmail(event.currentTarget.value);
            if (state !== 'requesting') setState('idle');
          }}
          error={state === 'error' ? message : undefined}
          required
        />
        {state === 'success' && (
          <Alert color="teal" title="Check your inbox">
            We sent a confirmation link to {sentTo}. Your e-mail changes when you open it.
          </Alert>
        )}
        <Group>
          <Button type="submit" loading={state === 'requesting'} disabled={email.trim() === ''}>Change e-mail</Button>
        </Group>
      </Stack>
    </form>
  );
}

function ChangePasswordForm() {
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [state, setState] = useState<RequestState>('idle');
  const [message, setMessage] = useState<string | undefined>(undefined);

  const mismatch = repeat !== '' && repeat !== password;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!isValidPassword(password)) {
      setState('error');
      setMessage(CLIENT_AUTH_ERRORS['invalid-password'].message);
      return;
    }
    if (mismatch) return;
    setState('requesting');
    setMessage(undefined);
    const result = await withAccessToken((token) => authApi.changePassword({ newPassword: password }, token));
    if (result.ok) {
      setState('success');
      setPassword('');
      setRepeat('');
      showToast('success', 'Password changed');
    } else {
      setState('error');
      setMessage(result.error.message);
      showToast('error', result.error.message);
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)}>
      <Stack gap="sm" maw={480}>
        <Title order={4}>Change password</Title>
        <PasswordInput
          label="New password"
          description={`At least ${MIN_PASSWORD_LENGTH} characters`}
          autoComplete="new-password"
          value={password}
          onChange={(event) => {
            setPassword(event.currentTarget.value);
            if (state !== 'requesting') setState('idle');
          }}
          error={state === 'error' ? message : undefined}
          required
        />
        <PasswordInput
          label="Repeat the new password"
          autoComplete="new-password"
          value={repeat}
          onChange={(event) => setRepeat(event.currentTarget.value)}
          error={mismatch ? 'The passwords differ' : undefined}
          required
        />
        {state === 'success' && <Alert color="teal">Your password has been changed.</Alert>}
        <Group>
          <Button type="submit" loading={state === 'requesting'} disabled={password === '' || repeat === '' || mismatch}>
            Change password
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Both credential forms; they always act on the signed-in user, never on a managed one. */
export function CredentialsSection({ currentEmail }: { readonly currentEmail: string | undefined }) {
  return (
    <Paper withBorder p="md">
      <Stack gap="xl">
        <ChangeEmailForm currentEmail={currentEmail} />
        <ChangePasswordForm />
      </Stack>
    </Paper>
  );
}
