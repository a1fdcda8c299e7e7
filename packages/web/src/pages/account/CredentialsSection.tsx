// Change e-mail and change password (docs/PRODUCT.md sections 4 and 7): each form goes
// idle -> requesting -> success | error. Both ask for the current password, which the auth service
// needs besides the session (auth README, "Hardening"); the new e-mail is confirmed from a mail
// sent to it. Checks before sending are in credential-forms.ts.
import { Alert, Button, Group, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { authApi } from '../../auth/auth-api';
import { MIN_PASSWORD_LENGTH } from '../../auth/auth-errors';
import { showToast } from '../../app/toast';
import { type RequestState, withAccessToken } from './account-helpers';
import { emailChangeIssue, passwordChangeIssue, type FieldIssue } from './credential-forms';

/** Where the confirmation link of an e-mail change lands (the auth pages finish the sign-in there). */
function emailRedirectUrl(): string {
  return `${window.location.origin}/authenticate/redirect`;
}

const NO_PASSWORD_HINT = 'Signed up without a password? Set one with "Forgot password" on the sign-in page first.';

/** The server refused the current password: show it under that field. */
function serverIssue(error: { readonly error: string; readonly message: string }): FieldIssue<string> {
  const aboutCurrent = error.message.startsWith('currentPassword:') || error.error === 'invalid-email-password';
  return aboutCurrent ? { field: 'currentPassword', message: 'The current password is not right' } : { field: 'form', message: error.message };
}

function ChangeEmailForm({ currentEmail }: { readonly currentEmail: string | undefined }) {
  const [email, setEmail] = useState('');
  const [currentPassword, setCurrentPassword] = useState('');
  const [state, setState] = useState<RequestState>('idle');
  const [issue, setIssue] = useState<FieldIssue<string> | undefined>(undefined);
  const [sentTo, setSentTo] = useState('');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const newEmail = email.trim();
    const problem = emailChangeIssue({ newEmail, currentPassword });
    setIssue(problem);
    if (problem) {
      setState('error');
      return;
    }
    setState('requesting');
    const result = await withAccessToken((token) => authApi.changeEmail({ newEmail, currentPassword, options: { redirectTo: emailRedirectUrl() } }, token));
    if (result.ok) {
      setState('success');
      setSentTo(newEmail);
      setEmail('');
      setCurrentPassword('');
    } else {
      setState('error');
      setIssue(serverIssue(result.error));
      showToast('error', result.error.message);
    }
  };
  const edited = () => {
    if (state !== 'requesting') setState('idle');
  };
  const errorOf = (field: string) => (state === 'error' && issue?.field === field ? issue.message : undefined);

  return (
    <form onSubmit={(event) => void submit(event)}>
      <Stack gap="sm" maw={480}>
        <Title order={4}>Change e-mail</Title>
        {currentEmail && <Text size="sm" c="dimmed">Current e-mail: {currentEmail}</Text>}
        <TextInput label="New e-mail" type="email" autoComplete="email" value={email} data-testid="change-email-new"
          onChange={(event) => { setEmail(event.currentTarget.value); edited(); }} error={errorOf('newEmail') ?? errorOf('form')} required />
        <PasswordInput label="Current password" autoComplete="current-password" value={currentPassword} data-testid="change-email-current-password"
          description={NO_PASSWORD_HINT} onChange={(event) => { setCurrentPassword(event.currentTarget.value); edited(); }} error={errorOf('currentPassword')} required />
        {state === 'success' && (
          <Alert color="teal" title="Check your inbox">
            We sent a confirmation link to {sentTo}. Your e-mail changes when you open it.
          </Alert>
        )}
        <Group>
          <Button type="submit" loading={state === 'requesting'} disabled={email.trim() === '' || currentPassword === ''} data-testid="change-email-submit">Change e-mail</Button>
        </Group>
      </Stack>
    </form>
  );
}

function ChangePasswordForm() {
  const [currentPassword, setCurrentPassword] = useState('');
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [state, setState] = useState<RequestState>('idle');
  const [issue, setIssue] = useState<FieldIssue<string> | undefined>(undefined);

  const mismatch = repeat !== '' && repeat !== password;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = passwordChangeIssue({ currentPassword, newPassword: password, repeat });
    setIssue(problem);
    if (problem) {
      setState('error');
      return;
    }
    setState('requesting');
    const result = await withAccessToken((token) => authApi.changePassword({ newPassword: password, currentPassword }, token));
    if (result.ok) {
      setState('success');
      setCurrentPassword('');
      setPassword('');
      setRepeat('');
      showToast('success', 'Password changed');
    } else {
      setState('error');
      setIssue(serverIssue(result.error));
      showToast('error', result.error.message);
    }
  };
  const edited = () => {
    if (state !== 'requesting') setState('idle');
  };
  const errorOf = (field: string) => (state === 'error' && issue?.field === field ? issue.message : undefined);

  return (
    <form onSubmit={(event) => void submit(event)}>
      <Stack gap="sm" maw={480}>
        <Title order={4}>Change password</Title>
        <PasswordInput label="Current password" autoComplete="current-password" value={currentPassword} data-testid="change-password-current"
          description={NO_PASSWORD_HINT} onChange={(event) => { setCurrentPassword(event.currentTarget.value); edited(); }} error={errorOf('currentPassword') ?? errorOf('form')} required />
        <PasswordInput label="New password" description={`At least ${MIN_PASSWORD_LENGTH} characters`} autoComplete="new-password" value={password} data-testid="change-password-new"
          onChange={(event) => { setPassword(event.currentTarget.value); edited(); }} error={errorOf('newPassword')} required />
        <PasswordInput label="Repeat the new password" autoComplete="new-password" value={repeat} data-testid="change-password-repeat"
          onChange={(event) => setRepeat(event.currentTarget.value)} error={mismatch ? 'The passwords differ' : errorOf('repeat')} required />
        {state === 'success' && <Alert color="teal">Your password has been changed.</Alert>}
        <Group>
          <Button type="submit" loading={state === 'requesting'} disabled={currentPassword === '' || password === '' || repeat === '' || mismatch} data-testid="change-password-submit">
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
