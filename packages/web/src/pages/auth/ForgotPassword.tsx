// /authenticate/forgot-password: asks the auth service to e-mail a reset link. The service answers
// the same for every address (no enumeration), so the page always moves on to the confirmation;
// only a failure that says nothing about the account (network, rate limit) is shown here.
import { Alert, Anchor, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { authApi } from '../../auth/auth-api';
import { CLIENT_AUTH_ERRORS, isValidEmail } from '../../auth/auth-errors';

export function Component() {
  const navigate = useNavigate();
  const [sending, setSending] = useState(false);
  const [failure, setFailure] = useState<string | undefined>(undefined);
  const form = useForm({
    initialValues: { email: '' },
    validate: { email: (value) => (isValidEmail(value.trim()) ? null : CLIENT_AUTH_ERRORS['invalid-email'].message) },
  });

  const submit = form.onSubmit(async ({ email }) => {
    const address = email.trim();
    setSending(true);
    setFailure(undefined);
    const sent = await authApi.resetPassword({ email: address, options: { redirectTo: `${window.location.origin}/authenticate/reset-password` } });
    setSending(false);
    if (sent.ok) void navigate('/authenticate/forgot-password-confirmation', { state: { email: address } });
    else setFailure(sent.error.message);
  });

  return (
    <Stack gap="md">
      <Title order={2} ta="center">Forgot your password?</Title>
      <Text size="sm">Enter the e-mail address of your account and we will send you a link to choose a new password.</Text>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput label="Email" type="email" autoComplete="email" required data-testid="forgot-email" {...form.getInputProps('email')} />
          <Button type="submit" loading={sending} fullWidth data-testid="forgot-submit">Send reset link</Button>
        </Stack>
      </form>
      {failure && <Alert color="red" data-testid="forgot-error">{failure}</Alert>}
      <Anchor component={Link} to="/authenticate/signin" size="sm" ta="center">Back to sign in</Anchor>
    </Stack>
  );
}
