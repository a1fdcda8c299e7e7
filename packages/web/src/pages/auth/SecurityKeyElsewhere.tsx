// Security keys are on at the server but cannot run on this page (an IP address such as
// http://127.0.0.1:8080, or an origin the server does not list): say where they work, with a
// link to the same page there (sign-in-methods.ts decides).
import { Anchor, Text } from '@mantine/core';

export function SecurityKeyElsewhere({ at }: { readonly at: string }) {
  const samePage = `${at}${window.location.pathname}`;
  return (
    <Text size="xs" c="dimmed" data-testid="security-key-elsewhere">
      Security keys work at <Anchor href={samePage} size="xs">{at}</Anchor>: browsers do not use them at an IP address.
    </Text>
  );
}
