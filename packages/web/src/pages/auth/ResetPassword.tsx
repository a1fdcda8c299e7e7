// /authenticate/reset-password: the e-mailed reset link goes through /v1/auth/verify, which signs
// the user in and redirects here with ?refreshToken=...&type=passwordReset. The token is exchanged
// for a session (then dropped from the address bar), and the new password is set with that
// session's access token. A link that failed at /verify arrives with ?error=&errorDescription=.
import { Alert, Anchor, Button, Center, Loader, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { authApi } from '../../auth/auth-api';
import { CLIENT_AUTH_ERRORS, isValidPassword, MIN_PASSWORD_LENGTH } from '../../auth/auth-errors';
import { authIn, currentAccessToken, useAuthState } from '../../auth/auth-service';
import { exchangeRefreshToken } from './AuthRedirect';

type Exchange = { readonly state: 'none' | 'pending' | 'done' } | { readonly state: 'failed'; readonly message: string };

function LinkProblem({ title, message }: { readonly title: string; readonly message: string }) {
  return (
    <Stack gap="md">
      <Title order={2} ta="center">Reset your password</Title>
      <Alert color="red" title={title} data-testid="reset-error">{message}</Alert>
      <Anchor component={Link} to="/authenticate/forgot-password" ta="center">Ask for a new link</Anchor>
    </Stack>
  );
}

function NewPasswordForm() {
  const navigate = useNavigate();
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | undefined>(undefined);
  const form = useForm({
    initialValues: { newPassword: '', confirmPassword: '' },
    validate: {
      newPassword: (value) => (isValidPassword(value) ? null : CLIENT_AUTH_ERRORS['invalid-password'].message),
      confirmPassword: (value, values) => (value === values.newPassword ? null : 'Passwords do not match'),
    },
  });

  const submit = form.onSubmit(async ({ newPassword }) => {
    const accessToken = currentAccessToken();
    if (!accessToken) {
      setFailure(CLIENT_AUTH_ERRORS['unauthenticated-user'].message);
      return;
    }
    setSaving(true);
    setFailure(undefined);
    const changed = await authApi.changePassword({ newPassword }, accessToken);
    setSaving(false);
    if (changed.ok) void navigate('/authenticate/reset-password-confirmation', { replace: true });
    else setFailure(changed.error.message);
  });

  return (
    <Stack gap="md">
      <Title order={2} ta="center">Choose a new password</Title>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <PasswordInput label="New password" description={`At least ${MIN_PASSWORD_LENGTH} characters`} autoComplete="new-password" required data-testid="reset-password" {...form.getInputProps('newPassword')} />
          <PasswordInput label="Confirm new password" autoComplete="new-password" required data-testid="reset-confirm-password" {...form.getInputProps('confirmPassword')} />
          <Button type="submit" loading={saving} fullWidth data-testid="reset-submit">Save new password</Button>
        </Stack>
      </form>
      {failure && <Alert color="red" data-testid="reset-error">{failure}</Alert>}
    </Stack>
  );
}

export function Component() {
  const [params, setParams] = useSearchParams();
  const auth = useAuthState((snapshot) => ({ starting: authIn(snapshot, 'starting'), signedIn: authIn(snapshot, 'signedIn') }));
  const refreshToken = params.get('refreshToken');
  const linkError = params.get('error');
  const [exchange, setExchange] = useState<Exchange>({ state: refreshToken && !linkError ? 'pending' : 'none' });

  useEffect(() => {
    if (!refreshToken || linkError) return;
    let current = true;
    void exchangeRefreshToken(refreshToken).then((result) => {
      if (!current) return;
      setExchange(result.ok ? { state: 'done' } : { state: 'failed', message: result.error.message });
      // The token is spent: keep it out of the address bar and the history.
      if (result.ok) setParams({}, { replace: true });
    });
    return () => {
      current = false;
    };
  }, [refreshToken, linkError, setParams]);

  if (linkError) return <LinkProblem title="This reset link does not work" message={params.get('errorDescription') ?? linkError} />;
  if (exchange.state === 'failed') return <LinkProblem title="This reset link does not work" message={exchange.message} />;
  if (exchange.state === 'pending' || auth.starting) {
    return (
      <Center py="lg">
        <Stack align="center" gap="sm">
          <Loader aria-label="Checking your link" />
          <Text>Checking your link…</Text>
        </Stack>
      </Center>
    );
  }
  if (!auth.signedIn) {
    return <LinkProblem title="No reset link" message="Open the link from the password-reset e-mail, or ask for a new one." />;
  }
  return <NewPasswordForm />;
}
