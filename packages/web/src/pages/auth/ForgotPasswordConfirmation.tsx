// /authenticate/forgot-password-confirmation: the same words whether or not the address has an
// account (no enumeration).
import { Anchor, Group, Stack, Text, Title } from '@mantine/core';
import { Link, useLocation } from 'react-router';

export function Component() {
  const location = useLocation();
  const email = (location.state as { email?: unknown } | null)?.email;
  return (
    <Stack gap="md">
      <Title order={2} ta="center">Check your e-mail</Title>
      <Text data-testid="forgot-confirmation">
        If an account exists for {typeof email === 'string' && email !== '' ? email : 'that address'}, we have sent it a link to
        choose a new password. The link works once and for a limited time.
      </Text>
      <Group justify="space-between">
        <Anchor component={Link} to="/authenticate/signin" size="sm">Back to sign in</Anchor>
        <Anchor component={Link} to="/authenticate/forgot-password" size="sm">Send another link</Anchor>
      </Group>
    </Stack>
  );
}
