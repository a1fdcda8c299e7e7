// /authenticate/reset-password-confirmation: the password was changed; the reset link signed the
// user in, so the dashboard is one click away.
import { Anchor, Button, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { authIn, useAuthState } from '../../auth/auth-service';

export function Component() {
  const signedIn = useAuthState((snapshot) => authIn(snapshot, 'signedIn'));
  return (
    <Stack gap="md">
      <Title order={2} ta="center">Password changed</Title>
      <Text data-testid="reset-confirmation">Your new password is saved. Use it the next time you sign in.</Text>
      {signedIn
        ? <Button component={Link} to="/dashboard" fullWidth data-testid="reset-continue">Continue to the dashboard</Button>
        : <Anchor component={Link} to="/authenticate/signin" ta="center">Sign in</Anchor>}
    </Stack>
  );
}
