// /authenticate/signup-success: the account exists and waits for its e-mail to be verified. The
// sign-up page passes the address in location.state, so the mail can be sent again from here.
// Without a mail server the mail waits in the server's outbox, and the page says how to read it.
import { Anchor, Button, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link, useLocation } from 'react-router';
import { showToast } from '../../app/toast';
import { authApi } from '../../auth/auth-api';
import { isValidEmail } from '../../auth/auth-errors';
import { OutboxNote } from './OutboxNote';
import { useEnabledMethods } from './sign-in-methods';

function stateEmail(state: unknown): string | undefined {
  const email = (state as { email?: unknown } | null)?.email;
  return isValidEmail(email) ? email : undefined;
}

export function Component() {
  const location = useLocation();
  const email = stateEmail(location.state);
  const [sending, setSending] = useState(false);
  const outbox = useEnabledMethods().delivery.email === 'outbox';

  const resend = async (address: string) => {
    setSending(true);
    const sent = await authApi.sendVerificationEmail({ email: address, options: { redirectTo: `${window.location.origin}/authenticate/redirect` } });
    setSending(false);
    if (sent.ok) showToast('success', `Verification e-mail sent to ${address}`);
    else showToast('error', sent.error.message);
  };

  return (
    <Stack gap="md">
      <Title order={2} ta="center">Check your e-mail</Title>
      <Text data-testid="signup-success">
        Your account has been created. We sent a verification link to {email ?? 'your e-mail address'}: open it to
        verify your address and sign in.
      </Text>
      {outbox
        ? <OutboxNote what="mail" to={email} />
        : <Text size="sm" c="dimmed">No e-mail after a few minutes? Look in your spam folder, or send it again.</Text>}
      {email && (
        <Button variant="light" loading={sending} onClick={() => void resend(email)} data-testid="resend-verification">
          Resend verification e-mail
        </Button>
      )}
      <Anchor component={Link} to="/authenticate/signin" ta="center">Back to sign in</Anchor>
    </Stack>
  );
}
